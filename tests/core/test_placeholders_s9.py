"""`Tensor(shape=[None, ...], dtype=...)` placeholders and `Symbol` (MindSpore 2.10 behaviour is
replayed in ms_programs/placeholders_s9.py; these check the cellgrad-side details)."""

import copy
import pickle

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Symbol, Tensor, nn


@pytest.mark.parametrize("shape, shown", [(None, (-2,)), ([None, 3], (-1, 3)),
                                          ((2, Symbol(divisor=2), 4), (2, -1, 4)),
                                          ([-1], (-1,))])
def test_placeholder_shape_dtype_and_copies(shape, shown):
    t = Tensor(shape=shape, dtype=ms.int32)
    assert isinstance(t, Tensor)
    assert t.shape == shown and t.dtype == ms.int32
    assert (t.ndim, t.size, t.nbytes) == (len(shown), 0, 0)
    for c in (copy.copy(t), copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        assert c.shape == shown and c.dtype == ms.int32
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        t.asnumpy()


def test_placeholder_repr_and_errors():
    assert repr(Tensor(shape=[None, 3], dtype=ms.float32)) == \
        "Tensor(shape=[-1, 3], dtype=Float32, value=\n)"
    assert repr(Tensor(dtype=ms.bool_)) == "Tensor(shape=[-2], dtype=Bool, value= )"
    assert len(Tensor(shape=[2, None], dtype=ms.float32)) == 2
    with pytest.raises(ValueError, match="__len__"):
        len(Tensor(shape=[None, 2], dtype=ms.float32))
    with pytest.raises(TypeError, match="'input_data' should be one of"):
        Tensor()
    with pytest.raises(ValueError, match="dtype must not be None, init must be None"):
        Tensor(shape=[None], dtype=ms.float32, init="ones")
    with pytest.raises(ValueError, match="dtype must not be None"):
        Tensor(shape=[None])


def test_static_shape_without_data_is_still_zeros():
    t = Tensor(shape=(2, 3), dtype=ms.float32)
    assert type(t) is Tensor
    np.testing.assert_array_equal(t.asnumpy(), np.zeros((2, 3), np.float32))


def test_ops_on_a_placeholder_run_on_an_empty_stand_in():
    out = Tensor(shape=[None, 3], dtype=ms.float32) + 1
    assert out.shape == (0, 3) and out.dtype == ms.float32


def test_set_inputs_then_real_inputs_run():
    class Net(nn.Cell):
        def construct(self, x, y):
            return x * y

    net = Net()
    dyn = (Tensor(shape=[None, 3], dtype=ms.float32), Tensor(shape=None, dtype=ms.float32))
    net.set_inputs(*dyn)
    assert net.get_inputs() == dyn
    out = net(Tensor(np.ones((4, 3), np.float32)), Tensor(np.float32(2.5)))
    np.testing.assert_array_equal(out.asnumpy(), np.full((4, 3), 2.5, np.float32))


def test_symbol_validation_and_dict():
    s = Symbol(max=32, min=2, divisor=4, remainder=1, unique=True)
    assert s.to_dict() == {"max": 32, "divisor": 4, "remainder": 1, "id": id(s)}
    assert str(Symbol(min=9)) == "{'min': 9}"
    with pytest.raises(ValueError, match=r"'remainder' value should be in the range '\[0, 4\)'"):
        Symbol(divisor=4, remainder=4)
    with pytest.raises(TypeError, match="argument 'unique' must be bool"):
        Symbol(unique=1)
    with pytest.raises(ValueError, match="'min' value should be positive, but got 0"):
        Symbol(min=0)
