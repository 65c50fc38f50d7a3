"""The matrix products of `mlp_step` and `inference` timed alone: numpy's BLAS (OpenBLAS in the
PyPI wheels) against PyTorch's (MKL/oneDNN), same shapes. numpy's BLAS uses every core, as in
the other scripts, PyTorch the scripts' thread count (2 on this machine: the same). What
cellgrad can never win back on a row whose time is mostly these products.

    python benchmarks/gemm_gap.py [--repeat 200]
"""

import argparse
import timeit

import numpy as np

from timing import THREADS, torch_or_none

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
    return min(timeit.repeat(fn, number=1, repeat=repeat)) * 1e6


def measure(repeat):
    """{product name: (numpy us, torch us or None)} for a training step and batch-1 inference."""
    torch = torch_or_none()
    rng = np.random.default_rng(0)
    results = {}
    for batch, names in ((BATCH, products(BATCH)), (1, products(1)[:3])):
        for name, sa, sb, trans in names:
            a = rng.standard_normal(sa).astype(np.float32)
            b = rng.standard_normal(sb).astype(np.float32)
            bt = b.T if trans else b
            row = [best_us(lambda a=a, bt=bt: np.dot(a, bt), repeat), None]
            if torch is not None:
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                tbt = tb.T if trans else tb
                row[1] = best_us(lambda ta=ta, tbt=tbt: torch.mm(ta, tbt), repeat)
            results[f"batch {batch:>2} {name}"] = tuple(row)
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=200)
    args = p.parse_args()
    results = measure(args.repeat)
    print(f"matrix products alone, float32, {THREADS} threads, best of {args.repeat} (us)")
    totals = {}
    for name, (np_us, torch_us) in results.items():
        ratio = f"{np_us / torch_us:5.2f}x" if torch_us else "  -"
        torch_text = f"{torch_us:9.1f}" if torch_us else "        -"
        print(f"  {name:<40} numpy {np_us:9.1f}  torch {torch_text}  {ratio}")
        key = name.split()[1]
        n, t = totals.get(key, (0.0, 0.0))
        totals[key] = (n + np_us, t + (torch_us or 0.0))
    for batch, (n, t) in totals.items():
        if t:
            print(f"  batch {batch:>2} total{'':<30} numpy {n:9.1f}  torch {t:9.1f}  "
                  f"{n / t:5.2f}x")


if __name__ == "__main__":
    main()
