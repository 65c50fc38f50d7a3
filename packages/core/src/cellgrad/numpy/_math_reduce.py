"""Reductions and scans of `mindspore.numpy.math_ops` (sum, mean, amax, nan*, var, average,
cumsum, ...), with MindSpore's dtypes: integer `sum` is Int64, integer `mean` truncates in the
input's dtype, `nanmean`/`nanvar`/`nanstd` default to Float32, and so on."""

import sys

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32, float64, int8, int16, int32, int64, uint8
from cellgrad.numpy import _math_prims as P
from cellgrad.numpy._common import axes_valid, axis_in_range, check_dtype, promote, to_tensor
from cellgrad.numpy._math_common import MS_FLOATS, cast, need_tensor, origin_tensor
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply as apply_op


def _full(shape, value, dtype):
    return make_tensor(np.full(shape, value, dtype.np_dtype), None, 0, dtype)


def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _check_scalar_initial(op, initial):
    if initial is None:
        return
    if isinstance(initial, TensorBuffer):
        if initial.ndim == 0:
            return
    elif isinstance(initial, (int, float, bool)):
        return
    raise TypeError(f"For '{op}', 'initial' should be a scalar, but got {initial!r}.")


def _reduce(op, a, reduce_fn, cmp_fn=None, axis=None, keepdims=False, initial=None,
            where=True, dtype=None):
    """MindSpore's `math_ops._reduce`: zero-size inputs give `initial` (or NaN), `initial`
    joins the data through `cmp_fn`, `where` masks with `initial`; the result is cast to
    `dtype` (default: the input's)."""
    a = to_tensor(a, op=op)
    dtype = a.dtype if dtype is None else check_dtype(dtype, op)
    axes = axes_valid(op, axis, a.ndim)
    _check_scalar_initial(op, initial)
    if 0 in a.shape:
        if not axes:
            return a
        shape_out = _reduced_shape(a.shape, axes, keepdims)
        if 0 in shape_out:
            return _full(shape_out, 0, dtype)
        if initial is None:
            if cmp_fn is not None:
                raise ValueError(f"For '{op}', initial value must be provided for zero-size "
                                 "arrays.")
            initial = np.nan
        return _full(shape_out, float(initial), dtype)
    if initial is not None:
        init = _full((), float(initial), dtype)
        a = cmp_fn(a, cast(init, a.dtype))
    if isinstance(where, TensorBuffer):
        if initial is None:
            raise ValueError(f"For '{op}', initial value must be provided for where masks.")
        a = F.where(where, a, cast(_full((), float(initial), dtype), a.dtype))
    return cast(reduce_fn(a, axes), dtype)


def _no_bool_extreme(op, a):
    if a.dtype is bool_:
        raise TypeError(f"For '{op}', the input must be a numeric Tensor, but got Bool "
                        "(MindSpore's ReduceMax/ReduceMin take no Bool).")


def _extreme(name, reduce_fn, cmp_fn):
    op = f"mindspore.numpy.{name}"

    def public(a, axis=None, keepdims=False, initial=None, where=True):
        need_tensor(op, a)
        _no_bool_extreme(op, a)
        if a.size == 0:
            raise ValueError(f"For '{op}', zero-size tensors are not supported (shape "
                             f"{a.shape}).")
        return _reduce(op, a, lambda x, axes: reduce_fn(x, axes, keepdims), cmp_fn, axis,
                       keepdims, initial, where)
    public.__name__ = name
    public.__doc__ = (f"Mirrors `mindspore.numpy.{name}` (`initial` joins the data, `where` "
                      "needs `initial`).")
    return public


