"""Evenly spaced values and windows of `mindspore.numpy.array_creations` (arange, linspace,
logspace, geomspace, histogram_bin_edges, bartlett, ...), computed in float32 as MindSpore
does; linspace and its relatives are recorded in Tensor bounds, so differentiable."""

import math

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import float32
from cellgrad.numpy._common import (
    ARRAY_TYPES,
    axis_in_range,
    check_dtype,
    check_int,
    const_array,
    iota,
    new,
    scalar_dtype,
    to_tensor,
)
from cellgrad.numpy._selection import where
from cellgrad.numpy._shapes import broadcast_arrays, ravel
from cellgrad.ops import functional as F


def arange(start, stop=None, step=None, dtype=None):
    """Mirrors `mindspore.numpy.arange`: Int32 for int arguments, else Float32, the values
    computed in float32 (`iota * step + start`) as MindSpore does."""
    d = scalar_dtype(start, stop, step) if dtype is None else check_dtype(dtype, "arange")
    if stop is None and step is None:
        num, base, step = math.ceil(start), 0, 1
    elif step is None:
        num, base, step = math.ceil(stop - start), start, 1
    elif stop is None:
        num, base = math.ceil((start + 0.0) / step), 0
    else:
        num, base = math.ceil((stop - start + 0.0) / step), start
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    out = iota(num).asnumpy() * np.float32(step) + np.float32(base)
    return new(out.astype(d.np_dtype), d)


def _xspace_args(op, start, stop, num, endpoint, dtype):
    for name, v in (("start", start), ("stop", stop)):
        if not isinstance(v, ARRAY_TYPES):
            raise TypeError(f"For '{op}', '{name}' should be int, float, bool, list, tuple, "
                            f"Tensor, but got {type(v).__name__}.")
    start, stop = (v if isinstance(v, TensorBuffer) else const_array(v, None, op).astype(float32)
                   for v in (start, stop))
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError(f"For '{op}', 'num' should be an integer, but got {type(num).__name__}.")
    if not isinstance(endpoint, bool):
        raise TypeError(f"For '{op}', 'endpoint' should be a boolean, but got "
                        f"{type(endpoint).__name__}.")
    d = float32 if dtype is None else check_dtype(dtype, op)
    start, stop = broadcast_arrays(start, stop)
    return start, stop, d


