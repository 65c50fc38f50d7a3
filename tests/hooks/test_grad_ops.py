"""ops.HookBackward and ops.InsertGradientOf: the names, forward identity, what the functions
see and may return, higher orders, and where cellgrad checks more than MindSpore."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck


def t(*values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


def test_names_come_from_the_hooks_package():
    from cellgrad_hooks import grad_ops

    assert ops.HookBackward is grad_ops.HookBackward
    assert ops.InsertGradientOf is grad_ops.InsertGradientOf
    from cellgrad.ops import HookBackward, InsertGradientOf  # noqa: F401
    assert isinstance(ops.HookBackward(print), ops.Primitive)


def test_repr_and_attributes_as_mindspore():
    def f(g):
        return g

    hb = ops.HookBackward(f)
    assert repr(hb) == "Prim[HookBackward]<cell_id=>"
    assert hb.name == "HookBackward" and hb.cell_id == ""
    ig = ops.InsertGradientOf(f)
    assert repr(ig) == (f"Prim[InsertGradientOf]<f={f!r}, side_effect_backprop=True, "
                        "side_effect_backprop_mem=True>")
    assert ig.f is f and ig.name == "InsertGradientOf"


# ---- HookBackward ----

def test_hook_backward_is_identity_forward_keeping_dtypes():
    hb = ops.HookBackward(lambda g: None)
    x = Tensor(np.array([1.5, 2.5], np.float32), ms.bfloat16)
    y = t(1, 2, dtype=np.float64)
    a, b = hb(x, y)
    assert a.dtype == ms.bfloat16 and b.dtype == ms.float64
    np.testing.assert_array_equal(a.asnumpy(), x.asnumpy())
    assert hb() == ()
    with pytest.raises(TypeError, match="For 'HookBackward', the element of 'input' must be "
                                        "Tensor, but got Float32."):
        hb(x, 1.0)


def test_hook_backward_outputs_without_gradient_arrive_as_zeros():
    seen = []
    hb = ops.HookBackward(lambda g: seen.append([v.asnumpy().copy() for v in g]))

    def f(a, b):
        p, q = hb(a, b)
        return (p * 2).sum()

    ga, gb = ms.grad(f, (0, 1))(t(1, 2), t(3, 4))
    np.testing.assert_array_equal(ga.asnumpy(), [2, 2])
    np.testing.assert_array_equal(gb.asnumpy(), [0, 0])
    np.testing.assert_array_equal(seen[0][1], [0, 0])


@pytest.mark.parametrize("ret, error, text", [
    (lambda g: (g[0], g[1], g[0]), ValueError, "The tuple size of output gradient should be 2, "
                                               "but it is 3"),
    (lambda g: (g[0],), TypeError, "The output gradient should be a tuple!"),
    (lambda g: g[0], TypeError, "The output gradient should be a tuple!"),
    (lambda g: (g[0], None), TypeError, "should be a tensor but got NoneType"),
])
def test_hook_backward_two_inputs_return_rules(ret, error, text):
    hb = ops.HookBackward(ret)

    def f(a, b):
        p, q = hb(a, b)
        return (p * q).sum()

    with pytest.raises(error, match=text):
        ms.grad(f, (0, 1))(t(1, 2), t(3, 4))


def test_hook_backward_wrong_shape_or_dtype_is_named():
    def bad(g):
        return Tensor(np.ones(2, np.int32))

    hb = ops.HookBackward(bad)
    with pytest.raises(ValueError, match=r"function: bad is not consistent with the expected, it "
                                         r"should be Tensor shape:\[2\] Float32, but got Tensor "
                                         r"shape:\[2\] Int32"):
        ms.grad(lambda a: hb(a).sum())(t(1, 2))


def test_hook_backward_error_names_the_function():
    def broken(g):
        raise ArithmeticError("nope")

    hb = ops.HookBackward(broken)
    with pytest.raises(ArithmeticError, match="For 'HookBackward', the hook function 'broken' "
                                              "raised ArithmeticError: nope"):
        ms.grad(lambda a: hb(a * 1).sum())(t(1, 2))
    np.testing.assert_array_equal(ms.grad(lambda a: (a * 2).sum())(t(1, 2)).asnumpy(), [2, 2])


def test_hook_backward_runs_under_jit():
    """Differs on purpose: MindSpore's HookBackward does not run under jit."""
    seen = []
    hb = ops.HookBackward(lambda g: seen.append(1) or (g[0] * 3,))

    @ms.jit
    def f(a):
        return (hb(a) * 2).sum()

    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [6, 6])
    assert seen == [1]