amax = _extreme("amax", F.amax, F.maximum)
amin = _extreme("amin", F.amin, F.minimum)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):
    """Mirrors `mindspore.numpy.sum`: integer and bool inputs sum to Int64; `dtype` is the
    dtype the elements are summed in; `initial` is added."""
    op = "mindspore.numpy.sum"
    a = to_tensor(a, op=op)
    axes = axes_valid(op, axis, a.ndim)
    if dtype is not None:
        a = cast(a, check_dtype(dtype, op))
    _check_scalar_initial(op, initial)
    out = F.sum(a, axes, keepdims)
    if dtype is not None:
        out = cast(out, a.dtype)
    return out if initial is None else out + initial


def mean(a, axis=None, keepdims=False, dtype=None):
    """Mirrors `mindspore.numpy.mean` (integer inputs keep their dtype, truncating; Bool is a
    RuntimeError, as MindSpore's ReduceMean)."""
    op = "mindspore.numpy.mean"
    a = to_tensor(a, op=op)
    _no_bool_mean(op, a)
    return _reduce(op, a, lambda x, axes: F.mean(x, axes, keepdims), axis=axis,
                   keepdims=keepdims, dtype=dtype)


def _no_bool_mean(op, a):
    if a.dtype is bool_:
        raise RuntimeError(f"For '{op}', unsupported reduce operation for bool.")


def _nan_to(a, value):
    if a.dtype.kind != 2:
        return a
    return F.where(F.isnan(a), cast(_full((), value, a.dtype), a.dtype), a)


def _check_keepdims(op, keepdims):
    if not isinstance(keepdims, (int, np.integer)):
        raise TypeError(f"For '{op}', integer argument expected for 'keepdims', got "
                        f"{type(keepdims).__name__}.")


def nanmax(a, axis=None, dtype=None, keepdims=False):
    """Mirrors `mindspore.numpy.nanmax`: NaNs are skipped (an all-NaN slice gives MindSpore's
    fill value, -2**63)."""
    op = "mindspore.numpy.nanmax"
    a = to_tensor(a, op=op)
    _check_keepdims(op, keepdims)
    _no_bool_extreme(op, a)
    return _reduce(op, _nan_to(a, -sys.maxsize - 1),
                   lambda x, axes: F.amax(x, axes, bool(keepdims)), axis=axis,
                   keepdims=keepdims, dtype=dtype)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    """Mirrors `mindspore.numpy.nanmin`: NaNs are skipped (an all-NaN slice gives 2**63-1)."""
    op = "mindspore.numpy.nanmin"
    a = to_tensor(a, op=op)
    _check_keepdims(op, keepdims)
    _no_bool_extreme(op, a)
    return _reduce(op, _nan_to(a, sys.maxsize), lambda x, axes: F.amin(x, axes, bool(keepdims)),
                   axis=axis, keepdims=keepdims, dtype=dtype)


def _sum_keep(x, axes, keepdims):
    """A sum in the input's dtype (MindSpore's ReduceSum primitive: Int32 stays Int32)."""
    return cast(F.sum(x, axes, keepdims), x.dtype)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """Mirrors `mindspore.numpy.nansum`: NaNs count as 0; the sum keeps the input's dtype."""
    op = "mindspore.numpy.nansum"
    a = _nan_to(to_tensor(a, op=op), 0.0)
    return _reduce(op, a, lambda x, axes: _sum_keep(x, axes, keepdims), axis=axis,
                   keepdims=keepdims, dtype=dtype)


