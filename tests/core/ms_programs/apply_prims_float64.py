"""Optimizer-update Primitives whose MindSpore 2.10 CPU kernel has no Float64 version
(ApplyAdagradV2, ApplyAdadelta, ApplyAdaMax, ApplyPowerSign, ApplyProximalGradientDescent): a
Float64 variable is updated in Float32; printed are the returned values (Float64, rounded to
Float32), also under vmap (MindSpore's tests/st/ops/cpu/test_apply_adagrad_v2_op.py)."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore import dtype as mstype
from mindspore.ops import functional as F

np.set_printoptions(precision=9)
BASE = np.array([0.5902195612345678, 0.6402413123456789, 0.2680325234567891])
GRAD = np.array([0.123456789, -0.987654321, 0.5555555551])
SCALARS = {"lr": 0.01, "alpha": 0.01, "rho": 0.95, "epsilon": 1e-6, "beta1_power": 0.9,
           "beta1": 0.9, "beta2": 0.999, "sign_decay": 0.99, "beta": 0.9, "logbase": np.e,
           "l1": 0.001, "l2": 0.002}
PRIMS = {
    "ApplyAdagradV2": (("var", "accum", "lr", "grad"), 2, {"epsilon": 1e-6}),
    "ApplyAdadelta": (("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"), 3, {}),
    "ApplyAdaMax": (("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad"),
                    3, {}),
    "ApplyPowerSign": (("var", "m", "lr", "logbase", "sign_decay", "beta", "grad"), 2, {}),
    "ApplyProximalGradientDescent": (("var", "alpha", "l1", "l2", "delta"), 1, {}),
}
for name, (args, n_slots, kw) in PRIMS.items():
    values = []
    for i, a in enumerate(args):
        if i < n_slots:
            values.append(Parameter(Tensor(BASE + 0.37 * i), name=f"{name}_{a}"))
        elif a in SCALARS:
            values.append(Tensor(np.array(SCALARS[a])))
        else:
            values.append(Tensor(GRAD * (i + 1)))
    out = getattr(ops, name)(**kw)(*values)
    for t in (out if isinstance(out, tuple) else (out,)):
        print(name, t.dtype, t.asnumpy())


class VmapNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = ops.ApplyAdagradV2(1e-6)

    def construct(self, var, accum, lr, grad):
        return self.op(var, accum, lr, grad)


rows = np.array([[0.59021956, 0.6402413, 0.26803252], [0.64904916, 0.5892827, 0.6982026],
                 [0.4472826, 0.4589515, 0.29412633]])
var, accum = Parameter(rows, name="var"), Parameter(rows.copy(), name="accum")
lr = Tensor([0.001, 0.1, 3], mstype.float32)
grad = Tensor(np.arange(9).reshape(3, 3).astype(np.float16))
v, a = F.vmap(VmapNet(), in_axes=(0, 0, 0, 0))(var, accum, lr, grad)
print("vmap", v.dtype, v.asnumpy(), a.asnumpy())
