"""MindSpore's batched point-to-point primitives: `ops.NeighborExchange` (with MindSpore's
backward rule: the output gradients go back to the processes they came from) and
`ops.BatchISendIRecv` (no gradient, as MindSpore). Every send and receive of a call is posted
at once and then waited for, so processes that exchange both ways cannot deadlock."""

from __future__ import annotations

import numpy as np

from cellgrad.common.dtype import dtype_to_nptype
from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, watchdog, world
from cellgrad_distributed.primitives import check_group, check_tensor
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["BatchISendIRecv", "NeighborExchange"]

_TAG = 7919  # MPI tag of these exchanges, apart from Send/Receive's user tags


def exchange(where, group, sends, send_to, recv_from, recv_shapes, recv_dtypes):
    """Send `sends[i]` to `send_to[i]` and receive arrays of `recv_shapes[j]` and
    `recv_dtypes[j]` from `recv_from[j]`, all posted before any is waited for; the received
    arrays."""
    g = world.member(group, where)
    received = [np.empty(tuple(s), np.float32 if d == np.float16 else d)
                for s, d in zip(recv_shapes, recv_dtypes)]
    outgoing = [collectives._wire(x, where) for x in sends]
    if g.comm is None:  # a group of one: each receive takes the next send, as MPI matches them
        for buf, sent in zip(received, outgoing):
            buf[...] = sent.reshape(buf.shape)
        return [r.astype(d, copy=False) for r, d in zip(received, recv_dtypes)]
    pending = []
    for buf, peer in zip(received, recv_from):
        collectives._run(lambda b=buf, p=peer: g.comm.Irecv(b, source=p, tag=_TAG), where, g,
                         pending)
    for buf, peer in zip(outgoing, send_to):
        collectives._run(lambda b=buf, p=peer: g.comm.Isend(b, dest=p, tag=_TAG), where, g,
                         pending)
    watchdog.wait(pending, where, g)
    return [r.astype(d, copy=False) for r, d in zip(received, recv_dtypes)]


def _neighbor_fwd(*xs, send_to, recv_from, recv_shapes, recv_dtype, group):
    out = exchange("NeighborExchange", group, xs, send_to, recv_from, recv_shapes,
                   [recv_dtype] * len(recv_shapes))
    return tuple(out), ([x.shape for x in xs], [x.dtype for x in xs], send_to, recv_from,
                        recv_shapes, recv_dtype, group)


def _neighbor_bwd(ctx, *grads):
    shapes, dtypes, send_to, recv_from, recv_shapes, recv_dtype, group = ctx.saved
    grads = [np.zeros(tuple(s), recv_dtype) if g is None else g
             for g, s in zip(grads, recv_shapes)]
    return tuple(exchange("NeighborExchange", group, grads, recv_from, send_to, shapes, dtypes))


NEIGHBOR_EXCHANGE = Op("NeighborExchange", _neighbor_fwd, _neighbor_bwd, PROMOTE_NONE,
                       first_order_only=True)
OPS = (NEIGHBOR_EXCHANGE,)


def _ranks(where, name, ranks, size):
    if not isinstance(ranks, (list, tuple)) or any(
            isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < size for r in ranks):
        raise ValueError(f"For '{where}', '{name}' must be a list of ranks of the group (0 to "
                         f"{size - 1}), but got {ranks!r}.")
    return tuple(ranks)


def _tensors(where, input_x):
    if isinstance(input_x, Tensor) or not isinstance(input_x, (tuple, list)):
        raise TypeError(f"For '{where}', 'input_x' must be a tuple of Tensors, but got "
                        f"{type(input_x).__name__}.")
    for i, x in enumerate(input_x):
        check_tensor(where, f"input_x[{i}]", x)
    return tuple(input_x)


def _member(where, group):
    world.check_started(where)
    return world.member(group, where)


