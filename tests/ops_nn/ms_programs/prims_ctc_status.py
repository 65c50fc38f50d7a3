"""CTC, overflow-status, dropout-mask and AdamWeightDecay primitives of real MindSpore code
(issue 29): CTCLoss with its three flags, ops.ctc_loss with every reduction, the Ascend-only
primitives' errors on the CPU, AdamWeightDecay's in-place update."""

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, ops


def show(name, f):
    try:  # MindSpore reports some kernel errors when the result is first read
        out = f()
        lines = [f"{name} {o.dtype} {o.shape} {o}" if isinstance(o, Tensor) else f"{name} {o}"
                 for o in (out if isinstance(out, tuple) else (out,))]
    except Exception as e:  # noqa: BLE001 - the error class is what the replay compares
        print(name, "raises", type(e).__name__)
        return
    print("\n".join(lines))


rng = np.random.default_rng(0)
logits = Tensor(rng.standard_normal((6, 3, 5)).astype(np.float32))
idx = Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1]], np.int64))
vals = Tensor(np.array([1, 2, 2, 2, 0, 3, 3], np.int32))
seq = Tensor(np.array([6, 5, 4], np.int32))
for flags in ((False, True, False), (True, True, False), (False, False, False),
              (True, False, False)):
    show(f"CTCLoss {flags}", lambda: ops.CTCLoss(*flags)(logits, idx, vals, seq))
w = Tensor(np.array([1.0, 2.0, 0.5], np.float32))
show("CTCLoss grad", lambda: ms.grad(lambda x: (ops.CTCLoss()(x, idx, vals, seq)[0] * w).sum())(
    logits))
show("CTCLoss float64", lambda: ops.CTCLoss()(Tensor(logits.asnumpy().astype(np.float64)), idx,
                                              vals, seq))
show("CTCLoss float16 dtype", lambda: ops.CTCLoss()(
    Tensor(logits.asnumpy().astype(np.float16)), idx, vals, seq)[0].dtype)
show("CTCLoss infeasible", lambda: ops.CTCLoss()(logits, idx, vals,
                                                 Tensor(np.array([6, 3, 4], np.int32)))[0])
show("CTCLoss ignore longer", lambda: ops.CTCLoss(False, True, True)(
    logits, idx, vals, Tensor(np.array([6, 2, 4], np.int32)))[0])
show("CTCLoss longer", lambda: ops.CTCLoss()(logits, idx, vals,
                                             Tensor(np.array([6, 2, 4], np.int32))))
show("CTCLoss blank label", lambda: ops.CTCLoss()(
    logits, idx, Tensor(np.array([1, 2, 2, 4, 0, 3, 3], np.int32)), seq))
show("CTCLoss indices dtype", lambda: ops.CTCLoss()(
    logits, Tensor(idx.asnumpy().astype(np.int32)), vals, seq))
print(ops.CTCLoss(), ops.CTCLoss(True).preprocess_collapse_repeated)

lp = ops.log_softmax(logits, 2)
targets = Tensor(np.array([[1, 2, 0], [2, 2, 1], [3, 3, 4]], np.int32))
in_len = Tensor(np.array([6, 5, 4], np.int32))
tg_len = Tensor(np.array([2, 3, 2], np.int32))
for reduction in ("none", "mean", "sum"):
    show(f"ctc_loss {reduction}", lambda: ops.ctc_loss(lp, targets, in_len, tg_len, 0,
                                                       reduction)[0])
loss, log_alpha = ops.ctc_loss(lp, targets, in_len, tg_len, reduction="none")
print("log_alpha", log_alpha.shape, np.array2string(log_alpha.asnumpy(), threshold=100000,
                                                   precision=5, max_line_width=120))
show("ctc_loss blank 4", lambda: ops.ctc_loss(
    lp, Tensor(np.array([[1, 2, 0], [0, 3, 1], [3, 3, 2]], np.int32)), in_len, tg_len, 4,
    "none")[0])
show("ctc_loss zero_infinity", lambda: ops.ctc_loss(
    lp, targets, Tensor(np.array([6, 3, 4], np.int32)), tg_len, 0, "none", True)[0])
