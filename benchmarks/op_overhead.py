"""Per-op overhead: a chain of 200 small elementwise ops on float32 tensors of shape (16,).

Times, in the same run, forward only (cellgrad, PyTorch, hand-written numpy) and
forward+backward (cellgrad via `cellgrad.grad`, PyTorch via `.backward()`), and prints
microseconds per op and the ratios the targets in issue 2 are stated in.

    python benchmarks/op_overhead.py [--repeat 500]
"""

import argparse
import timeit

import numpy as np

import cellgrad as ms
from cellgrad import ops

N_OPS = 200
SHAPE = (16,)


def chain_cellgrad(x, w, b):
    y = x
    for _ in range(N_OPS // 4):
        y = y * w
        y = y + b
        y = ops.tanh(y)
        y = y - x
    return y


def chain_numpy(x, w, b):
    y = x
    for _ in range(N_OPS // 4):
        y = np.multiply(y, w)
        y = np.add(y, b)
        y = np.tanh(y)
        y = np.subtract(y, x)
    return y


def chain_numpy_fwd_bwd(x, w, b):
    """The same chain and its gradients written by hand in numpy: the floor."""
    y, tapes = x, []
    for _ in range(N_OPS // 4):
        tapes.append(y)
        y = np.tanh(np.add(np.multiply(y, w), b))
        tapes.append(y)
        y = np.subtract(y, x)
    g = np.ones_like(y)
    gx = np.zeros_like(x)
    gw = np.zeros_like(w)
    gb = np.zeros_like(b)
    for i in range(N_OPS // 4 - 1, -1, -1):
        gx = gx - g
        t = tapes[2 * i + 1]
        g = g * (1 - t * t)
        gb = gb + g
        gw = gw + g * tapes[2 * i]
        g = g * w
    return gx + g, gw, gb


def chain_torch(torch, x, w, b):
    y = x
    for _ in range(N_OPS // 4):
        y = y * w
        y = y + b
        y = torch.tanh(y)
        y = y - x
    return y


def best_us_per_op(fn, repeat, n_ops):
    times = timeit.repeat(fn, number=1, repeat=repeat)
    return min(times) / n_ops * 1e6


def measure(repeat):
    """{contender: best microseconds per op}."""
    rng = np.random.default_rng(0)
    xa, wa, ba = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(3))

    x, w, b = ms.Tensor(xa), ms.Tensor(wa), ms.Tensor(ba)
    grad_fn = ms.grad(lambda x, w, b: chain_cellgrad(x, w, b).sum(), grad_position=(0, 1, 2))
    results = {
        "numpy fwd": best_us_per_op(lambda: chain_numpy(xa, wa, ba), repeat, N_OPS),
        "cellgrad fwd": best_us_per_op(lambda: chain_cellgrad(x, w, b), repeat, N_OPS),
        "numpy fwd+bwd": best_us_per_op(lambda: chain_numpy_fwd_bwd(xa, wa, ba), repeat,
                                        N_OPS + 1),
        "cellgrad fwd+bwd": best_us_per_op(lambda: grad_fn(x, w, b), repeat, N_OPS + 1),
    }
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(1)
        tx, tw, tb = (torch.from_numpy(a.copy()) for a in (xa, wa, ba))
        gx, gw, gb = (t.clone().requires_grad_(True) for t in (tx, tw, tb))

        def torch_fwd_bwd():
            gx.grad = gw.grad = gb.grad = None
            chain_torch(torch, gx, gw, gb).sum().backward()

        with torch.no_grad():
            results["torch fwd"] = best_us_per_op(
                lambda: chain_torch(torch, tx, tw, tb), repeat, N_OPS)
        results["torch fwd+bwd"] = best_us_per_op(torch_fwd_bwd, repeat, N_OPS + 1)

    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=500)
    args = parser.parse_args()
    results = measure(args.repeat)
    torch = "torch fwd" in results
    print(f"chain of {N_OPS} elementwise ops on float32{SHAPE}, best of {args.repeat}")
    for name, us in results.items():
        print(f"  {name:<18} {us:7.3f} us/op")
    print("ratios:")
    fwd_ratio = results["cellgrad fwd"] / results["numpy fwd"]
    print(f"  cellgrad fwd / numpy fwd          {fwd_ratio:.2f}   (target <= 2.0)")
    print(f"  cellgrad fwd+bwd / numpy fwd+bwd  "
          f"{results['cellgrad fwd+bwd'] / results['numpy fwd+bwd']:.2f}")
    if torch:
        print(f"  cellgrad fwd+bwd / torch fwd+bwd  "
              f"{results['cellgrad fwd+bwd'] / results['torch fwd+bwd']:.2f}   (target <= 0.25)")
        print(f"  cellgrad fwd / torch fwd          "
              f"{results['cellgrad fwd'] / results['torch fwd']:.2f}")
    else:
        print("  (PyTorch not installed: pip install torch==2.13.0 for the torch ratios)")


if __name__ == "__main__":
    main()
