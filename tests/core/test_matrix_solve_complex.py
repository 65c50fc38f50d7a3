"""ops.matrix_solve on complex inputs (`adjoint` is the conjugate transpose, as MindSpore 2.10)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def _inputs(dtype):
    rng = np.random.default_rng(0)
    a = (rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4))).astype(dtype)
    b = (rng.normal(size=(4, 2)) + 1j * rng.normal(size=(4, 2))).astype(dtype)
    return a, b


@pytest.mark.parametrize("dtype,tol", [(np.complex64, 1e-5), (np.complex128, 1e-12)])
@pytest.mark.parametrize("adjoint", [False, True])
def test_values(dtype, tol, adjoint):
    a, b = _inputs(dtype)
    out = ops.matrix_solve(Tensor(a), Tensor(b), adjoint)
    assert out.asnumpy().dtype == dtype
    want = np.linalg.solve(a.conj().T if adjoint else a, b)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("adjoint", [False, True])
def test_gradient_matches_torch(adjoint):
    torch = pytest.importorskip("torch")
    a, b = _inputs(np.complex128)

    def loss(A, B):
        x = ops.matrix_solve(A, B, adjoint)
        return ops.real(x).sum() + 2 * ops.imag(x).sum()

    ga, gb = ms.grad(loss, (0, 1))(Tensor(a), Tensor(b))
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    x = torch.linalg.solve(ta.conj().T if adjoint else ta, tb)
    (x.real.sum() + 2 * x.imag.sum()).backward()
    np.testing.assert_allclose(ga.asnumpy(), ta.grad.numpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(gb.asnumpy(), tb.grad.numpy(), rtol=1e-10, atol=1e-10)


def test_real_adjoint_unchanged():
    a, b = (x.real.copy() for x in _inputs(np.complex128))
    out = ops.matrix_solve(Tensor(a), Tensor(b), True)
    np.testing.assert_allclose(out.asnumpy(), np.linalg.solve(a.T, b), rtol=1e-12)
