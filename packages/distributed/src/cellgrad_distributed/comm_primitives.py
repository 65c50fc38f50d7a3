"""MindSpore's rooted, personalised and point-to-point collective primitives: `ops.Reduce`,
`ops.CollectiveGather`, `ops.CollectiveScatter`, `ops.AlltoAll`, `ops.Barrier`, `ops.Send`
and `ops.Receive`, with MindSpore's backward rules (`grad_comm_ops.py`): the gradient of a
reduce is a broadcast from its root, of a gather the root's gradient broadcast and split, of a
scatter a gather to its root, of an all-to-all the all-to-all back, of a send the receive of
the receiver's gradient (and of a receive, the send of it back).

Ranks of these primitives are ranks within `group` (the world's are the world ranks).
"""

from __future__ import annotations

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive, ReduceOp
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, watchdog, world
from cellgrad_distributed.primitives import check_group, check_op, check_tensor
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["AlltoAll", "Barrier", "CollectiveGather", "CollectiveScatter", "Receive", "Reduce",
           "Send"]


def _group(name, where):
    world.check_started(where)
    return world.member(name, where)


def _root(where, name, rank, group):
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise TypeError(f"For '{where}', the '{name}' must be int, but got "
                        f"{type(rank).__name__}.")
    size = world.resolve(group, where).size
    if not 0 <= rank < size:
        raise ValueError(f"For '{where}', '{name}' {rank} is out of range: the group '{group}' "
                         f"has {size} process{'es' if size != 1 else ''}.")
    return rank


def _request(where, g, call):
    pending = []
    if g.size > 1:
        collectives._run(call, where, g, pending)
    watchdog.wait(pending, where, g)


# ---- Reduce: op of every input on the root, a meaningless [1] elsewhere ----


def _reduce_fwd(x, *, op, root, group):
    g = _group(group, "Reduce")
    send = collectives._wire(x, "Reduce")
    out = send.copy() if g.size == 1 else np.empty_like(send)
    _request("Reduce", g, lambda: g.comm.Ireduce(send, out, collectives._mpi_op(op), root=root))
    result = out.astype(x.dtype) if g.rank == root else np.zeros((1,), x.dtype)
    return result, (x.shape, x.dtype, root, group)


def _reduce_bwd(ctx, dout):
    shape, dtype, root, group = ctx.saved
    g = _group(group, "Reduce")
    grad = dout if g.rank == root else np.zeros(shape, dtype)
    return collectives.broadcast(grad, root, g, "Reduce")


# ---- CollectiveGather: the inputs concatenated along axis 0 on the root ----


def _gather_fwd(x, *, root, group):
    g = _group(group, "CollectiveGather")
    collectives._at_least_1d(x, "CollectiveGather")
    send = collectives._wire(x, "CollectiveGather")
    recv = np.empty((g.size,) + send.shape, send.dtype) if g.rank == root else None
    if g.size == 1:
        recv[0] = send
    _request("CollectiveGather", g, lambda: g.comm.Igather(send, recv, root=root))
    out = recv.reshape((-1,) + send.shape[1:]).astype(x.dtype) if g.rank == root else \
        np.zeros((1,), x.dtype)
    return out, (x.shape, x.dtype, root, group)


def _gather_bwd(ctx, dout):
    shape, dtype, root, group = ctx.saved
    g = _group(group, "CollectiveGather")
    full = dout if g.rank == root else np.zeros((g.size * shape[0],) + shape[1:], dtype)
    whole = collectives.broadcast(full, root, g, "CollectiveGather")
    return np.split(whole, g.size)[g.rank]


# ---- CollectiveScatter: block r (axis 0) of the root's input to process r ----


