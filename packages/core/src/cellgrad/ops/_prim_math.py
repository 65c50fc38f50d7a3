"""Math primitives: Erf and Mod (C's fmod) with their own ops, forward and backward side by
side; Einsum over `ops.einsum`."""

import math

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._registry import PROMOTE_ARITH, apply, define
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["Einsum", "Erf", "Mod"]

_ERF = np.vectorize(math.erf, otypes=[np.float64])
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf_fwd(x):
    return _ERF(x).astype(x.dtype), (x,)


def _erf_bwd(ctx, g):
    (x,) = ctx.saved
    return g * _TWO_OVER_SQRT_PI * ctx.xp.exp(-(x * x))


ERF = define("Erf", _erf_fwd, _erf_bwd)


class Erf(Primitive):
    """Mirrors `mindspore.ops.Erf()(x)`: the error function (float inputs)."""

    def __call__(self, x):
        return apply(ERF, (C.floating("Erf", "x", x),))


def _mod_fwd(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(x, y), (x, y)


def _mod_bwd(ctx, g):
    # MindSpore's rule: d/dy = -floor(x / y), though fmod truncates.
    x, y = ctx.saved
    gy = None
    if ctx.needs_input_grad[1]:
        if ctx.xp.IS_TENSOR:  # floor is piecewise constant: a constant to higher orders
            gy = -g * make_tensor(np.floor(x._data / y._data), None, 0, g.dtype)
        else:
            gy = -g * np.floor(x / y)
    return g, gy


MOD = define("Mod", _mod_fwd, _mod_bwd, PROMOTE_ARITH)


class Mod(Primitive):
    """Mirrors `mindspore.ops.Mod()(x, y)`: the remainder of truncated division (the sign of
    `x`, as C's fmod), with broadcasting."""

    def __call__(self, x, y):
        if not isinstance(x, TensorBuffer) and not isinstance(y, TensorBuffer):
            raise TypeError(f"For 'Mod', at least one of 'x' and 'y' must be a Tensor, but got "
                            f"{type(x).__name__} and {type(y).__name__}.")
        return apply(MOD, (x, y))


class Einsum(Primitive):
    """Mirrors `mindspore.ops.Einsum(equation)(x)`: `ops.einsum` of a tuple of Tensors.
    MindSpore 2.10 has no CPU kernel for it; here it runs everywhere, with gradients."""

    @prim_attr_register
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise TypeError(f"For 'Einsum', the type of 'equation' should be 'str', but got "
                            f"'{type(equation).__name__}'.")

    def __call__(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(
                isinstance(t, TensorBuffer) for t in x):
            raise TypeError(f"For 'Einsum', the input must be a non-empty tuple of Tensors, but "
                            f"got {type(x).__name__}.")
        from cellgrad.ops import einsum

        return einsum(self.equation, *x)
