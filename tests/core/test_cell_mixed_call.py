"""A `to_float` cell's call path (Cell._call_mixed): inputs and Parameters read in the cell's
dtype during the call, the float32 Parameters outside it, gradients in float32 (core alone)."""

import numpy as np

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad.nn.cell import _cast_args


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0009765625, 3.0], np.float32)), name="w")
        self.seen = []

    def construct(self, x, y=None, pair=None):
        self.seen.append((x.dtype, self.w.dtype, None if y is None else y.dtype,
                          None if pair is None else tuple(p.dtype for p in pair)))
        out = x * self.w
        return out if y is None else out + y


def test_cast_args_keeps_the_tuple_when_nothing_changes():
    a = (Tensor(np.ones(2, np.float16)), Tensor(np.ones(2, np.int32)), 3, "s", None)
    assert _cast_args(a, ms.float16) is a
    got = _cast_args((Tensor(np.ones(2, np.float32)), [Tensor(np.ones(1, np.float64)), 2]),
                     ms.float16)
    assert got[0].dtype == ms.float16
    assert isinstance(got[1], list) and got[1][0].dtype == ms.float16 and got[1][1] == 2


def test_inputs_kwargs_and_parameters_in_the_cell_dtype_during_the_call():
    net = Scale().to_float(ms.float16)
    x = Tensor(np.array([2.0, 1.0], np.float32))
    y = Tensor(np.array([1.0, 1.0], np.float64))
    pair = (Tensor(np.ones(1, np.float32)), Tensor(np.ones(1, np.int32)))
    out = net(x, y=y, pair=pair)
    assert net.seen == [(ms.float16, ms.float16, ms.float16, (ms.float16, ms.int32))]
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), np.array([3.002, 4.0], np.float16))
    assert net.w.dtype == ms.float32 and isinstance(net.w, Parameter)  # outside the call


def test_parameter_gradient_is_float32_of_the_float16_product():
    net = Scale().to_float(ms.float16)
    x = Tensor(np.array([2.0, 0.5], np.float32))
    grads = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
    assert grads[0].dtype == ms.float32
    np.testing.assert_array_equal(grads[0].asnumpy(), [2.0, 0.5])


def test_a_parameter_changed_between_calls_is_read_afresh():
    net = Scale().to_float(ms.float16)
    x = Tensor(np.array([1.0, 1.0], np.float32))
    first = net(x).asnumpy().copy()
    net.w.asnumpy()[...] = [5.0, 6.0]
    np.testing.assert_array_equal(first, np.array([1.0009765625, 3.0], np.float16))
    np.testing.assert_array_equal(net(x).asnumpy(), [5.0, 6.0])
    net.w.set_data(Tensor(np.array([7.0, 8.0], np.float32)))
    np.testing.assert_array_equal(net(x).asnumpy(), [7.0, 8.0])


def test_nested_mixed_cells_and_float32_children():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scale()
            self.keep = Scale()

        def construct(self, x):
            return self.keep(self.inner(x))

    net = Outer().to_float(ms.float16)
    net.keep.to_float(ms.float32)
    out = net(Tensor(np.array([1.0, 1.0], np.float32)))
    assert net.inner.seen == [(ms.float16, ms.float16, None, None)]
    assert net.keep.seen == [(ms.float32, ms.float32, None, None)]
    assert out.dtype == ms.float32
