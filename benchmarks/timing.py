"""Shared by the benchmark scripts: the clock and thread count of a run, medians of repeated
timings, contenders interleaved round by round, PyTorch when installed, the BLAS libraries in
use, and one printed table row per contender with its ratio to cellgrad.

Two modes (`configure`, or the environment a parent benchmark passes to its subprocesses):
- wall clock, `THREADS` BLAS/PyTorch threads (2 by default): the numbers of a quiet machine;
- thread CPU time (`time.thread_time`), one thread: what each step costs its own core, which a
  neighbour's load on a shared machine barely moves. Only meaningful with one thread: CPU time
  spent by other threads is not this thread's.
"""

import os
import re
import statistics
import time

THREADS = int(os.environ.get("CELLGRAD_BENCH_THREADS", "2"))
CPU_TIME = os.environ.get("CELLGRAD_BENCH_CPU_TIME", "") not in ("", "0")
# The machine's OpenBLAS pins (kernel family, cache size) that a benchmark run must not inherit.
OPENBLAS_OVERRIDES = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
_limits = None  # threadpoolctl's limiter, kept alive for the run


def _limit_blas(threads):
    global _limits
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # subprocesses still get OPENBLAS_NUM_THREADS from the environment
        return
    _limits = threadpool_limits(limits=threads)


def configure(threads=None, cpu_time=None):
    """Set the run's thread count and clock, here and for the subprocesses it starts."""
    global THREADS, CPU_TIME
    if threads is not None:
        THREADS = threads
    if cpu_time is not None:
        CPU_TIME = cpu_time
    if CPU_TIME and THREADS != 1:
        raise ValueError(f"timing.configure: thread CPU time needs threads=1, got {THREADS}: "
                         f"work done by other threads is not counted on this thread's clock")
    os.environ["CELLGRAD_BENCH_THREADS"] = str(THREADS)
    os.environ["CELLGRAD_BENCH_CPU_TIME"] = "1" if CPU_TIME else "0"
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(THREADS)
    _limit_blas(THREADS)


def clock():
    """The run's clock in seconds: thread CPU time or wall time."""
    return time.thread_time() if CPU_TIME else time.perf_counter()


