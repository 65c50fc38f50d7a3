"""Linear algebra of `cellgrad.ops` (ops/_fn_linalg2.py, ops/_linalg_ops.py): float64
gradchecks of every differentiable function, values against numpy, errors as MindSpore's.
MindSpore's own numbers: ms_programs/linalg2.py; PyTorch comparisons: test_linalg2_torch.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)


def T(*shape):
    return Tensor(RNG.standard_normal(shape))


def spd(x):
    return ops.matmul(x, x.swapaxes(-1, -2)) + Tensor(3 * np.eye(x.shape[-1]))


A, B, W, WIDE = T(3, 3), T(3, 2), T(4, 3), T(3, 5)
PIV = Tensor(np.array([2, 3, 3], np.int32))

GRAD_CASES = {
    "det": (ops.det, [A]),
    "det_batch": (ops.det, [T(2, 3, 3)]),
    "slogdet": (lambda x: ops.slogdet(x)[1], [A]),
    "logdet": (lambda x: ops.logdet(spd(x)), [A]),
    "log_matrix_determinant": (lambda x: ops.log_matrix_determinant(x)[1], [A]),
    "svd_values": (lambda x: ops.svd(x, compute_uv=False), [W]),
    "svd_rebuilt": (lambda x: (lambda s, u, v: ops.matmul(u * s.expand_dims(-2), v.swapaxes(
        -1, -2)))(*ops.svd(x)), [W]),
    "svd_vectors": (lambda x: (lambda s, u, v: (u * u, v * v, s))(*ops.svd(x)), [W]),
    "svd_wide": (lambda x: (lambda s, u, v: (u * u, v * v, s))(*ops.svd(x)), [WIDE]),
    "pinv": (ops.pinv, [W]),
    "pinv_wide": (ops.pinv, [WIDE]),
    "qr": (ops.qr, [W]),
    "qr_square": (ops.qr, [A]),
    "qr_wide": (ops.qr, [WIDE]),
    "cholesky": (lambda x: ops.cholesky(spd(x)), [A]),
    "cholesky_upper": (lambda x: ops.cholesky(spd(x), upper=True), [A]),
    "cholesky_inverse": (lambda x: ops.cholesky_inverse(ops.cholesky(spd(x))), [A]),
    "cholesky_solve": (lambda b, x: ops.cholesky_solve(b, ops.cholesky(spd(x))), [B, A]),
    "matrix_solve": (ops.matrix_solve, [A, B]),
    "matrix_solve_adjoint": (lambda a, b: ops.matrix_solve(a, b, True), [A, B]),
    "triangular_solve": (lambda b, a: b.triangular_solve(a + Tensor(3 * np.eye(3)))[0],
                         [B, A]),
    "lstsq": (ops.lstsq, [W, T(4, 2)]),
    "lstsq_wide": (ops.lstsq, [WIDE, T(3, 2)]),
    "lu_solve": (lambda b, a: ops.lu_solve(b, a + Tensor(3 * np.eye(3)), PIV), [B, A]),
    "lu_unpack": (lambda a: ops.lu_unpack(a, PIV)[1:], [A]),
    "matrix_power": (lambda x: ops.matrix_power(x, 3), [A]),
    "matrix_power_negative": (lambda x: ops.matrix_power(x, -2), [A]),
    "matrix_exp": (ops.matrix_exp, [A]),
    "matrix_band_part": (lambda x: ops.matrix_band_part(x, 1, 0), [A]),
    "trace": (ops.trace, [A]),
    "ger": (ops.ger, [T(3), T(4)]),
    "inner": (ops.inner, [A, W]),
    "kron": (ops.kron, [A, B]),
    "mv": (ops.mv, [W, T(3)]),
    "addmm": (lambda i, a, b: ops.addmm(i, a, b, beta=0.5, alpha=2.0), [B, A, B]),
    "addmv": (lambda i, a, v: ops.addmv(i, a, v, beta=0.5, alpha=2.0), [T(4), W, T(3)]),
    "addr": (lambda i, a, b: ops.addr(i, a, b, beta=0.5, alpha=2.0), [A, T(3), T(3)]),
    "addbmm": (lambda i, a, b: ops.addbmm(i, a, b, beta=0.5, alpha=2.0),
               [B, T(2, 3, 4), T(2, 4, 2)]),
    "baddbmm": (lambda i, a, b: ops.baddbmm(i, a, b, 0.5, 2.0), [T(2, 3, 2), T(2, 3, 4),
                                                                  T(2, 4, 2)]),
    "cross": (ops.cross, [A, T(3, 3)]),
    "cdist": (ops.cdist, [W, T(5, 3)]),
    "cdist_p1": (lambda a, b: ops.cdist(a, b, 1.0), [W, T(5, 3)]),
    "cdist_p3": (lambda a, b: ops.cdist(a, b, 3.0), [T(2, 4, 3), T(2, 5, 3)]),
    "pdist": (ops.pdist, [W]),
    "dist": (ops.dist, [W, T(4, 3)]),
    "cov": (ops.cov, [W]),
    "cov_weights": (lambda x: ops.cov(x, fweights=Tensor(np.array([1, 2, 1]), ms.int64),
                                      aweights=Tensor(np.array([0.5, 1.0, 2.0]))), [W]),
    "block_diag": (ops.block_diag, [A, B, T(2)]),
    "renorm": (lambda x: ops.renorm(x, 2, 0, 1.0), [W]),
    "norm": (ops.norm, [W]),
    "norm_nuc": (lambda x: ops.norm(x, "nuc"), [W]),
    "norm_2": (lambda x: ops.norm(x, 2), [W]),
    "norm_inf": (lambda x: ops.norm(x, float("inf")), [W]),
    "vector_norm": (lambda x: ops.vector_norm(x, 3, 1), [W]),
    "matrix_norm_m1": (lambda x: ops.matrix_norm(x, -1), [W]),
    "orgqr": (ops.orgqr, [W, T(3)]),
    "ormqr": (ops.ormqr, [W, T(3), T(4, 2)]),
    "ormqr_right_t": (lambda a, t, o: ops.ormqr(a, t, o, False, True), [W, T(3), T(2, 4)]),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradcheck(name):
    fn, args = GRAD_CASES[name]
    assert gradcheck(fn, *args)


@pytest.mark.parametrize("name", ["det", "slogdet", "matrix_solve", "matrix_solve_adjoint",
                                  "matrix_exp", "matrix_power_negative", "lstsq", "cross",
                                  "cdist", "kron"])
def test_second_order(name):
    fn, args = GRAD_CASES[name]
    assert gradgradcheck(fn, *args)


def test_first_order_only_decompositions_say_so():
    f = ms.grad(ms.grad(lambda x: ops.svd(x, compute_uv=False).sum()))
    with pytest.raises(Exception, match="svd"):
        f(W)


def _np(t):
    return t.asnumpy()


def test_values_against_numpy():
    a, w = _np(A), _np(W)
    s, u, v = ops.svd(W)
    np.testing.assert_allclose(_np(u) * _np(s) @ _np(v).T, w, atol=1e-10)
    np.testing.assert_allclose(_np(ops.pinv(W)), np.linalg.pinv(w), atol=1e-10)
    np.testing.assert_allclose(_np(ops.det(A)), np.linalg.det(a))
    q, r = ops.qr(W, "complete")
    assert q.shape == (4, 4) and r.shape == (4, 3)
    np.testing.assert_allclose(_np(q) @ _np(r), w, atol=1e-10)
    np.testing.assert_allclose(_np(ops.matrix_power(A, 5)), np.linalg.matrix_power(a, 5))
    e, vec = np.linalg.eig(a)
    expm = (vec * np.exp(e)) @ np.linalg.inv(vec)
    np.testing.assert_allclose(_np(ops.matrix_exp(A)), expm.real, atol=1e-10)
    np.testing.assert_allclose(_np(ops.kron(A, B)), np.kron(a, _np(B)))
    np.testing.assert_allclose(_np(ops.cov(W)), np.cov(w))
    np.testing.assert_allclose(_np(ops.norm(W, "nuc")), np.linalg.norm(w, "nuc"))
    np.testing.assert_allclose(_np(ops.norm(W, -2)), np.linalg.norm(w, -2))
    np.testing.assert_allclose(_np(ops.cross(A, W[:3])), np.cross(a, _np(W)[:3], axis=0))
    p, low, up = ops.lu_unpack(A, PIV)
    np.testing.assert_allclose(_np(p) @ _np(low) @ _np(up), _np(p) @ _np(low) @ _np(up))
    h, tau = ops.geqrf(W)
    np.testing.assert_allclose(np.abs(np.triu(_np(h))[:3]), np.abs(np.linalg.qr(w)[1]),
                               atol=1e-10)
    np.testing.assert_allclose(np.abs(_np(ops.orgqr(h, tau))), np.abs(np.linalg.qr(w)[0]),
                               atol=1e-10)
    np.testing.assert_allclose(_np(ops.ormqr(h, tau, Tensor(np.eye(4)))) @ np.pad(
        np.triu(_np(h))[:3], ((0, 1), (0, 0))), w, atol=1e-10)


def test_lu_roundtrip_with_lapack_pivots():
    # A = P L U with P from 1-based row swaps: rows 0<->1 then 1<->2
    p, low, up = ops.lu_unpack(A, PIV)
    perm = np.array([1, 2, 0])
    np.testing.assert_allclose(_np(p)[perm], np.eye(3))
    x = ops.lu_solve(B, A, PIV)
    np.testing.assert_allclose(_np(p) @ _np(low) @ _np(up) @ _np(x), _np(B), atol=1e-10)


def test_dtypes_and_shapes():
    a32 = Tensor(_np(A).astype(np.float32))
    assert ops.det(a32).dtype == ms.float32 and ops.det(a32).shape == ()
    sign, logabs = ops.slogdet(a32)
    assert sign.dtype == logabs.dtype == ms.float32
    s, u, v = ops.svd(Tensor(np.ones((3, 2), np.float32)), full_matrices=True)
    assert (s.shape, u.shape, v.shape) == ((2,), (3, 3), (2, 2))
    assert ops.trace(Tensor(np.arange(9).reshape(3, 3), ms.int32)).dtype == ms.int32
    band = ops.matrix_band_part(Tensor(np.arange(12).reshape(3, 4), ms.int32), 0, 1)
    assert band.dtype == ms.int32
    np.testing.assert_array_equal(_np(band), np.triu(np.tril(np.arange(12).reshape(3, 4), 1)))
    assert ops.pdist(W).shape == (6,)
    assert ops.block_diag(A, T(2)).shape == (4, 5)


@pytest.mark.parametrize("call, error, match", [
    (lambda: ops.det(B), ValueError, "square"),
    (lambda: ops.det(Tensor(np.eye(2), ms.int32)), TypeError, "float"),
    (lambda: ops.cholesky(Tensor(np.array([[1.0, 2.0], [2.0, 1.0]]))), RuntimeError,
     "positive definite"),
    (lambda: ops.matrix_solve(Tensor(np.zeros((2, 2))), B[:2]), ValueError, "not invertible"),
    (lambda: ops.trace(T(2, 3, 3)), RuntimeError, "rank of the input must be 2"),
    (lambda: ops.ger(A, T(3)), ValueError, "1-D"),
    (lambda: ops.cross(A, B), ValueError, "same shape"),
    (lambda: ops.matrix_power(A, 1.5), TypeError, "int"),
    (lambda: ops.svd(T(3)), ValueError, "2-D"),
    (lambda: ops.qr(W, "r"), TypeError, "reduced"),
    (lambda: ops.cdist(A, A, -1.0), ValueError, "non-negative"),
    (lambda: ops.norm(A, "abc"), ValueError, "ord"),
    (lambda: ops.renorm(A, 0, 0, 1.0), ValueError, "positive"),
    (lambda: ops.lu_unpack(A, Tensor(np.array([4, 1, 1], np.int32))), ValueError, "LU_pivots"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_svd_full_matrices_gradient_refuses_extra_columns():
    def f(x):
        return ops.svd(x, full_matrices=True)[1].sum()

    with pytest.raises(RuntimeError, match="full_matrices"):
        ms.grad(f)(W)


def test_tensor_norm_uses_the_full_family():
    assert abs(float(W.norm("nuc")) - np.linalg.norm(_np(W), "nuc")) < 1e-10
