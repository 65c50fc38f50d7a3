"""MindSpore refuses `grad`, `value_and_grad` and `GradOperation` inside `_no_grad`."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops

MSG = "In no_grad context, you can not calculate gradient"
X = Tensor([2.0])


@pytest.mark.parametrize("make", [
    lambda f: ops.grad(f),
    lambda f: ops.value_and_grad(f),
    lambda f: ops.GradOperation()(f),
])
def test_grad_transforms_refuse_inside_no_grad(make):
    with ms._no_grad():
        with pytest.raises(RuntimeError, match=MSG):
            make(lambda a: a * a)(X)
    np.testing.assert_allclose(ops.grad(lambda a: a * a)(X).asnumpy(), [4.0])


def test_no_grad_inside_a_cell_construct_and_as_decorator():
    class Net(nn.Cell):
        def construct(self, x):
            with ms._no_grad():
                return ops.grad(lambda a: a * a)(x)

    with pytest.raises(RuntimeError, match=MSG):
        Net()(X)

    @ms._no_grad()
    def inside(x):
        return ms.grad(lambda a: a * a)(x)

    with pytest.raises(RuntimeError, match=MSG):
        inside(X)


def test_enable_grad_inside_no_grad_allows_grad():
    with ms._no_grad():
        with ms.enable_grad():
            g = ms.grad(lambda a: a * a)(X)
    np.testing.assert_allclose(g.asnumpy(), [4.0])


def test_custom_bprop_forward_pause_is_not_no_grad():
    class Inner(nn.Cell):
        def construct(self, x):
            return ms.grad(lambda a: a * a * a)(x)

        def bprop(self, x, out, dout):
            return (dout * 6 * x,)

    g = ms.grad(lambda x: Inner()(x).sum())(X)
    np.testing.assert_allclose(g.asnumpy(), [12.0])
