"""The matrix products of `mlp_step` and `inference` timed alone: numpy's BLAS (OpenBLAS in the
PyPI wheels) in both orientations of Dense's forward (`x @ W.T`, and `W @ x.T` whose result is
the transpose), MKL through cellgrad-ops-nn's `[mkl]` extra when installed (its Cython kernel,
preallocated output), and PyTorch's (MKL/oneDNN), same shapes; what cellgrad's Dense picks. What
cellgrad can never win back on a row whose time is mostly these products.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
        python benchmarks/gemm_gap.py [--repeat 200] [--threads 1 --cpu-time]
"""

import argparse

import numpy as np

import timing

BATCH = 64
SIZES = (784, 512, 512, 10)


def products(batch):
    """(name, a shape, b shape, transpose b) of one training step's products at `batch`."""
    out = []
    for i, (n_in, n_out) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        out.append((f"forward  layer {i + 1}: x @ W.T", (batch, n_in), (n_out, n_in), True))
    for i in range(len(SIZES) - 2, -1, -1):
        n_in, n_out = SIZES[i], SIZES[i + 1]
        out.append((f"backward layer {i + 1}: g.T @ x", (n_out, batch), (batch, n_in), False))
        if i:
            out.append((f"backward layer {i + 1}: g @ W", (batch, n_out), (n_out, n_in), False))
    return out


def best_us(fn, repeat):
    """Best of `repeat` single calls by the run's clock (wall, or thread CPU time)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t = timing.clock()
        fn()
        best = min(best, timing.clock() - t)
    return best * 1e6


def _mkl_call(a, b, trans):
    """MKL through cellgrad-ops-nn's kernel, or None without the [mkl] extra."""
    try:
        from cellgrad_nn._kernels import blas
        from cellgrad_nn.functional import _dense_blas
    except ImportError:
        return None
    mkl = _dense_blas.find_mkl()
    if mkl is None:
        return None
    out = np.empty((a.shape[0], b.shape[0] if trans else b.shape[1]), a.dtype)
    return lambda: blas.gemm(mkl.fn[a.dtype], False, a, False, b, trans, out)


def measure(repeat):
    """{product name: (numpy us, torch us or None, numpy W @ x.T us or None, MKL us or None)}
    for a training step and batch-1 inference."""
    torch = timing.torch_or_none()
    rng = np.random.default_rng(0)
    results = {}
    for batch, names in ((BATCH, products(BATCH)), (1, products(1)[:3])):
        for name, sa, sb, trans in names:
            a = rng.standard_normal(sa).astype(np.float32)
            b = rng.standard_normal(sb).astype(np.float32)
            bt = b.T if trans else b
            row = [best_us(lambda a=a, bt=bt: np.dot(a, bt), repeat), None, None, None]
            if torch is not None:
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                tbt = tb.T if trans else tb
                row[1] = best_us(lambda ta=ta, tbt=tbt: torch.mm(ta, tbt), repeat)
            if trans:  # the other orientation: (W @ x.T).T, the same numbers transposed
                row[2] = best_us(lambda a=a, b=b: np.dot(b, a.T), repeat)
            mkl = _mkl_call(a, b, trans)
            if mkl is not None:
                row[3] = best_us(mkl, repeat)
            results[f"batch {batch:>2} {name}"] = tuple(row)
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=200)
    p.add_argument("--threads", type=int, default=timing.THREADS)
    p.add_argument("--cpu-time", action="store_true", help="thread CPU time (needs --threads 1)")
    args = p.parse_args()
    timing.configure(args.threads, args.cpu_time)
    for line in timing.blas_lines():
        print(line)
    results = measure(args.repeat)
    clock = "thread CPU time" if args.cpu_time else "wall time"
    print(f"matrix products alone, float32, {args.threads} thread(s), {clock}, best of "
          f"{args.repeat} (us); W@x.T: the other orientation; mkl: the [mkl] extra's kernel")

    def cell(v):
        return f"{v:9.1f}" if v else "        -"

    totals = {}
    for name, (np_us, torch_us, other_us, mkl_us) in results.items():
        ratio = f"{np_us / torch_us:5.2f}x" if torch_us else "  -"
        print(f"  {name:<40} numpy {np_us:9.1f}  torch {cell(torch_us)}  {ratio}  W@x.T "
              f"{cell(other_us)}  mkl {cell(mkl_us)}")
        key = name.split()[1]
        n, t = totals.get(key, (0.0, 0.0))
        totals[key] = (n + np_us, t + (torch_us or 0.0))
    for batch, (n, t) in totals.items():
        if t:
            print(f"  batch {batch:>2} total{'':<30} numpy {n:9.1f}  torch {t:9.1f}  "
                  f"{n / t:5.2f}x")


if __name__ == "__main__":
    main()
