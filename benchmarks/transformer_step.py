"""A Transformer-encoder training step (2 layers, d_model 128, 4 heads, feed-forward 256,
batch 16, length 64, dropout 0, a Dense head on the mean, mean squared error, Adam) in
cellgrad and PyTorch with the same weights; ms per step and the ratio.

    python benchmarks/transformer_step.py [--repeat 20]
"""

import argparse

import numpy as np

from cellgrad import Tensor, nn, ops
from timing import median_ms, report, torch_or_none

D, HEADS, FF, LAYERS, BATCH, LENGTH, LR = 128, 4, 256, 2, 16, 64, 1e-3


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, LAYERS)
        self.head = nn.Dense(D, 1)

    def construct(self, x):
        return self.head(ops.mean(self.encoder(x), 1))


def _torch_net(torch, ours):
    layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
    head = torch.nn.Linear(D, 1)
    rename = {"dense1": "linear1", "dense2": "linear2", "gamma": "weight", "beta": "bias"}
    theirs = dict(encoder.named_parameters())
    with torch.no_grad():
        for p in ours.encoder.get_parameters():
            name = ".".join(rename.get(part, part) for part in p.name.split(".")[1:])
            theirs[name].copy_(torch.tensor(p.asnumpy()))
        head.weight.copy_(torch.tensor(ours.head.weight.asnumpy()))
        head.bias.copy_(torch.tensor(ours.head.bias.asnumpy()))
    return encoder, head


def measure(repeat, rounds=3):
    """{contender: ms}: each contender's best median over rounds that alternate them."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, LENGTH, D)).astype(np.float32)
    y = rng.standard_normal((BATCH, 1)).astype(np.float32)
    net = _Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Adam(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    steps = {}
    torch = torch_or_none()
    if torch is not None:
        encoder, head = _torch_net(torch, net)
        with torch.no_grad():
            theirs = head(encoder(torch.tensor(x)).mean(1)).numpy()
        assert np.allclose(net(xt).asnumpy(), theirs, atol=1e-4), "the nets differ"
        opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), LR)
        tx, ty = torch.tensor(x), torch.tensor(y)

        def torch_step():
            opt.zero_grad()
            torch.nn.functional.mse_loss(head(encoder(tx).mean(1)), ty).backward()
            opt.step()

        steps["pytorch"] = torch_step
    steps = {"cellgrad": lambda: train(xt, yt), **steps}
    got = {name: float("inf") for name in steps}
    for _ in range(rounds):
        for name, step in steps.items():
            got[name] = min(got[name], median_ms(step, repeat))
    return got


def add_rows(table, repeat):
    """run_all.py's row: the training step (target 1.0x PyTorch)."""
    table.timed("transformer_step training (2 encoder layers)", measure(repeat), 1.0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    report(f"transformer_step: {LAYERS} encoder layers, d_model {D}, {HEADS} heads, ff {FF}, "
           f"batch {BATCH}, length {LENGTH}, Adam (ms per step, median)", measure(args.repeat))


if __name__ == "__main__":
    main()
