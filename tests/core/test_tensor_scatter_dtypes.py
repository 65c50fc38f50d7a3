"""tensor_scatter_*: MindSpore 2.10's index/input dtype checks and integer division."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


def _x(dtype):
    return Tensor(np.array([[-1, 3, 3], [4, 5, -3]]), dtype)


@pytest.mark.parametrize("prim", ["TensorScatterSub", "TensorScatterMul", "TensorScatterMin",
                                  "TensorScatterMax", "TensorScatterDiv",
                                  "TensorScatterUpdate"])
@pytest.mark.parametrize("index_dtype", [ms.int8, ms.int16, ms.uint8, ms.float32])
def test_indices_must_be_int32_or_int64(prim, index_dtype):
    with pytest.raises(TypeError, match=rf"For primitive\[{prim}\], the input argument\["
                                        r"indices type\] must be a type of \{Tensor\[Int32\], "
                                        r"Tensor\[Int64\]\}, but got Tensor\["):
        getattr(ops, prim)()(_x(ms.int32), Tensor(np.array([[0, 1]]), index_dtype),
                             Tensor(np.array([1]), ms.int32))


def test_add_indices_message():
    with pytest.raises(TypeError, match=r"For primitive\[TensorScatterAdd\], the input\[indices "
                                        r"type\] supports types: Int32, Int64. But got Int16."):
        ops.tensor_scatter_add(_x(ms.int32), Tensor(np.array([[0, 1]]), ms.int16),
                               Tensor(np.array([1]), ms.int32))


@pytest.mark.parametrize("dtype", [ms.int8, ms.uint8, ms.bool_])
def test_div_rejects_byte_inputs(dtype):
    with pytest.raises(TypeError, match=r"TensorScatterDiv\], the input argument\[input_x\] "
                                        r"must be a type of \{Tensor\[Float16\]"):
        ops.tensor_scatter_div(_x(dtype), Tensor(np.array([[0, 1]]), ms.int32),
                               Tensor(np.array([1]), dtype))


@pytest.mark.parametrize("dtype", [ms.int16, ms.int32, ms.int64])
def test_integer_div_truncates_toward_zero(dtype):
    x = Tensor(np.array([-7, 7, -7, 7, 5]), dtype)
    idx = Tensor(np.array([[0], [1], [2], [3]]), ms.int32)
    out = ops.tensor_scatter_div(x, idx, Tensor(np.array([2, -2, 3, -3]), dtype))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.asnumpy(), [-3, -3, -2, -2, 5])
    # repeated indices divide in turn: 7 // 2 // 2 (MindSpore 2.10 gives 1)
    out = ops.tensor_scatter_div(Tensor(np.array([7, 7]), dtype),
                                 Tensor(np.array([[0], [0]]), ms.int32),
                                 Tensor(np.array([2, 2]), dtype))
    np.testing.assert_array_equal(out.asnumpy(), [1, 7])


def test_float_div_unchanged():
    x = Tensor(np.array([-7, 7, -7, 7, 0]), ms.float32)
    out = ops.tensor_scatter_div(x, Tensor(np.arange(5).reshape(5, 1), ms.int32),
                                 Tensor(np.array([2, -2, 0, -0.0, 0]), ms.float32))
    np.testing.assert_array_equal(out.asnumpy(), [-3.5, -3.5, -np.inf, -np.inf, np.nan])
