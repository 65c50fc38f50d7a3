"""What Cell hooks cost: the `mlp_step` training step (784-512-512-10 ReLU, batch 64, SGD) with
a forward hook and a backward hook on each Dense, against the same step without hooks and with
hooks registered and then removed; PyTorch (forward hook + full backward hook on each Linear)
in the same run. Target: hooked/plain <= 1.10x; removed indistinguishable from plain.

    python benchmarks/hooks_overhead.py [--repeat 100] [--rounds 5]

The variants run interleaved (`repeat` steps each per round, the order rotated every round), so
drift of a shared machine hits them alike; ratios are the median over rounds of each round's
ratio, with their range.
"""

import argparse
import statistics
import warnings

import numpy as np

from cellgrad import Tensor, nn
from mlp_step import BATCH, LR, SIZES, torch_step, weights
from timing import median_ms, torch_or_none


def cellgrad_step(ws, x, y, mode):
    """A training step; mode "plain", "hooked" or "removed" (hooks registered, then removed)."""
    layers = []
    for i, (w, b) in enumerate(ws):
        layers.append(nn.Dense(w.shape[1], w.shape[0], Tensor(w), Tensor(b)))
        if i < len(ws) - 1:
            layers.append(nn.ReLU())
    calls = [0, 0]

    def forward_hook(cell, args, output):
        calls[0] += 1

    def backward_hook(cell, grad_input, grad_output):
        calls[1] += 1

    if mode != "plain":
        handles = []
        for layer in layers:
            if isinstance(layer, nn.Dense):
                handles.append(layer.register_forward_hook(forward_hook))
                handles.append(layer.register_backward_hook(backward_hook))
        if mode == "removed":
            for h in handles:
                h.remove()
    net = nn.SequentialCell(layers)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    step = lambda: train(xt, yt)  # noqa: E731
    step()
    assert calls == ([0, 0] if mode != "hooked" else [3, 3]), (mode, calls)
    return step


def add_torch_hooks(linear):
    linear.register_forward_hook(lambda mod, args, out: None)
    linear.register_full_backward_hook(lambda mod, gi, go: None)


def interleaved(steps, repeat, rounds):
    """{name: [median ms of `repeat` steps, per round]}; the variants run interleaved, in a
    rotated order each round."""
    names = list(steps)
    per_round = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            per_round[name].append(median_ms(steps[name], repeat, warmup=2))
    return per_round


def ratio(per_round, a, b):
    """Median over rounds of a/b (each round's pair ran close in time), and its range."""
    rs = [x / y for x, y in zip(per_round[a], per_round[b])]
    return f"{statistics.median(rs):.3f}x (rounds {min(rs):.3f}-{max(rs):.3f})"


def measure(repeat, rounds):
    """{variant: [median ms per step, per round]}."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    y = rng.integers(0, SIZES[-1], BATCH).astype(np.int32)
    ws = weights()
    steps = {f"cellgrad {mode}": cellgrad_step(ws, x, y, mode)
             for mode in ("plain", "hooked", "removed")}
    torch = torch_or_none()
    if torch is not None:
        # The first layer's inputs need no gradient, so PyTorch warns on every hooked backward.
        warnings.filterwarnings("ignore", "Full backward hook", UserWarning)
        steps["pytorch plain"] = torch_step(torch, ws, x, y)
        steps["pytorch hooked"] = torch_step(torch, ws, x, y, add_torch_hooks)
    return interleaved(steps, repeat, rounds)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    per_round = measure(args.repeat, args.rounds)
    torch = "pytorch plain" in per_round
    print(f"hooks_overhead: mlp_step 784-512-512-10, batch {BATCH}, a forward and a backward hook "
          f"on each Dense (ms per step: median over {args.rounds} rounds of {args.repeat} steps)")
    for name, times in per_round.items():
        print(f"  {name:<16} {statistics.median(times):8.3f} ms")
    print(f"  cellgrad hooked/plain  = {ratio(per_round, 'cellgrad hooked', 'cellgrad plain')}"
          "  target <= 1.10x")
    print(f"  cellgrad removed/plain = {ratio(per_round, 'cellgrad removed', 'cellgrad plain')}")
    if torch:
        print(f"  pytorch hooked/plain   = {ratio(per_round, 'pytorch hooked', 'pytorch plain')}")
        print(f"  cellgrad plain/pytorch plain = "
              f"{ratio(per_round, 'cellgrad plain', 'pytorch plain')}")


if __name__ == "__main__":
    main()
