"""`ms.jit` training steps (issue 24 item 5): the MLP 784-512-512-10 (batch 64, softmax
cross-entropy, SGD) and the deep chain 64 x Dense(256) + ReLU (batch 32, MSE, SGD), each as
`ms.jit(TrainOneStepCell)` against eager cellgrad, eager PyTorch and `torch.compile` (its
compile time reported apart; skipped when it fails here). Also the first jitted call (the
trace) against one eager step. Thread CPU time, one thread, contenders interleaved round by
round, medians.

    python benchmarks/jit_step.py [--rounds 15] [--per-round 10]
    python benchmarks/jit_step.py --breakdown     # where a jitted step's time goes
    python benchmarks/jit_step.py --allocations   # arrays of >= 4 KiB malloc'd per step
    python benchmarks/jit_step.py --floor         # what any replay must spend: the products

`--breakdown` wraps every kernel the generated replay calls (each op's forward and backward,
the optimizer's updates inside and after the backward) in a CPU-time counter; the rest is the
plan's own Python (guards, the generated glue, Tensors of the result). `--allocations` counts,
through a small malloc shim it compiles (cc) and preloads into a child process, the
allocations of >= 4 KiB (numpy's array data; smaller ones come from its caches) per step:
eager cellgrad, the plan without its buffers and optimizer fusion (`plan.BUFFERS`,
`plan.EARLY_UPDATES`, `trace.fusable` off), and the plan.

`--floor` times, interleaved round by round with the eager cellgrad step, the jitted step and
PyTorch's eager step, the workload's matrix products alone (same shapes, numpy's BLAS into
preallocated outputs, the faster orientation of each) and those products plus the SGD update's
memory traffic (one pass per weight and bias, each right after its gradient, as a fused
`p -= lr * g` moves it): what a replay, however
perfect its Python, must spend. It prints floor / PyTorch eager (the MLP's 0.6x target) and
floor / eager cellgrad (the deep chain's 0.5x target), per-round median and quartiles.
"""

import argparse
import collections
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import deep_chain
import mlp_step
import timing

TARGETS = {"mlp": ("jit / PyTorch eager", 0.6), "deep": ("jit / cellgrad eager", 0.5),
           "trace": ("first call / eager step", 3.0)}


def cellgrad_train(kind, jit):
    import cellgrad as ms
    from cellgrad import Tensor, nn

    if kind == "mlp":
        ws = mlp_step.weights()
        rng = np.random.default_rng(1)
        x = rng.standard_normal((mlp_step.BATCH, mlp_step.SIZES[0])).astype(np.float32)
        y = rng.integers(0, mlp_step.SIZES[-1], mlp_step.BATCH).astype(np.int32)
        layers = []
        for i, (w, b) in enumerate(ws):
            layers.append(nn.Dense(w.shape[1], w.shape[0], Tensor(w), Tensor(b)))
            if i < len(ws) - 1:
                layers.append(nn.ReLU())
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        lr = mlp_step.LR
    else:
        ws, x = deep_chain.data()
        y = np.zeros_like(x)
        layers = []
        for w, b in ws:
            layers += [nn.Dense(deep_chain.WIDTH, deep_chain.WIDTH, Tensor(w), Tensor(b)),
                       nn.ReLU()]
        loss, lr = nn.MSELoss(), deep_chain.LR
    net = nn.SequentialCell(layers)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), lr))
    if jit:
        ms.jit(train)
    xt, yt = Tensor(x), Tensor(y)
    return train, xt, yt


def torch_train(torch, kind, compiled):
    """A PyTorch step (and the seconds `torch.compile`'s first steps took, when compiled)."""
    if kind == "mlp":
        ws = mlp_step.weights()
        rng = np.random.default_rng(1)
        x = rng.standard_normal((mlp_step.BATCH, mlp_step.SIZES[0])).astype(np.float32)
        y = rng.integers(0, mlp_step.SIZES[-1], mlp_step.BATCH)
        loss_fn, lr = torch.nn.CrossEntropyLoss(), mlp_step.LR
        yt = torch.tensor(y, dtype=torch.long)
    else:
        ws, x = deep_chain.data()
        ws = [(w, b) for w, b in ws]
        loss_fn, lr = torch.nn.MSELoss(), deep_chain.LR
        yt = torch.zeros(x.shape)
    mods = []
    for i, (w, b) in enumerate(ws):
        lin = torch.nn.Linear(w.shape[1], w.shape[0])
        with torch.no_grad():
            lin.weight.copy_(torch.tensor(w))
            lin.bias.copy_(torch.tensor(b))
        mods.append(lin)
        if kind == "deep" or i < len(ws) - 1:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.SGD(net.parameters(), lr)
    xt = torch.tensor(x)

    def step():
        opt.zero_grad()
        loss_fn(net(xt), yt).backward()
        opt.step()

    if not compiled:
        return step, None
    step = torch.compile(step)
    t = time.perf_counter()
    step()
    step()
    return step, time.perf_counter() - t


