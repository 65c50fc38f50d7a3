"""Optimizer-update primitives (ApplyMomentum ... SparseApplyRMSProp, SGD, Adam): each updates
its Parameters in place; printed are the outputs and the Parameters afterwards."""

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, ops

np.set_printoptions(precision=5, suppress=True)
rng = np.random.default_rng(0)
G = rng.uniform(-1, 1, (3, 2)).astype(np.float32)
V = rng.uniform(-1, 1, (3, 2)).astype(np.float32)
A = rng.uniform(0.1, 1, (3, 2)).astype(np.float32)


def P(values, name):
    return Parameter(Tensor(np.array(values, np.float32)), name=name)


def show(title, out, *params):
    outs = out if isinstance(out, tuple) else (out,)
    if not any(k in title for k in ("ApplyRMSProp", "CenteredRMSProp", "Adam-", "Adam ")) or \
            title.startswith("ApplyAdamWith"):  # MindSpore's CPU kernels of these output zeros
        print(title, [np.round(o.asnumpy(), 5).tolist() for o in outs])
    else:
        print(title)
    print("  params", [np.round(p.asnumpy(), 5).tolist() for p in params])


f = np.float32
var, acc = P(V, "v"), P(A, "a")
show("ApplyMomentum", ops.ApplyMomentum()(var, acc, f(0.1), Tensor(G), f(0.9)), var, acc)
var, acc = P(V, "v"), P(A, "a")
show("ApplyMomentum-nesterov", ops.ApplyMomentum(use_nesterov=True)(var, acc, f(0.1), Tensor(G),
                                                                    f(0.9)), var, acc)
var = P(V, "v")
show("ApplyGradientDescent", ops.ApplyGradientDescent()(var, f(0.1), Tensor(G)), var)
var, acc = P(V, "v"), P(A, "a")
show("ApplyAdagrad", ops.ApplyAdagrad()(var, acc, f(0.1), Tensor(G)), var, acc)
var, acc = P(V, "v"), P(A, "a")
show("ApplyAdagrad-noslots", ops.ApplyAdagrad(update_slots=False)(var, acc, f(0.1), Tensor(G)),
     var, acc)
var, acc = P(V, "v"), P(A, "a")
show("ApplyAdagradV2", ops.ApplyAdagradV2(1e-6)(var, acc, f(0.1), Tensor(G)), var, acc)
var, acc, upd = P(V, "v"), P(A, "a"), P(A * 0.5, "u")
show("ApplyAdadelta", ops.ApplyAdadelta()(var, acc, upd, f(0.1), f(0.9), f(1e-6), Tensor(G)),
     var, acc, upd)
var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
show("ApplyAdaMax", ops.ApplyAdaMax()(var, m, v, f(0.9), f(0.1), f(0.9), f(0.99), f(1e-8),
                                      Tensor(G)), var, m, v)
var, m = P(V, "v"), P(-A, "m")
show("ApplyAddSign", ops.ApplyAddSign()(var, m, f(0.1), f(1.0), f(0.5), f(0.9), Tensor(G)),
     var, m)
var, m = P(V, "v"), P(-A, "m")
show("ApplyPowerSign", ops.ApplyPowerSign()(var, m, f(0.1), f(np.e), f(0.5), f(0.9), Tensor(G)),
     var, m)
var, ms_, mom = P(V, "v"), P(A, "ms"), P(A * 0.1, "mom")
show("ApplyRMSProp", ops.ApplyRMSProp()(var, ms_, mom, Tensor(f(0.1)), Tensor(G), f(0.9), f(0.5),
                                        f(1e-6)), var, ms_, mom)
var, mg, ms_, mom = P(V, "v"), P(A * 0.1, "mg"), P(A, "ms"), P(A * 0.1, "mom")
show("ApplyCenteredRMSProp", ops.ApplyCenteredRMSProp()(var, mg, ms_, mom, Tensor(G),
                                                        Tensor(f(0.1)), f(0.9), f(0.5), f(1e-6)),
     var, mg, ms_, mom)
