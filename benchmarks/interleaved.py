"""mlp_step, inference (batch 1 and 256), deep_chain and LeNet-5 (cnn_step, without and with
BatchNorm2d) with cellgrad, PyTorch and numpy taking turns round by round in one process: the mode
to quote on a shared machine.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
        python benchmarks/interleaved.py --threads 1 --cpu-time [--rounds 31] [--only mlp_step]

Each round times every contender `per_round` steps (the first contender rotates); a workload's
number is the median over rounds of each round's median, its spread half the interquartile
range, and its ratio to PyTorch the median of the per-round ratios (so a burst of a neighbour's
load, which hits both contenders of a round alike, cancels out).
"""

import argparse
import statistics

import numpy as np

import cnn_step
import deep_chain
import inference
import mlp_step
import timing

WORKLOADS = ("mlp_step", "inference b1", "inference b256", "deep_chain", "lenet", "lenet+bn")
PER_ROUND = {"mlp_step": 10, "inference b1": 100, "inference b256": 10, "deep_chain": 3,
             "lenet": 10, "lenet+bn": 10}
# Each Dense workload's matrix-product FLOPs (timing.dense_flops), for its ratio to the FLOP
# limit, and issue 23's target for that ratio where it states one.
FLOPS = {"mlp_step": timing.dense_flops(mlp_step.SIZES, mlp_step.BATCH, True),
         "inference b1": timing.dense_flops(mlp_step.SIZES, 1, False),
         "inference b256": timing.dense_flops(mlp_step.SIZES, 256, False),
         "deep_chain": timing.dense_flops((deep_chain.WIDTH,) * (deep_chain.DEPTH + 1),
                                          deep_chain.BATCH, True)}
LIMIT_TARGETS = {"mlp_step": 1.6, "deep_chain": 2.5}


def limit_line(name, s):
    """`name`'s FLOP limit (at the rounds' median GEMM rate) and each contender's time as a
    multiple of it; cellgrad's per round (each round's own rate): median [q1, q3]."""
    limit = FLOPS[name] / s["peak_gflops"] / 1e6
    rel = "  ".join(f"{c} {ms / limit:.2f}x" for c, ms in s["median"].items())
    q1, q2, q3 = s["limit"]
    target = f" (target <= {LIMIT_TARGETS[name]:g}x)" if name in LIMIT_TARGETS else ""
    return (f"  {'':<15} FLOP limit {limit:.3f} ms ({FLOPS[name] / 1e6:.1f} MFLOP at "
            f"{s['peak_gflops']:.0f} GFLOP/s): {rel}; cellgrad per round {q2:.2f}x "
            f"[{q1:.2f}, {q3:.2f}]{target}")


def _torch_mlp_eval(torch, ws):
    mods = []
    for i, (w, b) in enumerate(ws):
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(torch.tensor(w))
            lin.bias.copy_(torch.tensor(b))
        mods += [lin] + ([torch.nn.ReLU()] if i < len(ws) - 1 else [])
    return torch.nn.Sequential(*mods).eval()


def steps(name):
    """{contender: step callable} of one workload."""
    from cellgrad import Tensor

    torch = timing.torch_or_none()
    got = {}
    if name == "mlp_step":
        rng = np.random.default_rng(1)
        x = rng.standard_normal((mlp_step.BATCH, mlp_step.SIZES[0])).astype(np.float32)
        y = rng.integers(0, mlp_step.SIZES[-1], mlp_step.BATCH).astype(np.int32)
        ws = mlp_step.weights()
        got["cellgrad"] = mlp_step.cellgrad_step(ws, x, y)
        if torch is not None:
            got["pytorch"] = mlp_step.torch_step(torch, ws, x, y)
        got["numpy"] = mlp_step.numpy_step(ws, x, y)
    elif name.startswith("inference"):
        batch = int(name.split()[1][1:])
        ws = mlp_step.weights()
        x = np.random.default_rng(batch).standard_normal(
            (batch, mlp_step.SIZES[0])).astype(np.float32)
        net, xt = inference.cellgrad_forward(ws), Tensor(x)
        got["cellgrad"] = lambda: net(xt)
        if torch is not None:
            tnet, tx = _torch_mlp_eval(torch, ws), torch.tensor(x)

            def torch_forward():
                with torch.no_grad():
                    return tnet(tx)

            got["pytorch"] = torch_forward

        def numpy_forward():
            a = x
            for i, (w, b) in enumerate(ws):
                a = a @ w.T + b
                if i < len(ws) - 1:
                    a = np.maximum(a, 0)
            return a

        got["numpy"] = numpy_forward
    elif name in ("lenet", "lenet+bn"):
        got.update(cnn_step.steps(name == "lenet+bn", *cnn_step.data()))
    elif name == "deep_chain":
        ws, x = deep_chain.data()
        got["cellgrad"] = deep_chain.cellgrad_step(ws, x)
        if torch is not None:
            got["pytorch"] = deep_chain.torch_step(torch, ws, x)
        got["numpy"] = deep_chain.numpy_step(ws, x)
    else:
        raise ValueError(f"interleaved.steps: unknown workload {name!r}, expected one of "
                         f"{WORKLOADS}")
    return got


def measure(rounds, only=WORKLOADS, scale=1.0):
    """{workload: timing.summary(...)} with every workload's contenders interleaved, plus
    "limit" (cellgrad's time against the FLOP limit per round: q1, median, q3) and
    "peak_gflops" (the median rate of a 1024^3 GEMM timed once in each round)."""
    got = {}
    for name in only:
        contenders = steps(name)
        per = {c: max(1, round(PER_ROUND[name] * scale)) for c in contenders}
        if name in FLOPS:
            contenders["gemm peak"], per["gemm peak"] = timing.gemm_step(), 1
        rounds_ms = timing.interleaved(contenders, rounds, per)
        s = got[name] = timing.summary({c: v for c, v in rounds_ms.items() if c != "gemm peak"})
        if name in FLOPS:
            s["limit"] = timing.limit_ratios(rounds_ms, FLOPS[name])
            s["peak_gflops"] = (2 * timing.PEAK_N ** 3 / statistics.median(rounds_ms["gemm peak"])
                                / 1e6)
    return got


def print_table(got):
    clock = "thread CPU time" if timing.CPU_TIME else "wall time"
    print(f"{clock}, {timing.THREADS} thread(s); median of round medians (ms) +- half the "
          f"interquartile range; cellgrad/PyTorch per round: median [q1, q3]")
    for name, s in got.items():
        cells = "  ".join(f"{c} {s['median'][c]:8.3f} +-{100 * s['spread'][c]:4.1f}%"
                          for c in s["median"])
        r = s["ratio"]
        ratio = f"  ratio {r[1]:.2f}x [{r[0]:.2f}, {r[2]:.2f}]" if r else ""
        print(f"  {name:<15} {cells}{ratio}")
        if "limit" in s:
            print(limit_line(name, s))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=timing.THREADS)
    p.add_argument("--cpu-time", action="store_true", help="thread CPU time (needs --threads 1)")
    p.add_argument("--rounds", type=int, default=31)
    p.add_argument("--scale", type=float, default=1.0, help="multiplies the steps per round")
    p.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    args = p.parse_args()
    timing.configure(args.threads, args.cpu_time)
    for line in timing.blas_lines():
        print(line)
    print_table(measure(args.rounds, [w.strip() for w in args.only.split(",")], args.scale))


if __name__ == "__main__":
    main()
