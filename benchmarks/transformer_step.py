"""A Transformer-encoder training step (2 layers, d_model 128, 4 heads, feed-forward 256,
batch 16, length 64, dropout 0, a Dense head on the mean, mean squared error, Adam) in
cellgrad and PyTorch with the same weights; ms per step and the ratio.

    python benchmarks/transformer_step.py [--repeat 5] [--rounds 21]

The contenders take turns round by round (`timing.interleaved`: the first one rotates); the
step time is the median of the round medians and the ratio the median of the per-round ratios
(with its quartiles), so a neighbour's burst of load hits both alike. Quote it with
`--threads 1 --cpu-time` on a shared machine (run_all.py passes its mode on).
"""

import argparse

import numpy as np

import timing
from cellgrad import Tensor, nn, ops

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


def steps():
    """{contender: one training step}, the nets starting from the same weights."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, LENGTH, D)).astype(np.float32)
    y = rng.standard_normal((BATCH, 1)).astype(np.float32)
    net = _Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Adam(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    steps = {}
    torch = timing.torch_or_none()
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
    return {"cellgrad": lambda: train(xt, yt), **steps}


def measure(repeat, rounds=21):
    """timing.summary of `rounds` interleaved rounds of `repeat` steps per contender."""
    return timing.summary(timing.interleaved(steps(), rounds, repeat))


def add_rows(table, repeat, rounds=21):
    """run_all.py's row: the training step (target 1.0x PyTorch), the ratio per round."""
    s = measure(max(1, repeat // 4), rounds)
    med, r = s["median"], s["ratio"]
    name = "transformer_step training (2 encoder layers)"
    if r is None:
        table.timed(name, med, 1.0)
        return
    table.rows.append((name, f"{med['cellgrad']:.1f} ms", f"{med['pytorch']:.1f} ms", "-",
                       f"{r[1]:.2f}x [{r[0]:.2f}-{r[2]:.2f}] of PyTorch", "<= 1x",
                       "yes" if r[1] <= 1.0 else "NO"))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5, help="steps per contender per round")
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--threads", type=int, default=timing.THREADS)
    p.add_argument("--cpu-time", action="store_true", help="thread CPU time (needs --threads 1)")
    args = p.parse_args()
    timing.configure(args.threads, args.cpu_time)
    for line in timing.blas_lines():
        print(line)
    s = measure(args.repeat, args.rounds)
    clock = "thread CPU time" if timing.CPU_TIME else "wall time"
    print(f"transformer_step: {LAYERS} encoder layers, d_model {D}, {HEADS} heads, ff {FF}, "
          f"batch {BATCH}, length {LENGTH}, Adam; {clock}, {timing.THREADS} thread(s), "
          f"{args.rounds} interleaved rounds of {args.repeat} steps")
    for name, ms in s["median"].items():
        print(f"  {name:<10} {ms:9.3f} ms +-{100 * s['spread'][name]:4.1f}%")
    if s["ratio"] is not None:
        q1, q2, q3 = s["ratio"]
        print(f"  cellgrad/pytorch per round: {q2:.3f}x [{q1:.3f}, {q3:.3f}]")


if __name__ == "__main__":
    main()