def torch_or_none():
    """PyTorch set to the benchmark's thread count, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(THREADS)
    return torch


def median_ms(step, repeat, warmup=3):
    """Median time of `step()` in milliseconds (the run's clock) over `repeat` runs after
    `warmup`."""
    for _ in range(warmup):
        step()
    now = time.thread_time if CPU_TIME else time.perf_counter
    times = []
    for _ in range(repeat):
        t = now()
        step()
        times.append((now() - t) * 1e3)
    return statistics.median(times)


def quartiles(values):
    """(first quartile, median, third quartile) of `values`."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def _warmed(steps, warmup):
    """Run each of `steps` `warmup` times; the run's clock."""
    for step in steps.values():
        for _ in range(warmup):
            step()
    return time.thread_time if CPU_TIME else time.perf_counter


def interleaved(steps, rounds, per_round, warmup=3):
    """Time each of `steps` {name: callable} `per_round` times per round, contenders taking
    turns round by round (the first one rotates), so a neighbour's burst of load falls on all of
    them alike (`per_round`: a count, or {name: count}). Returns {name: [round medians in ms]}:
    each round's median step time."""
    now = _warmed(steps, warmup)
    names = list(steps)
    got = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            step, times = steps[name], []
            for _ in range(per_round[name] if isinstance(per_round, dict) else per_round):
                t = now()
                step()
                times.append((now() - t) * 1e3)
            got[name].append(statistics.median(times))
    return got


def alternating(steps, rounds, per_round, groups=None, warmup=3):
    """`interleaved`, but within a round the contenders of a group alternate step by step (the
    first one rotating each pass), so a ratio of two contenders' round medians compares steps
    taken milliseconds apart: the machine's slow drifts (a neighbour's load, cache and memory
    contention on a shared host) fall on both alike. `groups` (lists of names; default: all in
    one) run one after another each round, the group order rotating: put together what is
    compared, as a step just after another framework's runs with its caches cold.
    Returns {name: [round medians in ms]}."""
    now = _warmed(steps, warmup)
    groups = [list(steps)] if groups is None else [list(g) for g in groups]
    got = {name: [] for name in steps}
    for r in range(rounds):
        for group in groups[r % len(groups):] + groups[:r % len(groups)]:
            times = {name: [] for name in group}
            for i in range(per_round):
                for name in group[i % len(group):] + group[:i % len(group)]:
                    t = now()
                    steps[name]()
                    times[name].append((now() - t) * 1e3)
            for name in group:
                got[name].append(statistics.median(times[name]))
    return got


def summary(per_round, base="cellgrad", against="pytorch"):
    """{"median": {name: ms}, "spread": {name: half the interquartile range / median},
    "ratio": (q1, median, q3) of base/against taken round by round, or None} of
    `interleaved`'s result."""
    med, spread = {}, {}
    for name, values in per_round.items():
        q1, q2, q3 = quartiles(values)
        med[name], spread[name] = q2, (q3 - q1) / 2 / q2
    ratio = None
    if base in per_round and against in per_round:
        ratio = quartiles([a / b for a, b in zip(per_round[base], per_round[against])])
    return {"median": med, "spread": spread, "ratio": ratio}


def blas_lines():
    """Lines naming the BLAS libraries this process uses: library, version, kernel, threads,
    and the machine's OpenBLAS overrides if still set."""
    import numpy as np

    lines = []
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        lines.append("BLAS: threadpoolctl not installed (pip install -r benchmarks/"
                     "requirements.txt), library and kernel unknown")
        info = []
    else:
        info = threadpool_info()
    for lib in info:
        lines.append(f"{lib['user_api']}: {lib['internal_api']} {lib['version']}, kernel "
                     f"{lib.get('architecture', '?')}, {lib.get('threading_layer', '?')}, "
                     f"{lib['num_threads']} thread(s), {os.path.basename(lib['filepath'])}")
    lines.append(f"numpy {np.__version__}")
    torch = torch_or_none()
    if torch is not None:
        cfg = torch.__config__.show()
        blas = re.search(r"BLAS_INFO=([^,\s]+)", cfg)
        blas = blas.group(1) if blas else "?"
        lines.append(f"torch {torch.__version__}: BLAS {blas}, {torch.get_num_threads()} "
                     f"thread(s), MKL {'yes' if torch.backends.mkl.is_available() else 'no'}")
    pinned = [f"{v}={os.environ[v]}" for v in OPENBLAS_OVERRIDES if v in os.environ]
    lines.append("OpenBLAS overrides: " + (", ".join(pinned) + " (SET: numbers are pinned, "
                 "see benchmarks/README.md)" if pinned else "none (unset)"))
    return lines


_peak = {}  # (threads, clock) -> GFLOP/s measured in this process


def peak_gflops(n=2048, repeat=5):
    """This CPU's float32 GEMM rate in GFLOP/s at the run's thread count and clock: the best of
    `repeat` n x n x n products through numpy's BLAS into a preallocated output, measured once
    per process (what "the FLOP limit" of a workload is taken against)."""
    import numpy as np

    key = (THREADS, CPU_TIME, n)
    if key not in _peak:
        rng = np.random.default_rng(0)
        a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
        out = np.empty((n, n), np.float32)
        np.dot(a, b, out)  # warm-up: pages, packing buffers, threads
        now = time.thread_time if CPU_TIME else time.perf_counter
        best = float("inf")
        for _ in range(repeat):
            t = now()
            np.dot(a, b, out)
            best = min(best, now() - t)
        _peak[key] = 2 * n ** 3 / best / 1e9
    return _peak[key]


PEAK_N = 1024  # the per-round GEMM of `gemm_step` (2 * 1024^3 FLOP, ~25 ms on one Zen 3 core)


def gemm_step(n=PEAK_N):
    """A float32 n x n x n product through numpy's BLAS into a preallocated output: a
    contender of interleaved rounds whose time gives each round's GEMM rate."""
    import numpy as np

    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    out = np.empty((n, n), np.float32)
    return lambda: np.dot(a, b, out)


def limit_ratios(per_round, flops, base="cellgrad", peak="gemm peak", n=PEAK_N):
    """(q1, median, q3) over rounds of `base`'s time against the FLOP limit, each round's
    limit taken at that round's GEMM rate (`peak`'s time for 2 n^3 FLOP): a neighbour's load
    slows both alike, as with the ratio to PyTorch."""
    rates = [2 * n ** 3 / t for t in per_round[peak]]  # FLOP per ms
    return quartiles([t * rate / flops for t, rate in zip(per_round[base], rates)])


def limit_ms(flops):
    """The time in ms `flops` floating-point operations take at `peak_gflops()`."""
    return flops / peak_gflops() / 1e6


def dense_flops(sizes, batch, train, first_dx=False):
    """FLOPs of a Dense chain `sizes` (in, hidden..., out) at `batch`: 2*M*N*K per product;
    a training step adds dW for every layer and dX for every layer but the first (whose input
    needs no gradient) unless `first_dx`. Elementwise work is not counted."""
    mnk = [batch * i * o for i, o in zip(sizes[:-1], sizes[1:])]
    flops = 2 * sum(mnk)
    if train:
        flops += 2 * sum(mnk) + 2 * sum(mnk[0 if first_dx else 1:])
    return flops


def report(title, results):
    """Print `results` {name: ms}, with each one's ratio to cellgrad's."""
    print(title)
    base = results.get("cellgrad")
    for name, ms in results.items():
        ratio = f"  cellgrad/{name} = {base / ms:.2f}x" if base and name != "cellgrad" else ""
        print(f"  {name:<10} {ms:9.3f} ms{ratio}")
