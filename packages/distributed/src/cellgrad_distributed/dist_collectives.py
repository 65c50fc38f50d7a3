"""`mint.distributed`'s collectives that write into the Tensors they are given: mirrors
`mindspore.mint.distributed.all_reduce`, `all_gather`, `all_gather_into_tensor`,
`reduce_scatter`, `reduce_scatter_tensor`, `reduce`, `broadcast` and `barrier`.

Each writes its result into a Tensor of the caller (MindSpore's in-place collectives) and
returns None, or with `async_op=True` a `CommHandle` whose `wait()` completes the write.
Under a gradient transform they run at once and the write is on the tape, so the gradient flows
through them (of an all-reduce an all-reduce, of an all-gather a reduce-scatter, of a broadcast
the sum on its root, of a reduce a broadcast from its root).
"""

from __future__ import annotations

import numpy as np

from cellgrad._core import _tape
from cellgrad.common._tensor_methods import _inplace
from cellgrad.common.tensor import Tensor
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, world
from cellgrad_distributed.comm_func import CommHandle
from cellgrad_distributed.dist_groups import group_name

__all__ = ["all_gather", "all_gather_into_tensor", "all_reduce", "barrier", "broadcast",
           "reduce", "reduce_scatter", "reduce_scatter_tensor"]

OPS_WITH_AVG = ("sum", "prod", "min", "max", "avg")


# ---- checks shared by every mint.distributed function ----


def check_tensor(where, x, what="input tensor"):
    if not isinstance(x, Tensor):
        raise TypeError(f"For {where}, the {what} must be tensor")


def check_tensors(where, tensors, name):
    if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"For {where}, '{name}' must be a list of Tensors, but got "
                        f"{type(tensors).__name__}.")


def check_op(where, op, allowed=OPS_WITH_AVG):
    if not isinstance(op, str):
        raise TypeError(f"For {where}, the input op type must be str")
    if op not in allowed:
        raise TypeError(f"For {where}, the input op value must be one of {', '.join(allowed)}")


