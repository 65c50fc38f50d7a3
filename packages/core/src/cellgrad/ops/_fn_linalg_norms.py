"""Norms and distances of `mindspore.ops` (norm, vector_norm, matrix_norm, cdist, pdist, dist,
renorm) and `cov`; the p-norms have a zero gradient where the norm is 0, as PyTorch's."""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import float32
from cellgrad.ops import _linalg_ops as L
from cellgrad.ops import functional as F
from cellgrad.ops._fn_linalg_checks import _mT, _tensor
from cellgrad.ops._registry import apply

__all__ = ["cdist", "pdist", "dist", "vector_norm", "matrix_norm", "norm", "renorm", "cov"]


def _pnorm(diff, p, axis, keepdims=False):
    """The p-norm of `diff` over `axis`, with a zero gradient where the norm is 0."""
    if p == 0:
        return F.sum(F.cast(F.ne(diff, 0), diff.dtype), axis, keepdims)
    a = F.abs(diff)
    if p == float("inf"):
        return F.amax(a, axis, keepdims)
    if p == float("-inf"):
        return F.amin(a, axis, keepdims)
    if p == 1:
        return F.sum(a, axis, keepdims)
    total = F.sum(diff * diff if p == 2 else F.pow(a, p), axis, keepdims)
    pos = F.gt(total, 0)
    safe = F.where(pos, total, F.ones_like(total))
    root = F.sqrt(safe) if p == 2 else F.pow(safe, 1.0 / p)
    return F.where(pos, root, F.zeros_like(total))


def _p_arg(op, p):
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For '{op}', 'p' must be a float, but got {type(p).__name__}.")
    if p < 0:
        raise ValueError(f"For '{op}', 'p' must be non-negative, but got {p}.")
    return float(p)


def cdist(x1, x2, p=2.0):
    """Mirrors `mindspore.ops.cdist`: p-norm distances between the rows of `x1` (B, P, M)
    and `x2` (B, R, M), shape (B, P, R)."""
    _tensor("cdist", "x1", x1)
    _tensor("cdist", "x2", x2)
    p = _p_arg("cdist", p)
    if x1.ndim < 2 or x1.ndim != x2.ndim or x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"For 'cdist', 'x1' and 'x2' must have the same rank (2 or 3) and "
                         f"last dimension, but got shapes {x1.shape} and {x2.shape}.")
    diff = F.expand_dims(x1, -2) - F.expand_dims(x2, -3)
    return _pnorm(diff, p, -1)


def pdist(input, p=2.0):
    """Mirrors `mindspore.ops.pdist`: p-norm distances between each pair of rows i < j, as
    the flattened upper triangle."""
    _tensor("pdist", "input", input)
    p = _p_arg("pdist", p)
    if input.ndim < 2:
        raise ValueError(f"For 'pdist', the input must be at least 2-D, but got shape "
                         f"{input.shape}.")
    n = input.shape[-2]
    i, j = np.triu_indices(n, 1)
    axis = input.ndim - 2
    rows_i = F.gather(input, make_tensor(i.astype(np.int32), None, 0), axis)
    rows_j = F.gather(input, make_tensor(j.astype(np.int32), None, 0), axis)
    return _pnorm(rows_i - rows_j, p, -1)


