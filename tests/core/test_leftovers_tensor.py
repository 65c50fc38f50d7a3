"""Leftover Tensor methods: values and errors recorded from MindSpore 2.10 CPU; gradients
gradchecked in float64."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor
from cellgrad.testing import gradcheck

X = np.array([[1., -0.3, 6.], [0.2, -7., 1.]], np.float32)


def test_shrinks():
    assert Tensor(X).hardshrink(0.5).asnumpy().tolist() == [[1., 0., 6.], [0., -7., 1.]]
    soft = Tensor(X).soft_shrink(0.5)
    assert soft.dtype == ms.float32
    assert soft.asnumpy().tolist() == [[0.5, 0., 5.5], [0., -6.5, 0.5]]
    assert Tensor(X).soft_shrink().asnumpy().tolist() == soft.asnumpy().tolist()
    with pytest.raises(ValueError, match="'lambd' must be no less than 0"):
        Tensor(X).soft_shrink(-1.0)


def test_shrinks_gradcheck():
    x = Tensor(np.array([[1.5, -0.2, 0.9], [0.1, -2.0, -0.8]]))
    assert gradcheck(lambda t: t.hardshrink(0.5), x)
    assert gradcheck(lambda t: t.soft_shrink(0.5), x)
    assert gradcheck(lambda t: t.diff(), x)


def test_memory_queries_on_cpu():
    x = Tensor(X)
    assert x.is_pinned() is False and x.is_shared() is False
    assert x.pin_memory() is x
    assert x.to_("CPU") is x and x.to_() is x
    with pytest.raises(RuntimeError, match="no 'Ascend' device"):
        x.to_("Ascend")
    with pytest.raises(ValueError, match=r"The value of 'to' must be one of \['Ascend', 'CPU'\], "
                                         r"but got Float16"):
        x.to_(ms.float16)


def test_untyped_storage():
    x = Tensor(np.array([1., 2.], np.float32))
    s = x.untyped_storage()
    assert s.device == "CPU" and s.dtype == ms.float32 and s.element_size() == 1
    assert s.nbytes() == s.size() == 8 and s.is_shared() is False
    assert x.storage().data_ptr() == s.data_ptr()
    s.copy_(Tensor(np.array([5., 6.], np.float32)).storage())
    assert x.asnumpy().tolist() == [5., 6.]
    with pytest.raises(RuntimeError, match="UntypedStorage of 8 bytes"):
        s.copy_(Tensor(np.ones(3, np.float32)).storage())


def test_untyped_storage_is_made_only_by_tensors():
    """MindSpore 2.10: `ms.UntypedStorage()` (or with a Tensor) raises this TypeError; storages
    come from `Tensor.untyped_storage()` and are instances of the top-level class."""
    x = Tensor(np.array([1., 2., 3.], np.float32))
    for args in ((), (x,)):
        with pytest.raises(TypeError, match="^cannot create 'UntypedStorage' instances$"):
            ms.UntypedStorage(*args)
    s = x.untyped_storage()
    assert type(s) is ms.UntypedStorage and s.nbytes() == 12


def test_const_arg_of_the_constructor():
    """MindSpore 2.10: `Tensor(x, const_arg=True).const_arg` is True; a non-bool is refused."""
    assert Tensor(1.0, const_arg=True).const_arg is True
    assert Tensor(1.0).const_arg is False
    with pytest.raises(TypeError, match="For 'Tensor', the type of 'const_arg' should be 'bool', "
                                        "but got type 'int'."):
        Tensor(1.0, const_arg=1)
