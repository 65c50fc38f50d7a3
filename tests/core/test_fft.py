"""FFTs (ops/_fft.py): values against numpy, gradients by gradcheck (real signals through
complex spectra) and against PyTorch (complex inputs, MindSpore's complex-gradient
convention), dtypes and errors. MindSpore's numbers: ms_programs/fft_grads.py."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(5)
X = RNG.standard_normal((3, 6))
Z = RNG.standard_normal((3, 5)) + 1j * RNG.standard_normal((3, 5))

# name: (cellgrad call, numpy/torch-equivalent call on arrays, input)
VALUES = {
    "fft": (lambda a: ops.fft(a, 8, 0, "ortho"), lambda a: np.fft.fft(a, 8, 0, "ortho"), Z),
    "ifft": (ops.ifft, np.fft.ifft, Z),
    "fft2": (lambda a: ops.fft2(a, (2, 7)), lambda a: np.fft.fft2(a, (2, 7)), X),
    "ifftn": (lambda a: ops.ifftn(a, norm="forward"), lambda a: np.fft.ifftn(a, norm="forward"),
              Z),
    "rfft": (lambda a: ops.rfft(a, 5), lambda a: np.fft.rfft(a, 5), X),
    "irfft": (lambda a: ops.irfft(a, 7), lambda a: np.fft.irfft(a, 7), Z),
    "rfftn": (ops.rfftn, np.fft.rfftn, X),
    "irfft2": (ops.irfft2, np.fft.irfft2, Z),
    "hfft": (lambda a: ops.hfft(a, 6), lambda a: np.fft.hfft(a, 6), Z),
    "ihfft": (ops.ihfft, np.fft.ihfft, X),
    "fftshift": (ops.fftshift, np.fft.fftshift, X),
    "ifftshift": (lambda a: ops.ifftshift(a, 1), lambda a: np.fft.ifftshift(a, 1), Z),
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_values_against_numpy(name):
    ours, theirs, a = VALUES[name]
    np.testing.assert_allclose(ours(Tensor(a)).asnumpy(), theirs(a), atol=1e-12)


@pytest.mark.parametrize("fn", [
    lambda x: ops.irfft(ops.rfft(x) * 1.0, 6),
    lambda x: ops.hfft(ops.fft(x, 8, norm="ortho"), 7),
    lambda x: ops.irfftn(ops.fftn(x)[:, :4], (3, 6)),
    lambda x: ops.hfft2(ops.ifft2(x, (4, 6))),
    lambda x: ops.irfft2(ops.rfft2(x, (2, 8), norm="forward")),
    lambda x: ops.fftshift(x) * ops.ifftshift(x, 0),
])
def test_gradcheck(fn):
    assert gradcheck(fn, Tensor(X))


def test_dtypes():
    f32 = Tensor(np.ones(4, np.float32))
    assert ops.fft(f32).dtype == ms.complex64
    assert ops.fft(Tensor(np.ones(4, np.int32))).dtype == ms.complex64
    assert ops.fft(Tensor(np.ones(4))).dtype == ms.complex128
    assert ops.irfft(ops.rfft(f32)).dtype == ms.float32
    assert ops.fftfreq(4).dtype == ms.float32
    assert ops.rfftfreq(4, dtype=ms.float64).dtype == ms.float64
    np.testing.assert_allclose(ops.fftfreq(5, 0.1).asnumpy(), np.fft.fftfreq(5, 0.1), rtol=1e-6)


def test_rfft_of_a_complex_input_is_the_onesided_part_of_fft():
    z = Tensor(Z)
    np.testing.assert_allclose(ops.rfft(z).asnumpy(), np.fft.fft(Z)[:, :3], atol=1e-12)


@pytest.mark.parametrize("call, error", [
    (lambda: ops.fft(Tensor(X), norm="x"), ValueError),
    (lambda: ops.fft(Tensor(X), dim=2), ValueError),
    (lambda: ops.fft(Tensor(X), 0), ValueError),
    (lambda: ops.fft([1.0, 2.0]), TypeError),
    (lambda: ops.fft2(Tensor(np.ones(3))), ValueError),
    (lambda: ops.fftn(Tensor(X), dim=(0, 0)), ValueError),
])
def test_errors(call, error):
    with pytest.raises(error):
        call()


TORCH = {
    "fft": (lambda a: ops.fft(a, 7), lambda t, a: t.fft.fft(a, 7)),
    "ifft_ortho": (lambda a: ops.ifft(a, norm="ortho"), lambda t, a: t.fft.ifft(a, norm="ortho")),
    "fft2_s": (lambda a: ops.fft2(a, (2, 6)), lambda t, a: t.fft.fft2(a, (2, 6))),
    "irfft": (lambda a: ops.irfft(a, 7), lambda t, a: t.fft.irfft(a, 7)),
    "irfftn_s": (lambda a: ops.irfftn(a, (2, 5)), lambda t, a: t.fft.irfftn(a, (2, 5))),
    "hfft": (lambda a: ops.hfft(a, 6), lambda t, a: t.fft.hfft(a, 6)),
    "hfftn": (ops.hfftn, lambda t, a: t.fft.hfftn(a)),
    "fftshift": (ops.fftshift, lambda t, a: t.fft.fftshift(a)),
}


@pytest.mark.parametrize("name", sorted(TORCH))
def test_complex_gradients_against_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = TORCH[name]
    t_in = torch.tensor(Z, requires_grad=True)
    t_out = theirs(torch, t_in)
    out = ours(Tensor(Z))
    np.testing.assert_allclose(out.asnumpy(), t_out.detach().numpy(), atol=1e-12)
    w = RNG.standard_normal(out.shape)
    v = RNG.standard_normal(out.shape)
    if t_out.is_complex():
        t_loss = (t_out.real * torch.tensor(w) + t_out.imag * torch.tensor(v)).sum()

        def loss(a):
            y = ours(a)
            return (ops.real(y) * Tensor(w) + ops.imag(y) * Tensor(v)).sum()
    else:
        t_loss = (t_out * torch.tensor(w)).sum()

        def loss(a):
            return (ours(a) * Tensor(w)).sum()
    (t_grad,) = torch.autograd.grad(t_loss, t_in)
    np.testing.assert_allclose(ms.grad(loss)(Tensor(Z)).asnumpy(), t_grad.numpy(), atol=1e-10)


def test_ihfft_gradient_against_torch():
    # MindSpore 2.10's own ihfft gradient comes out reversed; this one is PyTorch's
    torch = pytest.importorskip("torch")
    t_in = torch.tensor(X, requires_grad=True)
    t_out = torch.fft.ihfft(t_in)
    w = RNG.standard_normal(t_out.shape)
    (t_grad,) = torch.autograd.grad((t_out.imag * torch.tensor(w)).sum(), t_in)
    g = ms.grad(lambda a: (ops.imag(ops.ihfft(a)) * Tensor(w)).sum())(Tensor(X))
    np.testing.assert_allclose(g.asnumpy(), t_grad.numpy(), atol=1e-12)
