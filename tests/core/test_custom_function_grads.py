"""`_Function.set_materialize_grads`, attributes on Tensors and the `raw_grads` walk flag."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad._grad_function import _Function
from cellgrad.ops import composite as C


def _two_outputs(materialize, seen):
    class TwoOut(_Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.set_materialize_grads(materialize)
            return x * y, x + y

        @staticmethod
        def backward(ctx, g0, g1):
            seen.append((g0, g1))
            live = [g for g in (g0, g1) if g is not None]
            total = live[0] if len(live) == 1 else live[0] + live[1]
            return total, total

    return TwoOut


@pytest.mark.parametrize("materialize", [True, False])
@pytest.mark.parametrize("used", [0, 1])
def test_unused_output_gradient_is_zeros_or_none(materialize, used):
    seen = []
    fn = _two_outputs(materialize, seen)
    x, y = Tensor([1.0, 2.0]), Tensor([3.0, 5.0])
    gx, gy = C.GradOperation(get_all=True)(lambda a, b: fn.apply(a, b)[used])(x, y)
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), [1.0, 1.0])
    (g0, g1), = seen
    used_g, unused_g = (g0, g1) if used == 0 else (g1, g0)
    np.testing.assert_array_equal(used_g.asnumpy(), [1.0, 1.0])
    if materialize:
        assert unused_g.dtype == ms.float32
        np.testing.assert_array_equal(unused_g.asnumpy(), [0.0, 0.0])
    else:
        assert unused_g is None


def test_not_materialized_none_raises_type_error_in_backward():
    class Net(_Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g0, g1):
            with pytest.raises(TypeError):
                g1 + 2
            return g0 * 2

    class Wrap(nn.Cell):
        def construct(self, x):
            return Net.apply(x)[0]

    g = C.GradOperation()(Wrap())(Tensor([1.0, 1.0]))
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 2.0])


def test_cell_bprop_multi_output_still_gets_zeros():
    seen = []

    class Net(nn.Cell):
        def construct(self, x):
            return x * 2, x * 3

        def bprop(self, x, out, dout):
            seen.append(dout)
            return (dout[0] * 2 + dout[1] * 3,)

    g = ms.grad(lambda x: Net()(x)[1])(Tensor([1.0, 2.0]))
    np.testing.assert_array_equal(g.asnumpy(), [3.0, 3.0])
    np.testing.assert_array_equal(seen[0][0].asnumpy(), [0.0, 0.0])


def test_multi_output_op_without_raw_grads_still_zero_fills():
    x = Tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    g = ms.grad(lambda t: ms.ops.split(t, 1, axis=0)[1].sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [[0, 0, 0], [1, 1, 1]])


def test_saved_tensor_carries_user_attribute_into_backward():
    class WithAttr(_Function):
        @staticmethod
        def forward(ctx, x, y):
            x2 = x * x
            x.tensor = x2
            ctx.set_materialize_grads(False)
            ctx.save_for_backward(x)
            return x2 + 1, x2

        @staticmethod
        def backward(ctx, g, g1):
            x, = ctx.saved_tensors
            return g, x.tensor

    gx, gy = C.GradOperation(get_all=True)(WithAttr().apply)(Tensor([2.0, 2.0]),
                                                             Tensor([3.0, 3.0]))
    np.testing.assert_array_equal(gx.asnumpy(), [1.0, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), [4.0, 4.0])


def test_tensor_accepts_attributes_and_keeps_attribute_errors():
    t = Tensor([1.0])
    t.note = "kept"
    assert t.note == "kept" and t.__dict__ == {"note": "kept"}
    assert not hasattr(Tensor([1.0]), "note")
    with pytest.raises(AttributeError, match="^'Tensor' object has no attribute 'nope'$"):
        _ = Tensor([1.0]).nope
    p = ms.Parameter(Tensor([1.0]), name="w")
    p.note = 3
    assert p.note == 3 and p.name == "w"


def test_recompute_marks_the_scope_of_the_cell_and_its_children():
    class Inner(nn.Cell):
        def construct(self, x):
            return x * 2

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, x):
            return self.inner(x)

    net = Net()
    assert net.get_scope() is None
    net.recompute(mp_comm_recompute=False)
    assert net.get_scope() == "recompute_" and net.inner.get_scope() == "recompute_"
