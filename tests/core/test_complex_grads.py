"""Complex gradients: MindSpore's convention (dL/dx + i dL/dy for a real loss of z = x + iy),
checked by central differences in float64/complex128, to second order, and against PyTorch."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)
Z = RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3))
W = RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3))


def _numeric(loss, z, eps=1e-6):
    """dL/dx + i dL/dy by central differences, for a real scalar loss of a complex array."""
    out = np.zeros_like(z)
    for i in np.ndindex(z.shape):
        for step, unit in ((eps, 1.0), (eps * 1j, 1j)):
            hi, lo = z.copy(), z.copy()
            hi[i] += step
            lo[i] -= step
            d = (float(loss(Tensor(hi))) - float(loss(Tensor(lo)))) / (2 * eps)
            out[i] += unit * d
    return out


LOSSES = {
    "abs2": lambda z: (ops.abs(z) ** 2).sum(),
    "ComplexAbs": lambda z: ops.ComplexAbs()(z).sum(),
    "angle": lambda z: ops.angle(z).sum(),
    "real(z*w)": lambda z: ops.real(z * Tensor(W)).sum(),
    "imag(z*w)": lambda z: ops.imag(z * Tensor(W)).sum(),
    "real(conj(z)*w)": lambda z: ops.real(ops.conj(z) * Tensor(W)).sum(),
    "matmul": lambda z: ops.real(ops.matmul(z, Tensor(W).T)).sum(),
    "div": lambda z: ops.imag(Tensor(W) / z).sum(),
    "exp": lambda z: ops.real(ops.exp(z)).sum(),
    "mean+index": lambda z: ops.imag(z.mean() * z[1, 2]),
    "view_as_real": lambda z: (ops.view_as_real(z) * Tensor(np.arange(12.0).reshape(2, 3, 2)))
    .sum(),
    "adjoint": lambda z: ops.real(ops.adjoint(z) * Tensor(W.T)).sum(),
    "H": lambda z: ops.imag(z.H * Tensor(W.T)).sum(),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_complex_input_gradient_matches_central_differences(name):
    loss = LOSSES[name]
    got = ms.grad(loss)(Tensor(Z))
    assert got.dtype is ms.complex128 and got.shape == Z.shape
    np.testing.assert_allclose(got.asnumpy(), _numeric(loss, Z), rtol=1e-5, atol=1e-6)


def test_complex64_gradient_keeps_complex64():
    z = Tensor(Z.astype(np.complex64))
    g = ms.grad(lambda v: ops.ComplexAbs()(v).sum())(z)
    assert g.dtype is ms.complex64
    np.testing.assert_allclose(g.asnumpy(), Z / np.abs(Z), rtol=1e-5)


def test_mindspores_recorded_convention():
    # recorded from MindSpore 2.10 (tests/core/ms_programs/complex_dtypes.py)
    z = Tensor(np.array([1 + 2j, 3 - 4j], np.complex64))
    np.testing.assert_allclose(ms.grad(lambda v: ops.angle(v).sum())(z).asnumpy(),
                               [-0.4 + 0.2j, 0.16 + 0.12j], rtol=1e-6)
    w = Tensor(np.array([0.5 - 1j, 2 + 1j], np.complex64))
    g = ms.grad(lambda v: ops.real(ops.matmul(v.reshape(1, 2), w.reshape(2, 1))).sum())(z)
    np.testing.assert_allclose(g.asnumpy(), [0.5 + 1j, 2 - 1j])


def test_complex_sens_follows_the_same_convention():
    # d real(<sens, f(z)>)... with f(z) = z * w: the vjp with cotangent s is conj(w) * s
    z, w = Tensor(Z), Tensor(W)
    s = RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3))
    g = ops.GradOperation(sens_param=True)(lambda v: v * w)(z, Tensor(s))
    np.testing.assert_allclose(g.asnumpy(), np.conj(W) * s)


REAL_TO_COMPLEX = {
    "Complex": lambda a, b: ops.abs(ops.Complex()(a, b)).sum(),
    "Complex angle": lambda a, b: ops.angle(ops.Complex()(a, b) * Tensor(W)).sum(),
    "polar": lambda a, b: (ops.real(ops.polar(a, b)) * 3 + ops.imag(ops.polar(a, b))).sum(),
    "polar abs2": lambda a, b: (ops.ComplexAbs()(ops.polar(a, b) + 1j) ** 2).sum(),
}


@pytest.mark.parametrize("name", list(REAL_TO_COMPLEX))
def test_real_inputs_through_complex_values_gradcheck_to_second_order(name):
    fn = REAL_TO_COMPLEX[name]
    a = Tensor(RNG.uniform(0.5, 2.0, size=(2, 3)))
    b = Tensor(RNG.normal(size=(2, 3)))
    assert gradcheck(fn, a, b)
    assert gradgradcheck(fn, a, b)


def test_complex_abs_and_angle_at_zero_have_zero_gradient():
    z = Tensor(np.array([0j, 1j]))
    assert ms.grad(lambda v: ops.ComplexAbs()(v).sum())(z).asnumpy().tolist() == [0j, 1j]
    assert ms.grad(lambda v: ops.angle(v).sum())(z).asnumpy()[0] == 0


TORCH_CASES = {
    "abs": (lambda o, z: o.abs(z).sum(), lambda t, z: t.abs(z).sum()),
    "angle": (lambda o, z: o.angle(z).sum(), lambda t, z: t.angle(z).sum()),
    "real*imag": (lambda o, z: (o.real(z) * o.imag(z)).sum(),
                  lambda t, z: (t.real(z) * t.imag(z)).sum()),
    "conj*z": (lambda o, z: o.real(o.conj(z) * z * z).sum(),
               lambda t, z: t.real(t.conj(z) * z * z).sum()),
    "view_as_real": (lambda o, z: (o.view_as_real(z) ** 3).sum(),
                     lambda t, z: (t.view_as_real(z) ** 3).sum()),
}


@pytest.mark.parametrize("name", list(TORCH_CASES))
def test_complex_gradients_match_pytorch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = TORCH_CASES[name]
    got = ms.grad(lambda z: ours(ops, z))(Tensor(Z)).asnumpy()
    tz = torch.tensor(Z, requires_grad=True)
    theirs(torch, tz).backward()
    np.testing.assert_allclose(got, tz.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_polar_and_complex_match_pytorch():
    torch = pytest.importorskip("torch")
    a, b = RNG.uniform(0.5, 2.0, size=4), RNG.normal(size=4)
    ga, gb = ms.grad(lambda x, y: ops.angle(ops.polar(x, y) + ops.Complex()(y, x) * 2).sum(),
                     grad_position=(0, 1))(Tensor(a), Tensor(b))
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    torch.angle(torch.polar(ta, tb) + torch.complex(tb, ta) * 2).sum().backward()
    np.testing.assert_allclose(ga.asnumpy(), ta.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gb.asnumpy(), tb.grad.numpy(), rtol=1e-10)


def test_real_inputs_mixed_with_complex_values_get_real_gradients(recwarn):
    w = Tensor(W[0].astype(np.complex64))
    x = Tensor(np.array([1.0, 2.0, -0.5], np.float32))
    g = ms.grad(lambda v: ops.real(v * w).sum())(x)
    assert g.dtype is ms.float32
    np.testing.assert_allclose(g.asnumpy(), W[0].real, rtol=1e-6)
    g = ms.grad(lambda v: ops.imag(ops.cast(v, ms.complex64) * w + 1j).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), W[0].imag, rtol=1e-6)
    g = ms.grad(lambda v: ops.abs(ops.exp(v * 1j)).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), 0, atol=1e-6)
    assert not [w for w in recwarn if "complex" in str(w.message).lower()]
