"""Linear algebra of `mindspore.ops`: decompositions, inverses, determinants, solves and the
products built on them. The decompositions and solves are the ops of `_linalg_ops`; the rest
compose them with matmul, slicing and reductions, so they differentiate as their parts do.

Differs from MindSpore on purpose: `matrix_exp` runs here (MindSpore's CPU build raises a
RuntimeError for it); singular or non-positive-definite inputs raise ValueError where
MindSpore's kernels return NaN/garbage or raise a RuntimeError.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32
from cellgrad.ops import _linalg_ops as L
from cellgrad.ops import functional as F
from cellgrad.ops._fn_linalg_checks import _eye_like, _matrix, _mT, _tensor
from cellgrad.ops._fn_linalg_norms import *  # noqa: F403  (one import path for the family)
from cellgrad.ops._fn_linalg_norms import __all__ as _norm_names
from cellgrad.ops._fn_linalg_products import *  # noqa: F403
from cellgrad.ops._fn_linalg_products import __all__ as _product_names
from cellgrad.ops._registry import apply
from cellgrad.ops._tm_array import diagonal, inverse

__all__ = ["svd", "pinv", "det", "slogdet", "logdet", "matrix_determinant",
           "log_matrix_determinant", "qr", "cholesky", "cholesky_inverse", "cholesky_solve",
           "matrix_solve", "lstsq", "lu_unpack", "lu_solve", "matrix_power", "matrix_exp",
           "matrix_band_part", "trace", "geqrf", "orgqr", "ormqr", *_norm_names,
           *_product_names]
# triangular_solve is only a Tensor method in MindSpore 2.10 (common/_tm_linalg.py)


# ---- decompositions, determinants, inverses ----
def svd(input, full_matrices=False, compute_uv=True):
    """Mirrors `mindspore.ops.svd`: `(s, u, v)` with `input = u @ diag(s) @ v^T` (v, not
    v^T), or `s` alone when `compute_uv` is False."""
    _matrix("svd", "input", input)
    return apply(L.SVD, (input,), {"full_matrices": bool(full_matrices),
                                   "compute_uv": bool(compute_uv)})


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """Mirrors `mindspore.ops.pinv`: the pseudo-inverse from the SVD, singular values at most
    `max(atol, rtol * s_max)` dropped (rtol defaults to eps * max(m, n) when both are None)."""
    _matrix("pinv", "x", x)
    s, u, v = svd(x)
    smax = F.amax(s, -1, True) if s.shape[-1] else s
    if rtol is None:
        rtol = 0.0 if atol is not None else np.finfo(x.dtype.np_dtype).eps * max(x.shape[-2:])
    cutoff = F.maximum(F.cast(_as_tensor(0.0 if atol is None else atol), x.dtype),
                       smax * _as_tensor(rtol, x.dtype))
    keep = F.gt(s, cutoff)
    s_inv = F.where(keep, 1.0 / F.where(keep, s, F.ones_like(s)), F.zeros_like(s))
    return F.matmul(v * F.expand_dims(s_inv, -2), _mT(u))


def _as_tensor(value, dtype=float32):
    if isinstance(value, TensorBuffer):
        return F.cast(value, dtype)
    return make_tensor(np.asarray(value, dtype.np_dtype), None, 0, dtype)


def det(input):
    """Mirrors `mindspore.ops.det`."""
    _matrix("det", "input", input, square=True)
    return apply(L.DET, (input,))


def slogdet(input):
    """Mirrors `mindspore.ops.slogdet`: `(sign, log|det|)`."""
    _matrix("slogdet", "input", input, square=True)
    return apply(L.SLOGDET, (input,))


def logdet(input):
    """Mirrors `mindspore.ops.logdet`: log(det), NaN where the determinant is negative."""
    return F.log(det(input))


matrix_determinant = det


def log_matrix_determinant(input):
    """Mirrors `mindspore.ops.log_matrix_determinant`: `(sign, log|det|)`."""
    return slogdet(input)


def qr(input, mode="reduced"):
    """Mirrors `mindspore.ops.qr`: `(Q, R)` for mode 'reduced' or 'complete'."""
    _matrix("qr", "input", input)
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got {mode}.")
    return apply(L.QR, (input,), {"mode": mode})


def cholesky(input_x, upper=False):
    """Mirrors `mindspore.ops.cholesky`: the lower (or, `upper=True`, upper) factor."""
    _matrix("cholesky", "input_x", input_x, square=True)
    return apply(L.CHOLESKY, (input_x,), {"upper": bool(upper)})


def _from_factor(x, upper):
    return F.matmul(_mT(x), x) if upper else F.matmul(x, _mT(x))


def cholesky_inverse(input_x, upper=False):
    """Mirrors `mindspore.ops.cholesky_inverse`: the inverse of `L L^T` (or `U^T U`); as
    MindSpore's, the whole of `input_x` is used, not only its triangle."""
    _matrix("cholesky_inverse", "input_x", input_x, square=True)
    return inverse(_from_factor(input_x, upper))


