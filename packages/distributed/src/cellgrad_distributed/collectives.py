"""The collectives on numpy arrays (MPI, non-blocking and watched) and their ops with backward
rules: the gradient of an all-reduce is an all-reduce, of an all-gather a reduce-scatter, of a
reduce-scatter an all-gather, of a broadcast a sum to its root.

Array functions take a resolved `world.Group`; a group of one process copies and never calls
MPI. Ops take the group's name as an attribute. Rules call the array functions on numpy
gradients and the recorded ops on Tensor gradients, so gradients of every order flow.
"""

from __future__ import annotations

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import watchdog, world

REDUCE_OPS = ("sum", "max", "min", "prod")


def _mpi_op(op):
    MPI = world.mpi()
    return {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}[op]


def _wire(x, where):
    """A C-contiguous copy of `x` in a dtype MPI reduces (float16 travels as float32)."""
    if x.dtype == np.bool_ or x.dtype.kind not in "iuf":
        raise TypeError(f"For '{where}', the input must be an integer or floating Tensor, but "
                        f"got dtype {x.dtype}.")
    dtype = np.float32 if x.dtype == np.float16 else x.dtype
    return np.array(x, dtype=dtype, order="C", copy=True)


def _run(start, where, group, pending=None):
    """Start one non-blocking MPI collective and wait for it (watched), or append its
    request to `pending` for the caller to wait for."""
    MPI = world.mpi()
    try:
        request = start()
    except MPI.Exception as exc:
        raise RuntimeError(f"For '{where}', MPI failed on group '{group.name}': "
                           f"{exc.Get_error_string()}") from None
    if pending is None:
        watchdog.wait([request], where, group)
    else:
        pending.append(request)


def all_reduce(x, op, group, where="AllReduce", pending=None):
    """Element-wise `op` over the group's copies of `x`; every process gets the result.

    With a `pending` list the request is appended there and the result is valid once it
    completes (then the caller casts float16 back itself).
    """
    buf = _wire(x, where)
    if group.size > 1:
        MPI = world.mpi()
        _run(lambda: group.comm.Iallreduce(MPI.IN_PLACE, buf, _mpi_op(op)), where, group,
             pending)
    return buf if pending is not None else buf.astype(x.dtype, copy=False)


def all_gather(x, group, where="AllGather", pending=None):
    """The group's `x` concatenated along axis 0, in rank order (`pending`: as all_reduce)."""
    _at_least_1d(x, where)
    send = _wire(x, where)
    if group.size == 1:
        return send if pending is not None else send.astype(x.dtype, copy=False)
    out = np.empty((group.size * x.shape[0],) + x.shape[1:], send.dtype)
    _run(lambda: group.comm.Iallgather(send, out), where, group, pending)
    if pending is not None:  # mpi4py's request keeps `send` alive until it completes
        return out
    return out.astype(x.dtype, copy=False)


