"""MindSpore's uneven collectives on flat Tensors: `ops.AllGatherV`, `ops.ReduceScatterV`,
`ops.AlltoAllV` and `ops.AlltoAllVC` (MPI's `Iallgatherv`, `Ireduce_scatter`, `Ialltoallv`),
with MindSpore's backward rules: an all-gather-v's is a reduce-scatter-v (sum) with the same
sizes and back, an all-to-all-v's the all-to-all-v with the send and receive counts swapped.
Counts are elements; an empty result is a 0-D Tensor with no meaning, as MindSpore's."""

from __future__ import annotations

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive, ReduceOp
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, watchdog, world
from cellgrad_distributed.primitives import check_group, check_op, check_tensor
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["AllGatherV", "AlltoAllV", "AlltoAllVC", "ReduceScatterV"]


def _spec(buf, counts):
    counts = [int(c) for c in counts]
    displs = [0] + list(np.cumsum(counts)[:-1].tolist())
    return [buf, (counts, displs)]


def _flat(where, x):
    if x.ndim != 1:
        raise ValueError(f"For '{where}', the input must be a flat (1-D) Tensor, but got the "
                         f"shape {tuple(x.shape)}: flatten and concatenate it first.")
    return collectives._wire(x, where)


def _wait(where, g, call):
    pending = []
    if g.size > 1:
        collectives._run(call, where, g, pending)
    watchdog.wait(pending, where, g)


def _result(buf, dtype):
    return buf.astype(dtype) if buf.size else np.zeros((), dtype)


def _counts(where, name, value, size):
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    if not isinstance(value, (list, tuple)) or len(value) != size or \
            any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0
                for v in value):
        raise ValueError(f"For '{where}', '{name}' must hold {size} non-negative ints (one per "
                         f"process of the group), but got {value!r}.")
    return tuple(int(v) for v in value)


def gather_v(x, counts, group, where="AllGatherV"):
    g = world.member(group, where)
    send = _flat(where, x)
    if send.size != counts[g.rank]:
        raise ValueError(f"For '{where}', this process's input holds {send.size} elements but "
                         f"'output_split_sizes' gives it {counts[g.rank]}.")
    recv = np.empty(sum(counts), send.dtype)
    if g.size == 1:
        recv[...] = send
    _wait(where, g, lambda: g.comm.Iallgatherv(send, _spec(recv, counts)))
    return _result(recv, x.dtype)


def scatter_v(x, counts, op, group, where="ReduceScatterV"):
    g = world.member(group, where)
    send = _flat(where, x)
    if send.size != sum(counts):
        raise ValueError(f"For '{where}', the input holds {send.size} elements but "
                         f"'input_split_sizes' adds up to {sum(counts)}.")
    recv = np.empty(counts[g.rank], send.dtype)
    if g.size == 1:
        recv[...] = send
    _wait(where, g, lambda: g.comm.Ireduce_scatter(send, recv, list(counts),
                                                   collectives._mpi_op(op)))
    return _result(recv, x.dtype)


def all_to_all_v(x, send_counts, recv_counts, group, where="AlltoAllV"):
    g = world.member(group, where)
    send = _flat(where, x)
    if send.size != sum(send_counts):
        raise ValueError(f"For '{where}', the input holds {send.size} elements but the send "
                         f"counts add up to {sum(send_counts)}.")
    recv = np.empty(sum(recv_counts), send.dtype)
    if g.size == 1:
        recv[...] = send
    _wait(where, g, lambda: g.comm.Ialltoallv(_spec(send, send_counts),
                                              _spec(recv, recv_counts)))
    return _result(recv, x.dtype)


def _gather_v_fwd(x, *, counts, group):
    return gather_v(x, counts, group), (counts, group)


def _gather_v_bwd(ctx, dout):
    counts, group = ctx.saved
    return scatter_v(dout.reshape(-1), counts, "sum", group, "AllGatherV")


def _scatter_v_fwd(x, *, counts, op, group):
    return scatter_v(x, counts, op, group), (counts, op, group)


def _scatter_v_bwd(ctx, dout):
    counts, op, group = ctx.saved
    if op != "sum":
        raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
    return gather_v(dout.reshape(-1), counts, group, "ReduceScatterV")


def _all_to_all_v_fwd(x, *, send, recv, group):
    return all_to_all_v(x, send, recv, group), (send, recv, group)


def _all_to_all_v_bwd(ctx, dout):
    send, recv, group = ctx.saved
    return all_to_all_v(dout.reshape(-1), recv, send, group)


