"""Tensor.register_hook and Parameter.register_hook: where the hook runs, what it may return,
its handle, and its place among the Cell hooks of the same tape node."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops


def t(*values):
    return Tensor(np.array(values, np.float32))


def test_a_hook_on_one_output_of_a_multi_output_op_sees_only_that_gradient():
    seen = []

    def f(a):
        p, q = ops.split(a, 2)
        q.register_hook(lambda g: seen.append(g.asnumpy().copy()) or g * 10)
        return (p * q).sum()

    g = ms.grad(f)(Tensor(np.arange(4, dtype=np.float32)))
    np.testing.assert_array_equal(seen[0], [0, 1])  # d/dq = p
    np.testing.assert_array_equal(g.asnumpy(), [2, 3, 0, 10])


def test_a_hook_registered_after_the_tensor_was_used_still_runs():
    def f(a):
        z = a * 2
        out = (z * 3).sum()
        z.register_hook(lambda g: g * 0)
        return out

    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [0, 0])


def test_a_hook_off_the_path_of_the_wanted_gradient_does_not_run():
    def f(a, b):
        z = b * 2
        z.register_hook(lambda g: pytest.fail("not on the path to 'a'"))
        return (a * z).sum()

    np.testing.assert_array_equal(ms.grad(f, 0)(t(1, 2), t(3, 4)).asnumpy(), [6, 8])


def test_parameter_hooks_and_their_handle():
    p = Parameter(t(1, 2), name="p")
    f = lambda a: (a * p).sum()  # noqa: E731
    with p.register_hook(lambda g: g * 10):
        (gp,) = ms.grad(f, None, [p])(t(3, 4))
        np.testing.assert_array_equal(gp.asnumpy(), [30, 40])
    (gp,) = ms.grad(f, None, [p])(t(3, 4))
    np.testing.assert_array_equal(gp.asnumpy(), [3, 4])


def test_a_hook_removed_by_an_earlier_hook_of_the_same_tensor_does_not_run():
    handles = {}

    def f(a):
        z = a * 2

        def first(g):
            handles["second"].remove()
            return g + 1

        z.register_hook(first)
        handles["second"] = z.register_hook(lambda g: g * 100)
        return z.sum()

    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [4, 4])


def test_what_a_tensor_hook_may_return():
    """Differs on purpose: MindSpore passes a wrong-shaped gradient on unchecked."""
    from cellgrad_hooks.invoke import HookReturnTypeError

    def run(hook):
        def f(a):
            z = a * 2
            z.register_hook(hook)
            return z.sum()
        return ms.grad(f)(t(1, 2))

    with pytest.raises(HookReturnTypeError, match="must be a Tensor.*got float") as info:
        run(lambda g: 3.0)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, TypeError)
    with pytest.raises(ValueError, match=r"shape \(2,\).*got shape \(3,\)"):
        run(lambda g: Tensor(np.ones(3, np.float32)))

    def loud(g):
        raise OSError("disk")

    with pytest.raises(OSError, match="The Tensor hook 'loud' raised OSError: disk"):
        run(loud)
    np.testing.assert_array_equal(run(lambda g: None).asnumpy(), [2, 2])


def test_tensor_hooks_on_a_cells_output_run_before_its_backward_pre_hook():
    log = []

    class Double(nn.Cell):
        def construct(self, a):
            return a * 2

    c = Double()
    c.register_backward_pre_hook(lambda cell, go: log.append(("pre", go[0].asnumpy()[0])))

    def f(a):
        out = c(a)
        out.register_hook(lambda g: log.append(("tensor", g.asnumpy()[0])) or g * 5)
        return out.sum()

    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [10, 10])
    assert log == [("tensor", 1.0), ("pre", 5.0)]


def test_tensor_hooks_for_second_order():
    def f(a):
        z = a * a
        z.register_hook(lambda g: g * 3)
        return (z * a).sum()  # d/da = z + 3 * a * 2a = 7a^2

    np.testing.assert_allclose(ms.grad(f)(t(1, 2)).asnumpy(), [7, 28])
    # as PyTorch: the first derivative a^2 + 6a^2 holds z = a^2, and the hook also triples the
    # gradient reaching z in the second pass: 3 * 2a + 12a
    np.testing.assert_allclose(ms.grad(ms.grad(f))(t(1, 2)).asnumpy(), [18, 36])


def test_tensor_register_hook_needs_a_callable():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got str."):
        t(1.0).register_hook("g")


def test_a_hook_on_the_differentiated_argument_inside_the_function():
    def f(a):
        a.register_hook(lambda g: g * 4)
        return (a * a).sum()

    np.testing.assert_array_equal(ms.grad(f)(t(1, 2)).asnumpy(), [8, 16])
    # as PyTorch: the gradient reaching `a` in the second pass is scaled again: 4 * 2 * 4
    np.testing.assert_array_equal(ms.grad(ms.grad(f))(t(1, 2)).asnumpy(), [32, 32])
