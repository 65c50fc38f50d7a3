"""ms.saved_tensors_hooks: pack/unpack hooks on the tensors the tape saves for backward."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import observe, ops


def _x():
    return ms.Tensor(np.array([0.3, -0.7, 1.1]))


def test_pack_sees_the_saved_tensors_and_unpack_feeds_the_backward():
    x, y = _x(), ms.Tensor(np.array([2.0, 0.5, -1.0]))
    packed, unpacked = [], []

    def pack(t):
        packed.append(t)
        return t + 1

    def unpack(t):
        unpacked.append(t.asnumpy())
        return t

    def f(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            return (x * y).sum()

    gx, gy = ms.grad(f, grad_position=(0, 1))(x, y)
    # mul saves both inputs: pack gets them (grad's tracked views of x and y)
    np.testing.assert_array_equal(packed[0].asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(packed[1].asnumpy(), y.asnumpy())
    np.testing.assert_allclose(gx.asnumpy(), y.asnumpy() + 1)  # d(x*y)/dx uses the packed y
    np.testing.assert_allclose(gy.asnumpy(), x.asnumpy() + 1)
    assert len(unpacked) == 2


def test_an_output_saved_by_its_op_is_packed_as_that_output():
    x = _x()
    seen = []

    def f(x):
        with ms.saved_tensors_hooks(lambda t: (seen.append(t), t)[1], lambda t: t):
            out = ops.exp(x)
        seen.append(out)
        return out.sum()

    g = ms.grad(f)(x)
    assert seen[0] is seen[1]  # exp keeps its output for the backward
    np.testing.assert_allclose(g.asnumpy(), np.exp(x.asnumpy()))


@pytest.mark.parametrize("fn", [
    lambda x: (ops.tanh(x) * ops.sigmoid(x)).sum(),
    lambda x: ops.matmul(x.reshape(3, 1), x.reshape(1, 3)).sum(),
    lambda x: (ops.sin(x) / (x * x + 1)).mean(),
    lambda x: (ops.exp(x) / ops.exp(x).sum())[1],
])
def test_identity_hooks_leave_gradients_unchanged(fn):
    x = _x()
    calls = []

    def hooked(x):
        with ms.saved_tensors_hooks(lambda t: (calls.append("p"), t)[1],
                                    lambda t: (calls.append("u"), t)[1]):
            return fn(x)

    np.testing.assert_allclose(ms.grad(hooked)(x).asnumpy(), ms.grad(fn)(x).asnumpy(),
                               rtol=1e-12)
    assert calls.count("p") == calls.count("u") > 0


def test_second_order_gradients_go_through_the_hooks():
    x = _x()

    def f(x):
        with ms.saved_tensors_hooks(lambda t: t * 1.0, lambda t: t):
            return (ops.tanh(x) * x).sum()

    def plain(x):
        return (ops.tanh(x) * x).sum()

    np.testing.assert_allclose(ms.grad(ms.grad(f))(x).asnumpy(),
                               ms.grad(ms.grad(plain))(x).asnumpy(), rtol=1e-12)


def test_the_innermost_context_wins_and_nothing_is_packed_outside():
    x = _x()
    log = []

    def f(x):
        with ms.saved_tensors_hooks(lambda t: (log.append("outer"), t)[1], lambda t: t):
            with ms.saved_tensors_hooks(lambda t: (log.append("inner"), t)[1], lambda t: t):
                a = x * x
            b = ops.sin(a)
        return (b * b).sum()       # after both contexts: not packed

    ms.grad(f)(x)
    assert log == ["inner", "inner", "outer"]


def test_the_tape_keeps_only_what_pack_returned():
    x = _x()
    kept = {}

    def pack(t):
        return t.asnumpy().tobytes()   # only bytes stay with the tape

    def unpack(b):
        return ms.Tensor(np.frombuffer(b, dtype=np.float64).copy())

    def f(x):
        with ms.saved_tensors_hooks(pack, unpack):
            out = ops.exp(x * 2.0)
        kept["saved"] = out._node.saved
        return out.sum()

    value, g = ms.value_and_grad(f)(x)
    assert kept["saved"] == (None,)    # exp's saved output: dropped, the bytes are in the hook
    np.testing.assert_allclose(g.asnumpy(), 2 * np.exp(2 * x.asnumpy()))
    np.testing.assert_allclose(value.asnumpy(), np.exp(2 * x.asnumpy()).sum())


def test_ops_inside_a_pack_hook_are_not_packed_again():
    x = _x()
    packs = []

    def pack(t):
        packs.append(1)
        return t * 2      # a recorded mul while the context is open

    def f(x):
        with ms.saved_tensors_hooks(pack, lambda t: t):
            return (x * x).sum()

    g = ms.grad(f)(x)
    assert len(packs) == 2
    np.testing.assert_allclose(g.asnumpy(), 4 * x.asnumpy())


def test_the_observer_is_only_installed_while_a_context_is_open():
    before = len(observe.observers())
    with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
        assert len(observe.observers()) == before + 1
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            assert len(observe.observers()) == before + 1
    assert len(observe.observers()) == before
    with pytest.raises(ZeroDivisionError):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            raise ZeroDivisionError
    assert len(observe.observers()) == before


def test_bad_hooks_raise_mindspores_errors():
    with pytest.raises(TypeError, match="'pack_hook' must be callable"):
        with ms.saved_tensors_hooks(1, lambda t: t):
            pass
    hooks = ms.saved_tensors_hooks(lambda t: t, "no")   # checked on entry, as MindSpore
    with pytest.raises(TypeError, match="'unpack_hook' must be callable, but got str"):
        with hooks:
            pass

    def f(x):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t.asnumpy()):
            return (x * x).sum()

    with pytest.raises(RuntimeError, match="unpack_hook must return a Tensor.*'mul'.*ndarray"):
        ms.grad(f)(_x())


def test_register_saved_tensors_hooks_marks_the_function_like_mindspore():
    def pack(t):
        raise AssertionError("not applied in PyNative")

    def f(x):
        return (x * x).sum()

    assert ms.register_saved_tensors_hooks(pack, abs)(f) is f
    assert f._saved_tensors_pack_hook is pack and f._saved_tensors_unpack_hook is abs
    np.testing.assert_allclose(ms.grad(f)(_x()).asnumpy(), 2 * _x().asnumpy())
