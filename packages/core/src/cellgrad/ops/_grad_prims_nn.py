"""Mirrors the activation / normalization / loss / slice backward Primitives of MindSpore's
private `mindspore.ops.operations._grad_ops` that its CPU tests call directly (EluGrad,
SoftplusGrad, HShrinkGrad, SoftShrinkGrad, ReLU6Grad, DropoutGrad, LayerNormGrad,
L2NormalizeGrad, KLDivLossGrad, SliceGrad, ConcatOffset); re-exported there.

Each is written with cellgrad ops on its inputs, so it differentiates again (MindSpore's tests
take the gradient of SoftplusGrad and DropoutGrad).
"""

import numbers

from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ConcatOffset", "DropoutGrad", "EluGrad", "HShrinkGrad", "KLDivLossGrad",
           "L2NormalizeGrad", "LayerNormGrad", "ReLU6Grad", "SliceGrad", "SoftShrinkGrad",
           "SoftplusGrad"]


def _same_dtype(name, a, b):
    if a.dtype != b.dtype:
        raise TypeError(f"For '{name}', the dtype of two args should be same, but the dtype of "
                        f"first arg Tensor[{b.dtype}] is not consistent with the dtype of second "
                        f"arg Tensor[{a.dtype}]")


def _lambd(name, lambd):
    if not isinstance(lambd, numbers.Real):
        raise TypeError(f"For '{name}', the type of 'lambd' should be one of '[bool, int, "
                        f"float]', but got {type(lambd)}.")
    return float(lambd)


def _pair_grad(name, rule, doc, lambd=False):
    """A Primitive `name([lambd])(grad, x)` computing `rule(ops, grad, x, lambd)`."""

    def __call__(self, grad, x):
        from cellgrad import ops

        C.floating(name, "grad", grad)
        C.floating(name, "x", x)
        _same_dtype(name, grad, x)
        return rule(ops, grad, x, self.lambd if lambd else None)

    body = {"__call__": __call__, "__doc__": doc, "__module__": __name__}
    if lambd:
        @prim_attr_register
        def __init__(self, lambd=0.5):
            self.lambd = _lambd(name, lambd)

        body["__init__"] = __init__
    return type(name, (Primitive,), body)


EluGrad = _pair_grad(
    "EluGrad", lambda ops, d, y, _: ops.where(y > 0, d, d * (y + 1)),
    "Mirrors `_grad_ops.EluGrad()(dout, out)`, `out = elu(x)` (alpha 1): `dout` where "
    "`out > 0`, else `dout * (out + 1)`.")
SoftplusGrad = _pair_grad(
    "SoftplusGrad", lambda ops, d, x, _: d * ops.sigmoid(x),
    "Mirrors `_grad_ops.SoftplusGrad()(gradients, features)`: `gradients * sigmoid(features)`.")
HShrinkGrad = _pair_grad(
    "HShrinkGrad", lambda ops, d, x, lam: d * (ops.abs(x) > lam).astype(d.dtype),
    "Mirrors `_grad_ops.HShrinkGrad(lambd=0.5)(gradients, features)`: `gradients` where "
    "`|features| > lambd`, else 0.", lambd=True)
SoftShrinkGrad = _pair_grad(
    "SoftShrinkGrad", lambda ops, d, x, lam: d * (ops.abs(x) > lam).astype(d.dtype),
    "Mirrors `_grad_ops.SoftShrinkGrad(lambd=0.5)(input_grad, input_x)`: `input_grad` where "
    "`|input_x| > lambd`, else 0.", lambd=True)

ReLU6Grad = _pair_grad(
    "ReLU6Grad", lambda ops, d, x, _: d * ((x > 0) & (x <= 6)).astype(d.dtype),
    "Mirrors `_grad_ops.ReLU6Grad()(y_backprop, x)`: `y_backprop` where `0 < x <= 6` (6 "
    "included, as MindSpore's CPU kernel), else 0.")


class DropoutGrad(Primitive):
    """Mirrors `_grad_ops.DropoutGrad(keep_prob=0.5)(dy, mask)`: `dy * mask / keep_prob`, in
    `dy`'s dtype; differentiable in `dy` only."""

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        if not isinstance(keep_prob, float):
            raise TypeError(f"For 'DropoutGrad', the 'keep_prob' must be 'float',  but got "
                            f"'{type(keep_prob).__name__}'.")
        if not 0 < keep_prob <= 1:
            raise ValueError(f"For 'DropoutGrad', the 'keep_prob' must be in range of (0, 1], "
                             f"but got {keep_prob} with type 'float'.")
        self.keep_prob = keep_prob

    def __call__(self, dy, mask):
        C.floating("DropoutGrad", "dy", dy)
        C.floating("DropoutGrad", "mask", mask)
        if tuple(dy.shape) != tuple(mask.shape):
            raise ValueError(f"For 'DropoutGrad', 'dy' and 'mask' must have the same shape, "
                             f"but got {tuple(dy.shape)} and {tuple(mask.shape)}.")
        from cellgrad import ops

        # MindSpore's bprop gives the mask a zero gradient
        return dy * ops.stop_gradient(mask).astype(dy.dtype) * (1.0 / self.keep_prob)


