"""Reductions and scans of `mindspore.ops` beyond sum/mean/max: `cummax`, `cumprod`,
`logcumsumexp`, `median`/`nanmedian`, `quantile`/`nanquantile`, `nanmean`/`nansum`,
`aminmax`, `histc`, `bincount`, `msort`, and the helpers of their Primitive classes. Values are
picked with `take_along_axis` (so the gradient reaches the chosen elements); the choices
(indices) are computed on numpy."""

import builtins
import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int32, int64, to_dtype
from cellgrad.numpy._math_prims import CUMPROD
from cellgrad.ops import _sort
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply

__all__ = ["cummax", "cumprod", "logcumsumexp", "median", "nanmedian", "quantile",
           "nanquantile", "nanmean", "nansum", "aminmax", "histc", "bincount", "msort"]


def _const(arr, dtype=None):
    arr = np.asarray(arr)
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def _take(x, idx, axis):
    return apply(_sort.TAKE_ALONG_AXIS, (x,), {"idx": idx, "axis": axis})


def _axis(op, axis, ndim, exc=ValueError):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"For '{op}', 'axis' must be an int, but got {type(axis).__name__}.")
    rank = builtins.max(ndim, 1)
    if not -rank <= axis < rank:
        raise exc(f"For '{op}', 'axis' must be in range [{-rank}, {rank}), but got {axis}.")
    return axis % rank


def _running(x, axis, better):
    """Indices of the running extreme along `axis`; a later equal value (or a NaN, which then
    sticks) takes over, as MindSpore's Cummax kernel."""
    a = np.moveaxis(x, axis, 0)
    idx = np.zeros(a.shape, np.int64)
    best = a[0].copy()
    for i in builtins.range(1, a.shape[0]):
        take = (better(a[i], best) | (a[i] == best) | np.isnan(a[i])) & ~np.isnan(best) \
            if a.dtype.kind == "f" else better(a[i], best) | (a[i] == best)
        best = np.where(take, a[i], best)
        idx[i] = np.where(take, i, idx[i - 1])
    return np.moveaxis(idx, 0, axis)


def cummax(input, axis):
    """Mirrors `mindspore.ops.cummax`: `(values, Int64 indices)` of the running maximum."""
    F._need_tensor("cummax", input)
    if input.ndim == 0:
        return input * 1, _const(np.zeros((), np.int64), int64)
    axis = _axis("cummax", axis, input.ndim)
    idx = _running(input._data, axis, np.greater)
    return _take(input, idx, axis), _const(idx, int64)


def cummin_prim(input, axis):
    """The Cummin primitive: `(values, Int32 indices)` of the running minimum."""
    F._need_tensor("Cummin", input)
    if input.ndim == 0:
        return input * 1, _const(np.zeros((), np.int32), int32)
    axis = _axis("Cummin", axis, input.ndim)
    idx = _running(input._data, axis, np.less)
    return _take(input, idx, axis), _const(idx.astype(np.int32), int32)


def cumprod(input, dim, dtype=None):
    """Mirrors `mindspore.ops.cumprod(input, dim, dtype=None)`: integer and bool inputs
    multiply in Int64, as MindSpore 2.10's functional cumprod."""
    F._need_tensor("cumprod", input)
    if dtype is not None:
        input = F.cast(input, dtype)
    elif input._data.dtype.kind in "biu":
        input = F.cast(input, int64)
    if input.ndim == 0:
        return input * 1
    return apply(CUMPROD, (input,), {"axis": _axis("cumprod", dim, input.ndim)})


def cumprod_ex(x, axis, exclusive=False, reverse=False):
    """MindSpore's CumProd(exclusive, reverse): the dtype kept."""
    F._need_tensor("CumProd", x)
    axis = _axis("CumProd", axis, x.ndim)
    if reverse:
        x = F.flip(x, (axis,))
    if exclusive:
        ones = F.ones_like(F.split(x, 1, axis)[0])
        x = F.concat((ones, x), axis)[tuple(slice(None) if a != axis else slice(0, -1)
                                            for a in builtins.range(x.ndim))]
    out = apply(CUMPROD, (x,), {"axis": axis})
    return F.flip(out, (axis,)) if reverse else out


def logcumsumexp(input, axis):
    """Mirrors `mindspore.ops.logcumsumexp`: `log(cumsum(exp(input)))` along `axis`,
    computed stably (float inputs)."""
    return cum_logsumexp(input, axis)


