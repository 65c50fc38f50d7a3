"""Matrices of `mindspore.numpy.array_creations`: eye, tri, tril/triu, diag, diagflat,
diagonal, trace, vander. Functions of a Tensor are masks, gathers and scatters on the tape."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import bool_, float16, float32
from cellgrad.numpy._common import (
    axis_in_range,
    check_dtype,
    check_int,
    check_tensor,
    const_array,
    iota,
    narrow_dtype,
    new,
    via_float32,
)
from cellgrad.numpy._selection import where
from cellgrad.numpy._shapes import ravel
from cellgrad.ops import functional as F


def eye(N, M=None, k=0, dtype=float32):
    """Mirrors `mindspore.numpy.eye`: ones on the `k`-th diagonal."""
    d = check_dtype(dtype, "eye")
    M = N if M is None else M
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (N, M, k)):
        raise TypeError(f"For 'eye', input tensor dimensions should be integers, got N={N!r}, "
                        f"M={M!r}, k={k!r}.")
    if 0 in (N, M):  # MindSpore's empty results are narrowed to 32 bits
        d = narrow_dtype(d)
    return new(np.eye(N, M, k, d.np_dtype), d)


def identity(n, dtype=float32):
    """Mirrors `mindspore.numpy.identity`."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For 'identity', input tensor dimensions should be integers, got "
                        f"{n!r}.")
    return eye(n, dtype=check_dtype(dtype, "identity"))


def tri(N, M=None, k=0, dtype=float32):
    """Mirrors `mindspore.numpy.tri`: ones at and below the `k`-th diagonal."""
    d = check_dtype(dtype, "tri")
    return new(np.tri(N, N if M is None else M, check_int("tri", "k", k), d.np_dtype), d)


def _band(op, m, k, lower):
    m = m if isinstance(m, TensorBuffer) else const_array(m, None, op)
    k = check_int(op, "k", k)
    if m.ndim < 1:
        raise ValueError(f"For '{op}', input m's rank should be larger than 0, got shape "
                         f"{tuple(m.shape)}.")
    if m.ndim == 1:
        n = m.shape[0]
        keep = np.tri(n, k=k if lower else k - 1, dtype=bool)
        zero = new(np.zeros(1, m.dtype.np_dtype), m.dtype)
        mask = new(keep)
        return where(mask, m, zero) if lower else where(mask, zero, m)
    # MindSpore multiplies by a 0/1 mask: zeroed negatives print as -0. and inf/nan become nan
    band = (np.tril if lower else np.triu)(np.ones(m.shape[-2:], np.float32), k)
    if m.dtype is bool_:
        return F.mul(m.astype(float32), new(band, float32)).astype(bool_)
    return F.mul(m, new(band.astype(m.dtype.np_dtype), m.dtype))


def tril(m, k=0):
    """Mirrors `mindspore.numpy.tril` (a 1-D input is the row of a square matrix)."""
    return _band("tril", m, k, True)