# MindSpore's CPU LayerNormGrad kernel adds this to the variance (not the forward's epsilon).
_LAYER_NORM_GRAD_EPS = 1e-7


class LayerNormGrad(Primitive):
    """Mirrors `_grad_ops.LayerNormGrad(begin_norm_axis=1, begin_params_axis=1)(x, dy,
    variance, mean, gamma)`: `(dx, dgamma, dbeta)` of LayerNorm from the saved mean and
    variance (normalized over the axes from `begin_norm_axis`; gamma covers the axes from
    `begin_params_axis`). dx in x's dtype, dgamma and dbeta in gamma's."""

    @prim_attr_register
    def __init__(self, begin_norm_axis=1, begin_params_axis=1):
        self.begin_norm_axis = C.integer("LayerNormGrad", "begin_norm_axis", begin_norm_axis)
        self.begin_params_axis = C.integer("LayerNormGrad", "begin_params_axis",
                                           begin_params_axis)

    def __call__(self, x, dy, variance, mean, gamma):
        name = "LayerNormGrad"
        for arg, value in (("x", x), ("dy", dy), ("variance", variance), ("mean", mean),
                           ("gamma", gamma)):
            C.floating(name, arg, value)
        nd = x.ndim
        norm = C.axis(name, "begin_norm_axis", self.begin_norm_axis, max(nd, 1))
        params = C.axis(name, "begin_params_axis", self.begin_params_axis, max(nd, 1))
        if tuple(dy.shape) != tuple(x.shape) or tuple(gamma.shape) != tuple(x.shape[params:]):
            raise ValueError(f"For '{name}', 'dy' must have x's shape {tuple(x.shape)} and "
                             f"'gamma' the shape {tuple(x.shape[params:])} of x from "
                             f"'begin_params_axis', but got {tuple(dy.shape)} and "
                             f"{tuple(gamma.shape)}.")
        dtype = x.dtype
        gshape = (1,) * params + tuple(gamma.shape)
        g = gamma.astype(dtype).reshape(gshape)
        norm_axes = tuple(range(norm, nd))
        count = 1
        for size in x.shape[norm:]:
            count *= size
        var = variance.astype(dtype).reshape(x.shape[:norm] + (1,) * (nd - norm)) + \
            _LAYER_NORM_GRAD_EPS
        centred = x - mean.astype(dtype).reshape(var.shape)
        inv_std = var ** -0.5
        dyg = dy * g
        sum1 = (-0.5 * dyg * centred * var ** -1.5).sum(norm_axes, keepdims=True)
        sum2 = dyg.sum(norm_axes, keepdims=True)
        sum3 = (-2.0 * centred).sum(norm_axes, keepdims=True)
        dx = dyg * inv_std + sum1 * (2.0 / count) * centred + \
            (-inv_std * sum2 + sum1 * sum3 * (1.0 / count)) * (1.0 / count)
        param_axes = tuple(range(params))
        dgamma = (dy * centred * inv_std).sum(param_axes) if param_axes else \
            dy * centred * inv_std
        dbeta = dy.sum(param_axes) if param_axes else dy
        return dx, dgamma.astype(gamma.dtype), dbeta.astype(gamma.dtype)


_KL_REDUCTIONS = ("none", "mean", "batchmean", "sum")


class KLDivLossGrad(Primitive):
    """Mirrors `_grad_ops.KLDivLossGrad(reduction='mean')(dy, x, target)`: the gradient of
    `kl_div(x, target)` with respect to x, `-target * dy` scaled by the reduction (1/numel for
    'mean', 1/batch for 'batchmean'); `dy` has x's shape for 'none', one element otherwise."""

    @prim_attr_register
    def __init__(self, reduction="mean"):
        if not isinstance(reduction, str) or reduction not in _KL_REDUCTIONS:
            raise ValueError(f"For 'KLDivLossGrad', the 'reduction' must be str and must be in "
                             f"'{list(_KL_REDUCTIONS)}', but got '{reduction}'.")
        self.reduction = reduction

    def __call__(self, dy, x, target):
        from cellgrad import ops

        name = "KLDivLossGrad"
        for arg, value in (("dy", dy), ("x", x), ("target", target)):
            C.floating(name, arg, value)
        _same_dtype(name, x, target)
        if tuple(x.shape) != tuple(target.shape):
            raise ValueError(f"For '{name}', 'x' and 'target' must have the same shape, but "
                             f"got {tuple(x.shape)} and {tuple(target.shape)}.")
        if self.reduction == "none":
            return ops.broadcast_to(-target * dy.astype(x.dtype), tuple(x.shape))
        if dy.size != 1:
            raise ValueError(f"For '{name}', 'dy' must have one element with reduction "
                             f"'{self.reduction}', but got shape {tuple(dy.shape)}.")
        scale = 1.0
        if self.reduction == "mean" and x.size:
            scale = 1.0 / x.size
        elif self.reduction == "batchmean" and x.ndim:
            scale = 1.0 / x.shape[0]
        return -target * (dy.astype(x.dtype).reshape(()) * scale)