var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
show("ApplyFtrl", ops.ApplyFtrl()(var, acc, lin, Tensor(G), f(0.1), f(0.01), f(0.02), f(-0.5)),
     var, acc, lin)
var, acc = P(V, "v"), P(A, "a")
show("ApplyProximalAdagrad", ops.ApplyProximalAdagrad()(var, acc, f(0.1), f(0.01), f(0.02),
                                                        Tensor(G)), var, acc)
var = P(V, "v")
show("ApplyProximalGradientDescent", ops.ApplyProximalGradientDescent()(
    var, f(0.1), f(0.05), f(0.02), Tensor(G)), var)
var, m, v, vh = P(V, "v"), P(A * 0.1, "m"), P(A, "vv"), P(A * 1.2, "vh")
show("ApplyAdamWithAmsgrad", ops.ApplyAdamWithAmsgrad()(
    var, m, v, vh, Tensor(f(0.9)), Tensor(f(0.999)), Tensor(f(0.01)), Tensor(G)), var, m, v, vh)
var, m, v, vh = P(V, "v"), P(A * 0.1, "m"), P(A, "vv"), P(A * 1.2, "vh")
show("ApplyAdamWithAmsgradV2", ops.ApplyAdamWithAmsgradV2()(
    var, m, v, vh, Tensor(f(0.9)), Tensor(f(0.999)), Tensor(f(0.01)), Tensor(f(0.9)),
    Tensor(f(0.999)), Tensor(f(1e-8)), Tensor(G)), var, m, v, vh)
var, acc, st = P(V, "v"), P(A, "a"), P(np.ones((3, 2)), "s")
show("SGD", ops.SGD(0.1, 0.01, False)(var, Tensor(G), Tensor(f(0.1)), acc, Tensor(f(0.9)), st),
     var, acc, st)
var, acc, st = P(V, "v"), P(A, "a"), P(np.zeros((3, 2)), "s")
show("SGD-nesterov-stat0", ops.SGD(0.0, 0.0, True)(var, Tensor(G), Tensor(f(0.1)), acc,
                                                    Tensor(f(0.9)), st), var, acc, st)
var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
show("Adam ", ops.Adam()(var, m, v, *(Tensor(f(x)) for x in (0.9, 0.999, 0.01, 0.9, 0.999, 1e-8)),
                         Tensor(G)), var, m, v)
var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
show("Adam-nesterov", ops.Adam(use_nesterov=True)(
    var, m, v, *(Tensor(f(x)) for x in (0.9, 0.999, 0.01, 0.9, 0.999, 1e-8)), Tensor(G)), var, m, v)
IDX = Tensor(np.array([2, 0], np.int32))
G2 = Tensor(G[:2])
IDX3, G3 = Tensor(np.array([2, 0, 1], np.int32)), Tensor(G)  # grad must have var's shape here
var, acc = P(V, "v"), P(A, "a")
show("SparseApplyAdagrad", ops.SparseApplyAdagrad(0.1)(var, acc, G2, IDX), var, acc)
var, acc = P(V, "v"), P(A, "a")
show("SparseApplyAdagradV2", ops.SparseApplyAdagradV2(0.1, 1e-6)(var, acc, G2, IDX), var, acc)
var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
show("SparseApplyFtrl", ops.SparseApplyFtrl(0.1, 0.01, 0.02, -0.5)(var, acc, lin, G2, IDX),
     var, acc, lin)
var, ms_, mom = P(V, "v"), P(A, "ms"), P(A * 0.1, "mom")
show("SparseApplyRMSProp", ops.SparseApplyRMSProp(0.9, 0.5, 1e-6)(var, ms_, mom, f(0.1), G3, IDX3),
     var, ms_, mom)
var, ga, gsa = P(V, "v"), P(A * 0.1, "ga"), P(A, "gsa")
show("ApplyAdagradDA", ops.ApplyAdagradDA()(var, ga, gsa, Tensor(G), f(0.1), f(0.01), f(0.02),
                                            Tensor(np.int32(2))), var, ga, gsa)
