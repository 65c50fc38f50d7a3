"""Convolution, correlation and covariance of `mindspore.numpy.math_ops` (convolve, correlate,
cov, corrcoef): sliding windows gathered from the padded input and a matrix product, so
gradients come from the tape."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32
from cellgrad.numpy._common import promote, to_tensor
from cellgrad.numpy._math_binary import clip
from cellgrad.numpy._math_common import cast
from cellgrad.numpy._math_reduce import average
from cellgrad.ops import functional as F


def _windows(a, k, mode, op):
    """The full, same or valid sliding windows of length `k` over the zero-padded 1-D `a`,
    as an (L, k) Tensor (a gather, so differentiable)."""
    if mode not in ("same", "full", "valid"):
        raise ValueError(f"For '{op}', mode must be one of ['full', 'same', 'valid'], got "
                         f"{mode!r}.")
    if mode == "full":
        left, right = k - 1, k - 1
    elif mode == "same":
        left, right = k // 2, k - k // 2 - 1
    else:
        left = right = 0
    if left or right:
        z = make_tensor(np.zeros(left, a.dtype.np_dtype), None, 0, a.dtype)
        zr = make_tensor(np.zeros(right, a.dtype.np_dtype), None, 0, a.dtype)
        a = F.concat((z, a, zr), 0)
    n = a.shape[0] - k + 1
    idx = np.arange(n)[:, None] + np.arange(k)[None, :]
    return a[make_tensor(idx)]


def _as_1d_pair(op, a, v):
    a = a if isinstance(a, TensorBuffer) else to_tensor(a, op=op)
    v = v if isinstance(v, TensorBuffer) else to_tensor(v, op=op)
    if a.size == 0 or v.size == 0:
        raise ValueError(f"For '{op}', inputs cannot be empty.")
    if a.ndim == 0:
        a = F.reshape(a, (1,))
    if v.ndim == 0:
        v = F.reshape(v, (1,))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"For '{op}', a and v must be 1-D tensors, got shapes {a.shape} and "
                         f"{v.shape}.")
    return a, v


def convolve(a, v, mode="full"):
    """Mirrors `mindspore.numpy.convolve` (computed in Float32, returned in the inputs'
    promoted dtype)."""
    op = "mindspore.numpy.convolve"
    a, v = _as_1d_pair(op, a, v)
    dtype = promote(a.dtype, v.dtype)
    a, v = cast(a, float32), cast(v, float32)
    if a.shape[0] < v.shape[0]:
        a, v = v, a
    res = F.matmul(_windows(a, v.shape[0], mode, op), F.flip(v, (0,)))
    return cast(res, dtype)


def correlate(a, v, mode="valid"):
    """Mirrors `mindspore.numpy.correlate`: `c[k] = sum_n a[n + k] * v[n]`, as numpy (Float32
    for integer inputs, as MindSpore's kernel)."""
    op = "mindspore.numpy.correlate"
    a, v = _as_1d_pair(op, a, v)
    dtype = promote(a.dtype, v.dtype)
    dtype = dtype if dtype.kind == 2 else float32
    a, v = cast(a, dtype), cast(v, dtype)
    if a.shape[0] < v.shape[0]:
        # numpy: correlate(a, v) = reversed correlate(v, a) when v is the longer
        return F.flip(F.matmul(_windows(v, a.shape[0], mode, op), a), (0,))
    return F.matmul(_windows(a, v.shape[0], mode, op), v)


def _cov_input(op, m, rowvar):
    m = to_tensor(m, op=op)
    if m.ndim > 2:
        raise ValueError(f"For '{op}', the input array has dimension more than 2: shape "
                         f"{m.shape}.")
    m = cast(m, float32)
    if m.size == 0:
        raise ValueError(f"For '{op}', the input cannot be empty, got shape {m.shape}.")
    if m.ndim < 2:
        m = F.reshape(m, (1,) * (2 - m.ndim) + m.shape)
    if not isinstance(rowvar, bool):
        raise TypeError(f"For '{op}', input rowvar should be boolean, got {rowvar!r}.")
    if not rowvar and m.shape[0] != 1:
        m = F.swapaxes(m, 0, 1)
    return m


def _cov_weights(op, w, n):
    w = to_tensor(w, op=op)
    if w.dtype.kind != 1:
        raise TypeError(f"For '{op}', weights must be integer, got {w.dtype}.")
    w = cast(w, float32)
    if w.ndim > 1:
        raise RuntimeError(f"For '{op}', cannot handle multidimensional weights: shape "
                           f"{w.shape}.")
    if w.shape[0] != n:
        raise RuntimeError(f"For '{op}', incompatible numbers of samples ({n}) and weights "
                           f"({w.shape[0]}).")
    return F.abs(w)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """Mirrors `mindspore.numpy.cov` (computed in Float32; `fweights`/`aweights` must be
    integer, as in MindSpore)."""
    op = "mindspore.numpy.cov"
    m = _cov_input(op, m, rowvar)
    if y is not None:
        m = F.concat((m, _cov_input(op, y, rowvar)), 0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = m.shape[1]
    w = None if fweights is None else _cov_weights(op, fweights, n)
    if aweights is not None:
        aweights = _cov_weights(op, aweights, n)
        w = aweights if w is None else w * aweights
    avg = average(m, axis=1, weights=w)
    if w is None:
        fact = n - ddof
    else:
        w_sum = F.sum(w, -1)
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * F.sum(w * aweights) / w_sum
    m = m - F.expand_dims(avg, -1)
    mt = F.swapaxes(m if w is None else m * w, 0, 1)
    res = F.squeeze(F.matmul(m, mt) / fact)
    return cast(res, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    """Mirrors `mindspore.numpy.corrcoef`: the covariance normalised, clipped to [-1, 1]."""
    c = cov(x, y, rowvar)
    if not c.shape:
        return cast(c / c, dtype)
    idx = make_tensor(np.arange(c.shape[0]))
    stddev = F.sqrt(c[idx, idx])
    c = c / F.expand_dims(stddev, -1) / F.expand_dims(stddev, 0)
    return cast(clip(c, -1, 1), dtype)