def triu(m, k=0):
    """Mirrors `mindspore.numpy.triu`."""
    return _band("triu", m, k, False)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """Mirrors `mindspore.numpy.diagonal`: the diagonal as the last axis."""
    check_tensor("diagonal", a)
    if a.ndim < 2:
        raise ValueError(f"For 'diagonal', the input must be at least 2-D, got shape "
                         f"{tuple(a.shape)}.")
    ax1, ax2 = (axis_in_range("diagonal", ax, a.ndim) for ax in (axis1, axis2))
    if ax1 == ax2:
        raise ValueError(f"For 'diagonal', axis1 and axis2 cannot be the same, got {ax1}.")
    offset = check_int("diagonal", "offset", offset)
    perm = tuple(i for i in range(a.ndim) if i not in (ax1, ax2)) + (ax1, ax2)
    moved = F.transpose(a, perm) if perm != tuple(range(a.ndim)) else a
    rows, cols = moved.shape[-2:]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    r = np.arange(n) + max(0, -offset)
    return moved[(Ellipsis, r, r + offset)]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Mirrors `mindspore.numpy.trace`: integer inputs sum to Int64, floats keep their dtype,
    Bool stays Bool (any true on the diagonal)."""
    diag_ = diagonal(a, offset, axis1, axis2)
    if a.dtype is float16 and diag_.shape[-1]:
        # MindSpore's kernel adds in Float16 one entry at a time (numpy's sum rounds once)
        res = diag_[..., 0]
        for i in range(1, diag_.shape[-1]):
            res = res + diag_[..., i]
    else:
        res = F.sum(diag_, -1)
    if a.dtype is bool_:
        res = res.astype(bool_)
    elif a.dtype.kind == 2 and res.dtype is not a.dtype:
        res = res.astype(a.dtype)
    return res if dtype is None else res.astype(check_dtype(dtype, "trace"))


def diagflat(v, k=0):
    """Mirrors `mindspore.numpy.diagflat`: the flattened input on the `k`-th diagonal."""
    check_tensor("diagflat", v)
    k = check_int("diagflat", "k", k)
    if v.size == 0:
        return new(np.zeros((abs(k), abs(k)), v.dtype.np_dtype), v.dtype)
    flat = ravel(v)
    size = flat.shape[0]
    # `v * eye`, as MindSpore: off-diagonal entries are v_j * 0 (-0. or nan where v_j is)
    res = F.mul(flat, new(np.eye(size, dtype=v.dtype.np_dtype), v.dtype))
    if k:
        side = new(np.zeros((size, abs(k)), v.dtype.np_dtype), v.dtype)
        rows = new(np.zeros((abs(k), size + abs(k)), v.dtype.np_dtype), v.dtype)
        res = F.concat((res, side) if k < 0 else (side, res), 1)
        res = F.concat((rows, res) if k < 0 else (res, rows), 0)
    return res


def diag(v, k=0):
    """Mirrors `mindspore.numpy.diag`: a 1-D input gives a matrix, a 2-D input its diagonal."""
    check_tensor("diag", v)
    if v.ndim == 1:
        return diagflat(v, k)
    if v.ndim == 2:
        if v.size == 0:
            return new(np.zeros((0,), v.dtype.np_dtype), v.dtype)
        return via_float32(lambda t: _diag_2d(t, check_int("diag", "k", k)), v)
    raise ValueError(f"For 'diag', input must be 1- or 2-d, got shape {tuple(v.shape)}.")


def _diag_2d(v, k):
    """MindSpore's way: the row sums of `v * eye(k)` (so an inf or nan off the diagonal makes
    the row's entry nan), cut to the diagonal's length."""
    rows, cols = v.shape
    res = F.sum(F.mul(v, new(np.eye(rows, cols, k, v.dtype.np_dtype), v.dtype)), 1)
    return res[max(0, -k):min(rows, max(0, cols - k))]


def vander(x, N=None, increasing=False):
    """Mirrors `mindspore.numpy.vander`: columns are powers of `x` (decreasing by default)."""
    if isinstance(x, (list, tuple)):
        x = const_array(x, None, "vander")
    elif not isinstance(x, TensorBuffer):
        raise TypeError(f"For 'vander', input x must be list, tuple or Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim != 1:
        raise ValueError(f"For 'vander', input x must be 1-D, but got dimension={x.ndim}.")
    N = N or x.size
    if not isinstance(N, int) or isinstance(N, bool):
        raise TypeError(f"For 'vander', input N must be an integer, got {N!r}.")
    if N <= 0:
        raise ValueError(f"For 'vander', input N must > 0, got {N}.")
    if not isinstance(increasing, bool):
        raise TypeError(f"For 'vander', increasing must be a bool, got {increasing!r}.")
    exponent = F.reshape(iota(N, x.dtype, increasing), (1, N))
    return F.pow(F.expand_dims(x, 1), exponent)
