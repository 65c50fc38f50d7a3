"""Reductions: sum, mean, prod, max, min (differentiable), argmax/argmin, any/all."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops._registry import apply, define


def tensor_axis(axis, op):
    """A Tensor `axis` (MindSpore converts a 0-d or 1-D integer Tensor) as a tuple of ints."""
    if not isinstance(axis, TensorBuffer):
        return axis
    arr = axis.asnumpy()
    if arr.dtype.kind not in "iu" or arr.ndim > 1:
        raise TypeError(f"For {op}, the 1'th input is a Tensor whose shape is "
                        f"{list(arr.shape)} and dtype is [{axis.dtype}], which can not be "
                        f"converted to tuple of int.")
    return tuple(int(a) for a in arr.reshape(-1))


def _axes(axis, ndim, op):
    """Normalise `axis` (None, int, tuple/list) to a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    if not all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in axes):
        raise TypeError(f"For '{op}', 'axis' must be None, an int or a tuple of ints, got "
                        f"{axis!r}.")
    out = []
    for a in axes:
        if not -max(ndim, 1) <= a < max(ndim, 1):
            raise ValueError(
                f"For '{op}', 'axis' {axis} is out of range for a tensor of rank {ndim}; "
                f"expected values in [{-max(ndim, 1)}, {max(ndim, 1)}).")
        out.append(a % ndim if ndim else 0)
    return tuple(sorted(set(out))) if ndim else ()


def _expand_like(xp, g, axes, keepdims, shape):
    """Undo a reduction's dropped axes on `g` and broadcast it back to `shape`."""
    if not keepdims and axes:
        g = g.reshape(tuple(1 if i in axes else s for i, s in enumerate(shape)))
    return xp.broadcast_to(g, shape)


def _sum_fwd(x, axis=None, keepdims=False, dtype=None):
    axes = _axes(axis, x.ndim, "sum")
    if dtype is None and x.dtype.kind in "biu":
        dtype = np.int64
    return np.sum(x, axis=axes, keepdims=keepdims, dtype=dtype), (x.shape, axes, keepdims)


def _sum_bwd(ctx, g):
    shape, axes, keepdims = ctx.saved
    return _expand_like(ctx.xp, g, axes, keepdims, shape)


def _mean_fwd(x, axis=None, keepdims=False):
    axes = _axes(axis, x.ndim, "mean")
    if x.dtype.kind in "biu":
        out = np.trunc(np.mean(x, axis=axes, keepdims=keepdims)).astype(x.dtype)
    else:
        out = np.mean(x, axis=axes, keepdims=keepdims, dtype=x.dtype)
    count = 1
    for a in axes:
        count *= x.shape[a]
    return out, (x.shape, axes, keepdims, count)


def _mean_bwd(ctx, g):
    shape, axes, keepdims, count = ctx.saved
    return _expand_like(ctx.xp, g / max(count, 1), axes, keepdims, shape)


def _prod_fwd(x, axis=None, keepdims=False):
    axes = _axes(axis, x.ndim, "prod")
    dtype = np.int64 if x.dtype.kind in "biu" else None  # MindSpore 2.10: int prod is Int64
    # an ndarray, not a numpy scalar: higher orders find the saved output by identity
    out = np.asarray(np.prod(x, axis=axes, keepdims=keepdims, dtype=dtype))
    return out, (x, out, axes, keepdims)


def _prod_bwd(ctx, g):
    x, out, axes, keepdims = ctx.saved
    xp = ctx.xp
    g = _expand_like(xp, g, axes, keepdims, x.shape)
    out = _expand_like(xp, out, axes, keepdims, x.shape)
    if not xp.IS_TENSOR and not np.all(x):
        return g * _prod_of_others(x, axes)
    return g * out / x


def _prod_of_others(x, axes):
    """Product of all other elements along `axes` for each element (zero-safe, numpy)."""
    moved = np.moveaxis(x, axes, tuple(range(-len(axes), 0)))
    lead = moved.shape[: moved.ndim - len(axes)]
    flat = moved.reshape(lead + (-1,))
    ones = np.ones(lead + (1,), x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], -1), -1), -1)
    others = (left * right).reshape(moved.shape)
    return np.moveaxis(others, tuple(range(-len(axes), 0)), axes)


def _extreme(fn, name):
    def forward(x, axis=None, keepdims=False):
        axes = _axes(axis, x.ndim, name)
        if x.size == 0:
            raise ValueError(f"For '{name}', the input is empty (shape {x.shape}).")
        out = np.asarray(fn(x, axis=axes, keepdims=keepdims))  # see _prod_fwd
        return out, (x, out, axes, keepdims)

    return forward


def _extreme_bwd(ctx, g):
    # Ties share the gradient evenly, as MindSpore's ReduceMax/ReduceMin grad does.
    x, out, axes, keepdims = ctx.saved
    xp = ctx.xp
    mask = x == _expand_like(xp, out, axes, keepdims, x.shape)
    count = _expand_like(xp, mask.sum(axis=axes, keepdims=True), axes, True, x.shape)
    return _expand_like(xp, g, axes, keepdims, x.shape) * mask / count


SUM = define("sum", _sum_fwd, _sum_bwd)
MEAN = define("mean", _mean_fwd, _mean_bwd)
PROD = define("prod", _prod_fwd, _prod_bwd)
AMAX = define("amax", _extreme(np.max, "amax"), _extreme_bwd)
AMIN = define("amin", _extreme(np.min, "amin"), _extreme_bwd)


def _arg_fwd(fn):
    def forward(x, axis=None, keepdims=False, dtype=np.int64):
        if x.size == 0:
            raise ValueError(f"For '{fn.__name__}', the input is empty (shape {x.shape}).")
        if axis is None:
            out = fn(x.reshape(-1))
            if keepdims:
                out = np.reshape(out, (1,) * x.ndim)
        else:
            _axes(axis, x.ndim, fn.__name__)
            out = fn(x, axis=int(axis), keepdims=keepdims) if x.ndim else fn(x)
        return np.asarray(out).astype(dtype), None

    return forward


ARGMAX = define("argmax", _arg_fwd(np.argmax))
ARGMIN = define("argmin", _arg_fwd(np.argmin))


def _bool_reduce(fn):
    def forward(x, axis=None, keepdims=False):
        return fn(x, axis=_axes(axis, x.ndim, fn.__name__), keepdims=keepdims), None

    return forward


ANY = define("any", _bool_reduce(np.any))
ALL = define("all", _bool_reduce(np.all))


def reduce(op, x, axis=None, keepdims=False, **extra):
    """Apply reduction `op` over `axis` (None: all axes)."""
    axis = tensor_axis(axis, op.name)
    return apply(op, (x,), dict(axis=axis, keepdims=bool(keepdims), **extra))