def cholesky_solve(input, input2, upper=False):
    """Mirrors `mindspore.ops.cholesky_solve`: solves `A x = input` with A's Cholesky factor
    `input2` (lower, or upper when `upper`)."""
    _matrix("cholesky_solve", "input", input)
    _matrix("cholesky_solve", "input2", input2, square=True)
    # the value reads only the factor's triangle; the gradient, as MindSpore's and PyTorch's,
    # is that of A = input2 input2^T with the whole of input2
    tri = F.triu(input2) if upper else F.tril(input2)
    full = _from_factor(input2, upper)
    a = full + F.stop_gradient(_from_factor(tri, upper) - full)
    return matrix_solve(a, input)


def matrix_solve(matrix, rhs, adjoint=False):
    """Mirrors `mindspore.ops.matrix_solve`: `matrix^-1 rhs` (`matrix^-H` when `adjoint`)."""
    _matrix("matrix_solve", "matrix", matrix, square=True)
    _matrix("matrix_solve", "rhs", rhs)
    if adjoint and matrix.dtype.is_complex:
        matrix = F.conj(matrix)  # the op's adjoint transposes; the conjugate keeps its gradient
    return apply(L.SOLVE, (matrix, rhs), {"adjoint": bool(adjoint)})


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):
    """Solves `A x = input` with A triangular (only its upper or lower triangle is read):
    `(x, A)` as the Tensor method of MindSpore."""
    _matrix("triangular_solve", "A", A, square=True)
    _matrix("triangular_solve", "input", input)
    tri = F.triu(A) if upper else F.tril(A)
    if unitriangular:
        tri = tri - tri * _eye_like(A) + _eye_like(A)
    return matrix_solve(tri, input, adjoint=bool(transpose)), A


def lstsq(input, A):
    """Mirrors `mindspore.ops.lstsq`: the least-squares (minimum-norm) solution X of
    `input @ X = A` for a full-rank `input` of shape (m, n) and `A` of shape (m, k)."""
    _matrix("lstsq", "input", input)
    _tensor("lstsq", "A", A)
    if input.ndim != 2 or A.ndim not in (1, 2) or A.shape[0] != input.shape[0]:
        raise ValueError(f"For 'lstsq', 'input' must be 2-D (m, n) and 'A' (m,) or (m, k), but "
                         f"got shapes {input.shape} and {A.shape}.")
    rhs = F.reshape(A, (-1, 1)) if A.ndim == 1 else A
    m, n = input.shape
    if m >= n:
        out = matrix_solve(F.matmul(_mT(input), input), F.matmul(_mT(input), rhs))
    else:
        out = F.matmul(_mT(input), matrix_solve(F.matmul(input, _mT(input)), rhs))
    return out


def _permutation(pivots, m):
    """The row order a LAPACK pivot vector (1-based swaps) applies."""
    perm = np.broadcast_to(np.arange(m), pivots.shape[:-1] + (m,)).copy()
    flat_perm, flat_piv = perm.reshape(-1, m), pivots.reshape(-1, pivots.shape[-1])
    for row, piv in zip(flat_perm, flat_piv):
        for i, p in enumerate(piv):
            j = int(p) - 1
            if not 0 <= j < m:
                raise ValueError(f"For 'lu_unpack', 'LU_pivots' values must be in [1, {m}], "
                                 f"but got {int(p)}.")
            row[i], row[j] = row[j], row[i]
    return perm


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """Mirrors `mindspore.ops.lu_unpack`: `(P, L, U)` with `A = P @ L @ U`."""
    _matrix("lu_unpack", "LU_data", LU_data)
    _tensor("lu_unpack", "LU_pivots", LU_pivots)
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    piv = np.asarray(LU_pivots._data)
    if piv.shape[-1] != k:
        raise ValueError(f"For 'lu_unpack', 'LU_pivots' must have {k} values in its last "
                         f"dimension, but got shape {piv.shape}.")
    perm = _permutation(piv, m)
    p = np.zeros(perm.shape + (m,), LU_data.dtype.np_dtype)
    np.put_along_axis(p, perm[..., :, None], 1, -1)
    p_t = make_tensor(np.swapaxes(p, -1, -2).copy(), None, 0, LU_data.dtype)
    low = F.tril(LU_data, -1)[..., :k] + _eye_like(LU_data, m, k)
    up = F.triu(LU_data)[..., :k, :]
    if not unpack_data:
        low, up = F.zeros_like(low), F.zeros_like(up)
    if not unpack_pivots:
        p_t = F.zeros_like(p_t)
    return p_t, low, up


def lu_solve(b, LU_data, LU_pivots):
    """Mirrors `mindspore.ops.lu_solve`: solves `A x = b` from `A`'s LU factorization."""
    _matrix("lu_solve", "b", b)
    _matrix("lu_solve", "LU_data", LU_data, square=True)
    p, low, up = lu_unpack(LU_data, LU_pivots)
    y = matrix_solve(low, F.matmul(_mT(p), b))
    return matrix_solve(up, y)


