"""Gradients of mindspore.numpy's math functions, as MindSpore 2.10 computes them (ties of
maximum/amax, integer-valued functions, the nan* functions, products, covariance, ...).

Left out on purpose: rint and interp (MindSpore 2.10 raises when differentiating them, cellgrad
gives the zero / piecewise-linear gradient), convolve's second input (MindSpore returns zeros,
a bug of its reversed slice), ceil (MindSpore's zero gradient is -0)."""
import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor

ms.set_context(pynative_synchronize=True)
X = Tensor(np.array([[0.3, -1.2, 2.5], [1.7, 0.4, -0.6]], np.float32))
Y = Tensor(np.array([[1.1, 0.5, -2.0], [0.9, -1.4, 3.2]], np.float32))
P = Tensor(np.array([[0.8, 1.7, 3.0], [2.2, 0.9, 1.1]], np.float32))
U = Tensor(np.array([[0.2, -0.7, 0.5], [0.9, -0.1, 0.3]], np.float32))
T = Tensor(np.array([[1.0, 2.0, 2.0], [0.5, 0.5, -1.0]], np.float32))  # ties
V = Tensor(np.array([1.0, 2.0, 4.0], np.float32))
W = Tensor(np.array([0.5, -1.0, 3.0], np.float32))
N = Tensor(np.array([[1.0, np.nan, 3.0], [np.nan, 0.5, 2.0]], np.float32))


def show(label, fn, *args):
    def loss(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        total = 0
        for o in outs:
            w = np.resize(np.array([1.0, 2.0, 0.5, 3.0, 1.5, 0.25], np.float32), o.shape)
            total = total + (o * Tensor(w)).sum()
        return total
    try:
        grads = ms.grad(loss, tuple(range(len(args))))(*args)
    except (TypeError, ValueError, RuntimeError) as e:
        print(label, type(e).__name__)
        return
    for g in grads if isinstance(grads, tuple) else (grads,):
        print(label, g.dtype, g.shape, g)


show("add", mnp.add, X, Y)
show("subtract", mnp.subtract, X, Y)
show("multiply", mnp.multiply, X, Y)
show("divide", mnp.divide, X, P)
show("power", mnp.power, P, Y)
show("float_power", mnp.float_power, P, Y)
show("maximum ties", mnp.maximum, T, Tensor(np.array([2.0, 2.0, -1.0], np.float32)))
show("minimum ties", mnp.minimum, T, Tensor(np.array([2.0, 0.5, -1.0], np.float32)))
show("hypot", mnp.hypot, X, Y)
show("remainder", mnp.remainder, X, P)
show("fmod", mnp.fmod, X, P)
show("arctan2", mnp.arctan2, X, P)
show("copysign", mnp.copysign, X, Y)
show("heaviside", mnp.heaviside, X, Y)
show("clip", lambda x: mnp.clip(x, -0.5, 1.0), X)
show("absolute", mnp.absolute, X)
show("sqrt", mnp.sqrt, P)
show("square", mnp.square, X)
show("reciprocal", mnp.reciprocal, P)
show("negative", mnp.negative, X)
show("positive", mnp.positive, X)
show("sign", mnp.sign, X)
show("exp", mnp.exp, X)
show("exp2", mnp.exp2, X)
show("expm1", mnp.expm1, X)
show("log", mnp.log, P)
show("log2", mnp.log2, P)
show("log10", mnp.log10, P)
show("log1p", mnp.log1p, P)
show("floor", mnp.floor, X)
show("trunc", mnp.trunc, X)
show("sin", mnp.sin, X)
show("cos", mnp.cos, X)
show("tan", mnp.tan, U)
show("arcsin", mnp.arcsin, U)
show("arccos", mnp.arccos, U)
show("arctan", mnp.arctan, X)
show("sinh", mnp.sinh, X)
show("cosh", mnp.cosh, X)
show("tanh", mnp.tanh, X)
show("arcsinh", mnp.arcsinh, X)
show("arccosh", mnp.arccosh, P + 1)
show("arctanh", mnp.arctanh, U)
show("deg2rad", mnp.deg2rad, X)
show("rad2deg", mnp.rad2deg, X)
show("sum", lambda x: mnp.sum(x, axis=1), X)
show("mean", lambda x: mnp.mean(x, axis=0), X)
show("amax ties", lambda x: mnp.amax(x, axis=1), T)
show("amin ties", lambda x: mnp.amin(x, axis=1), T)
show("amax all", mnp.amax, X)
show("ptp", lambda x: mnp.ptp(x, 1), X)
show("std", lambda x: mnp.std(x, 1), X)
show("var", lambda x: mnp.var(x, 0, ddof=1), X)
show("average", lambda x, w: mnp.average(x, 1, w), X, V)
show("cumsum", lambda x: mnp.cumsum(x, 1), X)
show("cumprod", lambda x: mnp.cumprod(x, 1), X)
show("nansum", lambda x: mnp.nansum(x, 1), N)
show("nanmean", lambda x: mnp.nanmean(x, 0), N)
show("nanmax", lambda x: mnp.nanmax(x, 1), N)
show("nancumsum", lambda x: mnp.nancumsum(x, 1), N)
show("dot", mnp.dot, X, mnp.transpose(Y) if hasattr(mnp, "transpose") else Y.T)
show("inner", mnp.inner, X, Y)
show("outer", mnp.outer, V, W)
show("tensordot", lambda a, b: mnp.tensordot(a, b, 1), X, Y.T)
show("matmul", mnp.matmul, X, V)
show("kron", mnp.kron, V, W)
show("cross", mnp.cross, X, Y)
show("norm", mnp.norm, X)
show("norm 1", lambda x: mnp.norm(x, 1, axis=1), X)
show("convolve", lambda a: mnp.convolve(a, W), V)
show("cov", mnp.cov, X)
show("corrcoef", mnp.corrcoef, X)
show("diff", lambda x: mnp.diff(x, 1, 1), X)
show("trapz", mnp.trapz, X)
show("gradient", lambda x: mnp.gradient(x, axis=1), X)
show("polyval", mnp.polyval, V, W)
show("polyadd", mnp.polyadd, V, W)
show("polymul", lambda a: mnp.polymul(a, W), V)
show("logaddexp", mnp.logaddexp, X, Y)
show("logaddexp2", mnp.logaddexp2, X, Y)
show("cbrt", mnp.cbrt, X)