def cum_logsumexp(x, axis, exclusive=False, reverse=False, op="CumulativeLogsumexp"):
    if not isinstance(x, TensorBuffer) or x._data.dtype.kind != "f":
        got = f"Tensor[{x.dtype}]" if isinstance(x, TensorBuffer) else type(x).__name__
        raise TypeError(f"For primitive[{op}], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got {got}.")
    if x.ndim == 0:
        return x * 1
    axis = _axis(op, axis, x.ndim)
    if reverse:
        x = F.flip(x, (axis,))
    data = x._data
    finite = np.where(np.isfinite(data), data, -np.inf)
    m = np.max(finite, axis=axis, keepdims=True) if data.size else np.zeros(())
    m = np.where(np.isfinite(m), m, 0).astype(data.dtype)
    shift = _const(m, x.dtype)
    with np.errstate(divide="ignore"):
        out = F.log(F.cumsum(F.exp(x - shift), axis)) + shift
    if exclusive:
        # MindSpore starts an exclusive scan at the dtype's lowest value, not -inf
        lowest = np.finfo(data.dtype).min
        lead = _const(np.full(np.take(data, [0], axis).shape, lowest, data.dtype), x.dtype)
        out = F.concat((lead, out), axis)[tuple(slice(None) if a != axis else slice(0, -1)
                                                for a in builtins.range(x.ndim))]
    return F.flip(out, (axis,)) if reverse else out


