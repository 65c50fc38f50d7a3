"""What the profiler costs: the op chain of op_overhead.py timed, in one run, before any
profiler was imported, after one recorded and stopped, and while one records.

    python benchmarks/profiler_overhead.py [--repeat 300]
"""

import argparse
import os
import sys
import tempfile
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

import cellgrad as ms  # noqa: E402
from op_overhead import N_OPS, SHAPE, chain_cellgrad, chain_numpy  # noqa: E402


def us_per_op(fn, repeat, n_ops):
    return min(timeit.repeat(fn, number=1, repeat=repeat)) / n_ops * 1e6


def measure(repeat, rounds=3):
    """{state: (fwd us/op, fwd+bwd us/op)}, each the best over `rounds` interleaved rounds
    (the machine is shared: interleaving keeps a busy moment from favouring one state)."""
    rng = np.random.default_rng(0)
    xa, wa, ba = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(3))
    x, w, b = ms.Tensor(xa), ms.Tensor(wa), ms.Tensor(ba)
    grad_fn = ms.grad(lambda x, w, b: chain_cellgrad(x, w, b).sum(), grad_position=(0, 1, 2))

    def both():
        return (us_per_op(lambda: chain_cellgrad(x, w, b), repeat, N_OPS),
                us_per_op(lambda: grad_fn(x, w, b), repeat, N_OPS + 1))

    def best(key, value):
        old = rows.get(key)
        rows[key] = value if old is None else tuple(map(min, old, value))

    rows = {"numpy fwd (floor)": (us_per_op(lambda: chain_numpy(xa, wa, ba), repeat, N_OPS),
                                  None)}
    assert "cellgrad.profiler" not in sys.modules
    for _ in range(rounds):
        best("no profiler imported", both())
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            prof = ms.Profiler(output_path=out)
            grad_fn(x, w, b)
            prof.stop()
            best("after a profiler stopped", both())
            prof.start()
            best("while profiling", both())
            prof.stop()
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    rows = measure(args.repeat)
    base = rows["no profiler imported"]
    print(f"chain of {N_OPS} elementwise ops on float32{SHAPE}, best of {args.repeat}")
    print(f"  {'':<26} {'fwd us/op':>10} {'fwd+bwd us/op':>14}  ratio to no profiler")
    for name, (fwd, both) in rows.items():
        ratio = "" if both is None else f"{fwd / base[0]:.2f} / {both / base[1]:.2f}"
        print(f"  {name:<26} {fwd:10.3f} {'' if both is None else f'{both:14.3f}':>14}  {ratio}")


if __name__ == "__main__":
    main()
