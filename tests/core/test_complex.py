"""complex64/complex128 tensors: creation, promotion, the complex ops' values and errors,
Tensor methods (MindSpore 2.10's printed values are replayed in ms_programs/complex_dtypes)."""

import pickle

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.ops import operations as P

Z = np.array([[1 + 2j, 3 - 4j, 0.5j], [2, -1j, 1 + 1j]], np.complex64)


def test_creation_and_dtypes():
    assert Tensor(Z).dtype is ms.complex64 and Tensor(Z.astype(np.complex128)).dtype is \
        ms.complex128
    assert Tensor(1 + 2j).dtype is ms.complex128 and Tensor(1 + 2j).item() == 1 + 2j
    assert Tensor([1 + 2j, 3]).dtype is ms.complex128
    assert Tensor([1.0, 2.0], ms.complex64).asnumpy().tolist() == [1 + 0j, 2 + 0j]
    assert Tensor(np.complex64(1j)).dtype is ms.complex64
    assert ms.common.dtype.cfloat is ms.complex64 and ms.common.dtype.cdouble is ms.complex128
    assert pickle.loads(pickle.dumps(Tensor(Z))).asnumpy().tolist() == Z.tolist()
    with pytest.raises(TypeError, match="complex"):
        float(Tensor(1 + 2j))
    with pytest.raises(TypeError, match="complex"):
        int(Tensor(np.array(1j, np.complex64)))
    assert float(Tensor(2.5)) == 2.5 and int(Tensor(-3)) == -3


def test_promotion_follows_mindspore():
    z = Tensor(Z[0])
    assert (z + 1).dtype is ms.complex64 and (z * 1.5).dtype is ms.complex64
    assert (z + Tensor([1.0], ms.float64)).dtype is ms.complex128
    assert (z + Tensor([1.0], ms.float32)).dtype is ms.complex64
    assert (z + Tensor([1], ms.int64)).dtype is ms.complex64
    assert (z + Tensor(np.array([1j]))).dtype is ms.complex128
    assert (z / Tensor([2], ms.int32)).dtype is ms.complex64
    # differs on purpose: MindSpore refuses a Python complex scalar; cellgrad takes it as numpy
    assert (Tensor([1.0, 2.0]) * 1j).dtype is ms.complex64
    assert (Tensor([1.0], ms.float64) + 1j).dtype is ms.complex128


def test_arithmetic_reductions_and_indexing_values():
    z = Tensor(Z)
    np.testing.assert_allclose((z * z / (z + 1)).asnumpy(), Z * Z / (Z + 1), rtol=1e-6)
    np.testing.assert_allclose(ops.matmul(z, z.T).asnumpy(), Z @ Z.T, rtol=1e-6)
    np.testing.assert_allclose(z.sum(axis=0).asnumpy(), Z.sum(axis=0))
    np.testing.assert_allclose(z.mean().asnumpy(), Z.mean(), rtol=1e-6)
    assert z[1, 2].asnumpy() == Z[1, 2] and z[:, 1:].shape == (2, 2)
    np.testing.assert_allclose(ops.exp(z).asnumpy(), np.exp(Z), rtol=1e-6)
    assert (z == z).asnumpy().all() and (z != z).dtype is ms.bool_


def test_casts_keep_the_real_part_as_mindspore():
    z = Tensor(Z)
    assert z.astype(ms.float32).asnumpy().tolist() == Z.real.tolist()
    assert z.astype(ms.int32).asnumpy().tolist() == [[1, 3, 0], [2, 0, 1]]
    assert z.astype(ms.bool_).asnumpy().tolist() == [[True, True, False], [True, False, True]]
    assert z.astype(ms.complex128).dtype is ms.complex128


