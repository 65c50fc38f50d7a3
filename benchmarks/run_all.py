"""Every row of issue 12's table in one run: cellgrad, PyTorch and hand-written numpy side by side,
the ratio each target is stated in, and whether it is met. Each row comes from its own script's
`measure` function (see those scripts for what is timed).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/run_all.py [--scale 1.0] \
        [--rounds 1] [--steps 1000] [--only mlp_step,...] [--threads 2] [--cpu-time]

`--scale` multiplies every script's default repeat count (0.2 for a quick look); `--rounds`
repeats the timed rows (mlp_step, cnn_step, inference, op_overhead) and reports each
contender's median over rounds, which damps a neighbour's load on a shared machine; `--steps`
is the length of deep_chain's flat-memory check. `--threads 1 --cpu-time` times every step by
its thread's CPU time, and runs mlp_step, inference and deep_chain with the contenders taking
turns round by round (benchmarks/interleaved.py; `--rounds` of them, 21 unless given): the mode
to quote on a shared machine. The header names the BLAS libraries, versions, kernels and threads.
"""

import argparse
import datetime
import os
import platform
import statistics
import time

import amp_step
import cnn_step
import data_pipeline
import deep_chain
import hooks_overhead
import import_time
import inference
import interleaved
import lstm_step
import mlp_step
import op_overhead
import plugin_load
import timing
import transformer_step
import vmap_step

ROWS = ("mlp_step", "cnn_step", "inference", "deep_chain", "op_overhead", "hooks_overhead",
        "import", "amp_step", "data_pipeline", "image_pipeline", "lstm_step", "transformer_step",
        "jit_step", "vmap_step")
FLAT_MB = 5.0  # RSS growth over the --steps check still counted as flat (allocator noise)


def rounds_median(measure, rounds):
    """Call `measure()` `rounds` times; the median of each leaf value of its (nested) dict."""
    got = [measure() for _ in range(rounds)]

    def merge(items):
        if isinstance(items[0], dict):
            return {k: merge([d[k] for d in items]) for k in items[0]}
        return statistics.median(items)

    return merge(got)


def n(default, scale):
    return max(3, round(default * scale))


def fmt(v, unit):
    return "-" if v is None else f"{v:.3f} {unit}" if v < 10 else f"{v:.1f} {unit}"


class Table:
    def __init__(self):
        self.rows = []

    def add(self, name, unit, cg, pt, npy, ratio, label, target):
        met = "-" if ratio is None else ("yes" if ratio <= target else "NO")
        r = "-" if ratio is None else f"{ratio:.2f}x"
        self.rows.append((name, fmt(cg, unit), fmt(pt, unit), fmt(npy, unit),
                          f"{r} {label}", f"<= {target:g}x", met))

    def timed(self, name, res, target, unit="ms"):
        pt = res.get("pytorch")
        self.add(name, unit, res["cellgrad"], pt, res.get("numpy"),
                 None if pt is None else res["cellgrad"] / pt, "of PyTorch", target)

    def print(self):
        head = ("benchmark", "cellgrad", "PyTorch", "numpy", "ratio", "target", "met")
        widths = [max(len(str(r[i])) for r in self.rows + [head]) for i in range(len(head))]
        for row in [head, tuple("-" * w for w in widths)] + self.rows:
            print(" | ".join(str(c).ljust(w) for c, w in zip(row, widths)))


