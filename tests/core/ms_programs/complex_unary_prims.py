"""Complex inputs to the elementwise Primitives MindSpore's CPU kernels take them for (Inv,
Atan, Asin, ACos, Sinh, Cosh, Log1p, Expm1, Acosh, Asinh, Atanh, Tan): values, and the
gradients of those with a complex gradient (Inv's is -1/z**2 unconjugated, MindSpore's InvGrad);
then MindSpore's "Failed calling" TypeError for inputs a primitive's signature does not take."""

import numpy as np
from mindspore import Tensor, ops
from mindspore.ops import operations as P

np.set_printoptions(precision=5, suppress=True)
for dt in (np.complex64, np.complex128):
    x = Tensor(np.array([1 + 2j, -0.5 + 0.25j, 0.3 - 0.7j], dt))
    for name in ("Inv", "Atan", "Asin", "ACos", "Sinh", "Cosh", "Log1p", "Expm1", "Acosh",
                 "Asinh", "Atanh", "Tan"):
        prim = getattr(P, name)()
        out = prim(x)
        print(name, out.dtype, out.asnumpy())
        if name not in ("Atanh", "Tan"):
            g = ops.grad(lambda v, p=prim: p(v))(x)
            print(" grad", g.dtype, g.asnumpy())

x = Tensor(np.array([2.0, -0.5, 4.0]))
print("inv float", ops.grad(ops.inv)(x).asnumpy())
print("acosh float", ops.grad(ops.grad(ops.acosh))(x + 3).asnumpy())


def error(fn, *args):
    try:
        fn(*args)
        print("no error")
    except TypeError as e:
        print(type(e).__name__, str(e).split("\n\n")[0])


error(ops.acos, "str")
error(P.ACos(), "str")
error(ops.sin, None)
error(ops.abs, [1, 2])
error(ops.sqrt, (1.5,))
error(ops.add, "a", Tensor([1.0]))
error(ops.mul, Tensor([1.0]), None)
error(ops.diagonal, 1.0, 1, 1, -3)
error(ops.tan, "x")