def reduce_scatter(x, op, group, where="ReduceScatter", pending=None):
    """`op` over the group's `x`, split along axis 0: process r keeps block r (`pending`: as
    all_reduce)."""
    _at_least_1d(x, where)
    if x.shape[0] % group.size:
        raise ValueError(f"For '{where}', the first dimension of the input {tuple(x.shape)} "
                         f"must be divisible by the group size {group.size}.")
    send = _wire(x, where)
    if group.size == 1:
        return send if pending is not None else send.astype(x.dtype, copy=False)
    out = np.empty((x.shape[0] // group.size,) + x.shape[1:], send.dtype)
    _run(lambda: group.comm.Ireduce_scatter_block(send, out, _mpi_op(op)), where, group,
         pending)
    if pending is not None:
        return out
    return out.astype(x.dtype, copy=False)


def broadcast(x, root, group, where="Broadcast"):
    """Process `root`'s `x` (a group rank) on every process."""
    buf = _wire(x, where)
    if group.size > 1:
        _run(lambda: group.comm.Ibcast(buf, root=root), where, group)
    return buf.astype(x.dtype, copy=False)


def reduce_to(x, root, group, where="Broadcast"):
    """The sum of the group's `x` on process `root`, zeros elsewhere."""
    send = _wire(x, where)
    if group.size == 1:
        return send.astype(x.dtype, copy=False)
    out = np.zeros_like(send)
    MPI = world.mpi()
    _run(lambda: group.comm.Ireduce(send, out, MPI.SUM, root=root), where, group)
    return out.astype(x.dtype, copy=False)


def barrier(group, where="barrier"):
    if group.size > 1:
        _run(lambda: group.comm.Ibarrier(), where, group)


def _at_least_1d(x, where):
    if x.ndim == 0:
        raise ValueError(f"For '{where}', the input must have at least 1 dimension (processes "
                         f"are stacked along axis 0), but got a 0-D Tensor.")


# ---- ops: forward and backward side by side ----


def _group(name, where):
    world.check_started(where)
    return world.member(name, where)


def _all_reduce_fwd(x, *, op, group):
    out = all_reduce(x, op, _group(group, "AllReduce"))
    return out, ((x, out, op, group) if op != "sum" else (None, None, op, group))


def _all_reduce_bwd(ctx, g):
    x, out, op, group = ctx.saved
    xp = ctx.xp
    if op == "sum":
        return _summed(xp, g, group)
    if op == "prod":
        return _summed(xp, g * out, group) / x
    dx = _summed(xp, g, group)  # max/min: to every process that holds the extreme value
    return xp.where(x == out, dx, xp.zeros_like(dx))


def _summed(xp, g, group):
    if xp.IS_TENSOR:
        return apply(ALL_REDUCE, (g,), {"op": "sum", "group": group})
    return all_reduce(g, "sum", _group(group, "AllReduce"))


def _all_gather_fwd(x, *, group):
    return all_gather(x, _group(group, "AllGather")), (group,)


def _all_gather_bwd(ctx, g):
    (group,) = ctx.saved
    if ctx.xp.IS_TENSOR:
        return apply(REDUCE_SCATTER, (g,), {"op": "sum", "group": group})
    return reduce_scatter(g, "sum", _group(group, "AllGather"))


def _reduce_scatter_fwd(x, *, op, group):
    return reduce_scatter(x, op, _group(group, "ReduceScatter")), (op, group)


def _reduce_scatter_bwd(ctx, g):
    op, group = ctx.saved
    if op != "sum":
        raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
    if ctx.xp.IS_TENSOR:
        return apply(ALL_GATHER, (g,), {"group": group})
    return all_gather(g, _group(group, "ReduceScatter"))


def _broadcast_fwd(x, *, root, group):
    return broadcast(x, root, _group(group, "Broadcast")), (root, group)


def _broadcast_bwd(ctx, g):
    # Every process's output is the root's input: the root's gradient is their sum.
    root, group = ctx.saved
    if ctx.xp.IS_TENSOR:
        return apply(REDUCE_TO_ROOT, (g,), {"root": root, "group": group})
    return reduce_to(g, root, _group(group, "Broadcast"))


def _reduce_to_root_fwd(x, *, root, group):
    return reduce_to(x, root, _group(group, "Broadcast")), (root, group)


def _reduce_to_root_bwd(ctx, g):
    root, group = ctx.saved
    if ctx.xp.IS_TENSOR:
        return apply(BROADCAST, (g,), {"root": root, "group": group})
    return broadcast(g, root, _group(group, "Broadcast"))


ALL_REDUCE = Op("AllReduce", _all_reduce_fwd, _all_reduce_bwd, PROMOTE_NONE)
ALL_GATHER = Op("AllGather", _all_gather_fwd, _all_gather_bwd, PROMOTE_NONE)
REDUCE_SCATTER = Op("ReduceScatter", _reduce_scatter_fwd, _reduce_scatter_bwd, PROMOTE_NONE)
BROADCAST = Op("Broadcast", _broadcast_fwd, _broadcast_bwd, PROMOTE_NONE)
REDUCE_TO_ROOT = Op("ReduceToRoot", _reduce_to_root_fwd, _reduce_to_root_bwd, PROMOTE_NONE)
OPS = (ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE_TO_ROOT)
