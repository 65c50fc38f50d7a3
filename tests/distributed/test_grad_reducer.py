"""`nn.DistributedGradReducer` in one process, the bucket plan, and the tape's leaf hooks
running as soon as a gradient is complete (what starts a bucket's all-reduce mid-walk)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad_distributed.buckets import GradBuckets
from cellgrad_distributed.world import Group


def params(*shapes, dtype=np.float32):
    return [Parameter(Tensor(np.ones(s, dtype)), name=f"p{i}") for i, s in enumerate(shapes)]


def test_a_world_of_one_returns_the_gradients(world):
    ps = params((2, 3), (3,))
    grads = (Tensor(np.full((2, 3), 4.0, np.float32)), Tensor(np.ones(3, np.float32)))
    reducer = nn.DistributedGradReducer(ps)
    assert reducer.mean is False and reducer.degree == 1
    out = reducer(grads)
    assert out[0] is grads[0] and out[1] is grads[1]
    halved = nn.DistributedGradReducer(ps, mean=True, degree=2)(grads)
    np.testing.assert_array_equal(halved[0].asnumpy(), np.full((2, 3), 2.0, np.float32))
    assert halved[0].dtype == ms.float32
    ms.set_auto_parallel_context(gradients_mean=True)
    assert nn.DistributedGradReducer(ps).mean is True
    with reducer.overlap():  # nothing to overlap in a world of one
        pass


@pytest.mark.parametrize("kwargs, error, message", [
    ({"degree": 0}, ValueError, "For 'DistributedGradReducer', parameter 'degree' in "
                                "DistributedGradReducer should large than 0 and be int, "
                                "degree: 0."),
    ({"degree": 1.5}, ValueError, "degree: 1.5"),
    ({"group": "nope"}, ValueError, "For 'DistributedGradReducer', the group 'nope' does not "
                                    "exist"),
])
def test_bad_arguments(world, kwargs, error, message):
    with pytest.raises(error) as info:
        nn.DistributedGradReducer(params((2,)), **kwargs)
    assert message in str(info.value)


def test_bad_gradients(world):
    reducer = nn.DistributedGradReducer(params((2,), (3,)))
    with pytest.raises(ValueError, match="For 'DistributedGradReducer', got 1 gradients for 2 "
                                         "parameters."):
        reducer((Tensor(np.ones(2, np.float32)),))
    with pytest.raises(TypeError, match="gradient 1 \\(of parameter 'p1'\\) must be a Tensor, "
                                        "but got ndarray"):
        reducer((Tensor(np.ones(2, np.float32)), np.ones(3)))


def test_buckets_fill_in_reverse_order_up_to_the_cap_per_dtype():
    ps = params((4,), (4,), (2, 2), (8,)) + params((3,), dtype=np.float64)
    group = Group("g", (0, 1), 0, comm=None)
    plan = GradBuckets(ps, group, cap_bytes=32)
    # float32 parameters from the last: p3 (32 bytes) alone, then p2 + p1, then p0
    slots = [b.slots for b in plan.buckets]
    assert [3] in slots and [2, 1] in slots and [0] in slots and [4] in slots
    assert slots.index([4]) == 0  # the bucket holding the last parameter starts first
    assert slots.index([3]) < slots.index([2, 1]) < slots.index([0])
    for i, p in enumerate(ps):
        view = plan.views[i]
        assert view.shape == p.shape
        assert view.dtype == (np.float64 if i == 4 else np.float32)
        assert np.shares_memory(view, plan.buckets[plan.bucket_of[i]].flat)
    assert plan.nbytes == 4 * (4 + 4 + 4 + 8) + 8 * 3


def test_leaf_hooks_run_once_the_gradient_is_complete_during_the_walk():
    """A parameter's leaf hook runs when its last gradient arrives, before the walk goes on
    to the earlier layers (it used to run after the walk)."""
    ms.set_seed(0)
    first, last = nn.Dense(3, 4), nn.Dense(4, 2)
    events = []

    def leaf_hook(name):
        def hook(node, gs):
            events.append(name)
        return hook

    def record_node(tensor, name):
        tensor._node.hooks = [lambda node, gs: events.append(name)]
        return tensor

    for p, name in ((last.bias, "last.bias ready"), (first.weight, "first.weight ready")):
        p._node.hooks = [leaf_hook(name)]
    try:
        def f(x):
            h = record_node(first(x), "first layer's backward")
            return (last(h) + last(h * 2)).sum()  # last.bias gets two gradients: one call

        x = Tensor(np.ones((2, 3), np.float32))
        ms.grad(f, None, [first.weight, last.bias])(x)
    finally:
        first.weight._node.hooks = last.bias._node.hooks = None
    assert events == ["last.bias ready", "first layer's backward", "first.weight ready"]
