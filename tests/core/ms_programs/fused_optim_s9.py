"""Fused optimizer primitives MindSpore 2.10's CPU build runs (FusedSparseAdam,
FusedSparseLazyAdam, FusedSparseFtrl, FusedSparseProximalAdagrad, AdamNoUpdateParam,
FusedCastAdamWeightDecay): the Parameters after one update, with a repeated index; the first
output (the others MindSpore calls useless)."""

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, ops

np.set_printoptions(precision=5, suppress=True)
rng = np.random.default_rng(0)
V = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
A = rng.uniform(0.1, 1, (4, 2)).astype(np.float32)
G = rng.uniform(-1, 1, (3, 2)).astype(np.float32)
IDX = Tensor(np.array([2, 0, 2], np.int32))
f = np.float32


def P(values, name, dtype=ms.float32):
    return Parameter(Tensor(np.array(values, np.float32), dtype), name=name)


def T(x):
    return Tensor(np.array(x, np.float32))


def show(title, out, *params):
    first = out[0] if isinstance(out, tuple) else out
    print(title, np.round(first.asnumpy().astype(np.float32), 5).tolist())
    print("  params", [np.round(p.asnumpy().astype(np.float32), 5).tolist() for p in params])


for name in ("FusedSparseAdam", "FusedSparseLazyAdam"):
    for nesterov in (False, True):
        var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
        out = getattr(ops, name)(use_nesterov=nesterov)(
            var, m, v, T(0.9), T(0.999), T(0.1), T(0.9), T(0.999), T(1e-8), Tensor(G), IDX)
        show(f"{name}-nesterov={nesterov}", out, var, m, v)
var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
show("FusedSparseFtrl", ops.FusedSparseFtrl(0.1, 0.01, 0.02, -0.5)(var, acc, lin, Tensor(G), IDX),
     var, acc, lin)
var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
show("FusedSparseFtrl-fixed-lr", ops.FusedSparseFtrl(0.5, 0.3, 0.0, 0.0)(
    var, acc, lin, Tensor(G), IDX), var, acc, lin)
var, acc = P(V, "v"), P(A, "a")
show("FusedSparseProximalAdagrad", ops.FusedSparseProximalAdagrad()(
    var, acc, T(0.1), T(0.01), T(0.02), Tensor(G), IDX), var, acc)
var, acc = P(V, "v"), P(A, "a")
show("FusedSparseProximalAdagrad-l1", ops.FusedSparseProximalAdagrad()(
    var, acc, T(0.5), T(0.4), T(0.0), Tensor(G), IDX), var, acc)
for nesterov in (False, True):
    m, v = P(A[:3] * 0.1, "m"), P(A[:3], "vv")
    show(f"AdamNoUpdateParam-nesterov={nesterov}", ops.AdamNoUpdateParam(use_nesterov=nesterov)(
        m, v, T(0.9), T(0.999), T(0.1), T(0.9), T(0.999), T(1e-8), Tensor(G)), m, v)
for dtype in (ms.float32, ms.float16):
    for decay, norm in ((0.01, 2.0), (0.0, 1.0)):
        var, m, v = P(V[:3], "v", dtype), P(A[:3] * 0.1, "m"), P(A[:3], "vv")
        out = ops.FusedCastAdamWeightDecay()(var, m, v, f(0.1), f(0.9), f(0.999), f(1e-8),
                                             f(decay), Tensor(G, dtype), f(norm))
        print("FusedCastAdamWeightDecay", dtype, decay, norm, var.dtype)
        print("  params", [np.round(p.asnumpy().astype(np.float32), 5).tolist()
                           for p in (var, m, v)])

# Adafactor: a matrix (row/column factors), a rank-3 Tensor and a vector, each flag
AG = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
AP = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
for shape in ((3, 4), (2, 3, 2), (5,)):
    for flags in ((False, False, False), (True, False, False), (False, True, False),
                  (False, False, True), (True, True, True)):
        for with_norm in (False, True):
            size = int(np.prod(shape))
            grad = Tensor(AG.reshape(-1)[:size].reshape(shape))
            param = P(AP.reshape(-1)[:size].reshape(shape), "p")
            exp_avg = P(np.full(shape, 0.05), "ea")
            row = P(np.full(shape[:-1] or (1,), 0.5), "r")
            col = P(np.full(shape[:-2] + shape[-1:] if len(shape) > 1 else (1,), 0.4), "c")
            exp_avg_sq = P(np.full(shape, 0.3), "eas")
            args = ((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03, grad, param, exp_avg, row, col,
                    exp_avg_sq)
            if with_norm:
                out = ops.FusedAdaFactorWithGlobalNorm(*flags)(*args, Tensor(np.float32(1.5)))
            else:
                out = ops.FusedAdaFactor(*flags)(*args)
            print("FusedAdaFactor", shape, flags, with_norm, type(out).__name__, len(out))
            print("  params", [np.round(p.asnumpy(), 5).tolist()
                               for p in (param, exp_avg, row, col, exp_avg_sq)])
