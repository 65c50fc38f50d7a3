"""One training step of the seeds' MLP (784-512-512-10 ReLU, batch 64, softmax cross-entropy,
SGD) in cellgrad (TrainOneStepCell), PyTorch and hand-written numpy; ms per step and ratios.

    python benchmarks/mlp_step.py [--repeat 200]
"""

import argparse

import numpy as np

from cellgrad import Tensor, nn
from timing import median_ms, report, torch_or_none

SIZES = (784, 512, 512, 10)
BATCH, LR = 64, 0.01


def weights(seed=0):
    rng = np.random.default_rng(seed)
    return [((rng.standard_normal((o, i)) * np.sqrt(2 / i)).astype(np.float32),
             np.zeros(o, np.float32)) for i, o in zip(SIZES[:-1], SIZES[1:])]


def cellgrad_step(ws, x, y):
    layers = []
    for i, (w, b) in enumerate(ws):
        layers.append(nn.Dense(w.shape[1], w.shape[0], Tensor(w), Tensor(b)))
        if i < len(ws) - 1:
            layers.append(nn.ReLU())
    net = nn.SequentialCell(layers)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    return lambda: train(xt, yt)


def torch_step(torch, ws, x, y, per_linear=None):
    """The step in PyTorch; `per_linear(linear)` is called on each layer (to add hooks)."""
    mods = []
    for i, (w, b) in enumerate(ws):
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(torch.tensor(w))
            lin.bias.copy_(torch.tensor(b))
        if per_linear is not None:
            per_linear(lin)
        mods.append(lin)
        if i < len(ws) - 1:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.SGD(net.parameters(), LR)
    xt, yt = torch.tensor(x), torch.tensor(y, dtype=torch.long)
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        loss_fn(net(xt), yt).backward()
        opt.step()

    return step


def numpy_step(ws, x, y):
    ws = [(w.copy(), b.copy()) for w, b in ws]

    def step():
        acts = [x]
        for i, (w, b) in enumerate(ws):
            z = acts[-1] @ w.T + b
            acts.append(np.maximum(z, 0) if i < len(ws) - 1 else z)
        logits = acts[-1]
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        g = e / e.sum(axis=1, keepdims=True)
        g[np.arange(len(y)), y] -= 1
        g /= len(y)
        for i in range(len(ws) - 1, -1, -1):
            w, b = ws[i]
            gw, gb = g.T @ acts[i], g.sum(axis=0)
            if i:
                g = (g @ w) * (acts[i] > 0)
            w -= LR * gw
            b -= LR * gb

    return step


def measure(repeat):
    """{contender: ms per step}."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    y = rng.integers(0, SIZES[-1], BATCH).astype(np.int32)
    ws = weights()
    results = {"cellgrad": median_ms(cellgrad_step(ws, x, y), repeat)}
    torch = torch_or_none()
    if torch is not None:
        results["pytorch"] = median_ms(torch_step(torch, ws, x, y), repeat)
    results["numpy"] = median_ms(numpy_step(ws, x, y), repeat)
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=200)
    args = p.parse_args()
    results = measure(args.repeat)
    report(f"mlp_step: 784-512-512-10 ReLU, batch {BATCH}, SGD (ms per step, median)", results)


if __name__ == "__main__":
    main()
