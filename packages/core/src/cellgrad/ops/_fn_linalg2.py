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
from cellgrad.ops._registry import apply
from cellgrad.ops._tm_array import diagonal, inverse

__all__ = ["svd", "pinv", "det", "slogdet", "logdet", "matrix_determinant",
           "log_matrix_determinant", "qr", "cholesky", "cholesky_inverse", "cholesky_solve",
           "matrix_solve", "lstsq", "lu_unpack", "lu_solve", "matrix_power", "matrix_exp",
           "matrix_band_part", "trace", "ger", "inner", "kron", "mv", "addmm", "addmv", "addr",
           "addbmm", "baddbmm", "cross", "cdist", "pdist", "dist", "cov", "block_diag",
           "renorm", "norm", "vector_norm", "matrix_norm", "geqrf", "orgqr", "ormqr"]
# triangular_solve is only a Tensor method in MindSpore 2.10 (common/_tm_linalg.py)


def _tensor(op, name, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(x).__name__}.")


def _matrix(op, name, x, square=False):
    _tensor(op, name, x)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', '{name}' must be at least 2-D, but got shape {x.shape}.")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{op}', '{name}' must be square matrices (*, n, n), but got "
                         f"shape {x.shape}.")


def _mT(x):
    return F.swapaxes(x, -1, -2)


def _eye_like(x, n=None, m=None):
    n = x.shape[-1] if n is None else n
    return F.cast(F.eye(n, n if m is None else m), x.dtype)


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
    """Mirrors `mindspore.ops.matrix_solve`: `matrix^-1 rhs` (`matrix^-T` when `adjoint`)."""
    _matrix("matrix_solve", "matrix", matrix, square=True)
    _matrix("matrix_solve", "rhs", rhs)
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


# ---- products ----
def _vector(op, name, x):
    _tensor(op, name, x)
    if x.ndim != 1:
        raise ValueError(f"For '{op}', '{name}' must be 1-D, but got shape {x.shape}.")


def ger(input, vec2):
    """Mirrors `mindspore.ops.ger`: the outer product of two 1-D tensors."""
    _vector("ger", "input", input)
    _vector("ger", "vec2", vec2)
    return F.reshape(input, (-1, 1)) * vec2


def inner(input, other):
    """Mirrors `mindspore.ops.inner`: sums products over the last axes (a scalar operand
    multiplies)."""
    _tensor("inner", "input", input)
    _tensor("inner", "other", other)
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    k = input.shape[-1]
    if other.shape[-1] != k:
        raise ValueError(f"For 'inner', the last dimensions must match, but got shapes "
                         f"{input.shape} and {other.shape}.")
    out = F.matmul(F.reshape(input, (-1, k)), _mT(F.reshape(other, (-1, k))))
    return F.reshape(out, input.shape[:-1] + other.shape[:-1])


def kron(input, other):
    """Mirrors `mindspore.ops.kron`: the Kronecker product."""
    _tensor("kron", "input", input)
    _tensor("kron", "other", other)
    nd = max(input.ndim, other.ndim)
    a = F.reshape(input, (1,) * (nd - input.ndim) + input.shape)
    b = F.reshape(other, (1,) * (nd - other.ndim) + other.shape)
    a_ex = F.reshape(a, tuple(s for d in a.shape for s in (d, 1)))
    b_ex = F.reshape(b, tuple(s for d in b.shape for s in (1, d)))
    return F.reshape(a_ex * b_ex, tuple(x * y for x, y in zip(a.shape, b.shape)))


def mv(mat, vec):
    """Mirrors `mindspore.ops.mv`: matrix (n, m) times vector (m,)."""
    _tensor("mv", "mat", mat)
    _vector("mv", "vec", vec)
    if mat.ndim != 2 or mat.shape[1] != vec.shape[0]:
        raise ValueError(f"For 'mv', 'mat' must be (n, {vec.shape[0]}) for 'vec' of shape "
                         f"{vec.shape}, but got {mat.shape}.")
    return F.matmul(mat, vec)


def _scaled_sum(input, product, beta, alpha):
    if beta == 0:
        return alpha * product if alpha != 1 else product
    return beta * input + alpha * product


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addmm`: `beta * input + alpha * (mat1 @ mat2)`."""
    _tensor("addmm", "input", input)
    return _scaled_sum(input, F.matmul(mat1, mat2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addmv`: `beta * input + alpha * (mat @ vec)`."""
    _tensor("addmv", "input", input)
    return _scaled_sum(input, mv(mat, vec), beta, alpha)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addr`: `beta * x + alpha * outer(vec1, vec2)`."""
    _tensor("addr", "x", x)
    return _scaled_sum(x, ger(vec1, vec2), beta, alpha)


def _batches(op, batch1, batch2):
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        _tensor(op, name, t)
        if t.ndim != 3:
            raise ValueError(f"For '{op}', '{name}' must be 3-D, but got shape {t.shape}.")
    return F.matmul(batch1, batch2)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addbmm`: `beta * input + alpha * sum_i batch1[i] @ batch2[i]`."""
    _tensor("addbmm", "input", input)
    return _scaled_sum(input, F.sum(_batches("addbmm", batch1, batch2), 0), beta, alpha)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """Mirrors `mindspore.ops.baddbmm`: `beta * input + alpha * (batch1 @ batch2)`."""
    _tensor("baddbmm", "input", input)
    return _scaled_sum(input, _batches("baddbmm", batch1, batch2), beta, alpha)


def cross(input, other, dim=None):
    """Mirrors `mindspore.ops.cross`: the 3-vector cross product along `dim` (default: the
    first axis of size 3)."""
    _tensor("cross", "input", input)
    _tensor("cross", "other", other)
    if input.shape != other.shape:
        raise ValueError(f"For 'cross', 'input' and 'other' must have the same shape, but got "
                         f"{input.shape} and {other.shape}.")
    if dim is None:
        dims = [i for i, s in enumerate(input.shape) if s == 3]
        if not dims:
            raise ValueError(f"For 'cross', no dimension of size 3 in input of shape "
                             f"{input.shape}.")
        dim = dims[0]
    if not -input.ndim <= dim < input.ndim or input.shape[dim] != 3:
        raise ValueError(f"For 'cross', the size of 'dim' {dim} must be 3, for inputs of shape "
                         f"{input.shape}.")

    def at(t, order):
        return F.gather(t, make_tensor(np.array(order, np.int32), None, 0), dim % t.ndim)

    return at(input, [1, 2, 0]) * at(other, [2, 0, 1]) - at(input, [2, 0, 1]) * at(other,
                                                                                    [1, 2, 0])


# ---- norms and distances ----
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
        s = svd(moved, compute_uv=False)
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


def block_diag(*inputs):
    """Mirrors `mindspore.ops.block_diag`: the inputs (0-, 1- or 2-D) on a block diagonal."""
    mats = []
    for k, t in enumerate(inputs):
        _tensor("block_diag", f"inputs[{k}]", t)
        if t.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must be at most 2-D, but input {k} "
                             f"has shape {t.shape}.")
        mats.append(F.reshape(t, (1, -1)) if t.ndim < 2 else t)
    if not mats:
        raise ValueError("For 'block_diag', at least one input is required.")
    dtype = mats[0].dtype
    total = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        m = F.cast(m, dtype)
        r, c = m.shape
        parts = [F.zeros((r, left), dtype), m, F.zeros((r, total - left - c), dtype)]
        rows.append(F.concat(parts, 1))
        left += c
    return F.concat(rows, 0)


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
