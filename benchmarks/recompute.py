"""Peak memory of one gradient step of a deep MLP with and without `Cell.recompute()`.

Each block is x + W2 tanh(W1 x + b1) + b2 (two matmuls, a tanh and three adds whose arrays the
tape keeps); `recompute()` on every block keeps only the blocks' inputs and runs each block
again in the backward walk. Peak memory is measured with tracemalloc (numpy reports its
buffers to it) around one `value_and_grad` call; the gradients must be bit-for-bit equal.

    python benchmarks/recompute.py [--blocks 32] [--width 256] [--batch 1024]
"""

import argparse
import time
import tracemalloc

import numpy as np

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops


class Block(nn.Cell):
    def __init__(self, width, rng):
        super().__init__()
        scale = 1 / np.sqrt(width)
        self.w1 = Parameter(Tensor((rng.standard_normal((width, width)) * scale).astype(
            np.float32)))
        self.b1 = Parameter(Tensor(np.zeros(width, np.float32)))
        self.w2 = Parameter(Tensor((rng.standard_normal((width, width)) * scale).astype(
            np.float32)))
        self.b2 = Parameter(Tensor(np.zeros(width, np.float32)))

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        return x + ops.matmul(h, self.w2) + self.b2


class MLP(nn.Cell):
    def __init__(self, blocks, width, recompute, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.blocks = nn.CellList([Block(width, rng) for _ in range(blocks)])
        if recompute:
            for b in self.blocks:
                b.recompute()

    def construct(self, x):
        for b in self.blocks:
            x = b(x)
        return (x * x).mean()


def measure(net, x):
    """(loss, gradients, peak bytes above the start, seconds) of one value_and_grad call."""
    step = ms.value_and_grad(net, None, net.trainable_params())
    step(x)  # warm up: first-call checks, caches
    t0 = time.perf_counter()
    step(x)
    seconds = time.perf_counter() - t0  # timed without tracemalloc, which slows allocation
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    loss, grads = step(x)
    peak = tracemalloc.get_traced_memory()[1] - start
    tracemalloc.stop()
    return loss, grads, peak, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=32)
    parser.add_argument("--width", type=int, default=256)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args(argv)
    x = Tensor(np.random.default_rng(1).standard_normal((args.batch, args.width)).astype(
        np.float32))
    rows = []
    for recompute in (False, True):
        loss, grads, peak, seconds = measure(MLP(args.blocks, args.width, recompute), x)
        rows.append((recompute, loss, grads, peak, seconds))
    (_, loss0, g0, peak0, t0), (_, loss1, g1, peak1, t1) = rows
    same = loss0.asnumpy() == loss1.asnumpy() and all(
        np.array_equal(a.asnumpy(), b.asnumpy()) for a, b in zip(g0, g1))
    params = sum(p.size for p in MLP(1, args.width, False).trainable_params()) * args.blocks * 4
    print(f"deep MLP: {args.blocks} blocks of width {args.width}, batch {args.batch} "
          f"(parameters {params / 2**20:.1f} MiB, one activation "
          f"{args.batch * args.width * 4 / 2**20:.2f} MiB)")
    print(f"{'':>12} {'peak MiB':>10} {'step ms':>9}")
    print(f"{'keep':>12} {peak0 / 2**20:10.1f} {t0 * 1e3:9.1f}")
    print(f"{'recompute':>12} {peak1 / 2**20:10.1f} {t1 * 1e3:9.1f}")
    print(f"peak memory saved: {(peak0 - peak1) / 2**20:.1f} MiB ({1 - peak1 / peak0:.0%}), "
          f"time x{t1 / t0:.2f}; gradients bit-for-bit equal: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
