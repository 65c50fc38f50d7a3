"""The seeds' MLP forward (784-512-512-10 ReLU) at batch 1 and 256 in predict mode: cellgrad,
PyTorch (no_grad) and hand-written numpy; ms per call and ratios.

    python benchmarks/inference.py [--repeat 500]
"""

import argparse

import numpy as np

from cellgrad import Tensor, nn
from mlp_step import SIZES, weights
from timing import median_ms, report, torch_or_none


def cellgrad_forward(ws):
    layers = []
    for i, (w, b) in enumerate(ws):
        layers.append(nn.Dense(w.shape[1], w.shape[0], Tensor(w), Tensor(b)))
        if i < len(ws) - 1:
            layers.append(nn.ReLU())
    net = nn.SequentialCell(layers)
    net.set_train(False)
    return net


def measure(repeat, batches=(1, 256)):
    """{batch: {contender: ms per call}}."""
    ws = weights()
    net = cellgrad_forward(ws)
    torch = torch_or_none()
    if torch is not None:
        tnet = torch.nn.Sequential(*[m for i, (w, b) in enumerate(ws) for m in (
            torch.nn.Linear(w.shape[1], w.shape[0]),
            *([torch.nn.ReLU()] if i < len(ws) - 1 else []))])
        with torch.no_grad():
            for lin, (w, b) in zip([m for m in tnet if isinstance(m, torch.nn.Linear)], ws):
                lin.weight.copy_(torch.tensor(w))
                lin.bias.copy_(torch.tensor(b))
        tnet.eval()

    def numpy_forward(x):
        for i, (w, b) in enumerate(ws):
            x = x @ w.T + b
            if i < len(ws) - 1:
                x = np.maximum(x, 0)
        return x

    out = {}
    for batch in batches:
        x = np.random.default_rng(batch).standard_normal((batch, SIZES[0])).astype(np.float32)
        xt = Tensor(x)
        results = out[batch] = {"cellgrad": median_ms(lambda a=xt: net(a), repeat)}
        if torch is not None:
            tx = torch.tensor(x)
            with torch.no_grad():
                results["pytorch"] = median_ms(lambda a=tx: tnet(a), repeat)
        results["numpy"] = median_ms(lambda a=x: numpy_forward(a), repeat)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=500)
    args = p.parse_args()
    for batch, results in measure(args.repeat).items():
        report(f"inference: MLP forward, batch {batch} (ms per call, median)", results)


if __name__ == "__main__":
    main()
