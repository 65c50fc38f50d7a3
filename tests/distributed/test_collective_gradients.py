"""Gradient checks of the distributed package's ops in a world of one (finite differences,
float64), first and second order. The multi-process gradients are checked against numpy in
`mpi_programs/collectives.py` (test_multiprocess.py)."""

import numpy as np
import pytest

from cellgrad import Tensor, ops
from cellgrad.plugins import apply
from cellgrad.testing import gradcheck, gradgradcheck
from cellgrad_distributed import collectives


def arr(*shape, seed=0, positive=False):
    a = np.random.default_rng(seed).standard_normal(shape)
    return Tensor(np.abs(a) + 0.5 if positive else a)


def _sync_batch_norm(x, w, b):
    from cellgrad_distributed.sync_norm import SYNC_NORM

    data = x.asnumpy()
    axes = (0, 2, 3)
    mean, var = data.mean(axis=axes, keepdims=True), data.var(axis=axes, keepdims=True)
    return apply(SYNC_NORM, (x, w, b), {"mean": mean, "var": var, "eps": 1e-5, "axes": axes,
                                       "group": "hccl_world_group", "count": data.size / 3})


CASES = [
    ("AllReduce", lambda x: ops.AllReduce()(x) * x, (arr(3, 2),)),
    ("AllReduce", lambda x: ops.AllReduce("max")(x) * x, (arr(3, 2, seed=1),)),
    ("AllReduce", lambda x: ops.AllReduce("prod")(x) ** 2, (arr(3, 2, positive=True),)),
    ("AllGather", lambda x: ops.AllGather()(x) ** 2, (arr(2, 3),)),
    ("ReduceScatter", lambda x: ops.ReduceScatter()(x) * x, (arr(4, 2),)),
    ("Broadcast", lambda x: ops.Broadcast(0)((x,))[0] ** 3, (arr(5),)),
    ("ReduceToRoot", lambda x: apply(collectives.REDUCE_TO_ROOT, (x,),
                                     {"root": 0, "group": "hccl_world_group"}) ** 2, (arr(4),)),
]
# The statistics enter the op as attributes, so finite differences see only the scale and
# shift; the input gradient (through the statistics) is checked against BatchNorm2d's in
# test_sync_batchnorm.py and against one process on the whole batch in test_multiprocess.py.
SYNC = ("SyncBatchNorm", _sync_batch_norm, (arr(4, 3, 2, 2), arr(1, 3, 1, 1, seed=2),
                                            arr(1, 3, 1, 1, seed=3)))

GRADCHECKED = {name for name, _, _ in CASES} | {SYNC[0]}


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_gradcheck(name, fn, args):
    assert gradcheck(fn, *args)


@pytest.mark.parametrize("name, fn, args", CASES, ids=[c[0] for c in CASES])
def test_gradgradcheck(name, fn, args):
    assert gradgradcheck(fn, *args)


def test_sync_batch_norm_scale_and_shift_gradients():
    _, fn, args = SYNC
    assert gradcheck(fn, *args, positions=(1, 2))


def test_sync_batch_norm_is_first_order_only():
    from cellgrad import grad

    _, fn, args = SYNC
    with pytest.raises(RuntimeError, match="For 'SyncBatchNorm', the backward rule is "
                                           "first-order only"):
        grad(grad(lambda a, w, b: fn(a, w, b).sum(), (0, 1)), 1)(*args)


def test_reduce_scatter_with_max_has_no_gradient_as_in_mindspore():
    from cellgrad import grad

    with pytest.raises(RuntimeError, match="The reducescatter bprop only support ReduceOp.SUM"):
        grad(lambda x: ops.ReduceScatter("max")(x).sum())(arr(2, 2))
