"""The ops `mindspore.numpy`'s math needs that `cellgrad.ops` lacks, forward and backward side
by side; backward rules use operators and `ctx.xp`, so higher orders record on the tape."""

import numpy as np

from cellgrad._core._buffer import SAVE_INPUTS, SAVE_NONE, SAVE_OUTPUT
from cellgrad.ops._registry import PROMOTE_FLOAT, PROMOTE_NONE, define


def _ufunc(ufunc, save):
    """A forward calling `ufunc` (the engine calls `.ufunc` directly, as for the core's)."""
    if save == SAVE_INPUTS:
        def forward(x):
            return ufunc(x), (x,)
    elif save == SAVE_OUTPUT:
        def forward(x):
            out = ufunc(x)
            return out, (out,)
    else:
        def forward(x):
            return ufunc(x), None
    forward.ufunc, forward.save = ufunc, save
    return forward


def _tan_bwd(ctx, g):
    (out,) = ctx.saved
    return g + g * out * out


def _asinh_bwd(ctx, g):
    (x,) = ctx.saved
    return g * (x * x + 1) ** -0.5


def _acosh_bwd(ctx, g):
    (x,) = ctx.saved
    return g * (x * x - 1) ** -0.5


def _atanh_bwd(ctx, g):
    (x,) = ctx.saved
    return g / (1 - x * x)


TAN = define("mnp_tan", _ufunc(np.tan, SAVE_OUTPUT), _tan_bwd, PROMOTE_FLOAT)
ASINH = define("mnp_asinh", _ufunc(np.arcsinh, SAVE_INPUTS), _asinh_bwd, PROMOTE_FLOAT)
ACOSH = define("mnp_acosh", _ufunc(np.arccosh, SAVE_INPUTS), _acosh_bwd, PROMOTE_FLOAT)
ATANH = define("mnp_atanh", _ufunc(np.arctanh, SAVE_INPUTS), _atanh_bwd, PROMOTE_FLOAT)


def _invert_fwd(x):
    if x.dtype.kind not in "iu":
        raise TypeError(f"For 'mindspore.numpy.invert', the input must be an integer Tensor, "
                        f"but got dtype {x.dtype}.")
    return np.invert(x), None


INVERT = define("mnp_invert", _invert_fwd, None, PROMOTE_NONE)
RINT = define("mnp_rint", _ufunc(np.rint, SAVE_NONE), None, PROMOTE_NONE)


def _cumprod_fwd(x, axis):
    out = np.cumprod(x, axis=axis, dtype=x.dtype)
    return out, (x, out, axis)


def _cumprod_bwd(ctx, g):
    # d out_j / d x_i = out_j / x_i for j >= i: a reversed cumulative sum of g * out, over x
    # (MindSpore's CumProd gradient has the same form, so the same behaviour at zeros).
    x, out, axis = ctx.saved
    xp = ctx.xp
    return xp.flip(xp.cumsum(xp.flip(g * out, axis), axis), axis) / x


CUMPROD = define("mnp_cumprod", _cumprod_fwd, _cumprod_bwd)
