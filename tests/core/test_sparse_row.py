"""RowTensor: construction, the copy form, properties, repr and type dispatch."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import RowTensor, Tensor
from cellgrad.common import sparse_tensor
from cellgrad.common.sparse_tensor import RowTensorInner
from cellgrad.ops import composite as C


def _row():
    return RowTensorInner(Tensor([0, 2]), Tensor([[1, 2], [3, 4]], ms.float32), (3, 2))


def test_properties_keep_the_parts():
    x = _row()
    assert x.indices.dtype == ms.int64 and x.values.dtype == ms.float32
    np.testing.assert_array_equal(x.indices.asnumpy(), [0, 2])
    np.testing.assert_array_equal(x.values.asnumpy(), [[1, 2], [3, 4]])
    assert x.dense_shape == (3, 2) and type(x.dense_shape) is tuple
    assert x._dtype == ms.float32
    assert not hasattr(x, "to_dense") and not hasattr(x, "shape")  # MindSpore has neither


def test_repr_as_mindspore_prints_it():
    expected = ("RowTensor(shape=[3, 2], dtype=Float32, indices=Tensor(shape=[2], dtype=Int64, "
                "value=[0 2]), values=Tensor(shape=[2, 2], dtype=Float32, value=\n"
                "[[ 1.00000000e+00  2.00000000e+00]\n [ 3.00000000e+00  4.00000000e+00]]))")
    assert repr(_row()) == expected == str(_row())
    big = RowTensorInner(Tensor(np.arange(10)), Tensor(np.ones((10, 3), np.float32)), (12, 3))
    assert repr(big).endswith("values=Tensor(shape=[10, 3], dtype=Float32, value=[...]))")
    half = RowTensorInner(Tensor([0, 2]), Tensor([1, 2], ms.float16), (3,))
    assert repr(half).endswith("value=[ 1.0000e+00  2.0000e+00]))")


def test_copy_form_and_its_errors():
    x = _row()
    y = RowTensorInner(row_tensor=x)
    assert repr(y) == repr(x) and y.dense_shape == (3, 2)
    with pytest.raises(TypeError, match="Expect input `row_tensor` to be a RowTensor, but got "
                                        "<class 'int'>"):
        RowTensorInner(row_tensor=5)
    with pytest.raises(TypeError, match="should all be `None`"):
        RowTensorInner(Tensor([0]), row_tensor=x)


def test_bad_parts_are_type_errors():
    with pytest.raises(TypeError, match="'RowTensor', the 'shape' must be a tuple, but got list"):
        RowTensorInner(Tensor([0]), Tensor([[1.0]]), [3, 1])
    with pytest.raises(TypeError, match="the 'shape' must be a tuple, but got NoneType"):
        RowTensorInner(Tensor([0]), Tensor([[1.0]]))
    with pytest.raises(TypeError, match="the 'values' must be a Tensor, but got ndarray"):
        RowTensorInner(Tensor([0]), np.ones((1, 1)), (2, 1))


def test_public_rowtensor_warns_deprecated(monkeypatch):
    logged = []
    monkeypatch.setattr(sparse_tensor.logger, "warning", logged.append)
    x = RowTensor(Tensor([1]), Tensor([[1.0, 2.0]]), (2, 2))
    assert isinstance(x, RowTensorInner) and ms.RowTensor is RowTensor
    assert logged == ["'RowTensor' is deprecated from version 1.7 and will be removed in a "
                      "future version."]
    RowTensorInner(Tensor([1]), Tensor([[1.0, 2.0]]), (2, 2))
    assert len(logged) == 1


def test_multitype_dispatches_rowtensor_apart_from_tensor():
    f = C.MultitypeFuncGraph("f")

    @f.register("Tensor", "RowTensor")
    def _rows(scale, grad):
        return RowTensorInner(grad.indices, grad.values * scale, grad.dense_shape)

    @f.register("Tensor", "Tensor")
    def _dense(scale, grad):
        return grad * scale

    out = f(Tensor(0.5), _row())
    assert isinstance(out, RowTensorInner)
    np.testing.assert_allclose(out.values.asnumpy(), [[0.5, 1.0], [1.5, 2.0]])
    np.testing.assert_allclose(f(Tensor(0.5), Tensor([4.0])).asnumpy(), [2.0])


def test_hypermap_scales_a_mix_of_dense_and_row_gradients():
    # the gradient-scaling pattern of mindcv and the model zoo
    from cellgrad.ops import functional as F

    scale = C.MultitypeFuncGraph("grad_scale")
    scale.register("Tensor", "Tensor")(lambda s, g: g / s)
    scale.register("Tensor", "RowTensor")(
        lambda s, g: RowTensorInner(g.indices, g.values / s, g.dense_shape))
    dense, rows = C.HyperMap()(F.partial(scale, Tensor(2.0)), (Tensor([4.0]), _row()))
    np.testing.assert_allclose(dense.asnumpy(), [2.0])
    assert isinstance(rows, RowTensorInner) and rows.dense_shape == (3, 2)
    np.testing.assert_allclose(rows.values.asnumpy(), [[0.5, 1.0], [1.5, 2.0]])
