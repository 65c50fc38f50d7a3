"""`ops.slogdet` / `ops.det` of complex matrices as MindSpore 2.10: the sign is complex, log|det|
is returned complex with a zero imaginary part; the gradient of log|det| matches PyTorch's, the
sign passes no gradient back (MindSpore's rule); values recorded from MindSpore."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

A = np.array([[-1.5 + 7.8j, 3 + 5.75j, 2 + 2.4j],
              [-6.4 + 485.4j, 45 + 3.14j, 45 + 453j],
              [-3.5 + 5.8j, 63 + 12.75j, -5 + 6.4j]])


def test_values_and_dtypes_as_mindspore():
    sign, logabs = ops.slogdet(Tensor(A, ms.complex64))
    assert sign.dtype == logabs.dtype == ms.complex64
    np.testing.assert_allclose(sign.asnumpy(), 0.74991894 + 0.6615297j, rtol=1e-5)
    np.testing.assert_allclose(logabs.asnumpy(), 12.061361 + 0j, rtol=1e-6)
    sign, logabs = Tensor(A, ms.complex128).slogdet()
    np.testing.assert_allclose(sign.asnumpy() * np.exp(logabs.asnumpy()), np.linalg.det(A))
    np.testing.assert_allclose(ops.det(Tensor(A)).asnumpy(), np.linalg.det(A))


def test_grad_of_logabs_matches_torch_and_sign_passes_none():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a = rng.normal(size=(2, 3, 3)) + 1j * rng.normal(size=(2, 3, 3))
    got = ops.grad(lambda v: ops.slogdet(v)[1])(Tensor(a))
    t = torch.tensor(a, requires_grad=True)
    torch.linalg.slogdet(t)[1].sum().backward()
    np.testing.assert_allclose(got.asnumpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
    zero = ops.grad(lambda v: ops.real(ops.slogdet(v)[0]))(Tensor(a))
    assert not np.any(zero.asnumpy())
    got = ops.grad(lambda v: ops.real(ops.det(v)))(Tensor(a))
    t = torch.tensor(a, requires_grad=True)
    torch.linalg.det(t).real.sum().backward()
    np.testing.assert_allclose(got.asnumpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_real_gradients_unchanged():
    x = Tensor(np.array([[2.0, 0.5], [0.3, 1.5]]))
    assert gradcheck(lambda v: ops.slogdet(v)[1], x)
    assert gradcheck(ops.det, x)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="float tensor"):
        ops.slogdet(Tensor(np.eye(2, dtype=np.int32)))
