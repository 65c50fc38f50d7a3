# Backward Primitives of _grad_ops that MindSpore's CPU tests call directly (InvGrad, SqrtGrad,
# EluGrad, SoftplusGrad, HShrinkGrad, SoftShrinkGrad, DropoutGrad, LayerNormGrad, KLDivLossGrad),
# their gradients where MindSpore differentiates them, and a user 'Shift' PrimitiveWithInfer
# running MindSpore's CPU kernel (MindSpore 2.10 PyNative).

import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.ops import PrimitiveWithInfer, prim_attr_register
from mindspore.ops.operations import _grad_ops as G


class Net(nn.Cell):
    def __init__(self, prim):
        super().__init__()
        self.prim = prim

    def construct(self, *args):
        return self.prim(*args)


def grads(prim, *args, sens):
    return ops.GradOperation(get_all=True, sens_param=True)(Net(prim))(*args, sens)


rng = np.random.RandomState(5)
a = Tensor(rng.uniform(0.5, 2.0, (2, 3)).astype(np.float32))
b = Tensor(rng.uniform(-1.5, 1.5, (2, 3)).astype(np.float32))
s = Tensor(rng.uniform(-1, 1, (2, 3)).astype(np.float32))
for name, prim in [("InvGrad", G.InvGrad()), ("SqrtGrad", G.SqrtGrad()),
                   ("EluGrad", G.EluGrad()), ("SoftplusGrad", G.SoftplusGrad()),
                   ("HShrinkGrad", G.HShrinkGrad(0.6)), ("SoftShrinkGrad", G.SoftShrinkGrad()),
                   ("DropoutGrad", G.DropoutGrad(0.4))]:
    print(name, prim(a, b))
for name, prim in [("SqrtGrad", G.SqrtGrad()), ("SoftplusGrad", G.SoftplusGrad()),
                   ("DropoutGrad", G.DropoutGrad(0.4))]:
    print(name, "grads", grads(prim, a, b, sens=s))

x = Tensor(rng.randn(3, 4).astype(np.float32))
dy = Tensor(rng.randn(3, 4).astype(np.float32))
mean = x.mean(-1, keep_dims=True)
var = ((x - mean) ** 2).mean(-1, keep_dims=True)
gamma = Tensor(rng.randn(4).astype(np.float32))
print("LayerNormGrad", G.LayerNormGrad(1, 1)(x, dy, var, mean, gamma))
print("LayerNormGrad 0 0", G.LayerNormGrad(0, 0)(x, dy, var.mean(), mean.mean(),
                                                  Tensor(rng.randn(3, 4).astype(np.float32))))

kx = Tensor(np.array([[0.3, 0.7], [0.5, 0.5]]).astype(np.float32))
ky = Tensor(np.array([[0.2, 1.0], [1.5, -1.0]]).astype(np.float32))
for reduction in ("none", "mean", "batchmean", "sum"):
    d = Tensor(np.float32([[-1, 0.5], [2, 1]])) if reduction == "none" else \
        Tensor(np.float32([-1.5]))
    print("KLDivLossGrad", reduction, G.KLDivLossGrad(reduction)(d, kx, ky))
for bad in (lambda: G.KLDivLossGrad("error"), lambda: G.DropoutGrad(0.),
            lambda: G.DropoutGrad(1), lambda: G.HShrinkGrad("a")):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])

print("ReLU6Grad", G.ReLU6Grad()(Tensor(np.float32([1, 2, 3, 4, 5, 6, 7])),
                                 Tensor(np.float32([0, 6, -1, 5.9, 6.1, 1e-9, 3]))))
lx = Tensor(rng.randn(2, 3).astype(np.float32))
lout = lx / ops.sqrt((lx * lx).sum(1, keepdims=True))
print("L2NormalizeGrad", G.L2NormalizeGrad(1)(lx, lout, b), G.L2NormalizeGrad(0, 3.0)(lx, lout, b))
print("SliceGrad", G.SliceGrad()(Tensor(np.float32([[1, 2]])), Tensor(np.zeros((3, 3), np.float32)),
                                 (1, 1), (1, 2)))


class Shift(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.init_prim_io_names(inputs=['x', 'fill_value'], outputs=['output'])

    def __infer__(self, x, fill_value):
        return {'shape': tuple(x['shape']), 'dtype': x['dtype'], 'value': None}


m = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))
print("Shift", Shift(2, 1)(m, np.nan), Shift(-1, 0)(m, 5.5), Shift(9, 0)(m, 0.0))
print("Shift int", Shift(-3, 1)(Tensor(np.arange(8).reshape(2, 4).astype(np.int32)), 7))
print("Shift bool", Shift(1, 0)(Tensor(np.array([True, False, True])), False))