GATHER_V = Op("AllGatherV", _gather_v_fwd, _gather_v_bwd, PROMOTE_NONE, first_order_only=True)
SCATTER_V = Op("ReduceScatterV", _scatter_v_fwd, _scatter_v_bwd, PROMOTE_NONE,
               first_order_only=True)
ALL_TO_ALL_V = Op("AlltoAllV", _all_to_all_v_fwd, _all_to_all_v_bwd, PROMOTE_NONE,
                  first_order_only=True)
OPS = (GATHER_V, SCATTER_V, ALL_TO_ALL_V)


def _member(where, group):
    world.check_started(where)
    return world.member(group, where)


def _block_size(where, block_size):
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise TypeError(f"For '{where}', 'block_size' must be a positive int, but got "
                        f"{block_size!r}.")
    return block_size


class AllGatherV(Primitive):
    """Mirrors `mindspore.ops.AllGatherV`: the group's flat inputs, of
    `output_split_sizes[r]` elements each, concatenated in rank order."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("AllGatherV")
        self.group = check_group("AllGatherV", group)

    def __call__(self, input_x, output_split_sizes):
        check_tensor("AllGatherV", "input_x", input_x)
        g = _member("AllGatherV", self.group)
        counts = _counts("AllGatherV", "output_split_sizes", output_split_sizes, g.size)
        return apply(GATHER_V, (input_x,), {"counts": counts, "group": self.group})


class ReduceScatterV(Primitive):
    """Mirrors `mindspore.ops.ReduceScatterV`: `op` of the group's flat inputs, process r
    keeping its `input_split_sizes[r]` elements (PROD is not supported, as MindSpore)."""

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__("ReduceScatterV")
        self.op = check_op("ReduceScatterV", op)
        if op == "prod":
            raise ValueError("For 'ReduceScatterV', 'op' PROD is not supported: use sum, min "
                             "or max.")
        self.group = check_group("ReduceScatterV", group)

    def __call__(self, input_x, input_split_sizes):
        check_tensor("ReduceScatterV", "input_x", input_x)
        g = _member("ReduceScatterV", self.group)
        counts = _counts("ReduceScatterV", "input_split_sizes", input_split_sizes, g.size)
        return apply(SCATTER_V, (input_x,), {"counts": counts, "op": self.op,
                                             "group": self.group})


class AlltoAllV(Primitive):
    """Mirrors `mindspore.ops.AlltoAllV`: `send_numel_list[q]` blocks of `block_size` elements
    of the flat input to process q; the blocks received, `recv_numel_list[r]` from process r,
    concatenated."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP, block_size=1):
        super().__init__("AlltoAllV")
        self.group = check_group("AlltoAllV", group)
        self.block_size = _block_size("AlltoAllV", block_size)

    def __call__(self, input_x, send_numel_list, recv_numel_list):
        check_tensor("AlltoAllV", "input_x", input_x)
        g = _member("AlltoAllV", self.group)
        send = _counts("AlltoAllV", "send_numel_list", send_numel_list, g.size)
        recv = _counts("AlltoAllV", "recv_numel_list", recv_numel_list, g.size)
        b = self.block_size
        return apply(ALL_TO_ALL_V, (input_x,), {"send": tuple(c * b for c in send),
                                                "recv": tuple(c * b for c in recv),
                                                "group": self.group})


class AlltoAllVC(Primitive):
    """Mirrors `mindspore.ops.AlltoAllVC`: `send_count_matrix[i * size + j]` blocks go from
    process i to process j (`transpose`: from j to i, the reverse exchange)."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP, block_size=1, transpose=False):
        super().__init__("AlltoAllVC")
        self.group = check_group("AlltoAllVC", group)
        self.block_size = _block_size("AlltoAllVC", block_size)
        if not isinstance(transpose, bool):
            raise TypeError(f"For 'AlltoAllVC', 'transpose' must be a bool, but got "
                            f"{type(transpose).__name__}.")
        self.transpose = transpose

    def __call__(self, input_x, send_count_matrix):
        check_tensor("AlltoAllVC", "input_x", input_x)
        g = _member("AlltoAllVC", self.group)
        flat = _counts("AlltoAllVC", "send_count_matrix", send_count_matrix, g.size * g.size)
        matrix = np.asarray(flat, np.int64).reshape(g.size, g.size) * self.block_size
        if self.transpose:
            matrix = matrix.T
        return apply(ALL_TO_ALL_V, (input_x,), {"send": tuple(matrix[g.rank].tolist()),
                                                "recv": tuple(matrix[:, g.rank].tolist()),
                                                "group": self.group})
