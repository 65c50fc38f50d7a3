"""`cellgrad.communication.comm_func`: mirrors MindSpore 2.10's functional collectives.

`all_reduce`, `all_gather_into_tensor` and `reduce_scatter_tensor` return `(output, handle)`:
the handle is None unless `async_op=True`, when the output is valid after `handle.wait()`.
Recorded under a gradient transform they run synchronously and differentiate like the
primitives (`ops.AllReduce` & co.).
"""

from __future__ import annotations

import numpy as np
from cellgrad._core._buffer import make_tensor

from cellgrad._core import _tape
from cellgrad.plugins import apply
from cellgrad_distributed import collectives, watchdog, world
from cellgrad_distributed.primitives import ReduceOp, check_root, check_tensor
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["CommHandle", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast",
           "reduce_scatter_tensor"]


class CommHandle:
    """Mirrors `mindspore.communication.comm_func.CommHandle`: `wait()` until the collective
    that returned it has completed (within the watchdog's timeout)."""

    def __init__(self, handle=None, exec_sync=False):
        self.handle = handle  # (requests, group, op name, finish) or None
        self.exec_sync = exec_sync

    def wait(self):
        if self.handle is None:
            return
        requests, group, where, finish = self.handle
        self.handle = None
        watchdog.wait(requests, where, group)
        finish()

    def __repr__(self):
        return "CommHandle(handle=None)" if self.handle is None else \
            f"CommHandle(handle=<{self.handle[2]} on '{self.handle[1].name}'>)"


def _check(where, tensor, op=None, group=HCCL_WORLD_COMM_GROUP, async_op=False):
    check_tensor(where, "tensor", tensor)
    if op is not None:
        if not isinstance(op, str):
            raise TypeError(f"For {where}, the input op type must be str")
        if op not in collectives.REDUCE_OPS:
            raise TypeError(f"For {where}, the input op value must be one of sum, prod, min, max")
    if not isinstance(async_op, bool):
        raise TypeError(f"For {where}, 'async_op' must be a bool, but got "
                        f"{type(async_op).__name__}.")
    world.check_started(where)
    return world.member(group, where)


def _async(where, tensor, group, run):
    """Start `run(array, group, where, pending)` and return `(output, CommHandle)`."""
    pending = []
    buf = run(tensor._data, group, where, pending)
    # The output wraps the buffer MPI is filling (or, for float16, one filled at wait()).
    same = buf.dtype == tensor._data.dtype
    out = make_tensor(buf if same else np.empty(buf.shape, tensor._data.dtype), None, 0,
                      tensor._dtype)

    def finish():
        if out._data is not buf:
            out._data[...] = buf

    return out, CommHandle((pending, group, where, finish))


def _sync_or_async(where, tensor, group, async_op, op, attrs, run):
    if async_op and not _tape.recording_depth():
        return _async(where, tensor, group, run)
    return apply(op, (tensor,), attrs), (CommHandle() if async_op else None)


def all_reduce(tensor, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP, async_op=False):
    """Mirrors `mindspore.communication.comm_func.all_reduce`: `(output, handle)`."""
    g = _check("all_reduce", tensor, op, group, async_op)
    return _sync_or_async("all_reduce", tensor, g, async_op, collectives.ALL_REDUCE,
                          {"op": op, "group": group},
                          lambda x, grp, w, p: collectives.all_reduce(x, op, grp, w, p))


def all_gather_into_tensor(tensor, group=HCCL_WORLD_COMM_GROUP, async_op=False):
    """Mirrors `mindspore.communication.comm_func.all_gather_into_tensor`: the group's
    tensors concatenated along axis 0, `(output, handle)`."""
    g = _check("all_gather_into_tensor", tensor, None, group, async_op)
    return _sync_or_async("all_gather_into_tensor", tensor, g, async_op, collectives.ALL_GATHER,
                          {"group": group}, collectives.all_gather)


def reduce_scatter_tensor(tensor, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP, async_op=False):
    """Mirrors `mindspore.communication.comm_func.reduce_scatter_tensor`: `(output, handle)`."""
    g = _check("reduce_scatter_tensor", tensor, op, group, async_op)
    return _sync_or_async("reduce_scatter_tensor", tensor, g, async_op,
                          collectives.REDUCE_SCATTER, {"op": op, "group": group},
                          lambda x, grp, w, p: collectives.reduce_scatter(x, op, grp, w, p))


def broadcast(tensor, src=0, group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.comm_func.broadcast`: the Tensor of the process whose
    world rank is `src`, on every process of `group`."""
    check_tensor("broadcast", "tensor", tensor)
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    g = _check("broadcast", tensor, None, group)
    if src not in g.world_ranks:
        raise ValueError(f"For 'broadcast', 'src' {src} is not a world rank of the group "
                         f"'{g.name}', which holds the world ranks {list(g.world_ranks)}.")
    root = check_root("broadcast", "src", g.world_ranks.index(src), group)
    return apply(collectives.BROADCAST, (tensor,), {"root": root, "group": group})


def barrier(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.comm_func.barrier`: return once every process of
    `group` has called it."""
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    world.check_started("barrier")
    collectives.barrier(world.member(group, "barrier"))