def test_hook_backward_functions_work_on_first_and_second_order_gradients():
    square = ops.HookBackward(lambda g: (g[0] * g[0],))
    f = lambda a: (square(a * a) * 3).sum()  # noqa: E731  the hook turns 3 into 9
    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [18, 36])
    triple = ops.HookBackward(lambda g: (g[0] * 3,))
    f2 = lambda a: triple(a * a * a).sum()  # noqa: E731
    np.testing.assert_allclose(ms.grad(f2)(t(1, 2)).asnumpy(), [9, 36])
    np.testing.assert_allclose(ms.grad(ms.grad(f2))(t(1, 2)).asnumpy(), [18, 36])


# ---- InsertGradientOf ----

def test_insert_gradient_of_is_identity_and_checks_its_input_count():
    ig = ops.InsertGradientOf(lambda d: d)
    x = t(1, 2)
    np.testing.assert_array_equal(ig(x).asnumpy(), [1, 2])
    assert ig(1.5) == 1.5
    with pytest.raises(RuntimeError, match="For 'InsertGradientOf', the number of input should "
                                           "be 1, but got 2"):
        ig(x, x)
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int."):
        ops.InsertGradientOf(3)


def test_insert_gradient_of_number_fills_the_input_shape():
    """Differs on purpose: MindSpore returns a 0-d gradient for a shaped input."""
    def hundred(dx):
        return 100.0

    ig = ops.InsertGradientOf(hundred)
    g = ms.grad(lambda a: (ig(a) * 2).sum())(t(1, 2, 3))
    np.testing.assert_array_equal(g.asnumpy(), [100, 100, 100])
    assert g.dtype == ms.float32


def test_insert_gradient_of_casts_dtypes_and_rejects_wrong_shapes_and_types():
    ig = ops.InsertGradientOf(lambda d: Tensor(np.ones(3, np.float64)))
    g = ms.grad(lambda a: ig(a).sum())(t(1, 2, 3))
    assert g.dtype == ms.float32

    def head(dx):
        return dx[:2]

    ig2 = ops.InsertGradientOf(head)
    with pytest.raises(ValueError, match=r"'InsertGradientOf', the function 'head' returned a "
                                         r"gradient of shape \(2,\) for an input of shape \(3,\)"):
        ms.grad(lambda a: ig2(a).sum())(t(1, 2, 3))

    def pair(dx):
        return (dx, dx)

    ig3 = ops.InsertGradientOf(pair)
    with pytest.raises(TypeError, match="function 'pair' must return the new gradient as a "
                                        "Tensor or a number.*returned tuple"):
        ms.grad(lambda a: ig3(a).sum())(t(1, 2, 3))


def test_insert_gradient_of_none_keeps_the_gradient_and_grad_of_grad_goes_through_it():
    seen = []
    ig = ops.InsertGradientOf(lambda d: seen.append(1))
    np.testing.assert_array_equal(ms.grad(lambda a: (ig(a) * 5).sum())(t(1, 2)).asnumpy(),
                                  [5, 5])
    assert seen == [1]
    double = ops.InsertGradientOf(lambda d: d * 2)
    f = lambda a: (double(a * a * a)).sum()  # noqa: E731
    np.testing.assert_allclose(ms.grad(ms.grad(f))(t(1, 2)).asnumpy(), [12, 24])


def test_insert_gradient_of_gradcheck():
    from cellgrad.testing import GradcheckError

    x = Tensor(np.array([0.3, -1.2], np.float64))
    keep = ops.InsertGradientOf(lambda d: d)
    assert gradcheck(lambda a: (keep(a) * a).sum(), x)
    triple = ops.InsertGradientOf(lambda d: d * 3)  # the analytic gradient only: 3a + a
    with pytest.raises(GradcheckError, match="max"):
        gradcheck(lambda a: (triple(a) * a).sum(), x)
    np.testing.assert_allclose(ms.grad(lambda a: (triple(a) * a).sum())(x).asnumpy(),
                               [4 * 0.3, 4 * -1.2])


def test_bprop_of_an_enclosing_cell_takes_precedence():
    calls = []

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ig = ops.InsertGradientOf(lambda d: calls.append(1) or d * 2)

        def construct(self, a):
            return self.ig(a) * 3

        def bprop(self, a, out, dout):
            return (dout * 7,)

    g = ms.grad(lambda a: Outer()(a).sum())(t(1, 2))
    np.testing.assert_array_equal(g.asnumpy(), [7, 7])
    assert calls == []