show("ctc_loss infinity", lambda: ops.ctc_loss(
    lp, targets, Tensor(np.array([6, 3, 4], np.int32)), tg_len, 0, "none", False)[0])
show("ctc_loss grad", lambda: ms.grad(lambda x: ops.ctc_loss(x, targets, in_len, tg_len)[0])(lp))
show("ctc_loss grad sum", lambda: ms.grad(
    lambda x: ops.ctc_loss(x, targets, in_len, tg_len, reduction="sum")[0])(lp))
short = Tensor(np.array([6, 3, 4], np.int32))
for zero_infinity in (True, False):
    show(f"ctc_loss grad infinite {zero_infinity}", lambda: ms.grad(lambda x: ops.ctc_loss(
        x, targets, short, tg_len, 0, "sum", zero_infinity)[0])(lp))
show("ctc_loss float64", lambda: ops.ctc_loss(Tensor(lp.asnumpy().astype(np.float64)), targets,
                                              in_len, tg_len)[0])

finite = Tensor(np.array([1.0, 2.0], np.float32))
print("FloatStatus", ops.FloatStatus())  # MindSpore 2.10 runs it on GPU only
for name, make, args in (("NPUAllocFloatStatus", ops.NPUAllocFloatStatus, ()),
                         ("NPUGetFloatStatus", ops.NPUGetFloatStatus,
                          (Tensor(np.zeros(8, np.float32)),)),
                         ("NPUClearFloatStatus", ops.NPUClearFloatStatus,
                          (Tensor(np.zeros(8, np.float32)),)),
                         ("DropoutGenMask", ops.DropoutGenMask, ((2, 5), Tensor(0.5, ms.float32))),
                         ("DropoutDoMask", ops.DropoutDoMask,
                          (finite, Tensor(np.array([255, 1], np.uint8)), Tensor(0.5, ms.float32)))):
    prim = make()
    print(name, prim)
    show(name, lambda: prim(*args))
show("FloatStatus int32", lambda: ops.FloatStatus()(Tensor(np.array([1, 2], np.int32))))
show("DropoutGenMask seed", lambda: ops.DropoutGenMask(1.5))
print(ops.DropoutGenMask(1, 2).Seed1)

var = Parameter(Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)), name="var")
m = Parameter(Tensor(np.array([[0.1, 0.2], [0.0, -0.1]], np.float32)), name="m")
v = Parameter(Tensor(np.array([[0.01, 0.02], [0.0, 0.03]], np.float32)), name="v")
g = Tensor(np.array([[0.5, -1.0], [2.0, 0.0]], np.float32))
adam = ops.AdamWeightDecay()
adam(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, g)
print("AdamWeightDecay", var.asnumpy(), m.asnumpy(), v.asnumpy())
adam(var, m, v, Tensor(0.01, ms.float32), Tensor(0.9, ms.float32), 0.999, 1e-8, 0.0, g)
print("AdamWeightDecay tensors", var.asnumpy(), m.asnumpy(), v.asnumpy())
plain = [Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.zeros(2, np.float32)),
         Tensor(np.zeros(2, np.float32))]
adam(*plain, 0.1, 0.9, 0.999, 1e-8, 0.0, Tensor(np.array([1.0, -1.0], np.float32)))
print("AdamWeightDecay plain", *(t.asnumpy() for t in plain))
show("AdamWeightDecay grad dtype", lambda: adam(*plain, 0.1, 0.9, 0.999, 1e-8, 0.0,
                                                Tensor(np.array([1.0, -1.0], np.float64))))
show("AdamWeightDecay shape", lambda: adam(*plain, 0.1, 0.9, 0.999, 1e-8, 0.0,
                                           Tensor(np.ones(3, np.float32))))
show("AdamWeightDecay lr int", lambda: adam(*plain, 1, 0.9, 0.999, 1e-8, 0.0,
                                            Tensor(np.ones(2, np.float32))))
show("AdamWeightDecay use_locking", lambda: ops.AdamWeightDecay(1))
print(adam, ops.AdamWeightDecay(True).use_locking)
