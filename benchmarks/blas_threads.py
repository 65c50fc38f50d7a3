"""Where a second BLAS thread starts to pay: float32 products (M x K) @ (K x N) timed by wall
clock with numpy's BLAS at 1 and at all threads, alternating, per size; and the batch-1 GEMV
split by rows over two threads (cellgrad-ops-nn's `_dense_blas.gemv`) against one call.
What `cellgrad._blas_threads.SINGLE_THREAD_BELOW` is set from.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/blas_threads.py [--rounds 9]

Run it on a quiet machine and under load (the other engineers' jobs): the threshold must hold in
both. The machine's load average is printed with the result.
"""

import argparse
import os
import statistics
import time

import numpy as np

from cellgrad import _blas_threads

# (M, K, N): Dense products of the benchmarks (batch x in x out) and square sizes around them
SHAPES = ((64, 512, 10), (32, 256, 256), (64, 256, 256), (64, 512, 512), (64, 784, 512),
          (128, 512, 512), (256, 512, 512), (256, 784, 512), (512, 1024, 1024))
GEMV = ((784, 512), (512, 512), (1024, 1024), (4096, 1024))


def _median_us(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def gemm_rows(rounds, repeat):
    """[(shape, MNK, us at 1 thread, us at all threads)], the medians over alternating rounds."""
    rng = np.random.default_rng(0)
    blas = _blas_threads.openblas()
    most = blas.get() if blas else os.cpu_count()
    rows = []
    for m, k, n in SHAPES:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((n, k)).astype(np.float32)
        per = {1: [], most: []}
        for _ in range(rounds):
            for threads in per:
                with _blas_threads.limited(threads):
                    np.dot(a, b.T)
                    per[threads].append(_median_us(lambda a=a, b=b: np.dot(a, b.T), repeat))
        rows.append(((m, k, n), m * n * k, statistics.median(per[1]),
                     statistics.median(per[most])))
    return rows, most


def gemv_rows(rounds, repeat):
    """[(W shape, us one GEMV call, us split over two threads)], one call at all threads."""
    rng = np.random.default_rng(1)
    rows = []
    for o, i in GEMV:
        w = rng.standard_normal((o, i)).astype(np.float32)
        x = rng.standard_normal(i).astype(np.float32)
        one, split = [], []
        for _ in range(rounds):
            one.append(_median_us(lambda w=w, x=x: _dense_blas.gemv(w, x, parts=1), repeat))
            split.append(_median_us(lambda w=w, x=x: _dense_blas.gemv(w, x, parts=2),
                                    repeat))
        rows.append(((o, i), statistics.median(one), statistics.median(split)))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--repeat", type=int, default=30)
    args = p.parse_args()
    rows, most = gemm_rows(args.rounds, args.repeat)
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores; wall clock, median "
          f"of {args.rounds} alternating rounds (us); threshold now "
          f"{_blas_threads.SINGLE_THREAD_BELOW:,} MNK")
    for shape, mnk, one, many in rows:
        print(f"  gemm {str(shape):<18} MNK {mnk:>12,}  1 thread {one:9.1f}  {most} threads "
              f"{many:9.1f}  {one / many:5.2f}x")
    try:
        global _dense_blas
        from cellgrad_nn.functional import _dense_blas
    except ImportError:  # cellgrad-ops-nn not installed
        return
    for shape, one, split in gemv_rows(args.rounds, 10 * args.repeat):
        print(f"  gemv W{str(shape):<16} one call {one:8.1f}  split by rows over 2 threads "
              f"{split:8.1f}  {one / split:5.2f}x")


if __name__ == "__main__":
    main()