def cpu_model():
    """The CPU's model name (Linux), or the platform's processor string."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "?"


def cpu_time_rows(table, only, args):
    """mlp_step, inference, deep_chain and cnn_step's step rows from interleaved rounds, each
    with its spread and the per-round ratio to PyTorch (median and quartiles)."""
    rows = [w for w, key in (("mlp_step", "mlp_step"), ("inference b1", "inference"),
                             ("inference b256", "inference"), ("deep_chain", "deep_chain"),
                             ("lenet", "cnn_step"), ("lenet+bn", "cnn_step"))
            if key in only]
    targets = {"mlp_step": 1.0, "inference b1": 0.8, "inference b256": 1.0, "deep_chain": 1.0,
               "lenet": 1.0, "lenet+bn": 1.0}
    rounds = args.rounds if args.rounds > 1 else 21
    for name, s in interleaved.measure(rounds, rows, args.scale).items():
        med, r = s["median"], s["ratio"]
        if r is None:
            table.timed(name + " (CPU time)", med, targets[name])
            continue
        met = "yes" if r[1] <= targets[name] else "NO"
        table.rows.append((name + " (CPU time)", fmt(med["cellgrad"], "ms"),
                           fmt(med["pytorch"], "ms"), fmt(med.get("numpy"), "ms"),
                           f"{r[1]:.2f}x [{r[0]:.2f}-{r[2]:.2f}] of PyTorch",
                           f"<= {targets[name]:g}x", met))
        if "limit" not in s:
            continue
        q1, q2, q3 = s["limit"]
        target = interleaved.LIMIT_TARGETS.get(name)
        limit = interleaved.FLOPS[name] / s["peak_gflops"] / 1e6
        table.rows.append((name + " vs FLOP limit", *(fmt(med.get(c), "ms") for c in (
            "cellgrad", "pytorch", "numpy")), f"{q2:.2f}x [{q1:.2f}-{q3:.2f}] of {limit:.3f} ms "
            f"limit ({s['peak_gflops']:.0f} GFLOP/s)", "-" if target is None else f"<= {target:g}x",
            "-" if target is None else "yes" if q2 <= target else "NO"))


def limit_row(table, name, medians, flops, target=None):
    """A row of each contender's time against the FLOP limit: `flops` at this CPU's measured
    peak GEMM rate (timing.peak_gflops)."""
    limit = timing.limit_ms(flops)
    cells = [fmt(medians.get(c), "ms") for c in ("cellgrad", "pytorch", "numpy")]
    ratio = medians["cellgrad"] / limit
    table.rows.append((name, *cells, f"{ratio:.2f}x of {limit:.3f} ms limit",
                       "-" if target is None else f"<= {target:g}x",
                       "-" if target is None else "yes" if ratio <= target else "NO"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0, help="multiplies every repeat count")
    p.add_argument("--rounds", type=int, default=1, help="median over rounds of the timed rows")
    p.add_argument("--steps", type=int, default=1000, help="deep_chain's flat-memory check")
    p.add_argument("--only", default=",".join(ROWS), help="comma-separated rows to run")
    p.add_argument("--threads", type=int, default=timing.THREADS,
                   help="BLAS and PyTorch threads (default: CELLGRAD_BENCH_THREADS or 2)")
    p.add_argument("--cpu-time", action="store_true",
                   help="time by thread CPU time, contenders interleaved (needs --threads 1)")
    args = p.parse_args()
    timing.configure(args.threads, args.cpu_time)
    only = set(args.only.split(","))
    t0 = time.perf_counter()
    clock = "thread CPU time, interleaved" if args.cpu_time else "wall clock"
    print(f"cellgrad benchmarks, {platform.machine()} {cpu_model()}, {os.cpu_count()} cores, "
          f"{timing.THREADS} thread(s), {clock}")
    for line in timing.blas_lines():
        print("  " + line)
    print(f"  peak float32 GEMM (2048^3, best of 5, {timing.THREADS} thread(s)): "
          f"{timing.peak_gflops():.1f} GFLOP/s (the FLOP limit rows' rate)")
    table = Table()
    if args.cpu_time:
        cpu_time_rows(table, only, args)
        only -= {"mlp_step", "inference", "cnn_step"}
    if "mlp_step" in only:
        got = rounds_median(lambda: mlp_step.measure(n(200, args.scale)), args.rounds)
        table.timed("mlp_step", got, 1.0)
        limit_row(table, "mlp_step vs FLOP limit", got, interleaved.FLOPS["mlp_step"],
                  interleaved.LIMIT_TARGETS["mlp_step"])
    if "cnn_step" in only:
        got = rounds_median(lambda: cnn_step.measure(n(50, args.scale)), args.rounds)
        table.timed("cnn_step LeNet-5", got[False], 1.0)
        table.timed("cnn_step LeNet-5 + BatchNorm2d", got[True], 1.0)
    if "inference" in only:
        got = rounds_median(lambda: inference.measure(n(500, args.scale)), args.rounds)
        table.timed("inference batch 1", got[1], 0.8)
        table.timed("inference batch 256", got[256], 1.0)
    if "deep_chain" in only:
        got = deep_chain.measure_all(n(50, args.scale), args.steps)
        if not args.cpu_time:  # in that mode the row comes from the interleaved rounds
            ms = {k: v["ms"] for k, v in got.items()}
            table.timed("deep_chain step", ms, 1.0)
            limit_row(table, "deep_chain vs FLOP limit", ms, interleaved.FLOPS["deep_chain"],
                      interleaved.LIMIT_TARGETS["deep_chain"])
        peaks = {k: v["peak_mb"] for k, v in got.items()}
        table.add("deep_chain peak RSS", "MB", peaks["cellgrad"], peaks.get("pytorch"),
                  peaks["numpy"], peaks["cellgrad"] / peaks["numpy"], "of numpy", 1.5)
        if args.steps:
            cg = got["cellgrad"]
            grew = cg["rss_end_mb"] - cg["rss_early_mb"]
            table.rows.append((
                f"deep_chain RSS, {args.steps} more steps", f"{grew:+.1f} MB",
                *(f"{v['rss_end_mb'] - v['rss_early_mb']:+.1f} MB" if k in got else "-"
                  for k, v in ((k, got.get(k)) for k in ("pytorch", "numpy"))),
                f"peak {cg['peak_mb']:.0f} -> {cg['peak_end_mb']:.0f} MB",
                f"<= +{FLAT_MB:g} MB", "yes" if grew <= FLAT_MB else "NO"))
    if "op_overhead" in only:
        got = rounds_median(lambda: op_overhead.measure(n(500, args.scale)), args.rounds)
        table.timed("op_overhead fwd+bwd (per op)", {
            "cellgrad": got["cellgrad fwd+bwd"], "pytorch": got.get("torch fwd+bwd"),
            "numpy": got["numpy fwd+bwd"]}, 0.25, unit="us")
    if "hooks_overhead" in only:
        rounds = hooks_overhead.measure(n(100, args.scale), 5)
        med = {k: statistics.median(v) for k, v in rounds.items()}
        rs = [a / b for a, b in zip(rounds["cellgrad hooked"], rounds["cellgrad plain"])]
        pt = (statistics.median(a / b for a, b in zip(rounds["pytorch hooked"],
                                                       rounds["pytorch plain"]))
              if "pytorch plain" in rounds else None)
        table.rows.append(("hooks_overhead hooked/plain", f"{statistics.median(rs):.3f}x",
                           "-" if pt is None else f"{pt:.3f}x", "-",
                           f"{med['cellgrad hooked']:.3f} / {med['cellgrad plain']:.3f} ms",
                           "<= 1.1x", "yes" if statistics.median(rs) <= 1.10 else "NO"))
    if "import" in only:
        name, rows = plugin_load.measure(n(15, args.scale))
        total = rows[1][1]
        try:
            torch_ms = import_time.best_ms("torch", 3)
        except Exception:  # torch not installed: the subprocess fails
            torch_ms = None
        table.add(f"import cellgrad + cellgrad.{name}", "ms", total, torch_ms,
                  import_time.best_ms("numpy", 5), total / 150.0, "of 150 ms", 1.0)
    if "amp_step" in only:  # issue 25: the O2 step against our float32 step and torch autocast
        got = rounds_median(lambda: amp_step.measure(n(30, args.scale)), args.rounds)
        o2 = got["cellgrad O2"]
        table.add("amp_step LeNet-5 O2 (vs our fp32)", "ms", o2, got.get("torch autocast"), None,
                  o2 / got["cellgrad fp32"], "of our fp32", 1.1)
    if "data_pipeline" in only:  # issue 20: in-memory pipeline vs DataLoader and numpy slicing
        data_pipeline.add_rows(table, n(5, args.scale))
    if "image_pipeline" in only:  # issue 20: JPEG folder, 2 workers, vs a Pillow DataLoader
        __import__("image_pipeline").add_rows(table, n(2, args.scale))
    if "lstm_step" in only:  # issue 22: LSTM training step and batch-1 inference
        lstm_step.add_rows(table, n(30, args.scale))
    if "transformer_step" in only:  # issue 22: a Transformer-encoder training step
        transformer_step.add_rows(table, n(20, args.scale))
    if "jit_step" in only:  # issue 24: ms.jit training steps, first-call trace
        __import__("jit_step").add_rows(table, n(15, args.scale))
    if "vmap_step" in only:  # issue 28: per-example gradients by vmap(grad)
        vmap_step.add_rows(table, n(5, args.scale))
    now = datetime.datetime.now(datetime.timezone.utc)
    print(f"cellgrad benchmarks (issue 12), {now:%Y-%m-%d %H:%M} UTC, {args.rounds} round(s), "
          f"{platform.machine()} {os.cpu_count()} cores, {timing.THREADS} threads, "
          f"python {platform.python_version()}; {time.perf_counter() - t0:.0f} s")
    table.print()


if __name__ == "__main__":
    main()