def test_complex_ops_values():
    z = Tensor(Z)
    assert ops.real(z).dtype is ms.float32 and ops.real(z).asnumpy().tolist() == Z.real.tolist()
    assert ops.imag(z).asnumpy().tolist() == Z.imag.tolist()
    assert ops.conj(z).asnumpy().tolist() == Z.conj().tolist()
    np.testing.assert_allclose(ops.angle(z).asnumpy(), np.angle(Z), rtol=1e-6)
    np.testing.assert_allclose(P.ComplexAbs()(z).asnumpy(), np.abs(Z), rtol=1e-6)
    assert P.ComplexAbs()(z).dtype is ms.float32
    c = P.Complex()(Tensor([1.0, 2.0], ms.float64), Tensor([3.0, -4.0], ms.float64))
    assert c.dtype is ms.complex128 and c.asnumpy().tolist() == [1 + 3j, 2 - 4j]
    p = ops.polar(Tensor([2.0]), Tensor([np.pi / 2]))
    assert p.dtype is ms.complex64
    np.testing.assert_allclose(p.asnumpy(), [2j], atol=1e-6)
    assert P.ConjugateTranspose()(z, (1, 0)).asnumpy().tolist() == Z.conj().T.tolist()
    assert ops.adjoint(z).asnumpy().tolist() == Z.conj().T.tolist()
    assert ops.view_as_real(z).shape == (2, 3, 2)
    assert ops.view_as_real(z).asnumpy()[..., 1].tolist() == Z.imag.tolist()
    assert ops.isreal(z).asnumpy().tolist() == [[False, False, False], [True, False, False]]
    assert ops.is_complex(z) is True and ops.is_complex(Tensor([1.0])) is False
    assert ops.is_floating_point(Tensor([1.0])) is True and ops.is_floating_point(z) is False


def test_complex_ops_on_real_tensors():
    x = Tensor([1.0, -2.0])
    assert ops.real(x).asnumpy().tolist() == [1.0, -2.0]
    assert ops.imag(x).asnumpy().tolist() == [0.0, 0.0]
    assert ops.conj(Tensor([1, 2])).dtype is ms.int64
    assert ops.isreal(x).asnumpy().tolist() == [True, True]


@pytest.mark.parametrize("call, error, match", [
    (lambda: ops.angle(Tensor([1.0])), TypeError, r"Angle.*Complex128"),
    (lambda: P.ComplexAbs()(Tensor([1.0])), TypeError, r"ComplexAbs.*Tensor\[Float32\]"),
    (lambda: P.Complex()(Tensor([1.0], ms.float64), Tensor([1.0])), TypeError,
     "input type must be same"),
    (lambda: P.Complex()(Tensor([1]), Tensor([1])), TypeError, r"Tensor\[Int64\]"),
    (lambda: P.Complex()(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 2.0])), ValueError,
     "cannot be broadcast"),
    (lambda: ops.real(1.0), TypeError, "Real"),
    (lambda: ops.is_complex(1.0), TypeError, "must be Tensor"),
    (lambda: ops.view_as_real(Tensor([1.0])), TypeError, "must be complex"),
    (lambda: ops.polar(Tensor([1.0]), Tensor([1, 2])), TypeError, "angle"),
    (lambda: Tensor([1.0, 2.0]).H, ValueError, "only 2-D Tensor"),
    (lambda: Tensor([1.0]).mT, ValueError, r"range of \[-1, 1\)"),
])
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_tensor_methods():
    z = Tensor(Z)
    assert z.real().asnumpy().tolist() == Z.real.tolist()
    assert z.imag().asnumpy().tolist() == Z.imag.tolist()
    assert z.conj().asnumpy().tolist() == Z.conj().tolist()
    np.testing.assert_allclose(z.angle().asnumpy(), np.angle(Z), rtol=1e-6)
    assert z.H.asnumpy().tolist() == Z.conj().T.tolist()
    assert z.mT.asnumpy().tolist() == Z.T.tolist()
    assert z.mH.asnumpy().tolist() == Z.conj().T.tolist()
    assert z.adjoint().asnumpy().tolist() == Z.conj().T.tolist()
    assert z.is_complex() and not z.is_floating_point() and z.is_signed()
    assert z.itemsize == 8 and z.nbytes == 48
    batched = Tensor(np.ones((4, 2, 3), np.complex128))
    assert batched.mT.shape == (4, 3, 2) and batched.mH.dtype is ms.complex128


def test_str_is_numpys_and_repr_is_mindspores():
    z = Tensor(np.array([1 + 2j, 3 - 4j], np.complex64))
    assert str(z) == str(z.asnumpy())
    assert repr(z) == "Tensor(shape=[2], dtype=Complex64, value= [1+2j, 3-4j])"
    assert repr(Tensor(np.array(-0.0 - 0.5j))) == \
        "Tensor(shape=[], dtype=Complex128, value= -0-0.5j)"
