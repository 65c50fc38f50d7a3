"""COOTensor and CSRTensor: reprs, conversions, arithmetic and the functional forms, checked
against dense numpy (MindSpore's own output is replayed from ms_programs/sparse_*.py)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import COOTensor, CSRTensor, Tensor, ops
from cellgrad.common import sparse_tensor
from cellgrad.ops import composite as C

DENSE = np.array([[0, 1.5, 0, 0], [0, 0, -2, 0], [3, 0, 0, 0]], np.float32)


def _coo(dtype=ms.int64):
    return COOTensor(Tensor([[0, 1], [1, 2], [2, 0]], dtype), Tensor(DENSE[DENSE != 0]), (3, 4))


def _csr():
    return CSRTensor(Tensor([0, 1, 2, 3], ms.int32), Tensor([1, 2, 0], ms.int32),
                     Tensor(DENSE[DENSE != 0]), (3, 4))


def test_module_path_and_top_level_names():
    assert ms.COOTensor is sparse_tensor.COOTensor and ms.CSRTensor is sparse_tensor.CSRTensor
    assert ms.SparseTensor.__mro__[1] is COOTensor


def test_reprs_as_mindspore_prints_them():
    coo = COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([1.5, -2], ms.float32), (3, 4))
    assert repr(coo) == (
        "COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int32, "
        "value=\n[[0 1]\n [1 2]]), values=Tensor(shape=[2], dtype=Float32, "
        "value=[ 1.50000000e+00 -2.00000000e+00]))")
    csr = CSRTensor(Tensor([0, 1, 2, 2], ms.int32), Tensor([1, 2], ms.int32),
                    Tensor([1, 2], ms.int32), (3, 4))
    assert str(csr) == (
        "CSRTensor(shape=[3, 4], dtype=Int32, indptr=Tensor(shape=[4], dtype=Int32, "
        "value=[0 1 2 2]), indices=Tensor(shape=[2], dtype=Int32, value=[1 2]), "
        "values=Tensor(shape=[2], dtype=Int32, value=[1 2]))")


def test_properties():
    x, y = _coo(), _csr()
    assert (x.shape, x.ndim, x.size, x.itemsize, x.dtype) == ((3, 4), 2, 3, 4, ms.float32)
    assert (y.shape, y.ndim, y.size, y.itemsize) == ((3, 4), 2, 3, 4)
    assert x.astype(ms.float64).itemsize == 8 and y.astype(ms.float16).dtype == ms.float16
    np.testing.assert_array_equal(y.indptr.asnumpy(), [0, 1, 2, 3])


def test_conversions_round_trip():
    np.testing.assert_array_equal(_coo().to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(_csr().to_dense().asnumpy(), DENSE)
    csr = _coo(ms.int32).to_csr()
    assert csr.indptr.dtype == ms.int32
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), DENSE)
    coo = _csr().to_coo()
    assert coo.indices.dtype == ms.int32
    np.testing.assert_array_equal(coo.to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(ops.dense_to_sparse_csr(Tensor(DENSE)).to_dense().asnumpy(),
                                  DENSE)


def test_to_csr_sorts_rows_stably():
    x = COOTensor(Tensor([[2, 0], [0, 3], [0, 1]], ms.int32), Tensor([1.0, 2.0, 3.0]), (3, 4))
    y = x.to_csr()
    np.testing.assert_array_equal(y.indptr.asnumpy(), [0, 2, 2, 3])
    np.testing.assert_array_equal(y.indices.asnumpy(), [3, 1, 0])
    np.testing.assert_array_equal(y.values.asnumpy(), [2.0, 3.0, 1.0])
    with pytest.raises(TypeError, match="row_indices only support Int32 for now, but got Int64"):
        _coo().to_csr()


def test_csr_products_and_reductions_against_dense():
    rng = np.random.default_rng(0)
    m = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    np.testing.assert_allclose(_csr().mm(m).asnumpy(), DENSE @ m.asnumpy(), rtol=1e-6)
    col = Tensor(rng.standard_normal((4, 1)).astype(np.float32))
    np.testing.assert_allclose(ops.csr_mv(_csr(), col).asnumpy(), DENSE @ col.asnumpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(_csr().sum(1).asnumpy(), DENSE.sum(1, keepdims=True))
    np.testing.assert_allclose(ops.csr_reduce_sum(_csr(), 0).asnumpy(),
                               DENSE.sum(0, keepdims=True))
    with pytest.raises(ValueError, match=r"'dense' must have shape \(4, 1\)"):
        ops.csr_mv(_csr(), m)


def test_csr_times_dense_keeps_the_pattern():
    d = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) + 1)
    out = _csr() * d
    assert isinstance(out, CSRTensor)
    np.testing.assert_allclose(out.to_dense().asnumpy(), DENSE * d.asnumpy())
    row = Tensor(np.array([1.0, 2.0, 4.0, 8.0], np.float32))  # broadcast over rows
    np.testing.assert_allclose((_csr() / row).to_dense().asnumpy(), DENSE / row.asnumpy())
    scalar = _csr() * 2.0  # MindSpore returns the values alone for a scalar
    assert isinstance(scalar, Tensor)
    np.testing.assert_allclose(scalar.asnumpy(), DENSE[DENSE != 0] * 2)


def test_csr_mm_of_two_csr_tensors_is_gpu_only():
    with pytest.raises(RuntimeError, match="only on GPU.*a.mm\\(b.to_dense\\(\\)\\)"):
        ops.csr_mm(_csr(), _csr())
    with pytest.raises(TypeError, match="inputs a and b must be type of CSRTensor"):
        ops.csr_mm(_csr(), Tensor(DENSE))


def test_coo_add_merges_and_thresholds_only_sums():
    a = COOTensor(Tensor([[0, 1], [1, 2]], ms.int64), Tensor([1.0, -2.0]), (3, 4))
    b = COOTensor(Tensor([[1, 2], [2, 0]], ms.int64), Tensor([2.25, 0.1]), (3, 4))
    out = ops.coo_add(a, b, Tensor(0.3))
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [2, 0]])
    np.testing.assert_allclose(out.values.asnumpy(), [1.0, 0.1])  # 0.1 alone stays
    with pytest.raises(TypeError, match=r"argument\[x1_indices\] must be a type of "
                                        r"\{Tensor\[Int64\]\}, but got Tensor\[Int32\]"):
        ops.coo_add(_coo(ms.int32), _coo(ms.int32), Tensor(0.0))


def test_arithmetic_type_errors():
    with pytest.raises(TypeError, match="COOTensor multiply with .*COOTensor.* is not supported"):
        _coo() * _coo()
    with pytest.raises(TypeError, match="CSRTensor add with .*Tensor.* is not supported"):
        _csr() + Tensor(DENSE)
    with pytest.raises(ValueError, match="Input tensors should have the same shape."):
        _coo() + Tensor(np.ones((3, 5), np.float32))


def test_unary_functions_apply_to_values_only():
    x = _coo()
    for name, ref in (("tan", np.tan), ("asinh", np.arcsinh), ("inv", np.reciprocal),
                      ("expm1", np.expm1), ("neg", np.negative)):
        out = getattr(ops, "coo_" + name)(x)
        assert out.indices is x.indices and out.shape == x.shape
        np.testing.assert_allclose(out.values.asnumpy(), ref(x.values.asnumpy()), rtol=1e-5)
    pos = CSRTensor(Tensor([0, 1, 2], ms.int32), Tensor([0, 1], ms.int32), Tensor([0.5, 0.25]),
                    (2, 2))
    for name, ref in (("atanh", np.arctanh), ("acos", np.arccos)):
        np.testing.assert_allclose(getattr(ops, "csr_" + name)(pos).values.asnumpy(),
                                   ref([0.5, 0.25]), rtol=1e-6)
    big = CSRTensor(pos.indptr, pos.indices, Tensor([1.5, 2.0]), (2, 2))
    np.testing.assert_allclose(ops.csr_acosh(big).values.asnumpy(), np.arccosh([1.5, 2.0]),
                               rtol=1e-6)


def test_multitype_dispatches_each_sparse_kind():
    f = C.MultitypeFuncGraph("f")
    f.register("COOTensor")(lambda x: "coo")
    f.register("CSRTensor")(lambda x: "csr")
    f.register("Tensor")(lambda x: "dense")
    assert (f(_coo()), f(_csr()), f(Tensor(DENSE))) == ("coo", "csr", "dense")


def test_construction_checks():
    with pytest.raises(TypeError, match="For SparseTensors, 'shape' must be tuple"):
        COOTensor(Tensor([[0, 1]]), Tensor([1.0]), [3, 4])
    with pytest.raises(ValueError, match="the length of 'shape' must be 2, but got"):
        COOTensor(Tensor([[0, 1]]), Tensor([1.0]), (3, 4, 5))
    with pytest.raises(ValueError, match=r"indptr must have length \(1 \+ shape\[0\]\), but "
                                         r"got: 4"):
        CSRTensor(Tensor([0, 1, 2, 3]), Tensor([0, 1, 2]), Tensor([1.0, 2, 3]), (4, 4))
    with pytest.raises(TypeError, match="indices must have int16 or int32 or int64 data type, "
                                        "but got UInt8"):
        CSRTensor(Tensor([0, 1], ms.int32), Tensor([0], ms.uint8), Tensor([1.0]), (1, 2))


def test_low_level_helpers():
    np.testing.assert_array_equal(ops.coo2csr(Tensor([0, 0, 2], ms.int32), 3).asnumpy(),
                                  [0, 2, 2, 3])
    np.testing.assert_array_equal(ops.csr2coo(Tensor([0, 2, 2, 3], ms.int32), 3).asnumpy(),
                                  [0, 0, 2])
    got = ops.csr_gather(Tensor([0, 2, 2, 3], ms.int32), Tensor([1, 3, 0], ms.int32),
                         Tensor(np.arange(12.0).reshape(3, 4)), (3, 4))
    np.testing.assert_array_equal(got.asnumpy(), [1.0, 3.0, 8.0])
    x = ops.make_coo_tensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2))
    y = ops.make_csr_tensor(Tensor([0, 1, 1]), Tensor([1]), Tensor([1.0]), (2, 2))
    np.testing.assert_array_equal(x.to_dense().asnumpy(), y.to_dense().asnumpy())


def test_make_sparse_tensor_prints_mindspores_warning(capsys):
    x = ops.make_sparse_tensor(Tensor([[0, 1]]), Tensor([1.0]), (2, 2))
    assert isinstance(x, COOTensor)
    assert "WARNING: 'SparseTensor' is deprecated from version 1.7" in capsys.readouterr().out
