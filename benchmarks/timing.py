"""Shared by the benchmark scripts: medians of repeated timings, PyTorch when installed,
and one printed table row per contender with its ratio to cellgrad."""

import os
import statistics
import time

THREADS = int(os.environ.get("CELLGRAD_BENCH_THREADS", "2"))


def torch_or_none():
    """PyTorch set to the benchmark's thread count, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(THREADS)
    return torch


def median_ms(step, repeat, warmup=3):
    """Median wall time of `step()` in milliseconds over `repeat` runs after `warmup`."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        step()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def report(title, results):
    """Print `results` {name: ms}, with each one's ratio to cellgrad's."""
    print(title)
    base = results.get("cellgrad")
    for name, ms in results.items():
        ratio = f"  cellgrad/{name} = {base / ms:.2f}x" if base and name != "cellgrad" else ""
        print(f"  {name:<10} {ms:9.3f} ms{ratio}")
