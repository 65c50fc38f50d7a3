"""The linear-algebra ops with backward rules of their own: det, slogdet, solve, svd, qr,
cholesky, matrix_exp. Everything else in `_fn_linalg2` composes these with matmul.

det, slogdet, solve and matrix_exp write their rules with the array namespace and the ops
themselves, so they differentiate to any order; svd, qr and cholesky are first-order only
(their rules call LAPACK on numpy arrays).
"""

import numpy as np

from cellgrad.ops._registry import apply, define
from cellgrad.ops._tm_array import INVERSE

__all__ = []


def _square(op, a, kinds="f"):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For '{op}', the input must be square matrices of shape (*, n, n), "
                         f"but got shape {a.shape}.")
    _floating(op, a, kinds)


def _floating(op, a, kinds="f"):
    if a.dtype.kind not in kinds:
        raise TypeError(f"For '{op}', the input must be a float tensor (float32 or float64), "
                        f"but got {a.dtype}.")


def _mT(xp, a):
    return xp.swapaxes(a, -1, -2)


def _inv(xp, a):
    return apply(INVERSE, (a,)) if xp.IS_TENSOR else np.linalg.inv(a)


def _det_fwd(a):
    _square("det", a, "fc")
    out = np.asarray(np.linalg.det(a), a.dtype)
    return out, (a, out)


def _det_bwd(ctx, g):
    # d det(A) = det(A) tr(A^-1 dA)
    a, d = ctx.saved
    xp = ctx.xp
    scale = xp.expand_dims(xp.expand_dims(g * d, -1), -1)
    return scale * _mT(xp, _inv(xp, a))


DET = define("det", _det_fwd, _det_bwd)


def _slogdet_fwd(a):
    _square("slogdet", a, "fc")
    sign, logabs = np.linalg.slogdet(a)
    # a complex input gives a complex log|det| (imaginary part 0), as MindSpore's
    return (np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)), (a,)


def _slogdet_bwd(ctx, g_sign, g_logabs):
    # log|det A| = Re(log det A): the tape's cotangent Re(g) A^-T (MindSpore's rule, which
    # also passes nothing back through the sign)
    (a,) = ctx.saved
    xp = ctx.xp
    if _kind(xp, a) == "c":
        from cellgrad.ops._complex import _re
        g_logabs = _re(xp, g_logabs)
    return xp.expand_dims(xp.expand_dims(g_logabs, -1), -1) * _mT(xp, _inv(xp, a))


def _kind(xp, a):
    return (a._data if xp.IS_TENSOR else a).dtype.kind


SLOGDET = define("slogdet", _slogdet_fwd, _slogdet_bwd)


def _solve_fwd(a, b, adjoint=False):
    _square("matrix_solve", a, "fc")
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"For 'matrix_solve', 'rhs' must have shape (*, {a.shape[-1]}, k) to "
                         f"match 'matrix' of shape {a.shape}, but got {b.shape}.")
    m = np.swapaxes(a, -1, -2) if adjoint else a
    try:
        out = np.linalg.solve(m, b).astype(np.result_type(a, b), copy=False)
    except np.linalg.LinAlgError:
        raise ValueError("For 'MatrixSolve', the input 'matrix' is not invertible.") from None
    return out, (a, out, bool(adjoint))


def _solve_bwd(ctx, g):
    # x = M^-1 b: gb = M^-T g, gM = -gb x^T (M = A or A^T)
    a, x, adjoint = ctx.saved
    xp = ctx.xp
    gb = (apply(SOLVE, (a, g), {"adjoint": not adjoint}) if xp.IS_TENSOR
          else np.linalg.solve(a if adjoint else np.swapaxes(a, -1, -2), g))
    ga = -xp.matmul(gb, _mT(xp, x))
    return (_mT(xp, ga) if adjoint else ga), gb


SOLVE = define("matrix_solve", _solve_fwd, _solve_bwd)


def _symmetric_part(xp, m):
    return (m + _mT(xp, m)) * 0.5


def _svd_fwd(a, full_matrices=False, compute_uv=True):
    _floating("svd", a, "fc")
    if a.ndim < 2:
        raise ValueError(f"For 'svd', the input must be at least 2-D, but got shape {a.shape}.")
    if not compute_uv:  # u and v are kept for the backward
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        return s.astype(a.dtype, copy=False), (u.astype(a.dtype),
                                               np.swapaxes(vh, -1, -2).astype(a.dtype))
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    v = np.conj(np.swapaxes(vh, -1, -2))  # A = U diag(s) V^H; s complex for complex A
    s, u, v = (x.astype(a.dtype, copy=False) for x in (s, u, v))
    return (s, u, v), (s, u, v)