def trace_ratio(kind, repeat=5):
    """Median over fresh networks of (first jitted call) / (one eager step, median)."""
    ratios = []
    for _ in range(repeat):
        train, x, y = cellgrad_train(kind, False)
        eager = timing.median_ms(lambda t=train, a=x, b=y: t(a, b), 5, warmup=2)
        jitted, x, y = cellgrad_train(kind, True)
        t = time.thread_time()
        jitted(x, y)
        ratios.append((time.thread_time() - t) * 1e3 / eager)
    return statistics.median(ratios)


def eager_contenders(torch, kind):
    """{name: step}: eager cellgrad, the jitted step and (when installed) eager PyTorch."""
    steps = {}
    for name, jit in (("cellgrad", False), ("cellgrad jit", True)):
        train, x, y = cellgrad_train(kind, jit)
        steps[name] = (lambda t, a, b: lambda: t(a, b))(train, x, y)
    if torch is not None:
        steps["pytorch"] = torch_train(torch, kind, False)[0]
    return steps


def measure(rounds=15, per_round=10):
    """{kind: {"median": {contender: ms}, ...}, "compile_s": {kind: s}, "trace": {kind:
    ratio}}; thread CPU time, one thread."""
    timing.configure(threads=1, cpu_time=True)
    torch = timing.torch_or_none()
    got = {"compile_s": {}, "compile_error": None, "trace": {}}
    for kind in ("mlp", "deep"):
        steps = eager_contenders(torch, kind)
        if torch is not None:
            try:
                step, seconds = torch_train(torch, kind, True)
            except Exception as e:  # no compiler toolchain, an unsupported Python, ...
                got["compile_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
            else:
                steps["torch.compile"] = step
                got["compile_s"][kind] = seconds
        per = timing.interleaved(steps, rounds, per_round)
        got[kind] = timing.summary(per, base="cellgrad jit",
                                   against="pytorch" if kind == "mlp" else "cellgrad")
        got["trace"][kind] = trace_ratio(kind)
    return got


def add_rows(table, rounds):
    """run_all.py's rows: the three targets of issue 24 item 5."""
    got = measure(rounds)
    for kind, label in (("mlp", "jit_step MLP (jit vs PyTorch)"),
                        ("deep", "jit_step deep chain (jit vs eager)")):
        med = got[kind]["median"]
        base = med["pytorch" if kind == "mlp" else "cellgrad"] if \
            kind == "deep" or "pytorch" in med else None
        ratio = None if base is None else med["cellgrad jit"] / base
        table.add(label, "ms", med["cellgrad jit"], med.get("pytorch"), med["cellgrad"],
                  ratio, "of " + ("PyTorch" if kind == "mlp" else "eager cellgrad"),
                  TARGETS[kind][1])
    for kind in ("mlp", "deep"):
        table.add(f"jit_step {kind} first call (trace)", "x", got["trace"][kind], None, None,
                  got["trace"][kind], "of one eager step", TARGETS["trace"][1])


def _sizes(kind):
    """(layer sizes, batch, learning rate) of a workload."""
    if kind == "mlp":
        return list(mlp_step.SIZES), mlp_step.BATCH, mlp_step.LR
    return [deep_chain.WIDTH] * (deep_chain.DEPTH + 1), deep_chain.BATCH, deep_chain.LR


def _product(a, b, outs, repeat=15):
    """(a call computing `a @ b` into a preallocated output in the faster of its two
    orientations: `a @ b`, or `b.T @ a.T` whose C-ordered result is the transpose, chosen by
    the run's clock; the product's value as an (a.shape[0], b.shape[1]) view). `outs`
    {shape: array}: outputs shared by shape (a gradient dead after its use, as eager's
    allocator and the plan's shared gradient arrays reuse theirs: in cache), or None."""
    shapes = ((a.shape[0], b.shape[1]), (b.shape[1], a.shape[0]))
    if outs is None:
        out, out_t = (np.empty(sh, a.dtype) for sh in shapes)
    else:
        out, out_t = (outs.setdefault(sh, np.empty(sh, a.dtype)) for sh in shapes)
    calls = [(lambda: np.matmul(a, b, out=out), out),
             (lambda: np.matmul(b.T, a.T, out=out_t), out_t.T)]
    return min(calls, key=lambda c: timing.median_ms(c[0], repeat, warmup=2))


def floor_steps(kind, seed=0):
    """(the step's matrix products alone, the products + the SGD update): two callables over
    the workload's shapes, every array preallocated, in a step's order (the forward products,
    then per layer from the last: dW, its update's traffic while dW is in cache, as the
    replay's update inside the backward does, and dX; dW and dX in arrays shared by shape).
    What any replay of the step must spend, however perfect its Python."""
    sizes, batch, _ = _sizes(kind)
    rng = np.random.default_rng(seed)

    def arr(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    forward, backward, updates, shared = [], [], [], {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        w, b, x, g = arr(n_out, n_in), arr(n_out), arr(batch, n_in), arr(batch, n_out)
        forward.append(_product(x, w.T, None)[0])  # x @ W.T: kept for the backward
        dw, dw_value = _product(g.T, x, shared)  # dW = g.T @ x
        dx = _product(g, w, shared)[0] if i else None  # dX = g @ W (not the first layer's)
        backward.append((dw, dx))
        updates.append(((w, dw_value), (b, arr(n_out))))
    backward.reverse()
    updates.reverse()

    def products():
        for f in forward:
            f()
        for dw, dx in backward:
            dw()
            if dx is not None:
                dx()

    def products_sgd():
        for f in forward:
            f()
        for (dw, dx), layer in zip(backward, updates):
            dw()
            for p, grad in layer:
                # the update's memory traffic in one pass (read the gradient and the weight,
                # write the weight), as a fused `p -= lr * g` kernel moves it; numpy's
                # `multiply` + `subtract` would be a second pass
                np.subtract(p, grad, out=p)
            if dx is not None:
                dx()

    return products, products_sgd


def floor(rounds=15, per_round=10):
    """{kind: {"median": {contender: ms}, "ratios": {label: (q1, q2, q3)}}}: the floors
    interleaved round by round with eager cellgrad, the jitted step and eager PyTorch."""
    timing.configure(threads=1, cpu_time=True)
    torch = timing.torch_or_none()
    got = {}
    for kind in ("mlp", "deep"):
        steps = eager_contenders(torch, kind)
        steps["products"], steps["products + SGD"] = floor_steps(kind)
        per = timing.interleaved(steps, rounds, per_round)
        ratios = {}
        for num, den in (("products + SGD", "pytorch"), ("products", "pytorch"),
                         ("products + SGD", "cellgrad"), ("products", "cellgrad"),
                         ("cellgrad jit", "pytorch"), ("cellgrad jit", "cellgrad")):
            if den in per:
                ratios[f"{num} / {den}"] = timing.quartiles(
                    [n / d for n, d in zip(per[num], per[den])])
        got[kind] = {"median": timing.summary(per)["median"], "ratios": ratios}
    return got


def breakdown(kind, steps=30):
    """{label: ms per step} of one jitted step: the kernels the replay calls, and the rest."""
    timing.configure(threads=1, cpu_time=True)
    train, x, y = cellgrad_train(kind, True)
    for _ in range(3):
        train(x, y)
    (plan,) = train.construct.jit_plans.values()
    names = plan.generated.__globals__
    spent = collections.Counter()

    def timed(label, fn):
        def run(*a, **k):
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                spent[label] += time.thread_time() - t
        return run

    for k, v in list(names.items()):
        if k[0] in "FUW" and callable(v):  # op forwards, ufuncs, backward rules
            names[k] = timed(getattr(v, "__name__", k), v)
        elif k[0] == "O":  # the optimizer: its construct runs the one-call update
            names[k] = type("Timed", (), {"construct": staticmethod(
                timed(f"{type(v).__name__} update after the backward", v.construct))})()
        elif k[0] == "Y":  # the optimizer's updates inside the backward, one per weight
            v.hook = timed(f"{type(v.cell).__name__} update inside the backward", v.hook)
    total = 0.0
    for _ in range(steps):
        t = time.thread_time()
        train(x, y)
        total += time.thread_time() - t
    got = {k: v * 1e3 / steps for k, v in spent.most_common()}
    got["plan's Python (guards, glue, result)"] = (total - sum(spent.values())) * 1e3 / steps
    return total * 1e3 / steps, got


_SHIM = r"""
#include <stddef.h>
extern void *__libc_malloc(size_t); extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static unsigned long n = 0;
void *malloc(size_t s) { if (s >= 4096) n++; return __libc_malloc(s); }
void *calloc(size_t a, size_t b) { if (a * b >= 4096) n++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t s) { if (s >= 4096) n++; return __libc_realloc(p, s); }
unsigned long big_allocations(void) { return n; }
"""


def allocations_child(steps=20):
    import ctypes

    import cellgrad_jit.plan as plan
    import cellgrad_jit.trace as trace

    count = ctypes.CDLL(None).big_allocations
    fusable = trace.fusable
    for kind in ("mlp", "deep"):
        row = []
        for label, jit, bare in (("eager", False, False), ("plan, no buffers/fusion", True, True),
                                 ("plan", True, False)):
            plan.BUFFERS = plan.EARLY_UPDATES = not bare
            trace.fusable = (lambda *a: False) if bare else fusable
            train, x, y = cellgrad_train(kind, jit)
            for _ in range(3):
                train(x, y)
            before = count()
            for _ in range(steps):
                train(x, y)
            row.append(f"{label} {(count() - before) / steps:.0f}")
        print(f"jit_step {kind}: allocations >= 4 KiB per step: " + ", ".join(row))


def allocations():
    """Run `allocations_child` under the malloc shim (compiled here with cc)."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = pathlib.Path(tmp) / "count.so"
        (pathlib.Path(tmp) / "count.c").write_text(_SHIM)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib),
                        str(pathlib.Path(tmp) / "count.c")], check=True)
        env = dict(os.environ, LD_PRELOAD=str(lib))
        subprocess.run([sys.executable, __file__, "--allocations-child"], check=True, env=env)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--per-round", type=int, default=10)
    p.add_argument("--breakdown", action="store_true")
    p.add_argument("--allocations", action="store_true")
    p.add_argument("--floor", action="store_true")
    p.add_argument("--allocations-child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.floor:
        got = floor(args.rounds, args.per_round)
        for kind, s in got.items():
            print(f"jit_step {kind} floor (thread CPU ms per step, 1 thread, median of "
                  f"{args.rounds} interleaved rounds)")
            for name, v in s["median"].items():
                print(f"  {name:16s} {v:8.3f} ms")
            for label, (q1, q2, q3) in s["ratios"].items():
                target = {"pytorch": TARGETS["mlp"][1], "cellgrad": TARGETS["deep"][1]}[
                    label.rsplit(" / ", 1)[1]]
                print(f"  {label:32s} {q2:5.2f}x (quartiles {q1:.2f}-{q3:.2f}), "
                      f"target <= {target}x")
        return
    if args.allocations_child:
        return allocations_child()
    if args.allocations:
        return allocations()
    if args.breakdown:
        for kind in ("mlp", "deep"):
            total, parts = breakdown(kind)
            print(f"jit_step {kind}: {total:.2f} ms per jitted step (thread CPU time, 1 thread)")
            for label, ms in parts.items():
                print(f"  {label:40s} {ms:7.2f} ms  {100 * ms / total:5.1f}%")
        return
    got = measure(args.rounds, args.per_round)
    for kind, title in (("mlp", "MLP 784-512-512-10, batch 64, SGD"),
                        ("deep", "deep chain 64 x Dense(256) + ReLU, batch 32, SGD")):
        s = got[kind]
        print(f"jit_step {title} (thread CPU ms per step, median of {args.rounds} rounds)")
        for name, v in s["median"].items():
            print(f"  {name:14s} {v:8.3f} ms  (spread +-{100 * s['spread'][name]:.0f}%)")
        q1, q2, q3 = s["ratio"]
        label, target = TARGETS[kind]
        print(f"  {label}: {q2:.2f}x (quartiles {q1:.2f}-{q3:.2f}), target <= {target}x")
        if kind in got["compile_s"]:
            print(f"  torch.compile: first two calls took {got['compile_s'][kind]:.1f} s")
        print(f"  first jitted call (trace) / one eager step: {got['trace'][kind]:.2f}x, "
              f"target <= {TARGETS['trace'][1]}x")
    if got["compile_error"]:
        print(f"torch.compile skipped: {got['compile_error']}")


if __name__ == "__main__":
    main()
