"""eig/eigvals, Eig, MatrixLogarithm (ops/_fn_eig.py), stft, STFT and FFTWithSize
(ops/_stft.py): gradients against PyTorch and gradcheck, values against numpy. MindSpore's
numbers: ms_programs/fft_more.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

A = np.array([[2.0, 1.0, 0.3], [0.5, 3.0, 0.2], [0.1, 0.4, 1.0]])
AC = A + 1j * np.cos(np.arange(9.0)).reshape(3, 3)
SIGNAL = np.sin(np.arange(40.0) * 0.37) + 0.1 * np.arange(40.0)


def test_eig_values_and_order():
    w, v = ops.eig(Tensor(A))
    assert w.dtype == v.dtype == ms.complex128
    wn = w.asnumpy()
    assert np.all(np.diff(np.abs(wn)) >= 0)  # MindSpore's order: ascending |w|
    np.testing.assert_allclose(A @ v.asnumpy(), v.asnumpy() * wn, atol=1e-12)
    assert ops.eigvals(Tensor(A.astype(np.float32))).dtype == ms.complex64


@pytest.mark.parametrize("inp", [A, AC, np.array([[0.0, -2.0], [2.0, 0.5]])])
def test_eig_gradient_against_torch(inp):
    torch = pytest.importorskip("torch")
    n = inp.shape[0]
    c = np.arange(1.0, n + 1.0)  # a loss that does not depend on the eigenpairs' order
    t = torch.tensor(inp, requires_grad=True)
    tw, tv = torch.linalg.eig(t)
    t_loss = (tw.real ** 2 + tw.imag * 0.3).sum() + (
        tw.real * ((tv.abs() ** 2) * torch.tensor(c)[:, None]).sum(0)).sum()
    (t_grad,) = torch.autograd.grad(t_loss, t)

    def loss(a):
        w, v = ops.eig(a)
        phase_free = ops.real(v * ops.conj(v))
        return (ops.real(w) ** 2 + ops.imag(w) * 0.3).sum() + (
            ops.real(w) * (phase_free * Tensor(c[:, None])).sum(0)).sum()

    np.testing.assert_allclose(ms.grad(loss)(Tensor(inp)).asnumpy(), t_grad.numpy(),
                               atol=1e-12)


def test_eigvals_gradcheck():
    assert gradcheck(lambda a: ops.real(ops.eigvals(a)) + ops.imag(ops.eigvals(a)) ** 2,
                     Tensor(A))


def test_matrix_logarithm_inverts_exp():
    x = Tensor((A * 0.3).astype(np.complex128))
    expm = ops.matrix_exp(Tensor(A * 0.3)).asnumpy()
    np.testing.assert_allclose(ops.MatrixLogarithm()(Tensor(expm.astype(np.complex128)))
                               .asnumpy(), x.asnumpy(), atol=1e-10)


def test_stft_against_torch():
    torch = pytest.importorskip("torch")
    window = np.hanning(10)
    ours = ops.stft(Tensor(SIGNAL), 16, 5, 10, Tensor(window), return_complex=True)
    theirs = torch.stft(torch.tensor(SIGNAL), 16, 5, 10, torch.tensor(window), center=True,
                        pad_mode="reflect", return_complex=True)
    np.testing.assert_allclose(ours.asnumpy(), theirs.numpy(), atol=1e-12)


def test_stft_is_differentiable():
    assert gradcheck(lambda x, w: ops.stft(x, 8, 3, window=w, return_complex=False),
                     Tensor(SIGNAL[:24]), Tensor(np.hanning(8)))


def test_fft_with_size_matches_the_functions():
    z = Tensor(AC)
    np.testing.assert_allclose(ops.FFTWithSize(2, False, False)(z).asnumpy(), np.fft.fft2(AC))
    np.testing.assert_allclose(ops.FFTWithSize(1, True, True, signal_sizes=(4,))(z).asnumpy(),
                               np.fft.irfft(AC, 4))
    with pytest.raises(ValueError):
        ops.FFTWithSize(4, False, False)


@pytest.mark.parametrize("call, error", [
    (lambda: ops.eig(Tensor(np.eye(2), ms.int32)), TypeError),
    (lambda: ops.eig(Tensor(np.ones((2, 3)))), ValueError),
    (lambda: ops.MatrixLogarithm()(Tensor(np.eye(2))), TypeError),
    (lambda: ops.stft(Tensor(np.ones((2, 2, 8))), 4), ValueError),
    (lambda: ops.stft(Tensor(np.ones(8)), 4, pad_mode="wrap"), ValueError),
    (lambda: ops.stft(Tensor(np.ones(8)), 16, center=False), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()