def _svd_bwd(ctx, gs, gu=None, gv=None):
    saved = ctx.saved
    if saved[-1].dtype.kind == "c":
        raise TypeError("For 'svd', the gradient of a complex input is not supported (nor in "
                        "MindSpore 2.10); differentiate a real input.")
    if len(saved) == 2:  # compute_uv=False: A = U diag(s) V^T
        u, v = saved
        return np.matmul(u * gs[..., None, :], np.swapaxes(v, -1, -2))
    s, u, v = saved
    k = s.shape[-1]
    m, n = u.shape[-2], v.shape[-2]
    if u.shape[-1] > k or v.shape[-1] > k:  # full_matrices: the extra columns are not unique
        if np.any(gu[..., k:]) or np.any(gv[..., k:]):
            raise RuntimeError("For 'svd', the gradient with full_matrices=True is defined only "
                               "when the extra columns of u and v do not reach the loss; use "
                               "full_matrices=False.")
        u, v, gu, gv = u[..., :k], v[..., :k], gu[..., :k], gv[..., :k]
    vt = np.swapaxes(v, -1, -2)
    s2 = s * s
    e = s2[..., None, :] - s2[..., :, None]
    idx = np.arange(k)
    e[..., idx, idx] = 1.0
    utgu = np.matmul(np.swapaxes(u, -1, -2), gu)
    vtgv = np.matmul(vt, gv)
    skew_u = utgu - np.swapaxes(utgu, -1, -2)
    skew_v = vtgv - np.swapaxes(vtgv, -1, -2)
    inner = (skew_u * s[..., None, :] + s[..., :, None] * skew_v) / e
    inner[..., idx, idx] = gs
    ga = np.matmul(np.matmul(u, inner), vt)
    if m > k:
        ga = ga + np.matmul((gu - np.matmul(u, utgu)) / s[..., None, :], vt)
    if n > k:
        gv_perp = (gv - np.matmul(v, vtgv)) / s[..., None, :]
        ga = ga + np.matmul(u, np.swapaxes(gv_perp, -1, -2))
    return ga


SVD = define("svd", _svd_fwd, _svd_bwd, first_order_only=True)


def _qr_fwd(a, mode="reduced"):
    _floating("qr", a)
    q, r = np.linalg.qr(a, mode=mode)
    q, r = q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)
    return (q, r), (a, q, r)


def _copyltu(m):
    low = np.tril(m, -1)
    return low + np.swapaxes(low, -1, -2) + np.eye(m.shape[-1]) * np.diagonal(
        m, 0, -2, -1)[..., None, :]


def _qr_square_grad(q, r, gq, gr):
    # A = QR with R square: gA = (gQ + Q copyltu(M)) R^-T, M = R gR^T - gQ^T Q
    mt = np.matmul(r, np.swapaxes(gr, -1, -2)) - np.matmul(np.swapaxes(gq, -1, -2), q)
    rhs = gq + np.matmul(q, _copyltu(mt))
    return np.swapaxes(np.linalg.solve(r, np.swapaxes(rhs, -1, -2)), -1, -2)


def _qr_bwd(ctx, gq, gr):
    a, q, r = ctx.saved
    m, n = a.shape[-2:]
    if q.shape[-1] != min(m, n):
        raise RuntimeError("For 'qr', the gradient with mode='complete' is defined only when "
                           "the input has no more rows than columns; use mode='reduced'.")
    if m >= n:
        return _qr_square_grad(q, r, gq, gr)
    # wide: A = [X | Y] with X = QU square, Y = QV
    y, gu, gv = a[..., m:], gr[..., :m], gr[..., m:]
    gx = _qr_square_grad(q, r[..., :m], gq + np.matmul(y, np.swapaxes(gv, -1, -2)), gu)
    return np.concatenate([gx, np.matmul(q, gv)], -1)


QR = define("qr", _qr_fwd, _qr_bwd, first_order_only=True)


def _cholesky_fwd(a, upper=False):
    _square("cholesky", a)
    try:
        low = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise RuntimeError("Cholesky expects symmetric positive definite matrices as "
                           "inputs.") from None
    out = np.swapaxes(low, -1, -2).copy() if upper else low
    return out, (low, bool(upper))


def _cholesky_bwd(ctx, g):
    # gA = sym(L^-T Phi(L^T gL) L^-1), Phi: lower triangle with the diagonal halved
    low, upper = ctx.saved
    gl = np.tril(np.swapaxes(g, -1, -2) if upper else g)
    phi = np.tril(np.matmul(np.swapaxes(low, -1, -2), gl))
    phi = phi - 0.5 * np.eye(low.shape[-1]) * np.diagonal(phi, 0, -2, -1)[..., None, :]
    linv = np.linalg.inv(low)
    ga = np.matmul(np.matmul(np.swapaxes(linv, -1, -2), phi), linv)
    return _symmetric_part(np, ga)


CHOLESKY = define("cholesky", _cholesky_fwd, _cholesky_bwd, first_order_only=True)


def expm_numpy(a):
    """exp of each square matrix: scaling and squaring with a Taylor series in float64."""
    x = a.astype(np.float64)
    norm = np.max(np.sum(np.abs(x), -2), -1) if x.size else np.zeros(x.shape[:-2])
    s = int(max(0, np.ceil(np.log2(max(float(np.max(norm, initial=0.0)), 1e-300) / 0.25))))
    x = x / (2.0 ** s)
    out = np.broadcast_to(np.eye(x.shape[-1]), x.shape).copy()
    term = out.copy()
    for k in range(1, 20):
        term = np.matmul(term, x) / k
        out = out + term
    for _ in range(s):
        out = np.matmul(out, out)
    return out.astype(a.dtype, copy=False)


def _matrix_exp_fwd(a):
    _square("matrix_exp", a)
    return expm_numpy(a), (a,)


def _matrix_exp_bwd(ctx, g):
    # the adjoint of d exp at A is the upper-right block of exp([[A^T, G], [0, A^T]])
    (a,) = ctx.saved
    xp = ctx.xp
    n = a.shape[-1]
    at = _mT(xp, a)
    zeros = xp.zeros_like(at)
    block = xp.concatenate([xp.concatenate([at, g], -1), xp.concatenate([zeros, at], -1)], -2)
    big = apply(MATRIX_EXP, (block,)) if xp.IS_TENSOR else expm_numpy(block)
    return xp.getitem(big, (Ellipsis, slice(0, n), slice(n, 2 * n)))


MATRIX_EXP = define("matrix_exp", _matrix_exp_fwd, _matrix_exp_bwd)