def check_rank_arg(where, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For {where}, the {name} must be int")


def member(where, group, async_op=False):
    """The resolved group this process communicates in (None: the world)."""
    name = group_name(group)
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    world.check_started(where)
    return world.member(name, where)


def group_rank(where, g, rank, name):
    """The rank in `g` of the world rank `rank` (`src`/`dst` are world ranks, as MindSpore)."""
    check_rank_arg(where, name, rank)
    if rank not in g.world_ranks:
        raise ValueError(f"For {where}, '{name}' {rank} is not a world rank of the group "
                         f"'{g.name}', which holds the world ranks {list(g.world_ranks)}.")
    return g.world_ranks.index(rank)


def check_shape(where, t, shape, what):
    if tuple(t.shape) != tuple(shape):
        raise ValueError(f"For {where}, the {what} must have the shape {tuple(shape)}, but got "
                         f"{tuple(t.shape)}.")


def check_dtype(where, t, dtype, what):
    if t.dtype != dtype:
        raise TypeError(f"For {where}, the {what} dtype should be {dtype}, but got {t.dtype}.")


def check_per_rank(where, tensors, g, like, name):
    """`tensors` holds one tensor per process of `g`, each of `like`'s shape and dtype."""
    if len(tensors) != g.size:
        raise TypeError(f"The argument list tensor len must be equal to group rank size, but "
                        f"got {len(tensors)}.")
    for t in tensors:
        check_shape(where, t, like.shape, f"tensors of '{name}'")
        check_dtype(where, t, like.dtype, f"tensors of '{name}'")


def run(where, g, async_op, now, start):
    """`now()` at once, or with `async_op` (and nothing recording) `start(pending)`, which
    starts MPI requests and returns the function that completes the write after them."""
    if async_op and not _tape.recording_depth():
        pending = []
        finish = start(pending)
        return CommHandle((pending, g, where, finish))
    now()
    return CommHandle() if async_op else None


def write(t, array):
    """Put `array` (a numpy result) into the Tensor `t`'s memory."""
    t._data[...] = np.asarray(array).reshape(t.shape).astype(t._data.dtype, copy=False)


def _mpi_op(op):
    return "sum" if op == "avg" else op


def check_avg(where, op, x):
    if op == "avg" and x.dtype.kind != "f":
        raise TypeError(f"For {where}, 'avg' needs a floating Tensor, but got {x.dtype}.")


def _averaged(where, x, op, g):
    return x / g.size if op == "avg" else x


# ---- collectives ----


def all_reduce(tensor, op="sum", group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.all_reduce`: `tensor` becomes `op` of the group's."""
    check_tensor("all_reduce", tensor)
    check_op("all_reduce", op)
    g = member("all_reduce", group, async_op)
    check_avg("all_reduce", op, tensor._data)

    def now():
        out = apply(collectives.ALL_REDUCE, (tensor,), {"op": _mpi_op(op), "group": g.name})
        _inplace(tensor, out / g.size if op == "avg" else out)

    def start(pending):
        buf = collectives.all_reduce(tensor._data, _mpi_op(op), g, "all_reduce", pending)
        return lambda: write(tensor, _averaged("all_reduce", buf, op, g))

    return run("all_reduce", g, async_op, now, start)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.all_gather_into_tensor`: `output_tensor` becomes
    the group's `input_tensor`s concatenated along axis 0."""
    where = "all_gather_into_tensor"
    check_tensor(where, input_tensor)
    check_tensor(where, output_tensor, "output tensor")
    g = member(where, group, async_op)
    shape = (g.size * input_tensor.shape[0],) + tuple(input_tensor.shape[1:]) \
        if input_tensor.ndim else (g.size,)
    check_shape(where, output_tensor, shape, "output tensor")
    check_dtype(where, output_tensor, input_tensor.dtype, "output tensor")
    x = input_tensor if input_tensor.ndim else input_tensor.reshape((1,))

    def now():
        _inplace(output_tensor, apply(collectives.ALL_GATHER, (x,), {"group": g.name}))

    def start(pending):
        buf = collectives.all_gather(x._data, g, where, pending)
        return lambda: write(output_tensor, buf)

    return run(where, g, async_op, now, start)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.all_gather`: `tensor_list[r]` becomes process r's
    `tensor`."""
    where = "all_gather"
    check_tensors(where, tensor_list, "tensor_list")
    check_tensor(where, tensor)
    g = member(where, group, async_op)
    check_per_rank(where, tensor_list, g, tensor, "tensor_list")
    x = tensor.reshape((1,) + tuple(tensor.shape))

    def now():
        out = apply(collectives.ALL_GATHER, (x,), {"group": g.name})
        for i, t in enumerate(tensor_list):
            _inplace(t, out[i])

    def start(pending):
        buf = collectives.all_gather(x._data, g, where, pending)

        def finish():
            for i, t in enumerate(tensor_list):
                write(t, buf[i])
        return finish

    return run(where, g, async_op, now, start)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.reduce_scatter_tensor`: `op` of the group's `input`,
    split along axis 0; `output` becomes this process's block."""
    where = "reduce_scatter_tensor"
    check_tensor(where, input)
    check_tensor(where, output, "output tensor")
    check_op(where, op)
    g = member(where, group, async_op)
    if input.ndim == 0 or input.shape[0] % g.size:
        raise ValueError(f"For {where}, the first dimension of the input {tuple(input.shape)} "
                         f"must be divisible by the group size {g.size}.")
    check_shape(where, output, (input.shape[0] // g.size,) + tuple(input.shape[1:]),
                "output tensor")
    check_dtype(where, output, input.dtype, "output tensor")
    check_avg(where, op, input._data)

    def now():
        out = apply(collectives.REDUCE_SCATTER, (input,), {"op": _mpi_op(op), "group": g.name})
        _inplace(output, out / g.size if op == "avg" else out)

    def start(pending):
        buf = collectives.reduce_scatter(input._data, _mpi_op(op), g, where, pending)
        return lambda: write(output, _averaged(where, buf, op, g))

    return run(where, g, async_op, now, start)


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.reduce_scatter`: `output` becomes `op` over the
    processes of their `input_list[rank]`."""
    where = "reduce_scatter"
    check_tensors(where, input_list, "input_list")
    check_tensor(where, output, "output tensor")
    check_op(where, op)
    g = member(where, group, async_op)
    check_per_rank(where, input_list, g, output, "input_list")
    check_avg(where, op, output._data)

    def now():
        from cellgrad import ops

        stacked = ops.stack(list(input_list)) if input_list[0].ndim else \
            ops.stack(list(input_list)).reshape((g.size,))
        out = apply(collectives.REDUCE_SCATTER, (stacked,), {"op": _mpi_op(op),
                                                              "group": g.name})
        out = out.reshape(output.shape)
        _inplace(output, out / g.size if op == "avg" else out)

    def start(pending):
        stacked = np.stack([t._data for t in input_list]).reshape((g.size, -1))
        buf = collectives.reduce_scatter(stacked, _mpi_op(op), g, where, pending)
        return lambda: write(output, _averaged(where, buf, op, g))

    return run(where, g, async_op, now, start)


def broadcast(tensor, src, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.broadcast`: `tensor` becomes that of the process
    whose world rank is `src`."""
    where = "broadcast"
    check_tensor(where, tensor)
    check_rank_arg(where, "src", src)
    g = member(where, group, async_op)
    root = group_rank(where, g, src, "src")

    def now():
        _inplace(tensor, apply(collectives.BROADCAST, (tensor,), {"root": root,
                                                                  "group": g.name}))

    def start(pending):
        buf = collectives._wire(tensor._data, where)
        if g.size > 1:
            collectives._run(lambda: g.comm.Ibcast(buf, root=root), where, g, pending)
        return lambda: write(tensor, buf)

    return run(where, g, async_op, now, start)


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.reduce`: on the process whose world rank is `dst`,
    `tensor` becomes `op` of the group's; the others' stay as they are."""
    where = "reduce"
    check_tensor(where, tensor)
    check_rank_arg(where, "dst", dst)
    check_op(where, op)
    g = member(where, group, async_op)
    root = group_rank(where, g, dst, "dst")
    check_avg(where, op, tensor._data)

    def now():
        _inplace(tensor, apply(REDUCE, (tensor,), {"op": op, "root": root, "group": g.name}))

    def start(pending):
        buf = _reduce_start(tensor._data, op, root, g, pending)
        return lambda: g.rank == root and write(tensor, _averaged(where, buf, op, g))

    return run(where, g, async_op, now, start)


def barrier(group=None, async_op=False, device_ids=None):
    """Mirrors `mindspore.mint.distributed.barrier`: return (or, with `async_op`, complete the
    handle) once every process of `group` has called it."""
    g = member("barrier", group, async_op)

    def now():
        collectives.barrier(g)

    def start(pending):
        if g.size > 1:
            collectives._run(lambda: g.comm.Ibarrier(), "barrier", g, pending)
        return lambda: None

    return run("barrier", g, async_op, now, start)


# ---- the reduce op: the root gets op of every input, the others keep theirs ----


def _reduce_start(x, op, root, g, pending=None):
    send = collectives._wire(x, "reduce")
    if g.size == 1:
        return send
    out = np.empty_like(send)
    collectives._run(lambda: g.comm.Ireduce(send, out, collectives._mpi_op(_mpi_op(op)),
                                            root=root), "reduce", g, pending)
    return out


def _reduce_fwd(x, *, op, root, group):
    g = world.member(group, "reduce")
    out = _reduce_start(x, op, root, g)
    if g.rank != root:
        return x.copy(), (op, root, group, g.size)
    return _averaged("reduce", out, op, g).astype(x.dtype, copy=False), (op, root, group, g.size)


def _reduce_bwd(ctx, grad):
    # The root's output is the sum of every input: each input's gradient is the root's
    # output gradient (a broadcast); the other processes' outputs are their inputs.
    op, root, group, size = ctx.saved
    if op not in ("sum", "avg"):
        raise RuntimeError(f"For 'reduce', the gradient needs op 'sum' or 'avg', but got "
                           f"{op!r}.")
    g = world.member(group, "reduce")
    from_root = collectives.broadcast(grad, root, g, "reduce")
    if op == "avg":
        from_root = from_root / size
    return from_root if g.rank == root else from_root + grad


REDUCE = Op("DistCommReduce", _reduce_fwd, _reduce_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (REDUCE,)