def matrix_power(input, n):
    """Mirrors `mindspore.ops.matrix_power`: `input` to the integer power `n` (negative: of
    the inverse)."""
    _matrix("matrix_power", "input", input, square=True)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For 'matrix_power', 'n' must be an int, but got {type(n).__name__}.")
    base = inverse(input) if n < 0 else input
    n = abs(n)
    out = None
    while n:
        if n & 1:
            out = base if out is None else F.matmul(out, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return F.broadcast_to(_eye_like(input), input.shape) if out is None else out


def matrix_exp(input):
    """Mirrors `mindspore.ops.matrix_exp` (which MindSpore's CPU build does not run)."""
    _matrix("matrix_exp", "input", input, square=True)
    return apply(L.MATRIX_EXP, (input,))


def _band_mask(rows, cols, lower, upper):
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    keep = np.ones((rows, cols), bool)
    if lower >= 0:
        keep &= (i - j) <= lower
    if upper >= 0:
        keep &= (j - i) <= upper
    return keep


def _int_arg(op, name, v):
    if isinstance(v, TensorBuffer):
        v = v._data.item()
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {type(v).__name__}.")
    return int(v)


def matrix_band_part(x, lower, upper):
    """Mirrors `mindspore.ops.matrix_band_part`: zeros outside the band of `lower` diagonals
    below and `upper` above the main one (negative: the whole triangle)."""
    _matrix("matrix_band_part", "x", x)
    lo, up = _int_arg("matrix_band_part", "lower", lower), _int_arg("matrix_band_part",
                                                                    "upper", upper)
    keep = make_tensor(_band_mask(x.shape[-2], x.shape[-1], lo, up), None, 0)
    return F.where(keep, x, F.zeros_like(x))


def trace(input):
    """Mirrors `mindspore.ops.trace`: the sum of the main diagonal of a 2-D tensor."""
    _tensor("trace", "input", input)
    if input.ndim != 2:
        raise RuntimeError(f"For Primitive[Trace], the rank of the input must be 2, but got "
                           f"{input.ndim}!")
    return F.sum(diagonal(input), dtype=input.dtype)


# ---- Householder QR pieces ----
def geqrf(input):
    """Mirrors `mindspore.ops.geqrf`: LAPACK's compact QR `(a, tau)` (R on and above the
    diagonal, the Householder vectors below it)."""
    _matrix("geqrf", "input", input)
    data = np.asarray(input._data)
    if data.dtype.kind != "f":
        raise TypeError(f"For 'geqrf', the input must be a float tensor, but got "
                        f"{input.dtype}.")
    flat = data.reshape((-1,) + data.shape[-2:])
    k = min(data.shape[-2:])
    hs, taus = [], []
    for m in flat:
        h, tau = np.linalg.qr(m.astype(np.float64), mode="raw")
        hs.append(h.T)
        taus.append(tau[:k])
    a = np.array(hs).reshape(data.shape).astype(data.dtype)
    tau = np.array(taus).reshape(data.shape[:-2] + (k,)).astype(data.dtype)
    return make_tensor(a, None, 0, input.dtype), make_tensor(tau, None, 0, input.dtype)


def _householder_q(op, input, tau, full):
    """Q = H_1 ... H_k from Householder vectors below the diagonal of `input` (m, n)."""
    _matrix(op, "input", input)
    _tensor(op, "tau", tau)
    m, n = input.shape[-2:]
    k = tau.shape[-1]
    if k > min(m, n) and not full:
        raise ValueError(f"For '{op}', 'tau' must have at most {min(m, n)} values, but got "
                         f"shape {tau.shape}.")
    q = F.broadcast_to(_eye_like(input, m), input.shape[:-2] + (m, m))
    for i in range(k):
        below = F.tril(input, -1)[..., :, i:i + 1]
        head = np.zeros((m, 1), input.dtype.np_dtype)
        head[i, 0] = 1.0
        v = below * make_tensor((np.arange(m) > i)[:, None].astype(head.dtype), None, 0) + \
            make_tensor(head, None, 0)
        t = F.expand_dims(F.expand_dims(tau[..., i], -1), -1)
        q = q - F.matmul(F.matmul(q, v) * t, _mT(v))
    return q if full else q[..., :, :n]


def orgqr(input, input2):
    """Mirrors `mindspore.ops.orgqr`: the first n columns of Q from `geqrf`'s output."""
    return _householder_q("orgqr", input, input2, False)


def ormqr(input, tau, other, left=True, transpose=False):
    """Mirrors `mindspore.ops.ormqr`: `other` multiplied by Q (of `geqrf`'s output) from the
    left or right, transposed when asked."""
    _tensor("ormqr", "other", other)
    q = _householder_q("ormqr", input, tau, True)
    if transpose:
        q = _mT(q)
    return F.matmul(q, other) if left else F.matmul(other, q)