def _bounds_shape(t, axis):
    return tuple(t.shape[:axis]) + (1,) + tuple(t.shape[axis:])


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.linspace` (Tensor bounds broadcast; `axis` places the samples;
    differentiable in Tensor bounds)."""
    start, stop, d = _xspace_args("linspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("linspace", axis, start.ndim + 1)
    if not isinstance(retstep, bool):
        raise TypeError(f"For 'linspace', 'retstep' should be a boolean, but got "
                        f"{type(retstep).__name__}.")
    bounds = _bounds_shape(start, axis)
    if num > 1:
        div = new(np.asarray(num - 1 if endpoint else num, np.float32), float32)
        delta = (stop - start) / div
        steps = F.reshape(iota(num), tuple(num if i == axis else 1 for i in range(len(bounds))))
        out = F.reshape(start, bounds) + steps * F.reshape(delta, bounds)
        if endpoint:
            head = out[(slice(None),) * axis + (slice(0, num - 1),)]
            out = F.concat((head, F.reshape(stop, bounds).astype(out.dtype)), axis)
    elif num == 1:
        delta = float("nan") if endpoint else stop - start
        out = F.reshape(start, bounds)
    else:
        raise ValueError(f"For 'linspace', cannot support Tensor with num={num}.")
    out = out.astype(d)
    return (out, delta) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.logspace`: `base ** linspace(start, stop)`."""
    start, stop, d = _xspace_args("logspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("logspace", axis, start.ndim + 1)
    if not isinstance(base, (int, float, bool)):
        raise TypeError(f"For 'logspace', 'base' should be a number, but got "
                        f"{type(base).__name__}.")
    exps = linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return F.pow(new(np.asarray(base, np.float32), float32), exps).astype(d)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.geomspace`: `start * (stop / start) ** (i / root)`."""
    start, stop, d = _xspace_args("geomspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("geomspace", axis, start.ndim + 1)
    root = num - 1 if endpoint else num
    if root == 0:
        raise ValueError("For 'geomspace', 'num' must be at least 2 when 'endpoint' is True.")
    bases = F.pow(stop / start, new(np.asarray(1.0 / root, np.float32), float32))
    stops = new(np.full(bases.shape, root, bases.dtype.np_dtype), bases.dtype)
    zero = new(np.zeros(bases.shape, np.float32), float32)
    exps = linspace(zero, stops, num, endpoint=endpoint, dtype=dtype, axis=axis)
    bounds = _bounds_shape(bases, axis)
    res = F.pow(F.reshape(bases, bounds), exps) * F.reshape(start, bounds)
    return res if dtype is None else res.astype(d)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """Mirrors `mindspore.numpy.histogram_bin_edges`: `bins + 1` Float32 edges over the data's
    range (or `range`); an array of `bins` is returned as it is."""
    a = to_tensor(a, op="histogram_bin_edges")
    if weights is not None and tuple(to_tensor(weights).shape) != tuple(a.shape):
        raise ValueError("For 'histogram_bin_edges', weights should have the same shape as a.")
    if isinstance(bins, (tuple, list, TensorBuffer)):
        bins = to_tensor(bins, op="histogram_bin_edges")
        if bins.ndim != 1:
            raise ValueError("For 'histogram_bin_edges', `bins` must be 1d, when an array.")
        return bins
    if isinstance(bins, str):
        raise NotImplementedError("For 'histogram_bin_edges', string value for `bins` not "
                                  "implemented; pass a number of bins or the edges.")
    a = ravel(a).astype(float32)
    if range is None:
        start, end = F.amin(a), F.amax(a)
    else:
        if not isinstance(range, (list, tuple)) or len(range) != 2:
            raise ValueError("For 'histogram_bin_edges', `range` should take the form "
                             "(start, end).")
        if range[0] > range[1]:
            raise ValueError("For 'histogram_bin_edges', max must be larger than min in range "
                             "parameter.")
        start, end = (to_tensor(v).astype(float32) for v in range)
    flat = (end - start) == 0
    start = where(flat, start - 0.5, start)
    end = where(flat, end + 0.5, end)
    return linspace(start, end, check_int("histogram_bin_edges", "bins", bins) + 1)


def _window(op, M, fn):
    if not isinstance(M, int) or isinstance(M, bool):
        raise TypeError(f"For '{op}', the number of points should be an int, got {M!r}.")
    if M <= 1:
        return new(np.ones(max(0, M), np.float32), float32)
    return new(fn(np.arange(M, dtype=np.float32), np.float32(M - 1)).astype(np.float32),
               float32)


def bartlett(M):
    """Mirrors `mindspore.numpy.bartlett` (triangular window)."""
    return _window("bartlett", M, lambda n, m1: np.float32(1) - np.abs(2 * n - m1) / m1)


def blackman(M):
    """Mirrors `mindspore.numpy.blackman`."""
    def fn(n, m1):
        nd = 2 * n - m1
        return (np.float32(0.42) + np.float32(0.5) * np.cos(np.float32(math.pi / m1) * nd)
                + np.float32(0.08) * np.cos(np.float32(2 * math.pi / m1) * nd))

    return _window("blackman", M, fn)


def hamming(M):
    """Mirrors `mindspore.numpy.hamming`."""
    return _window("hamming", M, lambda n, m1: np.float32(0.54) - np.float32(0.46) * np.cos(
        np.float32(2 * math.pi / m1) * n))


def hanning(M):
    """Mirrors `mindspore.numpy.hanning`."""
    return _window("hanning", M, lambda n, m1: np.float32(0.5) - np.float32(0.5) * np.cos(
        np.float32(2 * math.pi / m1) * n))