def dist(input, other, p=2):
    """Mirrors `mindspore.ops.dist`: the p-norm of `input - other` (broadcast), flattened."""
    _tensor("dist", "input", input)
    _tensor("dist", "other", other)
    return _pnorm(F.reshape(input - other, (-1,)), _p_arg("dist", p), 0)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(a % ndim for a in axes) if ndim else axes


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """Mirrors `mindspore.ops.vector_norm`: the `ord`-norm over `axis` (all axes by default)."""
    _tensor("vector_norm", "x", x)
    if isinstance(ord, str):
        raise ValueError(f"For 'vector_norm', 'ord' must be a number, but got {ord!r}.")
    if dtype is not None:
        x = F.cast(x, dtype)
    if x.dtype.np_dtype.kind != "f":
        raise TypeError(f"For 'vector_norm', the input must be a float tensor, but got "
                        f"{x.dtype}.")
    ax = _axes(axis, x.ndim)
    if ord not in (0, 1, 2, float("inf"), float("-inf")) and ord < 0:
        total = F.sum(F.pow(F.abs(x), float(ord)), ax, keepdims)
        return F.pow(total, 1.0 / ord)
    return _pnorm(x, float(ord), ax, keepdims)


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """Mirrors `mindspore.ops.matrix_norm`: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2 over the
    two `axis` dimensions."""
    _tensor("matrix_norm", "A", A)
    if dtype is not None:
        A = F.cast(A, dtype)
    if A.ndim < 2:
        raise ValueError(f"For 'matrix_norm', 'A' must be at least 2-D, but got shape "
                         f"{A.shape}.")
    r, c = (a % A.ndim for a in axis)
    if ord == "fro":
        return _pnorm(A, 2.0, (r, c), keepdims)
    if ord in ("nuc", 2, -2):
        moved = F.transpose(A, tuple(i for i in range(A.ndim) if i not in (r, c)) + (r, c))
        s = apply(L.SVD, (moved,), {"full_matrices": False, "compute_uv": False})
        out = F.sum(s, -1) if ord == "nuc" else (F.amax(s, -1) if ord == 2 else F.amin(s, -1))
        if keepdims:
            for a in sorted((r, c)):
                out = F.expand_dims(out, a)
        return out
    if ord in (1, -1, float("inf"), float("-inf")):
        sum_axis, red_axis = (r, c) if ord in (1, -1) else (c, r)
        sums = F.sum(F.abs(A), sum_axis, True)
        out = F.amax(sums, red_axis, True) if ord > 0 else F.amin(sums, red_axis, True)
        return out if keepdims else F.squeeze(out, tuple(sorted((r, c))))
    raise ValueError(f"For 'matrix_norm', 'ord' must be one of 'fro', 'nuc', inf, -inf, 1, -1, "
                     f"2, -2, but got {ord!r}.")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.ops.norm`: a vector norm (`dim` an int, or 1-D input), a matrix norm
    (`dim` a pair, or 2-D input with `ord` set), or the 2-norm of the flattened input."""
    _tensor("norm", "A", A)
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        if dim is not None and len(dim) == 2:
            return matrix_norm(A, "fro", dim, keepdim, dtype=dtype)
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if dim is None:
        if A.ndim == 2 or isinstance(ord, str):
            dim = (-2, -1)
        elif A.ndim == 1:
            dim = (0,)
        else:
            raise ValueError(f"For 'norm', 'dim' must be given when 'ord' is set for an input "
                             f"of {A.ndim} dimensions.")
    if len(dim) == 2:
        return matrix_norm(A, ord, dim, keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise ValueError(f"For 'norm', 'ord' {ord!r} needs a matrix ('dim' of two axes).")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)


def renorm(input, p, axis, maxnorm):
    """Mirrors `mindspore.ops.renorm`: each slice along `axis` whose p-norm exceeds `maxnorm`
    is scaled to norm `maxnorm`."""
    _tensor("renorm", "input", input)
    if not isinstance(p, int) or isinstance(p, bool) or p <= 0:
        raise ValueError(f"For 'renorm', 'p' must be a positive int, but got {p!r}.")
    if not isinstance(maxnorm, (int, float)) or maxnorm < 0:
        raise ValueError(f"For 'renorm', 'maxnorm' must be a non-negative float, but got "
                         f"{maxnorm!r}.")
    ax = axis % input.ndim
    others = tuple(i for i in range(input.ndim) if i != ax)
    norms = _pnorm(input, float(p), others, True)
    factor = F.where(F.gt(norms, maxnorm), maxnorm / (norms + 1e-7), F.ones_like(norms))
    return input * factor


def cov(input, *, correction=1, fweights=None, aweights=None):
    """Mirrors `mindspore.ops.cov`: the covariance of the variables in the rows of `input`
    (observations in the columns), weighted by `fweights` and `aweights`."""
    _tensor("cov", "input", input)
    if input.ndim > 2:
        raise ValueError(f"For 'cov', the input must be at most 2-D, but got shape "
                         f"{input.shape}.")
    x = F.reshape(input, (1, -1)) if input.ndim < 2 else input
    if x.dtype.np_dtype.kind != "f":
        x = F.cast(x, float32)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = F.cast(fweights, x.dtype)
    if aweights is not None:
        aw = F.cast(aweights, x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        w_sum = n
        avg = F.mean(x, 1, True)
    else:
        w_sum = F.sum(w)
        avg = F.sum(x * w, 1, True) / w_sum
    if w is None:
        norm_factor = w_sum - correction
    elif correction == 0 or aweights is None:
        norm_factor = w_sum - correction
    else:
        norm_factor = w_sum - correction * F.sum(w * F.cast(aweights, x.dtype)) / w_sum
    centred = x - avg
    weighted = centred if w is None else centred * w
    out = F.matmul(weighted, _mT(centred)) / norm_factor
    return F.squeeze(out) if input.ndim < 2 else out