class L2NormalizeGrad(Primitive):
    """Mirrors `_grad_ops.L2NormalizeGrad(axis=0, epsilon=1e-4)(input_x, out, dout)`, `out =
    L2Normalize(input_x)`: `(dout - out * sum(out * dout)) / max(||input_x||, epsilon)`, sums
    and norm along `axis`."""

    @prim_attr_register
    def __init__(self, axis=0, epsilon=1e-4):
        if isinstance(axis, (tuple, list)):
            axis = axis[0] if len(axis) else 0
        self.axis = C.integer("L2NormalizeGrad", "axis", axis)
        if not isinstance(epsilon, numbers.Real) or isinstance(epsilon, bool):
            raise TypeError(f"For 'L2NormalizeGrad', the type of 'epsilon' should be 'float', "
                            f"but got '{type(epsilon).__name__}'.")
        self.epsilon = float(epsilon)

    def __call__(self, input_x, out, dout):
        from cellgrad import ops

        name = "L2NormalizeGrad"
        for arg, value in (("input_x", input_x), ("out", out), ("dout", dout)):
            C.floating(name, arg, value)
        axis = C.axis(name, "axis", self.axis, input_x.ndim)
        norm = ops.sqrt((input_x * input_x).sum(axis, keepdims=True))
        norm = ops.maximum(norm, ops.full_like(norm, self.epsilon))
        return (dout - out * (out * dout).sum(axis, keepdims=True)) / norm


class SliceGrad(Primitive):
    """Mirrors `_grad_ops.SliceGrad()(dy, x, begin, size)`: a tensor of x's shape and dtype,
    `dy` in the block `ops.Slice` (same begin, size) reads, zeros elsewhere."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, dy, x, begin, size):
        from cellgrad import ops

        name = "SliceGrad"
        C.tensor(name, "dy", dy)
        C.tensor(name, "x", x)
        begin = C.int_tuple(name, "begin", begin)
        size = C.int_tuple(name, "size", size)
        if not len(begin) == len(size) == x.ndim:
            raise ValueError(f"For '{name}', 'begin' and 'size' must have x's rank {x.ndim}, "
                             f"but got {len(begin)} and {len(size)}.")
        if any(n < 0 for n in size):
            raise RuntimeError(f"For '{name}', the value of size can not be negative.")
        if tuple(size) != tuple(dy.shape) or any(
                b < 0 or b + n > d for b, n, d in zip(begin, size, x.shape)):
            raise ValueError(f"For '{name}', 'size' {size} must be dy's shape "
                             f"{tuple(dy.shape)} and begin + size within x's shape "
                             f"{tuple(x.shape)}, but got begin {begin}.")
        import numpy as np

        from cellgrad._core._buffer import make_tensor

        count = int(np.prod(x.shape))
        block = tuple(slice(b, b + n) for b, n in zip(begin, size))
        where = np.arange(count).reshape(x.shape)[block].ravel()
        dy = dy.astype(x.dtype)
        if dy._data.dtype.kind not in "fc":
            out = np.zeros(count, dy._data.dtype)
            out[where] = dy._data.ravel()
            return make_tensor(out.reshape(x.shape))
        return ops.scatter_nd(make_tensor(where.reshape(-1, 1)), dy.reshape(-1),
                              (count,)).reshape(x.shape)


class ConcatOffset(Primitive):
    """Mirrors `_grad_ops.ConcatOffset(N=2, axis=0)(input_x)` (deprecated in MindSpore 2.8):
    for the tensors `input_x` of a concatenation along `axis`, each one's offset in the result,
    an int64 (len(input_x), rank) Tensor, zero except the running size on `axis`."""

    @prim_attr_register
    def __init__(self, N=2, axis=0):  # noqa: N803 (MindSpore's argument name)
        self.axis = C.integer("ConcatOffset", "axis", axis)

    def __call__(self, input_x):
        import numpy as np

        from cellgrad._core._buffer import make_tensor

        xs = input_x if isinstance(input_x, (tuple, list)) else (input_x,)
        for i, x in enumerate(xs):
            C.tensor("ConcatOffset", f"input_x[{i}]", x)
        rank = xs[0].ndim
        if not -rank <= self.axis < rank:
            raise RuntimeError(f"For 'ConcatOffset, 'axis' must be in range [{-rank}, {rank}), "
                               f"but got {self.axis}")
        axis = self.axis % rank
        out = np.zeros((len(xs), rank), np.int64)
        out[1:, axis] = np.cumsum([x.shape[axis] for x in xs])[:-1]
        return make_tensor(out)
