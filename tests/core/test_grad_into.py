"""A leaf's `grad_buffer` and `ctx.grad_into`: a rule may compute a leaf's gradient straight
into a buffer the leaf offers (the distributed package's gradient buckets), but only when
that rule delivers the leaf's whole gradient in a first-order walk."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad.ops._registry import Op, apply

offered = []  # what grad_into returned to each backward of `scale2`


def _scale2_bwd(ctx, g):
    into = ctx.grad_into(0)
    offered.append(into)
    if into is None:
        return g * 2
    return np.multiply(g, 2, out=into)


SCALE2 = Op("scale2", lambda x: (x * 2, None), _scale2_bwd)


@pytest.fixture
def leaf():
    offered.clear()
    w = Parameter(Tensor(np.array([1.0, -2.0, 3.0], np.float32)), name="w")
    buffer = np.full(3, np.nan, np.float32)
    w._node.grad_buffer = buffer
    yield w, buffer
    w._node.grad_buffer = None


def test_the_one_edge_to_a_leaf_computes_into_its_buffer(leaf):
    w, buffer = leaf
    g = ms.grad(lambda x: (apply(SCALE2, (w,)) * x).sum(), None, w)(Tensor(np.ones(3) * 1.5))
    assert offered == [buffer]
    assert np.shares_memory(g.asnumpy(), buffer)
    np.testing.assert_array_equal(buffer, [3.0, 3.0, 3.0])
    assert g.asnumpy().dtype == np.float32


def test_a_leaf_with_two_edges_gets_no_buffer(leaf):
    w, buffer = leaf
    # two uses: neither edge carries the whole gradient, so neither may write the buffer
    g = ms.grad(lambda: (apply(SCALE2, (w,)) + apply(SCALE2, (w,))).sum(), None, w)()
    assert offered == [None, None]
    np.testing.assert_array_equal(g.asnumpy(), [4.0, 4.0, 4.0])
    assert np.isnan(buffer).all()


def test_a_second_edge_delivering_first_or_later_means_no_buffer(leaf):
    w, buffer = leaf
    # whichever of the two edges the walk runs first, the buffer is never handed over
    g = ms.grad(lambda: (apply(SCALE2, (w,)) + w * 3).sum(), None, w)()
    np.testing.assert_array_equal(g.asnumpy(), [5.0, 5.0, 5.0])
    assert offered == [None]
    assert np.isnan(buffer).all()


def test_a_use_off_the_tape_does_not_count(leaf):
    w, buffer = leaf
    # stop_gradient's use of w is not recorded: scale2's edge is the only one
    g = ms.grad(lambda: apply(SCALE2, (w,)).sum() + ms.ops.stop_gradient(w * 3).sum(),
                None, w)()
    assert offered == [buffer]
    np.testing.assert_array_equal(buffer, [2.0, 2.0, 2.0])
    assert np.shares_memory(g.asnumpy(), buffer)


def test_higher_order_walks_offer_no_buffer(leaf):
    w, buffer = leaf

    def inner(v):
        return ms.grad(lambda u: (apply(SCALE2, (u,)) * u).sum())(v).sum()

    g = ms.grad(inner)(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), [4.0, 4.0])
    assert all(o is None for o in offered)
    assert np.isnan(buffer).all()


def test_without_a_buffer_rules_allocate(leaf):
    w, buffer = leaf
    w._node.grad_buffer = None
    g = ms.grad(lambda: apply(SCALE2, (w,)).sum(), None, w)()
    assert offered == [None]
    assert not np.shares_memory(g.asnumpy(), buffer)
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 2.0, 2.0])


def test_an_input_that_needs_no_gradient_gets_no_buffer(leaf):
    w, buffer = leaf
    x = Tensor(np.ones(3, np.float32))
    ms.grad(lambda x: (apply(SCALE2, (w,)) * x).sum(), 0)(x)  # only x's gradient wanted
    assert offered == []  # scale2 is not on the path to x: its rule never runs
    assert np.isnan(buffer).all()


def test_grad_into_index_out_of_range_is_a_clear_error(leaf):
    w, _ = leaf

    def bad(ctx, g):
        return ctx.grad_into(1)

    op = Op("grad_into_bad_index", lambda x: (x * 1, None), bad)
    with pytest.raises(IndexError, match=r"'grad_into_bad_index', grad_into\(1\): the node "
                                         r"has 1 inputs"):
        ms.grad(lambda: apply(op, (w,)).sum(), None, w)()


def test_a_hook_walk_inside_the_walk_keeps_the_outer_offer(leaf):
    """A leaf hook that runs a gradient of its own (a nested walk) must not disturb which
    buffer the outer walk offers next."""
    w, buffer = leaf
    v = Parameter(Tensor(np.array([1.0, 1.0, 1.0], np.float32)), name="v")
    inner_results = []

    def hook(node, gs):
        inner = ms.grad(lambda t: (t * t).sum())(Tensor(np.ones(2, np.float32)))
        inner_results.append((len(offered), inner.asnumpy().tolist()))

    v._node.hooks = [hook]
    try:
        # v's gradient completes first (it is used last), its hook walks; then w's edge runs
        g = ms.grad(lambda: (apply(SCALE2, (w,)) * 1.0 + v * 2).sum(), None, [w, v])()
    finally:
        v._node.hooks = None
    assert inner_results == [(0, [2.0, 2.0])]  # the hook's walk ran before scale2's rule
    np.testing.assert_array_equal(g[0].asnumpy(), [2.0, 2.0, 2.0])
    assert offered == [buffer]


@pytest.mark.parametrize("wrong", [np.zeros(4, np.float32), np.zeros(3, np.float64),
                                   np.zeros((1, 3), np.float32), [0.0, 0.0, 0.0]])
def test_a_buffer_of_another_shape_or_dtype_is_not_offered(leaf, wrong):
    w, _ = leaf
    w._node.grad_buffer = wrong
    g = ms.grad(lambda: apply(SCALE2, (w,)).sum(), None, w)()
    assert offered == [None]
    np.testing.assert_array_equal(g.asnumpy(), [2.0, 2.0, 2.0])
