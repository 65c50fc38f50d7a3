"""A deep chain: 64 Dense(256, 256) + ReLU layers, batch 32, one SGD training step; cellgrad,
PyTorch and hand-written numpy, ms per step, and the peak RSS of this process per contender
(each measured in a fresh subprocess so peaks do not mix). With `--steps N` each contender
then runs N more steps and reports its resident set after the first 10% of them and at the end:
memory that grows per step shows as the difference.

    python benchmarks/deep_chain.py [--repeat 50] [--steps 1000]
"""

import argparse
import json
import resource
import subprocess
import sys

import numpy as np

from timing import median_ms, report, torch_or_none

DEPTH, WIDTH, BATCH, LR = 64, 256, 32, 0.01


def data():
    rng = np.random.default_rng(0)
    ws = [((rng.standard_normal((WIDTH, WIDTH)) * np.sqrt(1 / WIDTH)).astype(np.float32),
           np.zeros(WIDTH, np.float32)) for _ in range(DEPTH)]
    return ws, rng.standard_normal((BATCH, WIDTH)).astype(np.float32)


def cellgrad_step(ws, x):
    import cellgrad as ms
    from cellgrad import Tensor, nn

    layers = []
    for w, b in ws:
        layers += [nn.Dense(WIDTH, WIDTH, Tensor(w), Tensor(b)), nn.ReLU()]
    net = nn.SequentialCell(layers)
    loss = nn.MSELoss()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), LR))
    xt, yt = Tensor(x), ms.Tensor(np.zeros_like(x))
    return lambda: train(xt, yt)


def torch_step(torch, ws, x):
    mods = []
    for w, b in ws:
        lin = torch.nn.Linear(WIDTH, WIDTH)
        with torch.no_grad():
            lin.weight.copy_(torch.tensor(w))
            lin.bias.copy_(torch.tensor(b))
        mods += [lin, torch.nn.ReLU()]
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.SGD(net.parameters(), LR)
    xt, yt = torch.tensor(x), torch.zeros(x.shape)

    def step():
        opt.zero_grad()
        torch.nn.functional.mse_loss(net(xt), yt).backward()
        opt.step()

    return step


def numpy_step(ws, x):
    ws = [(w.copy(), b.copy()) for w, b in ws]

    def step():
        acts = [x]
        for w, b in ws:
            acts.append(np.maximum(acts[-1] @ w.T + b, 0))
        g = 2 * acts[-1] / acts[-1].size
        for i in range(DEPTH - 1, -1, -1):
            g = g * (acts[i + 1] > 0)
            w, b = ws[i]
            gw, gb = g.T @ acts[i], g.sum(axis=0)
            g = g @ w
            w -= LR * gw
            b -= LR * gb

    return step


def rss_mb(field="VmRSS"):
    """This process's current (VmRSS) or peak (VmHWM) resident set size in MB, from Linux's
    /proc; ru_maxrss would do for the peak but survives exec, so it reports a big parent's."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(name, repeat, steps=0):
    ws, x = data()
    if name == "cellgrad":
        step = cellgrad_step(ws, x)
    elif name == "pytorch":
        torch = torch_or_none()
        if torch is None:
            return None
        step = torch_step(torch, ws, x)
    else:
        step = numpy_step(ws, x)
    ms_per_step = median_ms(step, repeat)
    peak_mb = rss_mb("VmHWM")
    got = {"ms": ms_per_step, "peak_mb": peak_mb}
    if steps:
        for i in range(steps):
            step()
            if i == steps // 10:
                got["rss_early_mb"] = rss_mb()
        got["rss_end_mb"] = rss_mb()
        got["peak_end_mb"] = rss_mb("VmHWM")
    return got


def measure_all(repeat, steps=0):
    """{contender: measure(...)}, each contender in a fresh interpreter."""
    results = {}
    for name in ("cellgrad", "pytorch", "numpy"):
        out = subprocess.run([sys.executable, __file__, "--one", name, "--repeat", str(repeat),
                              "--steps", str(steps)], capture_output=True, text=True, check=True)
        got = json.loads(out.stdout.strip().splitlines()[-1])
        if got is not None:
            results[name] = got
    return results


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--steps", type=int, default=0, help="extra steps for the flat-RSS check")
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.repeat, args.steps)))
        return
    got = measure_all(args.repeat, args.steps)
    report(f"deep_chain: {DEPTH} x Dense({WIDTH}) + ReLU, batch {BATCH}, SGD step "
           f"(ms per step, median)", {k: v["ms"] for k, v in got.items()})
    print("  peak RSS: " + ", ".join(f"{k} {v['peak_mb']:.0f} MB" for k, v in got.items()))
    if args.steps:
        print(f"  RSS over {args.steps} more steps (after 10%, at the end; peak): " + ", ".join(
            f"{k} {v['rss_early_mb']:.0f} -> {v['rss_end_mb']:.0f} MB; {v['peak_end_mb']:.0f} MB"
            for k, v in got.items()))


if __name__ == "__main__":
    main()