class NeighborExchange(Primitive):
    """Mirrors `mindspore.ops.NeighborExchange`: `input_x[i]` (of `send_shapes[i]`) to
    `send_rank_ids[i]`; returns the tuple received from `recv_rank_ids` (of `recv_shapes`,
    `recv_type`)."""

    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type,
                 group=HCCL_WORLD_COMM_GROUP):
        super().__init__("NeighborExchange")
        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.recv_shapes, self.send_shapes, self.recv_type = recv_shapes, send_shapes, recv_type
        self.group = check_group("NeighborExchange", group)

    def __call__(self, input_x):
        where = "NeighborExchange"
        xs = _tensors(where, input_x)
        g = _member(where, self.group)
        send_to = _ranks(where, "send_rank_ids", self.send_rank_ids, g.size)
        recv_from = _ranks(where, "recv_rank_ids", self.recv_rank_ids, g.size)
        if len(xs) != len(send_to) or len(self.send_shapes) != len(send_to) or \
                len(self.recv_shapes) != len(recv_from):
            raise ValueError(f"For '{where}', 'input_x', 'send_shapes' and 'send_rank_ids' must "
                             f"have one entry per send and 'recv_shapes' one per receive, but "
                             f"got {len(xs)}, {len(self.send_shapes)}, {len(send_to)} and "
                             f"{len(self.recv_shapes)} for {len(recv_from)} receives.")
        for x, shape in zip(xs, self.send_shapes):
            if tuple(x.shape) != tuple(shape):
                raise ValueError(f"For '{where}', an input has the shape {tuple(x.shape)}, but "
                                 f"'send_shapes' says {tuple(shape)}.")
        out = apply(NEIGHBOR_EXCHANGE, xs, {
            "send_to": send_to, "recv_from": recv_from,
            "recv_shapes": tuple(tuple(s) for s in self.recv_shapes),
            "recv_dtype": np.dtype(dtype_to_nptype(self.recv_type)), "group": self.group})
        return out if isinstance(out, tuple) else (out,)


class BatchISendIRecv(Primitive):
    """Mirrors `mindspore.ops.BatchISendIRecv`: for each entry of `op_types`, "isend" sends the
    next Tensor of `input_x` to `remote_ranks[i]` (its output: a 0-D zero, with no meaning) and
    "irecv" receives a Tensor of the next `receive_shapes`/`receive_dtypes`."""

    def __init__(self, op_types, remote_ranks, receive_shapes=None, receive_dtypes=None,
                 group=HCCL_WORLD_COMM_GROUP):
        super().__init__("BatchISendIRecv")
        where = "BatchISendIRecv"
        if not isinstance(op_types, (list, tuple)) or \
                any(t not in ("isend", "irecv") for t in op_types):
            raise TypeError(f"For '{where}', 'op_types' must be a list of 'isend'/'irecv', but "
                            f"got {op_types!r}.")
        if not isinstance(remote_ranks, (list, tuple)) or len(remote_ranks) != len(op_types):
            raise ValueError(f"For '{where}', 'remote_ranks' must hold one rank per op type, "
                             f"but got {remote_ranks!r} for {len(op_types)} op types.")
        receives = sum(t == "irecv" for t in op_types)
        receive_shapes = list(receive_shapes or [])
        receive_dtypes = list(receive_dtypes or [])
        if len(receive_shapes) != receives or len(receive_dtypes) != receives:
            raise ValueError(f"For '{where}', 'receive_shapes' and 'receive_dtypes' must hold one "
                             f"entry per 'irecv' ({receives}), but got {len(receive_shapes)} "
                             f"and {len(receive_dtypes)}.")
        self.op_types, self.remote_ranks = tuple(op_types), tuple(remote_ranks)
        self.receive_shapes, self.receive_dtypes = receive_shapes, receive_dtypes
        self.group = check_group(where, group)

    def __call__(self, input_x):
        where = "BatchISendIRecv"
        if isinstance(input_x, Tensor):
            input_x = (input_x,)
        xs = [x for x in input_x if x is not None] if isinstance(input_x, (tuple, list)) \
            else input_x
        xs = _tensors(where, xs)
        g = _member(where, self.group)
        ranks = _ranks(where, "remote_ranks", list(self.remote_ranks), g.size)
        sends = [i for i, t in enumerate(self.op_types) if t == "isend"]
        if len(xs) != len(sends):
            raise ValueError(f"For '{where}', 'input_x' must hold one Tensor per 'isend' "
                             f"({len(sends)}), but holds {len(xs)}.")
        dtypes = [np.dtype(dtype_to_nptype(d)) for d in self.receive_dtypes]
        received = exchange(where, self.group, [x._data for x in xs], [ranks[i] for i in sends],
                            [ranks[i] for i, t in enumerate(self.op_types) if t == "irecv"],
                            self.receive_shapes, dtypes)
        result, r, s = [], iter(received), iter(xs)
        for t in self.op_types:
            if t == "isend":
                result.append(Tensor(np.zeros((), next(s)._data.dtype)))
            else:
                result.append(Tensor(next(r)))
        return tuple(result)
