"""One LeNet-5 training step (benchmarks/cnn_step.py's network, batch 32, SGD) in mixed
precision: cellgrad at amp O2 (`Model`'s train step: float16 network, float32 loss, dynamic loss
scaling) against cellgrad in float32 and PyTorch `autocast` on the CPU (bfloat16, the dtype
PyTorch's CPU autocast supports) with a float32 step for reference.

    python benchmarks/amp_step.py [--repeat 20]

Issue 25's targets: the O2 step <= 1.1x our float32 step and <= 1.0x PyTorch autocast. The O2
step keeps activations and parameter copies in float16 and runs the convolutions, GEMMs and
pooling in float32 (F16C conversions, `cellgrad_nn/_kernels/lowp.pyx`), rounding each result
to float16 once; ReLU and 2x2 max pooling work on the 16-bit patterns.
"""

import argparse
import statistics

import numpy as np

import cellgrad as ms
from cellgrad import Tensor, amp, nn
from cnn_step import BATCH, LR, cellgrad_net, torch_net
from timing import median_ms, report, torch_or_none


def cellgrad_step(level):
    ms.set_seed(0)
    net = cellgrad_net(False)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # a modest fixed scale: the O2 default (2**24) skips its first steps, which would time
    # a step that never reaches the optimizer
    manager = ms.train.DynamicLossScaleManager(2 ** 10, 2, 1000) if level == "O2" else None
    return amp.build_train_network(net, nn.SGD(net.trainable_params(), LR), loss, level,
                                   loss_scale_manager=manager)


def measure(repeat, rounds=5):
    """{contender: ms per step}: the median of `rounds` medians, the contenders interleaved
    round by round so a busy neighbour slows them alike."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, 1, 28, 28)).astype(np.float32)
    y = rng.integers(0, 10, BATCH).astype(np.int32)
    xt, yt = Tensor(x), Tensor(y)
    steps = {}
    for label, level in (("cellgrad O2", "O2"), ("cellgrad fp32", "O0")):
        step = steps[label] = cellgrad_step(level)
        if level == "O2":
            _, overflow, _ = step(xt, yt)
            assert not overflow.asnumpy(), "the timed O2 step must update the parameters"
    steps = {k: (lambda s=s: s(xt, yt)) for k, s in steps.items()}
    torch = torch_or_none()
    if torch is not None:
        tnet = torch_net(torch, cellgrad_net(False), False)
        opt = torch.optim.SGD(tnet.parameters(), LR)
        tx, ty = torch.tensor(x), torch.tensor(y, dtype=torch.long)

        def tstep(autocast):
            opt.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                loss = torch.nn.functional.cross_entropy(tnet(tx), ty)
            loss.backward()
            opt.step()

        steps["torch autocast"] = lambda: tstep(True)
        steps["torch fp32"] = lambda: tstep(False)
    got = {k: [] for k in steps}
    for _ in range(rounds):
        for k, step in steps.items():
            got[k].append(median_ms(step, max(3, repeat // rounds)))
    return {k: statistics.median(v) for k, v in got.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=20)
    args = p.parse_args()
    results = measure(args.repeat)
    o2 = results["cellgrad O2"]
    report(f"amp_step: LeNet-5, batch {BATCH}, SGD (ms per step, median)",
           {"cellgrad": o2, **{k: v for k, v in results.items() if k != "cellgrad O2"}})
    print(f"  O2 / our float32 = {o2 / results['cellgrad fp32']:.2f}x (target <= 1.1x)")
    if "torch autocast" in results:
        print(f"  O2 / torch autocast = {o2 / results['torch autocast']:.2f}x (target <= 1.0x)")


if __name__ == "__main__":
    main()
