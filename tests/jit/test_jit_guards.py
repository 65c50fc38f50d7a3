"""ms.jit guards: Python values the traced call read through the helpers it called (their
globals and closures) are guarded — a changed one traces again, never a stale replay; and
`ms.mutable` scalars are inputs of the plan (a new value replays, no retrace)."""

import numpy as np

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
