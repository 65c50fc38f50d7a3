"""Per-example gradients by `vmap`: `ms.vmap(ms.grad(loss_one), in_axes=(None, ..., 0, 0))` of
an MLP's softmax cross-entropy over a batch of 64 (784-256-10 ReLU unless `--sizes`), against
the batched gradient of the mean loss over the same 64 (`ms.grad` of the batch loss) and
against `torch.func.vmap(torch.func.grad(...))` of the same per-example loss (issue 28); the
"write floor" row times writing the per-example gradients alone into fresh arrays.

    python benchmarks/vmap_step.py [--sizes 784,256,10] [--repeat 5] [--rounds 21]

The contenders take turns round by round (`timing.interleaved`); each ratio is taken per round
(median and quartiles). Quote `--threads 1 --cpu-time` on a shared machine. The per-example
gradients are B times the parameters (64 x 784 x 256 floats, 51 MB, for the first layer):
writing them is a floor the batched gradient does not have.
"""

import argparse

import numpy as np

import timing
from cellgrad import Tensor, grad, ops, vmap

SIZES, BATCH = (784, 256, 10), 64


def _params(sizes, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for i, o in zip(sizes[:-1], sizes[1:]):
        out += [(rng.standard_normal((o, i)) * np.sqrt(2 / i)).astype(np.float32),
                (rng.standard_normal(o) * 0.1).astype(np.float32)]
    return out


def _forward(params, x, relu, matmul):
    """The MLP on one example (x a vector) or a batch (rows), weights (out, in)."""
    h = x
    for k in range(0, len(params), 2):
        h = matmul(h, params[k]) + params[k + 1]
        if k + 2 < len(params):
            h = relu(h)
    return h


def cellgrad_steps(ps, x, y):
    n = len(ps)

    def loss_one(*args):
        params, xi, yi = args[:n], args[n], args[n + 1]
        logits = _forward(params, xi, ops.relu, lambda h, w: ops.matmul(w, h))
        return ops.cross_entropy(logits[None], yi[None])

    def loss_batch(*args):
        params, xb, yb = args[:n], args[n], args[n + 1]
        logits = _forward(params, xb, ops.relu, lambda h, w: ops.matmul(h, w.T))
        return ops.cross_entropy(logits, yb)

    positions = tuple(range(n))
    per_example = vmap(grad(loss_one, positions), in_axes=(None,) * n + (0, 0))
    batched = grad(loss_batch, positions)
    tp, tx, ty = [Tensor(p) for p in ps], Tensor(x), Tensor(y)
    return (lambda: per_example(*tp, tx, ty)), (lambda: batched(*tp, tx, ty))


def torch_step(torch, ps, x, y):
    from torch.func import grad as tgrad
    from torch.func import vmap as tvmap

    fn = torch.nn.functional

    def loss_one(params, xi, yi):
        logits = _forward(params, xi, torch.relu, lambda h, w: w @ h)
        return fn.cross_entropy(logits[None], yi[None])

    per_example = tvmap(tgrad(loss_one), in_dims=(None, 0, 0))
    tp = tuple(torch.tensor(p) for p in ps)
    tx, ty = torch.tensor(x), torch.tensor(y, dtype=torch.long)
    return lambda: per_example(tp, tx, ty)


def steps(sizes):
    """{contender: one call}; the per-example gradients checked against PyTorch's first."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, sizes[0])).astype(np.float32)
    y = rng.integers(0, sizes[-1], BATCH).astype(np.int32)
    ps = _params(sizes)
    ours, batched = cellgrad_steps(ps, x, y)
    shapes = [(BATCH,) + p.shape for p in ps]

    def floor():  # only writing the per-example gradients into fresh arrays
        for shape in shapes:
            np.empty(shape, np.float32).fill(1.0)

    out = {"cellgrad": ours, "cellgrad batched": batched, "write floor": floor}
    mean = [g.asnumpy() for g in batched()]
    got = [g.asnumpy() for g in ours()]
    for g, m in zip(got, mean):
        assert np.allclose(g.mean(0), m, atol=1e-5), "per-example gradients do not average"
    torch = timing.torch_or_none()
    if torch is not None:
        theirs = torch_step(torch, ps, x, y)
        for g, t in zip(got, theirs()):
            assert np.allclose(g, t.numpy(), atol=1e-5), "cellgrad and torch.func differ"
        out["pytorch"] = theirs
    return out


def measure(repeat, rounds=21, sizes=SIZES):
    """Interleaved rounds: {"median", "spread"} as timing.summary, plus "batched" and
    "pytorch": (q1, median, q3) of the per-round ratio of cellgrad's vmap to each."""
    per_round = timing.interleaved(steps(sizes), rounds, repeat)
    s = timing.summary(per_round)
    s["batched"] = timing.quartiles([a / b for a, b in zip(per_round["cellgrad"],
                                                            per_round["cellgrad batched"])])
    s["pytorch"] = s.pop("ratio")
    s["floor"] = timing.quartiles([(f + b) / b for f, b in zip(per_round["write floor"],
                                                              per_round["cellgrad batched"])])
    return s


def add_rows(table, repeat, rounds=21):
    """run_all.py's rows: vmap against the batched gradient (<= 2x) and torch.func (<= 1x)."""
    s = measure(max(1, repeat), rounds)
    med = s["median"]
    name = f"vmap per-example grad, {'-'.join(map(str, SIZES))} x {BATCH}"
    q1, q2, q3 = s["batched"]
    table.rows.append((name + " vs batched grad", f"{med['cellgrad']:.2f} ms", "-",
                       f"{med['cellgrad batched']:.2f} ms (batched)",
                       f"{q2:.2f}x [{q1:.2f}-{q3:.2f}] of batched grad (writing the "
                       f"gradients alone: {s['floor'][1]:.2f}x)", "<= 2x",
                       "yes" if q2 <= 2.0 else "NO"))
    if s["pytorch"] is None:
        return
    q1, q2, q3 = s["pytorch"]
    table.rows.append((name + " vs torch.func", f"{med['cellgrad']:.2f} ms",
                       f"{med['pytorch']:.2f} ms", "-",
                       f"{q2:.2f}x [{q1:.2f}-{q3:.2f}] of torch.func.vmap", "<= 1x",
                       "yes" if q2 <= 1.0 else "NO"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default=",".join(map(str, SIZES)), help="layer widths")
    p.add_argument("--repeat", type=int, default=5, help="calls per contender per round")
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--threads", type=int, default=timing.THREADS)
    p.add_argument("--cpu-time", action="store_true", help="thread CPU time (needs --threads 1)")
    args = p.parse_args()
    timing.configure(args.threads, args.cpu_time)
    sizes = tuple(int(s) for s in args.sizes.split(","))
    for line in timing.blas_lines():
        print(line)
    s = measure(args.repeat, args.rounds, sizes)
    clock = "thread CPU time" if timing.CPU_TIME else "wall time"
    print(f"vmap_step: per-example gradients of a {'-'.join(map(str, sizes))} ReLU MLP, batch "
          f"{BATCH}; {clock}, {timing.THREADS} thread(s), {args.rounds} interleaved rounds of "
          f"{args.repeat} calls")
    for name, ms in s["median"].items():
        print(f"  {name:<17} {ms:9.3f} ms +-{100 * s['spread'][name]:4.1f}%")
    q1, q2, q3 = s["batched"]
    print(f"  vmap / batched grad per round:    {q2:.3f}x [{q1:.3f}, {q3:.3f}]  (target <= 2x)")
    q1, q2, q3 = s["floor"]
    print(f"  (batched grad + write floor) / batched grad: {q2:.3f}x [{q1:.3f}, {q3:.3f}]")
    if s["pytorch"] is not None:
        q1, q2, q3 = s["pytorch"]
        print(f"  vmap / torch.func.vmap per round: {q2:.3f}x [{q1:.3f}, {q3:.3f}]  "
              "(target <= 1x)")


if __name__ == "__main__":
    main()
