"""`cellgrad.mint.linalg`, mirroring `mindspore.mint.linalg` (real tensors)."""

from cellgrad import ops
from cellgrad.mint._reductions import _vector_norm

__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]


def inv(input):
    """Mirrors `mindspore.mint.linalg.inv`."""
    return ops.inverse(input)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.linalg.vector_norm`: over `dim`, or every element when None."""
    if dtype is not None:
        x = x.astype(dtype)
    return _vector_norm(x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.linalg.matrix_norm`: 'fro', 1, -1, inf and -inf."""
    if dtype is not None:
        A = A.astype(dtype)
    rows, cols = dim
    if ord == "fro":
        return ops.sqrt(ops.sum(A * A, tuple(dim), keepdim))
    if ord in (1, -1, float("inf"), float("-inf")):
        summed, reduced = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = ops.sum(ops.abs(A), summed, True)
        out = (ops.amax if ord > 0 else ops.amin)(sums, reduced, True)
        return out if keepdim else ops.squeeze(out, tuple(sorted({rows % A.ndim,
                                                                  cols % A.ndim})))
    raise ValueError(f"For 'mint.linalg.matrix_norm', 'ord' must be 'fro', 1, -1, inf or -inf "
                     f"on cellgrad ('nuc', 2 and -2 need singular values, which cellgrad does "
                     f"not compute yet), but got {ord!r}.")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.linalg.norm`: a vector norm for 1-D `dim`/inputs, a matrix norm
    for 2-D ones; None is the 2-norm (Frobenius for matrices)."""
    if dtype is not None:
        A = A.astype(dtype)
    if isinstance(dim, int):
        dim = (dim,)
    if (dim is not None and len(dim) == 2) or (dim is None and ord is not None and A.ndim == 2):
        return matrix_norm(A, "fro" if ord is None else ord, dim or (-2, -1), keepdim)
    if isinstance(ord, str):
        raise ValueError(f"For 'mint.linalg.norm', ord={ord!r} needs a matrix (2 dims), but got "
                         f"dim={dim} on shape {A.shape}.")
    out = _vector_norm(A, 2 if ord is None else ord, None if dim is None else dim, keepdim)
    if dim is None and keepdim:
        return out.reshape((1,) * A.ndim)
    return out


def qr(A, mode="reduced"):
    """Mirrors `mindspore.mint.linalg.qr`: (Q, R) by Householder reflections with LAPACK's
    signs (as torch), built from differentiable ops; mode 'reduced', 'complete' or 'r' (Q
    empty). Batches of matrices are factorised one by one."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"For 'mint.linalg.qr', 'mode' must be 'reduced', 'complete' or 'r', "
                         f"but got {mode!r}.")
    if A.ndim < 2:
        raise ValueError(f"For 'mint.linalg.qr', 'A' must have at least 2 dimensions, but got "
                         f"shape {A.shape}.")
    if A.ndim > 2:
        pairs = [qr(a, mode) for a in ops.unbind(A.reshape(-1, *A.shape[-2:]), 0)]
        q, r = (ops.stack(list(part), 0) for part in zip(*pairs))
        r = r.reshape(*A.shape[:-2], *r.shape[1:])
        return (pairs[0][0] if mode == "r" else q.reshape(*A.shape[:-2], *q.shape[1:])), r
    m, n = A.shape
    eye = ops.eye(m, m, A.dtype)
    q, r = eye, A
    for k in range(min(m - 1, n)):
        below = ops.arange(m) > k
        tail = ops.where(below, r[:, k], ops.zeros_like(r[:, k]))
        if float(ops.sum(tail * tail)) == 0:  # LAPACK leaves the column as it is
            continue
        alpha = r[k, k]
        beta = -ops.sqrt(alpha * alpha + ops.sum(tail * tail)) * (1 if float(alpha) >= 0 else -1)
        v = tail + (alpha - beta) * eye[k]
        reflector = eye - 2 * ops.outer(v, v) / ops.sum(v * v)
        r, q = ops.matmul(reflector, r), ops.matmul(q, reflector)
    r = ops.triu(r)
    if mode == "complete" or m <= n:
        return (ops.zeros((0,), A.dtype) if mode == "r" else q), r
    r = r[:n]
    return (ops.zeros((0,), A.dtype) if mode == "r" else q[:, :n]), r
