"""Three behaviours checked against MindSpore 2.10 (tests/core/ms_programs/cell_methods_gaps.py):
`set_train` phases, `grad`'s argument checks and `Parameter.data`."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


class Inner(nn.Cell):
    def construct(self, x):
        return x


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def construct(self, x):
        return self.inner(x)


def test_set_train_sets_phase_on_the_called_cell_only():
    net = Outer()
    net.set_train(False)
    assert (net.phase, net.inner.phase) == ("predict", "train")
    assert (net.training, net.inner.training) == (False, False)
    net.set_train(True)
    net.inner.set_train(False)
    assert (net.phase, net.inner.phase, net.training, net.inner.training) == (
        "train", "predict", True, False)


def f(x, y):
    return (x * y).sum()


X = Tensor(np.array([2.0, 3.0], np.float32))
Y = Tensor(np.array([-1.0, 4.0], np.float32))


@pytest.mark.parametrize("position, error, message", [
    ([0], TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    ([], TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    (1.5, TypeError, "For 'F.grad', the 'grad_position' must be int or tuple."),
    ((0, "a"), TypeError, "For 'F.grad', the element in 'grad_position' must be int."),
    (-1, ValueError, "grad_position must be >= 0."),
    ((0, -1), ValueError, "The element in grad_position must be >= 0."),
    ((1, 1), ValueError, "There are duplicate positions in `grad_position`, please check it"),
])
def test_grad_position_rejected_when_made(position, error, message):
    with pytest.raises(error) as e:
        ms.grad(f, position)
    assert str(e.value) == message
    with pytest.raises(error):
        ms.value_and_grad(f, position)


def test_grad_rejections_when_run():
    with pytest.raises(RuntimeError, match="grad_position should not be empty"):
        ms.grad(f, ())(X, Y)
    g = ms.grad(f, None, "x")  # made, refused when it runs, as in MindSpore
    with pytest.raises(TypeError, match="expected to be a tensor, or a list or tuple. but got x"):
        g(X, Y)
    with pytest.raises(RuntimeError, match="entry 0 is a int"):
        ms.grad(f, 0, [1])(X, Y)


def test_grad_accepts_bool_positions_and_plain_tensor_weights():
    assert ms.grad(f, True)(X, Y).asnumpy().tolist() == [2.0, 3.0]
    gx, gw = ms.grad(f, 0, X)(X, Y)  # a non-Parameter weight gets zeros
    assert gx.asnumpy().tolist() == [-1.0, 4.0] and gw.asnumpy().tolist() == [0.0, 0.0]
    assert ms.grad(f, None, ())(X, Y) == ()


def test_parameter_data_is_a_tensor_sharing_memory():
    p = Parameter(Tensor(np.arange(6).reshape(2, 3).astype(np.float32)), name="p")
    d = p.data
    assert type(d) is Tensor and d is not p and str(d) == "[[0. 1. 2.]\n [3. 4. 5.]]"
    assert repr(d).startswith("Tensor(shape=[2, 3], dtype=Float32, value=")
    d[0, 0] = 7.0
    assert p.asnumpy()[0, 0] == 7.0
    p.data = Tensor(np.ones(4, np.float16))
    assert (p.shape, p.dtype, p.name) == ((4,), ms.float16, "p")
    with pytest.raises(TypeError, match="'Parameter.data' of 'p'.*got list"):
        p.data = [1.0]
