"""`--profile` and `--summary`: a look inside the training run.

`--profile` records training steps 2-4 (the first step builds the network: skipped) with
`cellgrad.profiler.profile` into OUT/profile/<host>_<pid>_<time>_ascend_ms/ (MindSpore's
layout): ASCEND_PROFILER_OUTPUT/op_summary.txt (per-Cell, per-op and per-backward-rule
times), ASCEND_PROFILER_OUTPUT/trace_view.json (a Chrome trace: Perfetto, chrome://tracing)
and MindSpore's FRAMEWORK/cpu_op_*.csv. `--summary` writes TensorBoard event files with
`SummaryCollector` into OUT/summary (needs tensorboardX: the `summary` extra).
"""

import glob
import os

import cellgrad as ms


class ProfileSteps(ms.train.Callback):
    """Steps a `profiler.profile` with a schedule from the training loop."""

    def __init__(self, out):
        super().__init__()
        self.dir = os.path.join(out, "profile")
        self.prof = ms.profiler.profile(
            start_profile=False,
            schedule=ms.profiler.schedule(wait=0, warmup=1, active=3, repeat=1),
            on_trace_ready=ms.profiler.tensorboard_trace_handler(self.dir))

    def on_train_begin(self, run_context):
        self.prof.start()

    def on_train_step_end(self, run_context):
        self.prof.step()

    def on_train_end(self, run_context):
        self.prof.stop()

    def report(self, rows=5):
        """The files written and the top `rows` of each summary table, as text."""
        runs = sorted(glob.glob(os.path.join(self.dir, "*_ascend_ms")), key=os.path.getmtime)
        if not runs:
            return "profile: training ended before the profiled steps"
        out = os.path.join(runs[-1], "ASCEND_PROFILER_OUTPUT")
        return "\n".join([f"wrote {os.path.relpath(os.path.join(out, name))}"
                          for name in ("trace_view.json", "op_summary.txt")]
                         + [self.prof.key_averages().table(row_limit=rows)])


def callbacks(args):
    """The callbacks `--profile` and `--summary` ask for."""
    found = []
    if args.profile:
        found.append(ProfileSteps(args.out))
    if args.summary:
        try:
            import tensorboardX  # noqa: F401
        except ImportError:
            raise SystemExit("cellgrad-digits: --summary writes TensorBoard files through "
                             "tensorboardX: pip install \"./examples/digits[summary]\"") from None
        found.append(ms.train.SummaryCollector(os.path.join(args.out, "summary"),
                                               collect_freq=1))
    return found
