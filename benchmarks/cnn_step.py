"""One training step of LeNet-5 (conv 6@5 valid, ReLU, maxpool 2, conv 16@5 valid, ReLU,
maxpool 2, flatten, dense 256-120-84-10; batch 32 x 1 x 28 x 28; SGD), without and with
BatchNorm2d after each conv: cellgrad, PyTorch and hand-written numpy (im2col, no BatchNorm).

    python benchmarks/cnn_step.py [--repeat 50] [--profile] [--calls]

`--profile` also prints where cellgrad's step spends its time (cProfile, by own time; numpy
and BLAS calls are counted in the Python function that makes them). `--calls` prints the
Python-visible calls of one cellgrad step (`sys.setprofile`: Python functions and builtins or
extension functions called from Python), the most frequent first.
"""

import argparse
import collections
import cProfile
import pstats
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import cellgrad as ms
from cellgrad import Tensor, nn
from timing import median_ms, report, torch_or_none

BATCH, LR = 32, 0.01


def cellgrad_net(bn):
    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 5, pad_mode="valid", has_bias=True)] + \
            ([nn.BatchNorm2d(cout)] if bn else []) + [nn.ReLU(), nn.MaxPool2d(2, 2)]

    return nn.SequentialCell(block(1, 6) + block(6, 16) + [
        nn.Flatten(), nn.Dense(256, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
        nn.Dense(84, 10)])


def torch_net(torch, net, bn):
    def block(cin, cout):
        return [torch.nn.Conv2d(cin, cout, 5)] + ([torch.nn.BatchNorm2d(cout)] if bn else []) + \
            [torch.nn.ReLU(), torch.nn.MaxPool2d(2)]

    tnet = torch.nn.Sequential(*block(1, 6), *block(6, 16), torch.nn.Flatten(),
                               torch.nn.Linear(256, 120), torch.nn.ReLU(),
                               torch.nn.Linear(120, 84), torch.nn.ReLU(), torch.nn.Linear(84, 10))
    ours = [p for p in net.trainable_params()]
    theirs = [p for p in tnet.parameters()]
    with torch.no_grad():
        for a, b in zip(ours, theirs):
            b.copy_(torch.tensor(a.asnumpy()).reshape(b.shape))
    return tnet


def numpy_step(params, x, y):
    """LeNet-5 forward, backward and SGD by hand (im2col convolutions, no BatchNorm)."""
    (w1, b1), (w2, b2), (w3, b3), (w4, b4), (w5, b5) = params

    def conv(a, w, b):
        cols = sliding_window_view(a, w.shape[2:], axis=(2, 3))  # N, C, OH, OW, K, K
        return np.tensordot(cols, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2) + \
            b[:, None, None], cols

    def conv_back(g, cols, w, shape):
        gw = np.tensordot(g, cols, axes=([0, 2, 3], [0, 2, 3]))
        gx = np.zeros(shape, g.dtype)
        k = w.shape[2]
        oh, ow = g.shape[2:]
        for i in range(k):
            for j in range(k):
                gx[:, :, i:i + oh, j:j + ow] += np.einsum("nohw,oc->nchw", g, w[:, :, i, j])
        return gx, gw, g.sum(axis=(0, 2, 3))

    def pool(a):
        n, c, h, w = a.shape
        r = a.reshape(n, c, h // 2, 2, w // 2, 2)
        out = r.max(axis=(3, 5))
        mask = r == out[:, :, :, None, :, None]
        return out, mask

    def step():
        z1, c1 = conv(x, w1, b1)
        a1, m1 = pool(np.maximum(z1, 0))
        z2, c2 = conv(a1, w2, b2)
        a2, m2 = pool(np.maximum(z2, 0))
        f = a2.reshape(len(x), -1)
        h3 = np.maximum(f @ w3.T + b3, 0)
        h4 = np.maximum(h3 @ w4.T + b4, 0)
        logits = h4 @ w5.T + b5
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        g = e / e.sum(axis=1, keepdims=True)
        g[np.arange(len(y)), y] -= 1
        g /= len(y)
        grads = [(g.T @ h4, g.sum(0))]
        g = (g @ w5) * (h4 > 0)
        grads.append((g.T @ h3, g.sum(0)))
        g = (g @ w4) * (h3 > 0)
        grads.append((g.T @ f, g.sum(0)))
        g = (g @ w3).reshape(a2.shape)
        g = (m2 * g[:, :, :, None, :, None]).reshape(z2.shape) * (z2 > 0)
        gx2, gw2, gb2 = conv_back(g, c2, w2, a1.shape)
        g = (m1 * gx2[:, :, :, None, :, None]).reshape(z1.shape) * (z1 > 0)
        _, gw1, gb1 = conv_back(g, c1, w1, x.shape)
        for (w, b), (gw, gb) in zip(params, [(gw1, gb1), (gw2, gb2)] + grads[::-1]):
            w -= LR * gw
            b -= LR * gb

    return step


def profile(step, repeat, top=15):
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(repeat):
        step()
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def count_calls(step, top=15):
    """{'python': n, 'builtin': n} calls of one `step()`, after printing the `top` callees."""
    step()
    seen = collections.Counter()

    def hook(frame, event, arg):
        if event == "call":
            seen["python", f"{frame.f_code.co_filename.split('/')[-1]}:{frame.f_code.co_name}"] += 1
        elif event == "c_call":
            seen["builtin", getattr(arg, "__qualname__", repr(arg))] += 1

    sys.setprofile(hook)
    try:
        step()
    finally:
        sys.setprofile(None)
    for (kind, name), n in seen.most_common(top):
        print(f"    {n:5d}  {kind:<8} {name}")
    return {kind: sum(n for (k, _), n in seen.items() if k == kind)
            for kind in ("python", "builtin")}


def data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((BATCH, 1, 28, 28)).astype(np.float32),
            rng.integers(0, 10, BATCH).astype(np.int32))


def steps(bn, x, y):
    """{contender: step callable} of LeNet-5 (with BatchNorm2d after each conv when `bn`; the
    hand-written numpy step only without): the same initial weights in each."""
    ms.set_seed(0)
    net = cellgrad_net(bn)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), LR))
    xt, yt = Tensor(x), Tensor(y)
    got = {"cellgrad": lambda: train(xt, yt)}
    torch = torch_or_none()
    if torch is not None:
        tnet = torch_net(torch, cellgrad_net(bn), bn)
        opt = torch.optim.SGD(tnet.parameters(), LR)
        tx, ty = torch.tensor(x), torch.tensor(y, dtype=torch.long)

        def tstep():
            opt.zero_grad()
            torch.nn.functional.cross_entropy(tnet(tx), ty).backward()
            opt.step()

        got["pytorch"] = tstep
    if not bn:
        params = [(p.asnumpy().copy(), q.asnumpy().copy()) for p, q in zip(
            net.trainable_params()[::2], net.trainable_params()[1::2])]
        got["numpy"] = numpy_step(params, x, y)
    return got


def measure(repeat, show_profile=False, show_calls=False):
    """{bn: {contender: ms per step}} for bn in (False, True)."""
    x, y = data()
    out = {}
    for bn in (False, True):
        contenders = steps(bn, x, y)
        if show_profile:
            profile(contenders["cellgrad"], repeat)
        if show_calls:
            print(f"Python-visible calls of one step, LeNet-5{' + BatchNorm2d' if bn else ''}:")
            calls = count_calls(contenders["cellgrad"])
            print(f"  total {sum(calls.values())} ({calls['python']} Python functions, "
                  f"{calls['builtin']} builtins)")
        out[bn] = {c: median_ms(step, repeat) for c, step in contenders.items()}
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--profile", action="store_true", help="print a cProfile of the step")
    p.add_argument("--calls", action="store_true",
                   help="print the Python-visible calls of one step")
    args = p.parse_args()
    for bn, results in measure(args.repeat, args.profile, args.calls).items():
        report(f"cnn_step: LeNet-5{' + BatchNorm2d' if bn else ''}, batch {BATCH}, SGD "
               f"(ms per step, median)", results)


if __name__ == "__main__":
    main()
