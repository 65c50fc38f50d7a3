"""ms.jit guards: Python values the traced call read through the helpers it called (their
globals and closures) are guarded — a changed one traces again, never a stale replay; and
`ms.mutable` scalars are inputs of the plan (a new value replays, no retrace)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn

OFFSET = 1.0
FACTOR = 2.0


def same(a, b):
    a, b = a.asnumpy(), b.asnumpy()
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def helper(x):
    return x * FACTOR


def outer_helper(x):
    return helper(x) + OFFSET


def helper_double(x):
    return x * 2


def helper_triple(x):
    return x * 3


def pick(x):
    return HELPER(x)


HELPER = helper_double


class ScaledNet(nn.Cell):
    def construct(self, x):
        return x * FACTOR - OFFSET


def test_a_global_read_in_a_called_helper_is_guarded():
    global FACTOR, OFFSET
    f = ms.jit(lambda x: outer_helper(x) * 1.0)
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    try:
        assert same(f(x), outer_helper(x)) and same(f(x), outer_helper(x))
        assert f.jit_stats.replays == 1
        FACTOR = 5.0
        assert same(f(x), outer_helper(x))
        OFFSET = -3.0
        assert same(f(x), outer_helper(x))
        assert f.jit_stats.traces == 3
        assert same(f(x), outer_helper(x)) and f.jit_stats.replays == 2
    finally:
        FACTOR, OFFSET = 2.0, 1.0


def test_a_global_read_in_a_cell_construct_is_guarded():
    global FACTOR
    net = ScaledNet()
    f = ms.jit(lambda x: net(x))
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    try:
        assert same(f(x), net(x)) and same(f(x), net(x))
        FACTOR = -1.5
        assert same(f(x), net(x))
        assert f.jit_stats.traces == 2
    finally:
        FACTOR = 2.0


def test_a_rebound_global_function_is_guarded():
    global HELPER
    f = ms.jit(lambda x: pick(x) + 0.0)
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    try:
        assert same(f(x), pick(x)) and same(f(x), pick(x))
        HELPER = helper_triple
        assert same(f(x), x * 3)
        assert f.jit_stats.traces == 2
    finally:
        HELPER = helper_double


def test_a_global_read_in_a_nested_closure_helper_is_guarded():
    global OFFSET
    scale = [2.0]

    def make():
        k = scale[0]

        def inner(x):
            return x * k + OFFSET
        return inner

    inner = make()
    f = ms.jit(lambda x: inner(x))
    x = ms.Tensor(np.ones(3, np.float32))
    try:
        assert same(f(x), inner(x)) and same(f(x), inner(x))
        OFFSET = 10.0
        assert same(f(x), inner(x))
        assert f.jit_stats.traces == 2
    finally:
        OFFSET = 1.0


class HelperNet(nn.Cell):
    def construct(self, x):
        return self.shifted(x) * 2.0

    def shifted(self, x):
        return x + OFFSET


def test_a_global_read_in_a_method_called_through_self_is_guarded():
    global OFFSET
    net = HelperNet()
    f = ms.jit(net)
    x = ms.Tensor(np.ones(3, np.float32))
    try:
        expected = (x + OFFSET) * 2.0
        assert same(f(x), expected) and same(f(x), expected)
        OFFSET = 4.0
        assert same(f(x), (x + OFFSET) * 2.0)
        assert net.construct.jit_stats.traces == 2
    finally:
        OFFSET = 1.0


CALLS = 0


def counting(x):
    global CALLS
    CALLS += 1
    return x * CALLS


def test_a_function_that_rewrites_a_global_it_reads_stays_eager_equal():
    global CALLS
    f = ms.jit(counting)
    x = ms.Tensor(np.ones(2, np.float32))
    try:
        got = [f(x).asnumpy().tolist() for _ in range(3)]
        assert got == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
        assert f.jit_stats.replays == 0
    finally:
        CALLS = 0


# ---- ms.mutable scalars: inputs of the plan ----


def test_mutable_scalars_are_plan_inputs_not_retraced_per_value():
    f = ms.jit(lambda x, a, b: x * a + b)
    x = ms.Tensor(np.array([1, 2, 3], np.int32))
    xf = ms.Tensor(np.linspace(-1, 1, 3).astype(np.float16))
    for a, b in [(2.5, 1), (0.1, -7), (1e5, 300), (-3.75, 2**40)]:
        for t in (x, xf):
            got = f(t, ms.mutable(a), ms.mutable(b))
            assert same(got, t * a + b), (a, b, t.dtype)
    stats = f.jit_stats
    assert stats.traces == 2 and stats.replays == 6  # one plan per input dtype


def test_mutable_bool_and_int_kinds_key_separately():
    f = ms.jit(lambda x, k: x + k)
    x = ms.Tensor(np.array([1.5, 2.5], np.float32))
    for k in (3, True, 5, False, 7.5):
        assert same(f(x, ms.mutable(k)), x + k)
    assert f.jit_stats.traces == 3  # int, bool, float


def test_a_mutable_scalar_used_by_python_is_keyed_by_value():
    def g(x, n):
        if n > 2:  # a Python branch on the value: no input can replace it
            return x * n
        return x - n

    f = ms.jit(g)
    x = ms.Tensor(np.ones(2, np.float32))
    for n in (3, 1, 3, 1, 4):
        assert same(f(x, ms.mutable(n)), g(x, n))
    assert f.jit_stats.traces == 3 and f.jit_stats.replays == 2


def test_python_arithmetic_on_a_mutable_scalar_is_keyed_by_value():
    f = ms.jit(lambda x, a: x * (a * 2))
    x = ms.Tensor(np.ones(2, np.float32))
    for a in (1.5, 2.5, 1.5):
        assert same(f(x, ms.mutable(a)), x * (a * 2))
    assert f.jit_stats.traces == 2 and f.jit_stats.replays == 1


def test_a_mutable_scalar_inside_a_cell_call_is_an_input():
    class Scale(nn.Cell):
        def construct(self, x, s):
            return x * s - 1.0

    net = Scale()
    f = ms.jit(lambda x, s: net(x, s))
    x = ms.Tensor(np.arange(4, dtype=np.float32))
    for s in (0.5, 2.0, -1.25):
        assert same(f(x, ms.mutable(s)), x * s - 1.0)
    assert f.jit_stats.traces == 1 and f.jit_stats.replays == 2


def test_mutable_scalar_in_a_training_step_learning_rate():
    w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="w")
    grad_fn = ms.value_and_grad(lambda x: (x * w).sum() ** 2, None, [w])

    def step(x, scale):
        loss, (g,) = grad_fn(x)
        return loss * scale, g * scale

    f = ms.jit(step)
    x = ms.Tensor(np.array([0.5, 0.25], np.float32))
    for scale in (1.0, 0.5, 3.0):
        (le, ge), (lj, gj) = step(x, scale), f(x, ms.mutable(scale))
        assert same(le, lj) and same(ge, gj)
    assert f.jit_stats.traces == 1 and f.jit_stats.replays == 2


@pytest.mark.parametrize("value,cls,shown,dtype", [
    (2.5, "_Float", "2.5", ms.float32), (3, "_Int", "3", ms.int32),
    (True, "bool", "True", ms.int32)])
def test_mutable_scalars_are_marked_subclasses_as_mindspore(value, cls, shown, dtype):
    # MindSpore 2.10: type(ms.mutable(2.5)).__name__ == '_Float', ms.mutable(True).__class__
    # is bool, and Tensor(int32) * m promotes as with the plain scalar
    m = ms.mutable(value)
    assert m.__class__.__name__ == cls and repr(m) == shown and m == value
    assert m.__ms_mutable__ is True and m.__ms_dynamic_len__ is False
    x = ms.Tensor(np.array([1, 2], np.int32))
    assert (x * m).dtype == dtype and same(x * m, x * value)


def test_mutable_refuses_what_mindspore_refuses():
    with pytest.raises(TypeError, match="should be one of \\(bool, int, float, Tensor, tuple, "
                                        "list, dict\\) or their nested structures"):
        ms.mutable(np.ones(2))
    with pytest.raises(TypeError, match="the second input should be bool, but got: int"):
        ms.mutable(1, 3)


def test_generated_guards_agree_with_the_interpreted_ones():
    global FACTOR
    net = ScaledNet()
    net.gain = 2.0
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
    f = ms.jit(lambda x: net(x) * net.gain * w)
    x = ms.Tensor(np.ones(3, np.float32))
    f(x)
    (plan,) = f.jit_plans.values()

    def both():
        a, b = plan.guards_hold(), plan.guards_hold_interpreted()
        assert a == b
        return a

    try:
        assert both() is True
        assert "now = (" in plan.guard_fn.source
        for change, undo in [
                (lambda: setattr(net, "gain", 3.0), lambda: setattr(net, "gain", 2.0)),
                (lambda: setattr(net, "gain", 2), lambda: setattr(net, "gain", 2.0)),
                (lambda: net.set_train(not net.training), lambda: net.set_train(False)),
                (lambda: globals().__setitem__("FACTOR", 7.0),
                 lambda: globals().__setitem__("FACTOR", 2.0)),
                (lambda: setattr(w, "_data", np.ones(4, np.float32)),
                 lambda: setattr(w, "_data", np.ones(3, np.float32)))]:
            change()
            assert both() is False
            undo()
            assert both() is True
    finally:
        FACTOR = 2.0


step = 0  # a training loop's counter, named like an attribute the traced code reads


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = 2.0

    def construct(self, x):
        return x * self.step


def test_an_attribute_named_like_a_changing_global_does_not_retrace():
    global step
    net = Counter()
    f = ms.jit(lambda x: net(x))
    x = ms.Tensor(np.ones(2, np.float32))
    try:
        for step in range(4):  # noqa: B007 (the global changes between calls)
            assert same(f(x), x * 2.0)
        assert f.jit_stats.traces == 1 and f.jit_stats.replays == 3
    finally:
        step = 0


def test_numbers_in_a_mutable_tuple_are_inputs_by_position():
    def g(x, pair, c):
        a, b = pair
        return x * a + b - c

    f = ms.jit(g)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    # the same small int object at two positions, and as a plain (baked) argument
    for pair in [(1, 1), (1, 2), (3, 1), (2.5, -4)]:
        got = f(x, ms.mutable(pair), 1)
        assert same(got, g(x, pair, 1)), pair
    assert f.jit_stats.traces == 2  # (int, int) and (float, int): kinds, not values
    assert f.jit_stats.replays == 2