def _scatter_fwd(x, *, root, group):
    g = _group(group, "CollectiveScatter")
    collectives._at_least_1d(x, "CollectiveScatter")
    if x.shape[0] % g.size:
        raise ValueError(f"For 'CollectiveScatter', the first dimension of the input "
                         f"{tuple(x.shape)} must be divisible by the group size {g.size}.")
    send = collectives._wire(x, "CollectiveScatter")
    recv = np.empty((x.shape[0] // g.size,) + send.shape[1:], send.dtype)
    if g.size == 1:
        recv[...] = send
    _request("CollectiveScatter", g,
             lambda: g.comm.Iscatter(send if g.rank == root else None, recv, root=root))
    return recv.astype(x.dtype), (x.shape, x.dtype, root, group)


def _scatter_bwd(ctx, dout):
    shape, dtype, root, group = ctx.saved
    g = _group(group, "CollectiveScatter")
    send = collectives._wire(dout, "CollectiveScatter")
    recv = np.empty((g.size,) + send.shape, send.dtype) if g.rank == root else None
    if g.size == 1:
        recv[0] = send
    _request("CollectiveScatter", g, lambda: g.comm.Igather(send, recv, root=root))
    if g.rank != root:
        return np.zeros(shape, dtype)
    return recv.reshape(shape).astype(dtype)


# ---- AlltoAll: split along split_dim, block i to process i, concatenated along concat_dim ----


def all_to_all_array(x, split_count, split_dim, concat_dim, group, where="AlltoAll"):
    g = _group(group, where)
    if split_count != g.size:
        raise ValueError(f"For '{where}', 'split_count' {split_count} must be the group size "
                         f"{g.size}.")
    if x.shape[split_dim] % split_count:
        raise ValueError(f"For '{where}', the input's dimension {split_dim} "
                         f"({x.shape[split_dim]}) must be divisible by 'split_count' "
                         f"{split_count}.")
    blocks = np.split(collectives._wire(x, where), split_count, axis=split_dim)
    send = np.concatenate([b.reshape(-1) for b in blocks])
    recv = np.empty_like(send)
    if g.size == 1:
        recv[...] = send
    _request(where, g, lambda: g.comm.Ialltoall(send, recv))
    got = np.split(recv, split_count)
    return np.concatenate([b.reshape(blocks[0].shape) for b in got],
                          axis=concat_dim).astype(x.dtype)


def _all_to_all_fwd(x, *, split_count, split_dim, concat_dim, group):
    out = all_to_all_array(x, split_count, split_dim, concat_dim, group)
    return out, (split_count, split_dim, concat_dim, group)


def _all_to_all_bwd(ctx, dout):
    split_count, split_dim, concat_dim, group = ctx.saved
    return all_to_all_array(dout, split_count, concat_dim, split_dim, group)


# ---- Send and Receive: the gradient travels back the other way ----

# A group of one process sends to itself: messages wait here, by (group, tag), in order.
_mailbox: dict = {}


def _post(where, g, buf, peer, tag):
    if g.comm is None:
        _mailbox.setdefault((g.name, tag), []).append(buf.copy())
        return
    _request(where, g, lambda: g.comm.Isend(buf, dest=peer, tag=tag))


def _take(where, g, buf, peer, tag):
    if g.comm is None:
        queue = _mailbox.get((g.name, tag))
        if not queue:
            raise RuntimeError(f"For '{where}', nothing was sent with the tag {tag} to this "
                               f"process, the only one of its group '{g.name}'.")
        buf[...] = queue.pop(0).reshape(buf.shape)
        return
    _request(where, g, lambda: g.comm.Irecv(buf, source=peer, tag=tag))


def _send_fwd(x, *, tag, peer, group, back):
    g = _group(group, "Send")
    buf = collectives._wire(x, "Send")
    _post("Send", g, buf, peer, tag)
    return np.zeros((), x.dtype), (x.shape, buf.dtype, x.dtype, tag, peer, back)


def _send_bwd(ctx, dout):
    shape, wire, dtype, tag, peer, back = ctx.saved
    grad = np.empty(shape, wire)
    _take("Send", _group(back, "Send"), grad, peer, tag)
    return grad.astype(dtype)


def _receive_fwd(x, *, tag, peer, group, back, shape, dtype):
    buf = np.empty(shape, np.float32 if dtype == np.float16 else dtype)
    _take("Receive", _group(group, "Receive"), buf, peer, tag)
    return buf.astype(dtype), (x.dtype, x.shape, tag, peer, back)


def _receive_bwd(ctx, dout):
    xdtype, xshape, tag, peer, back = ctx.saved
    _post("Receive", _group(back, "Receive"), collectives._wire(dout, "Receive"), peer, tag)
    return np.zeros(xshape, xdtype)


REDUCE = Op("Reduce", _reduce_fwd, _reduce_bwd, PROMOTE_NONE, first_order_only=True)
GATHER = Op("CollectiveGather", _gather_fwd, _gather_bwd, PROMOTE_NONE, first_order_only=True)
SCATTER = Op("CollectiveScatter", _scatter_fwd, _scatter_bwd, PROMOTE_NONE,
             first_order_only=True)
ALL_TO_ALL = Op("AlltoAll", _all_to_all_fwd, _all_to_all_bwd, PROMOTE_NONE,
                first_order_only=True)
SEND = Op("Send", _send_fwd, _send_bwd, PROMOTE_NONE, first_order_only=True)
RECEIVE = Op("Receive", _receive_fwd, _receive_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (REDUCE, GATHER, SCATTER, ALL_TO_ALL, SEND, RECEIVE)


# ---- the primitive classes ----


class Reduce(Primitive):
    """Mirrors `mindspore.ops.Reduce`: `op` of the group's inputs on `dest_rank`; the other
    processes get a Tensor of shape [1] with no meaning (as MindSpore)."""

    def __init__(self, dest_rank, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("Reduce")
        self.group = check_group("Reduce", group)
        self.op = check_op("Reduce", op)
        self.dest_rank = dest_rank

    def __call__(self, input_x):
        check_tensor("Reduce", "input_x", input_x)
        root = _root("Reduce", "dest_rank", self.dest_rank, self.group)
        return apply(REDUCE, (input_x,), {"op": self.op, "root": root, "group": self.group})


class CollectiveGather(Primitive):
    """Mirrors `mindspore.ops.CollectiveGather`: the group's inputs concatenated along axis 0
    on `dest_rank`; the others get a Tensor of shape [1] with no meaning."""

    def __init__(self, dest_rank, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("CollectiveGather")
        self.group = check_group("CollectiveGather", group)
        self.dest_rank = dest_rank
        self.rank_size = world.resolve(self.group, "CollectiveGather").size

    def __call__(self, input_x):
        check_tensor("CollectiveGather", "input_x", input_x)
        root = _root("CollectiveGather", "dest_rank", self.dest_rank, self.group)
        return apply(GATHER, (input_x,), {"root": root, "group": self.group})


class CollectiveScatter(Primitive):
    """Mirrors `mindspore.ops.CollectiveScatter`: process r gets block r (along axis 0) of
    `src_rank`'s input; the others' inputs give only the shape."""

    def __init__(self, src_rank=0, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("CollectiveScatter")
        self.group = check_group("CollectiveScatter", group)
        self.src_rank = src_rank
        self.rank_size = world.resolve(self.group, "CollectiveScatter").size

    def __call__(self, input_x):
        check_tensor("CollectiveScatter", "input_x", input_x)
        root = _root("CollectiveScatter", "src_rank", self.src_rank, self.group)
        return apply(SCATTER, (input_x,), {"root": root, "group": self.group})


class AlltoAll(Primitive):
    """Mirrors `mindspore.ops.AlltoAll`: the input split into `split_count` (the group size)
    blocks along `split_dim`, block i to process i, the received blocks concatenated along
    `concat_dim`."""

    def __init__(self, split_count, split_dim, concat_dim, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("AlltoAll")
        self.group = check_group("AlltoAll", group)
        for name, value in (("split_count", split_count), ("split_dim", split_dim),
                            ("concat_dim", concat_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'AlltoAll', the '{name}' must be int, but got "
                                f"{type(value).__name__}.")
        self.split_count, self.split_dim, self.concat_dim = split_count, split_dim, concat_dim
        self.rank_size = world.resolve(self.group, "AlltoAll").size

    def __call__(self, input_x):
        check_tensor("AlltoAll", "input_x", input_x)
        nd = max(input_x.ndim, 1)
        return apply(ALL_TO_ALL, (input_x,), {
            "split_count": self.split_count, "split_dim": self.split_dim % nd,
            "concat_dim": self.concat_dim % nd, "group": self.group})


class Barrier(Primitive):
    """Mirrors `mindspore.ops.Barrier`: return once every process of `group` has called it."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("Barrier")
        self.group = check_group("Barrier", group)

    def __call__(self):
        collectives.barrier(_group(self.group, "Barrier"), "Barrier")


class Send(Primitive):
    """Mirrors `mindspore.ops.Send`: send `input_x` to `dest_rank` with the tag `sr_tag`;
    returns a 0-D zero. Its gradient is received from `dest_rank` (its Receive's backward)."""

    def __init__(self, sr_tag, dest_rank, group=HCCL_WORLD_COMM_GROUP,
                 group_back=HCCL_WORLD_COMM_GROUP):
        super().__init__("Send")
        self.rank, self.sr_tag = dest_rank, sr_tag
        self.group = check_group("Send", group)
        self.group_back = check_group("Send", group_back)

    def __call__(self, input_x):
        check_tensor("Send", "input_x", input_x)
        peer = _root("Send", "dest_rank", self.rank, self.group)
        return apply(SEND, (input_x,), {"tag": self.sr_tag, "peer": peer, "group": self.group,
                                        "back": self.group_back})


class Receive(Primitive):
    """Mirrors `mindspore.ops.Receive`: the Tensor of `shape` and `dtype` that `src_rank` sent
    with the tag `sr_tag`; its gradient is sent back to `src_rank` (for its Send's backward).
    An optional input only carries the dependency, as MindSpore's virtual input."""

    _DTYPES = ("Float16", "Float32", "Float64", "BFloat16", "Int8", "Int16", "Int32", "Int64",
               "UInt8", "UInt16", "UInt32", "UInt64")

    def __init__(self, sr_tag, src_rank, shape, dtype, group=HCCL_WORLD_COMM_GROUP,
                 group_back=HCCL_WORLD_COMM_GROUP):
        super().__init__("Receive")
        if str(dtype) not in self._DTYPES:
            raise TypeError(f"For 'Receive', the 'dtype' must be one of "
                            f"{', '.join(self._DTYPES)}, but got {dtype}.")
        self.rank, self.tag, self.shape, self.dtype = src_rank, sr_tag, shape, dtype
        self.group = check_group("Receive", group)
        self.group_back = check_group("Receive", group_back)

    def __call__(self, *inputs):
        from cellgrad.common.dtype import dtype_to_nptype

        x = inputs[0] if inputs else Tensor(0.0, self.dtype)
        peer = _root("Receive", "src_rank", self.rank, self.group)
        return apply(RECEIVE, (x,), {"tag": self.tag, "peer": peer, "group": self.group,
                                     "back": self.group_back, "shape": tuple(self.shape),
                                     "dtype": np.dtype(dtype_to_nptype(self.dtype))})
