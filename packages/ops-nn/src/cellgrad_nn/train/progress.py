"""A progress bar for `Model.train` (tqdm): epoch, step, loss and samples per second."""

import sys
import time

from cellgrad_nn.train import parallel
from cellgrad_nn.train.callbacks import Callback, step_loss


class ProgressBar(Callback):
    """Shows training progress on stdout; off when stdout is not a terminal (logs, pipes, CI).

    Not in MindSpore: `Model.train` adds one by itself when stdout is a terminal and none was
    given; pass `ProgressBar(enabled=False)` to keep it off.
    """

    def __init__(self, enabled=None, file=None):
        self.file = file or sys.stdout
        isatty = getattr(self.file, "isatty", None)
        self.enabled = bool(isatty and isatty()) if enabled is None else bool(enabled)
        self._bar = None

    def on_train_epoch_begin(self, run_context):
        if not self.enabled or not parallel.is_main_process():  # one bar per job, rank 0's
            return
        from tqdm import tqdm

        cb = run_context.original_args()
        self._bar = tqdm(total=cb.batch_num, file=self.file, leave=True, unit="step",
                         desc=f"epoch {cb.cur_epoch_num}/{cb.epoch_num}", dynamic_ncols=True)
        self._start = time.perf_counter()
        self._samples = 0

    def on_train_step_end(self, run_context):
        if self._bar is None:
            return
        cb = run_context.original_args()
        self._samples += cb.get("batch_size") or 0
        elapsed = max(time.perf_counter() - self._start, 1e-9)
        loss = step_loss(cb.get("net_outputs"))
        self._bar.set_postfix_str(f"loss={loss:.4f} {self._samples / elapsed:,.0f} samples/s"
                                  if isinstance(loss, float) else "", refresh=False)
        self._bar.update(1)

    def on_train_epoch_end(self, run_context):
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def on_train_end(self, run_context):
        self.on_train_epoch_end(run_context)
