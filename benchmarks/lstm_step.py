"""An LSTM training step (2 layers, input 64, hidden 128, batch 32, 35 steps, batch_first, a
Dense head, mean squared error, Adam) and LSTM inference at batch 1, in cellgrad and PyTorch
with the same weights; CPU ms per step and ratios.

Times are CPU time of the process (`time.process_time`), not wall time: on a shared machine a
neighbour's load stretches wall time but not the work done. For one thread each:

    CELLGRAD_BENCH_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/lstm_step.py [--repeat 30]
"""

import argparse
import statistics
import time

import numpy as np

from cellgrad import Tensor, nn
from timing import report, torch_or_none

INPUT, HIDDEN, LAYERS, BATCH, SEQ, LR = 64, 128, 2, 32, 35, 1e-3


def weights(seed=0):
    """[(name, array)] in MindSpore's and PyTorch's parameter names (same layout)."""
    rng = np.random.default_rng(seed)
    s = 1 / np.sqrt(HIDDEN)
    out = []
    for layer in range(LAYERS):
        size = INPUT if layer == 0 else HIDDEN
        for name, shape in (("weight_ih", (4 * HIDDEN, size)), ("weight_hh", (4 * HIDDEN, HIDDEN)),
                            ("bias_ih", (4 * HIDDEN,)), ("bias_hh", (4 * HIDDEN,))):
            out.append((f"{name}_l{layer}", rng.uniform(-s, s, shape).astype(np.float32)))
    head = rng.uniform(-s, s, (1, HIDDEN)).astype(np.float32)
    return out, head


class _Net(nn.Cell):
    def __init__(self, ws, head):
        super().__init__()
        self.lstm = nn.LSTM(INPUT, HIDDEN, LAYERS, batch_first=True)
        named = dict(ws)
        for p in self.lstm.get_parameters():
            p.set_data(Tensor(named[p.name.split(".")[-1]]))
        self.head = nn.Dense(HIDDEN, 1, Tensor(head), Tensor(np.zeros(1, np.float32)))

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1])


def cellgrad_train(ws, head, x, y):
    net = _Net(ws, head)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Adam(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    return lambda: train(xt, yt)


def cellgrad_infer(ws, head, x1):
    net = _Net(ws, head)
    xt = Tensor(x1)
    return lambda: net(xt)


def _torch_net(torch, ws, head):
    lstm = torch.nn.LSTM(INPUT, HIDDEN, LAYERS, batch_first=True)
    lin = torch.nn.Linear(HIDDEN, 1)
    with torch.no_grad():
        for name, w in ws:
            getattr(lstm, name).copy_(torch.tensor(w))
        lin.weight.copy_(torch.tensor(head))
        lin.bias.zero_()
    return lstm, lin


def torch_train(torch, ws, head, x, y):
    lstm, lin = _torch_net(torch, ws, head)
    opt = torch.optim.Adam(list(lstm.parameters()) + list(lin.parameters()), LR)
    xt, yt = torch.tensor(x), torch.tensor(y)
    loss_fn = torch.nn.MSELoss()

    def step():
        opt.zero_grad()
        out, _ = lstm(xt)
        loss_fn(lin(out[:, -1]), yt).backward()
        opt.step()

    return step


def torch_infer(torch, ws, head, x1):
    lstm, lin = _torch_net(torch, ws, head)
    xt = torch.tensor(x1)

    def step():
        with torch.no_grad():
            out, _ = lstm(xt)
            return lin(out[:, -1])

    return step


def check_same(torch, ws, head, x):
    """The two nets compute the same outputs (same weights, same gate order)."""
    ours = _Net(ws, head)(Tensor(x)).asnumpy()
    lstm, lin = _torch_net(torch, ws, head)
    with torch.no_grad():
        theirs = lin(lstm(torch.tensor(x))[0][:, -1]).numpy()
    assert np.allclose(ours, theirs, atol=1e-5), np.abs(ours - theirs).max()


def cpu_median_ms(step, repeat, warmup=3):
    """Median CPU time of `step()` in milliseconds over `repeat` runs after `warmup`."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeat):
        t = time.process_time()
        step()
        times.append((time.process_time() - t) * 1e3)
    return statistics.median(times)


def measure(repeat, rounds=3):
    """{"train": {contender: ms}, "infer": {contender: ms}}: each contender's best median
    over `rounds` rounds that alternate the contenders (a neighbour's load hits both)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((BATCH, SEQ, INPUT)).astype(np.float32)
    y = rng.standard_normal((BATCH, 1)).astype(np.float32)
    x1 = x[:1]
    ws, head = weights()
    steps = {"train": {"cellgrad": cellgrad_train(ws, head, x, y)},
             "infer": {"cellgrad": cellgrad_infer(ws, head, x1)}}
    torch = torch_or_none()
    if torch is not None:
        check_same(torch, ws, head, x)
        steps["train"]["pytorch"] = torch_train(torch, ws, head, x, y)
        steps["infer"]["pytorch"] = torch_infer(torch, ws, head, x1)
    got = {kind: {name: float("inf") for name in fns} for kind, fns in steps.items()}
    for _ in range(rounds):
        for kind, fns in steps.items():
            n = repeat if kind == "train" else 10 * repeat
            for name, step in fns.items():
                got[kind][name] = min(got[kind][name], cpu_median_ms(step, n))
    return got


def add_rows(table, repeat):
    """run_all.py's rows: training (target 1.0x PyTorch) and batch-1 inference (0.8x)."""
    got = measure(repeat)
    table.timed("lstm_step training, CPU time", got["train"], 1.0)
    table.timed("lstm_step inference batch 1, CPU time", got["infer"], 0.8)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=30)
    args = p.parse_args()
    got = measure(args.repeat)
    shape = f"{LAYERS} layers, input {INPUT}, hidden {HIDDEN}, seq {SEQ}"
    report(f"lstm_step: training, {shape}, batch {BATCH}, Adam (CPU ms per step, median)",
           got["train"])
    report(f"lstm_step: inference, {shape}, batch 1 (CPU ms per call, median)", got["infer"])


if __name__ == "__main__":
    main()