def _count_nonnan(a, axes, keepdims):
    ones = _full(a.shape, 1, a.dtype)
    if a.dtype.kind == 2:
        ones = F.where(F.isnan(a), cast(_full((), 0, a.dtype), a.dtype), ones)
    return _sum_keep(ones, axes, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """Mirrors `mindspore.numpy.nanmean` (Float32 unless the input is Float64)."""
    op = "mindspore.numpy.nanmean"
    dtype = float32 if dtype is None else dtype
    a = to_tensor(a, op=op)
    axes = axes_valid(op, axis, a.ndim)
    total = nansum(a, axis=axes, dtype=dtype, keepdims=keepdims)
    return total / _count_nonnan(a, axes, keepdims)


def _nanvar(a, axes, ddof, keepdims):
    m = nanmean(a, axis=axes, keepdims=True)
    # NaNs become 0 before squaring: a NaN inside `d * d` would reach the gradient as 0 * NaN
    d = _nan_to(a, 0.0) - m
    if a.dtype.kind == 2:
        d = F.where(F.isnan(a), cast(_full((), 0, d.dtype), d.dtype), d)
    total = _sum_keep(d * d, axes, keepdims)
    count = _count_nonnan(a, axes, keepdims) - ddof
    if total.dtype not in MS_FLOATS and count.dtype not in MS_FLOATS:
        total, count = cast(total, float32), cast(count, float32)  # MindSpore's `divide`
    return total / count


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.numpy.nanvar` (NaNs skipped; Float32 by default, also for Float64)."""
    op = "mindspore.numpy.nanvar"
    return _reduce(op, a, lambda x, axes: _nanvar(x, axes, ddof, keepdims), axis=axis,
                   keepdims=keepdims, dtype=float32 if dtype is None else dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.numpy.nanstd` (NaNs skipped; Float32 by default)."""
    op = "mindspore.numpy.nanstd"
    return _reduce(op, a, lambda x, axes: F.sqrt(_nanvar(x, axes, ddof, keepdims)), axis=axis,
                   keepdims=keepdims, dtype=float32 if dtype is None else dtype)


def var(x, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.numpy.var`: integer inputs give Float32, their mean taken in the
    integer dtype first (truncated), as MindSpore's `Tensor.var`."""
    op = "mindspore.numpy.var"
    x = to_tensor(x, op=op)
    _no_bool_mean(op, x)
    axes = axes_valid(op, axis, x.ndim)
    m = F.mean(x, axes, True)
    if x.dtype.kind == 2:
        d = x - m
    else:
        d = cast(x, float32) - cast(m, float32)
    n = 1
    for ax in axes:
        n *= x.shape[ax]
    return F.sum(d * d, axes, bool(keepdims)) / (n - ddof)


def std(x, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.numpy.std` (the square root of `var`)."""
    return F.sqrt(var(x, axis, ddof, keepdims))


def ptp(x, axis=None, keepdims=False):
    """Mirrors `mindspore.numpy.ptp`: `amax - amin` along `axis` (a Tensor input)."""
    need_tensor("mindspore.numpy.ptp", x)
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def average(x, axis=None, weights=None, returned=False):
    """Mirrors `mindspore.numpy.average` (a plain mean without weights; integer data keeps its
    dtype, dividing truncating, as MindSpore)."""
    op = "mindspore.numpy.average"
    need_tensor(op, x)
    if axis is not None:
        axis = axes_valid(op, axis, x.ndim)
        axis = axis[0] if len(axis) == 1 else axis
    if weights is None:
        avg = mean(x, axis)
        if axis is None:
            total = _full((), x.size, x.dtype)
        else:
            n = 1
            for ax in (axis,) if isinstance(axis, int) else axis:
                n *= x.shape[ax]
            total = _full(avg.shape, n, x.dtype)
    else:
        need_tensor(op, weights)
        if x.shape != weights.shape:
            if weights.ndim != 1:
                raise TypeError(f"For '{op}', weights should be None, 1-D or the same shape as "
                                f"input x, but got shapes {x.shape} and {weights.shape}.")
            if not isinstance(axis, int):
                raise TypeError(f"For '{op}', axis must be specified when shapes of x and "
                                "weights differ.")
            shape = tuple(weights.shape[0] if i == axis else 1 for i in range(x.ndim))
            weights = F.reshape(weights, shape)
        axes = axes_valid(op, axis, x.ndim)
        total = _sum_keep(weights, axes, False)
        avg = _divide_like_ms(_sum_keep(x * weights, axes, False), total)
    if returned:
        if total.shape != avg.shape:
            total = F.broadcast_to(total, avg.shape)
        return avg, total
    return avg


def _divide_like_ms(a, b):
    """MindSpore's Div primitive: integers divide truncating, floats as usual."""
    if a.dtype.kind == 2 or b.dtype.kind == 2:
        return a / b
    q = F.trunc(cast(a, float64) / cast(b, float64))
    return cast(q, promote(a.dtype, b.dtype))


def count_nonzero(x, axis=None, keepdims=False):
    """Mirrors `mindspore.numpy.count_nonzero` (Int32; a zero-size input gives 0)."""
    op = "mindspore.numpy.count_nonzero"
    need_tensor(op, x)
    if x.dtype is bool_:
        raise TypeError(f"For '{op}', the input x doesn't support Bool; expected an integer or "
                        "floating Tensor.")
    if x.size == 0:
        return _full((), 0, int32)
    axes = axes_valid(op, axis, x.ndim)
    return cast(F.sum(x != 0, axes, bool(keepdims)), int32)


def _arg(name, fn):
    op = f"mindspore.numpy.{name}"

    def public(a, axis=None):
        a = to_tensor(a, op=op)
        if a.dtype is bool_:
            a = cast(a, int32)
        if axis is not None:
            axis = axis_in_range(op, axis, max(a.ndim, 1))
        return fn(a, axis)
    public.__name__ = name
    public.__doc__ = f"Mirrors `mindspore.numpy.{name}` (Bool input counts as Int32)."
    return public


argmax = _arg("argmax", F.argmax)  # Int64 indices
# Int32 indices, as MindSpore's (Int64 for a 0-d input, as its 0-d path)
argmin = _arg("argmin", lambda a, axis: cast(F.argmin(a, axis), int64) if a.ndim == 0
              else F.argmin(a, axis))


_SCAN_DTYPE = {bool_: int32, int8: int32, int16: int32, uint8: int32}


def _scan_axis(op, a, axis):
    if axis is None:
        return F.reshape(a, (-1,)), 0
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', integer axis is expected, but got {axis!r}.")
    if a.ndim == 0:
        a = F.reshape(a, (1,))
    return a, axis_in_range(op, axis, a.ndim)


def cumsum(a, axis=None, dtype=None):
    """Mirrors `mindspore.numpy.cumsum` (Bool, Int8, Int16 and UInt8 sum in Int32; no axis:
    the flattened input)."""
    op = "mindspore.numpy.cumsum"
    need_tensor(op, a)
    a, axis = _scan_axis(op, a, axis)
    d = _SCAN_DTYPE.get(a.dtype, a.dtype) if dtype is None else check_dtype(dtype, op)
    return F.cumsum(cast(a, d), axis)


def nancumsum(a, axis=None, dtype=None):
    """Mirrors `mindspore.numpy.nancumsum` (NaNs count as 0)."""
    need_tensor("mindspore.numpy.nancumsum", a)
    return cumsum(_nan_to(a, 0.0), axis, dtype)


def cumprod(a, axis=None, dtype=None):
    """Mirrors `mindspore.numpy.cumprod`: computed in Float32 (Float64 stays), returned in the
    input's dtype, Bool/Int8/Int16 as Int32. UInt8 gives Int64 (MindSpore: UInt32, a dtype
    cellgrad lacks)."""
    op = "mindspore.numpy.cumprod"
    a = origin_tensor(a, op)
    orig = a.dtype
    if axis is not None and (not isinstance(axis, (int, np.integer)) or isinstance(axis, bool)):
        raise TypeError(f"For '{op}', integer axis is expected, but got {axis!r}.")
    a, axis = _scan_axis(op, a, axis)
    if dtype is None:
        dtype = {bool_: int32, int8: int32, int16: int32, uint8: int64}.get(orig, orig)
    a = a if orig is float64 else cast(a, float32)
    return cast(apply_op(P.CUMPROD, (a,), {"axis": axis}), dtype)
