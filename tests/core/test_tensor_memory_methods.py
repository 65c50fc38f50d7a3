"""Tensor.delete_, set_device_address, set_param_info/param_info, and the index-plan and
cast-dtype names cellgrad leaves out with their reason."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad._not_provided import NotProvidedError


def test_delete_releases_the_array_and_keeps_shape_and_dtype():
    x = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    before = x._data
    assert x.delete_() is x
    assert x._data is not before
    assert x.shape == (2, 3) and x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy(), np.zeros((2, 3), np.int32))
    x[0, 1] = 7  # the released Tensor is still writable, e.g. to take new data
    assert x.asnumpy()[0, 1] == 7
    assert x.delete_(non_blocking=True) is x


def test_delete_checks_non_blocking_as_mindspore():
    with pytest.raises(ValueError, match="The type of 'non_blocking' must be bool, but got 1"):
        Tensor(np.ones(2)).delete_(1)


def test_set_device_address_shares_the_memory_at_the_pointer():
    x = Tensor(np.ones((2, 3)), ms.int32)
    y = Tensor(np.zeros((2, 3)), ms.int32)
    y.set_device_address(x._data_ptr(), x.shape, x.dtype)
    assert y._data_ptr() == x._data_ptr() == x.data_ptr()
    np.testing.assert_array_equal(y.asnumpy(), np.ones((2, 3), np.int32))
    x[1, 2] = 9
    assert y.asnumpy()[1, 2] == 9
    y.set_device_address(x._data_ptr(), [3], ms.int32)  # a list shape, another view
    assert y.shape == (3,) and y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy(), [1, 1, 1])
    z = Tensor(np.zeros(1, np.float32))
    z.set_device_address(x._data_ptr(), (2,), ms.float32)  # reinterpreting the bytes
    np.testing.assert_array_equal(z.asnumpy(), np.ones(2, np.int32).view(np.float32))


@pytest.mark.parametrize("args, msg", [
    ((0, (2,), ms.int32), "'address' must be a positive int"),
    ((True, (2,), ms.int32), "'address' must be a positive int"),
    ((1234, (2.0,), ms.int32), "'shape' must be a tuple or list of non-negative ints"),
    ((1234, 2, ms.int32), "'shape' must be a tuple or list"),
])
def test_set_device_address_rejects_bad_arguments(args, msg):
    with pytest.raises(TypeError, match=msg):
        Tensor(np.zeros(2)).set_device_address(*args)


def test_set_param_info_attaches_a_parameters_info():
    x = Tensor(np.arange(3, dtype=np.float32))
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    q = Parameter(Tensor(np.ones(2, np.float32)), name="q")
    assert x.param_info is None
    assert Tensor.set_param_info(x, w.param_info) is None
    assert x.param_info.name == "w" and x.param_info.requires_grad is True
    Tensor.set_param_info(q, w.param_info)  # a Parameter keeps its own, as in MindSpore
    assert q.param_info.name == "q"
    with pytest.raises(TypeError, match="'param_info' must be ParamInfo .* but got int"):
        Tensor.set_param_info(x, 1)
    with pytest.raises(TypeError, match="'tensor' must be Tensor, but got list"):
        Tensor.set_param_info([1], w.param_info)


@pytest.mark.parametrize("call, name", [
    (lambda x: Tensor.getitem_index_info(x, 0, False), "getitem_index_info"),
    (lambda x: Tensor.setitem_index_info(x, 0, 1.0, False), "setitem_index_info"),
    (lambda x: x.set_cast_dtype(ms.float16), "set_cast_dtype"),
])
def test_graph_compiler_names_say_why_they_are_left_out(call, name):
    x = Tensor(np.arange(4, dtype=np.float32))
    with pytest.raises(NotProvidedError, match=f"Tensor.{name} .*graph compiler") as info:
        call(x)
    assert info.value.qualname == f"Tensor.{name}"
    assert "x[index]" in str(info.value) or "astype" in str(info.value)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(4))  # left untouched