# ---- order statistics ----
def _median_index(a, axis, ignore_nan):
    """The index of the lower median along `axis` (numpy data); a slice holding NaN gives its
    first NaN unless `ignore_nan`, then the median of the rest (NaN only if all are)."""
    order = np.argsort(a, axis=axis, kind="stable")  # NaNs last
    if a.dtype.kind == "f":
        nans = np.isnan(a).sum(axis=axis, keepdims=True)
    else:
        nans = np.zeros(np.take(a, [0], axis).shape, np.int64)
    n = a.shape[axis]
    valid = n - nans
    pos = np.where(valid > 0, (valid - 1) // 2, 0) if ignore_nan else \
        np.where(nans > 0, n - nans, (n - 1) // 2)
    return np.take_along_axis(order, pos.astype(np.int64), axis)


def _median(op, input, axis, keepdims, ignore_nan):
    F._need_tensor(op, input)
    if input.ndim == 0:
        return input * 1, _const(np.zeros((), np.int64), int64)
    axis = _axis(op, axis, input.ndim)
    idx = _median_index(input._data, axis, ignore_nan)
    values = _take(input, idx, axis)
    if not keepdims:
        values, idx = F.squeeze(values, axis), np.squeeze(idx, axis)
    return values, _const(idx.astype(np.int64), int64)


def median(input, axis=-1, keepdims=False):
    """Mirrors `mindspore.ops.median`: `(values, Int64 indices)` of the lower median along
    `axis`; a slice with a NaN gives NaN."""
    return _median("median", input, axis, keepdims, False)


def nanmedian(input, axis=-1, keepdims=False):
    """Mirrors `mindspore.ops.nanmedian`: `median` ignoring NaNs."""
    return _median("nanmedian", input, axis, keepdims, True)


def _quantile(op, input, q, axis, keepdims, ignore_nan):
    if not isinstance(input, TensorBuffer) or input._data.dtype.name not in ("float32",
                                                                              "float64"):
        got = f"Tensor[{input.dtype}]" if isinstance(input, TensorBuffer) else \
            type(input).__name__
        raise TypeError(f"For primitive[Quantile], the input argument[input] must be a type of "
                        f"{{Tensor[Float32], Tensor[Float64]}}, but got {got}.")
    scalar_q = not isinstance(q, TensorBuffer)
    if scalar_q:
        if not isinstance(q, (int, float)) or isinstance(q, bool):
            raise TypeError(f"For '{op}', 'q' must be a float or a Tensor, but got "
                            f"{type(q).__name__}.")
        qs = np.asarray([float(q)])
    else:
        if q.ndim > 1 or q.dtype != input.dtype:
            raise ValueError(f"For '{op}', 'q' must be a scalar or 1-D Tensor of the input's "
                             f"dtype, but got shape {q.shape} and {q.dtype}.")
        qs = q._data.reshape(-1).astype(np.float64)
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError(f"For '{op}', 'q' values must be in the range [0, 1].")
    x = F.reshape(input, (-1,)) if axis is None else input
    ax = 0 if axis is None else _axis(op, axis, input.ndim)
    if x.ndim == 0:
        x, ax = F.reshape(x, (1,)), 0
    srt, order = F.sort(x, ax)
    data = srt._data
    n = data.shape[ax]
    nans = np.isnan(data).sum(axis=ax, keepdims=True)
    valid = (n - nans) if ignore_nan else np.full(nans.shape, n)
    outs = []
    for qv in qs:
        pos = qv * np.maximum(valid - 1, 0)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
        w = (pos - lo).astype(data.dtype)
        a, b = _take(srt, lo, ax), _take(srt, hi, ax)
        val = a + (b - a) * _const(w, x.dtype)
        bad = (valid == 0) if ignore_nan else (nans > 0)
        if bad.any():
            val = F.where(_const(bad), float("nan"), val)
        outs.append(val if keepdims else F.squeeze(val, ax))
    if axis is None and keepdims:
        outs = [F.reshape(o, (1,) * input.ndim) for o in outs]
    return outs[0] if scalar_q else F.stack(outs, 0)


def quantile(input, q, axis=None, keepdims=False):
    """Mirrors `mindspore.ops.quantile`: linear interpolation between order statistics; a
    Tensor `q` puts its axis first. MindSpore 2.10's CPU build has no Quantile kernel."""
    return _quantile("quantile", input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims=False):
    """Mirrors `mindspore.ops.nanquantile`: `quantile` ignoring NaNs."""
    return _quantile("nanquantile", input, q, axis, keepdims, True)


def msort(input):
    """Mirrors `mindspore.ops.msort`: sorted along the first axis (values only)."""
    F._need_tensor("msort", input)
    if input._data.dtype.kind == "b":
        raise TypeError("For 'msort', the input must be a numeric Tensor, but got Bool.")
    return F.sort(input, 0)[0]


def kthvalue(input, k, dim=-1, keepdim=False):
    """`(values, Int64 indices)` of the k-th smallest along `dim` (1-based `k`)."""
    F._need_tensor("kthvalue", input)
    x = F.reshape(input, (1,)) if input.ndim == 0 else input
    axis = _axis("kthvalue", dim, x.ndim)
    n = x.shape[axis]
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 1 <= k <= n:
        raise ValueError(f"For 'kthvalue', 'k' must be an int in [1, {n}], but got {k!r}.")
    order = np.argsort(x._data, axis=axis, kind="stable")
    idx = np.take(order, [k - 1], axis=axis)
    values = _take(x, idx, axis)
    if not keepdim:
        values, idx = F.squeeze(values, axis), np.squeeze(idx, axis)
    if input.ndim == 0:
        values, idx = F.reshape(values, ()), idx.reshape(())
    return values, _const(idx.astype(np.int64), int64)


# ---- NaN-aware and paired reductions ----
def _nan_zeroed(x):
    if x._data.dtype.kind != "f":
        return x
    return F.where(F.isnan(x), 0.0, x)


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """Mirrors `mindspore.ops.nansum`: NaNs count as 0; the input's dtype is kept (integers
    included)."""
    F._need_tensor("nansum", input)
    out = F.sum(_nan_zeroed(input), axis, keepdims)
    return F.cast(out, input.dtype if dtype is None else dtype)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """Mirrors `mindspore.ops.nanmean`: the mean of the non-NaN values (float inputs)."""
    if not isinstance(input, TensorBuffer) or input._data.dtype.kind != "f":
        raise TypeError(f"For 'nanmean', input should be floating point dtype, but got "
                        f"{type(input)}.")
    total = F.sum(_nan_zeroed(input), axis, keepdims)
    count = F.sum(F.cast(F.logical_not(F.isnan(input)), input.dtype), axis, keepdims)
    out = total / count
    return out if dtype is None else F.cast(out, dtype)


def aminmax(input, *, axis=0, keepdims=False):
    """Mirrors `mindspore.ops.aminmax`: `(min, max)` along `axis` (NaNs skipped, as MindSpore
    2.10's kernel compares)."""
    F._need_tensor("aminmax", input)
    if input.ndim == 0:
        return input * 1, input * 1
    axis = _axis("aminmax", axis, input.ndim)
    lo = F.amin(_nan_as(input, np.inf), axis, keepdims)
    hi = F.amax(_nan_as(input, -np.inf), axis, keepdims)
    return lo, hi


def _nan_as(x, value):
    if x._data.dtype.kind != "f" or not np.isnan(x._data).any():
        return x
    return F.where(F.isnan(x), value, x)


def argmax_with_value(x, axis=0, keep_dims=False, largest=True):
    """`(values, Int64 indices)` of the maximum (minimum) along `axis`; NaNs skipped."""
    F._need_tensor("argmax_with_value", x)
    if x.ndim == 0:
        return x * 1, _const(np.zeros((), np.int64), int64)
    axis = _axis("argmax_with_value", axis, x.ndim)
    data = x._data
    if data.dtype.kind == "f":
        data = np.where(np.isnan(data), -np.inf if largest else np.inf, data)
    idx = np.expand_dims((np.argmax if largest else np.argmin)(data, axis=axis), axis)
    values = _take(x, idx, axis)
    if not keep_dims:
        values, idx = F.squeeze(values, axis), np.squeeze(idx, axis)
    return values, _const(idx.astype(np.int64), int64)


def reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    """MindSpore's ReduceStd: `(std, mean)` over `axis` (`()` or `[]`: all)."""
    if not isinstance(x, TensorBuffer) or x._data.dtype.kind != "f":
        raise TypeError(f"For primitive[ReduceStd], the input argument[input_x] must be a type "
                        f"of {{Tensor[Float16], Tensor[Float32]}}, but got "
                        f"{getattr(x, 'dtype', type(x).__name__)}.")
    axes = None if axis in ((), []) else (tuple(axis) if isinstance(axis, (list, tuple))
                                          else (axis,))
    mean = F.mean(x, axes, True)
    n = x.size if axes is None else int(np.prod([x.shape[a] for a in axes]))
    var = F.sum((x - mean) * (x - mean), axes, keep_dims) / builtins.max(n - int(unbiased), 1)
    return F.sqrt(var), (mean if keep_dims else F.squeeze(mean, axes))


# ---- histograms and counts ----
def histc(input, bins=100, min=0.0, max=0.0):
    """Mirrors `mindspore.ops.histc`: counts in `bins` equal bins over [min, max] (the data's
    range when min == max), in the input's dtype; values outside are ignored."""
    F._need_tensor("histc", input)
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins <= 0:
        raise ValueError(f"For 'histc', 'bins' must be a positive int, but got {bins!r}.")
    if min > max:
        raise ValueError(f"For 'histc', 'min' must not exceed 'max', but got {min} and {max}.")
    data = input._data.reshape(-1).astype(np.float64)
    data = data[~np.isnan(data)]
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data, bins=int(bins), range=(lo, hi))
    return _const(counts.astype(input._data.dtype), input.dtype)


def histogram_fixed_width(x, value_range, nbins, dtype=int32):
    """TensorFlow's histogram_fixed_width (MindSpore's HistogramFixedWidth): values below the
    range go to the first bin, above it to the last."""
    F._need_tensor("HistogramFixedWidth", x, value_range)
    lo, hi = (float(v) for v in value_range._data.reshape(-1)[:2])
    if not lo < hi:
        raise ValueError(f"For 'HistogramFixedWidth', 'range' must be increasing, but got "
                         f"[{lo}, {hi}].")
    pos = np.floor((x._data.reshape(-1).astype(np.float64) - lo) / (hi - lo) * nbins)
    pos = np.clip(pos, 0, nbins - 1).astype(np.int64)
    d = to_dtype(dtype)
    return _const(np.bincount(pos, minlength=nbins).astype(d.np_dtype), d)


def bincount(input, weights=None, minlength=0):
    """Mirrors `mindspore.ops.bincount`: occurrences of each non-negative value (summed
    `weights`), as Float32; negative values are not counted."""
    F._need_tensor("bincount", input)
    if input._data.dtype.kind not in "iu" or input.ndim != 1:
        raise TypeError(f"For 'bincount', 'input' must be a 1-D integer Tensor, but got "
                        f"{input.dtype} of shape {input.shape}.")
    if isinstance(minlength, bool) or not isinstance(minlength, numbers.Integral) \
            or minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' must be a non-negative int, but got "
                         f"{minlength!r}.")
    idx = input._data.astype(np.int64)
    keep = idx >= 0
    w = None
    if weights is not None:
        F._need_tensor("bincount", weights)
        if weights.shape != input.shape:
            raise ValueError(f"For 'bincount', 'weights' must have the shape of 'input' "
                             f"{input.shape}, but got {weights.shape}.")
        w = weights._data.astype(np.float64)[keep]
    length = builtins.max(int(idx.max()) + 1 if idx.size else 0, int(minlength))
    out = np.bincount(idx[keep], weights=w, minlength=length)
    return _const(out.astype(np.float32), float32)


def bincount_prim(array, size, weights):
    """MindSpore's Bincount()(array, size, weights): `size` bins, weights' dtype, values
    outside [0, size) ignored."""
    F._need_tensor("Bincount", array, weights)
    n = int(size._data) if isinstance(size, TensorBuffer) else int(size)
    if n < 0:
        raise ValueError(f"For 'Bincount', 'size' must be non-negative, but got {n}.")
    idx = array._data.reshape(-1).astype(np.int64)
    keep = (idx >= 0) & (idx < n)
    w = np.broadcast_to(weights._data, array.shape).reshape(-1) if weights.size else None
    out = np.bincount(idx[keep], weights=None if w is None else w[keep].astype(np.float64),
                      minlength=n)[:n]
    return _const(out.astype(weights._data.dtype), weights.dtype)
