"""`mint.distributed`'s root and personalised exchanges: mirrors `scatter`, `gather`,
`all_to_all`, `all_to_all_single`, `all_gather_into_tensor_uneven`,
`reduce_scatter_tensor_uneven` (and `ops.scatter_tensor`, `ops.gather_into_tensor`,
`ops.all_to_all_v_c`), each one MPI call (`Iscatter`, `Igather`, `Ialltoallv`,
`Iallgatherv`, `Ireduce_scatter`) writing into the caller's Tensors.

These write values only: no gradient flows through them (the write is not on the tape).
"""

from __future__ import annotations

import numpy as np

from cellgrad_distributed import collectives
from cellgrad_distributed.dist_collectives import (
    check_dtype,
    check_op,
    check_per_rank,
    check_rank_arg,
    check_shape,
    check_tensor,
    check_tensors,
    group_rank,
    member,
    run,
    write,
)

__all__ = ["all_gather_into_tensor_uneven", "all_to_all", "all_to_all_single", "all_to_all_v_c",
           "gather", "gather_into_tensor", "reduce_scatter_tensor_uneven", "scatter",
           "scatter_tensor"]


def _displs(counts):
    return [int(v) for v in np.concatenate([[0], np.cumsum(counts)[:-1]])]


def _spec(buf, counts):
    """mpi4py's vector buffer: the array, (counts, displacements) in elements."""
    counts = [int(c) for c in counts]
    return [buf, (counts, _displs(counts))]


def _start(where, g, pending, call):
    if g.size > 1:
        collectives._run(call, where, g, pending)


def _rows(where, t, splits, g, name):
    """Element counts per process for splits of `t` along axis 0 (equal when `splits` is
    empty or None)."""
    if not splits:
        if t.ndim == 0 or t.shape[0] % g.size:
            raise ValueError(f"For {where}, {name} shape at dim 0 must be divided by world_size, "
                             f"but got {t.shape[0] if t.ndim else 0} and {g.size}.")
        splits = [t.shape[0] // g.size] * g.size
    splits = list(splits)
    if len(splits) != g.size or sum(splits) != t.shape[0]:
        raise ValueError(f"For {where}, the split sizes of {name} {splits} must be "
                         f"{g.size} sizes adding up to its first dimension {t.shape[0]}.")
    row = int(np.prod(t.shape[1:], dtype=np.int64))
    return [s * row for s in splits]


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.scatter`: `tensor` of process r becomes
    `scatter_list[r]` of the process whose world rank is `src`."""
    where = "scatter"
    check_tensors(where, scatter_list, "scatter_list")
    check_tensor(where, tensor, "output tensor")
    check_rank_arg(where, "src", src)
    g = member(where, group, async_op)
    root = group_rank(where, g, src, "src")
    send = None
    if g.rank == root:
        check_per_rank(where, scatter_list, g, tensor, "scatter_list")
        send = collectives._wire(np.stack([t._data for t in scatter_list]), where)

    def start(pending):
        if g.size == 1:
            return lambda: write(tensor, send[0])
        recv = np.empty(tensor.shape, collectives._wire(tensor._data[:0], where).dtype)
        _start(where, g, pending, lambda: g.comm.Iscatter(send, recv, root=root))
        return lambda: write(tensor, recv)

    return _now_or_later(where, g, async_op, start)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.gather`: on the process whose world rank is `dst`,
    `gather_list[r]` becomes process r's `tensor`."""
    where = "gather"
    check_tensor(where, tensor)
    check_tensors(where, gather_list, "gather_list")
    check_rank_arg(where, "dst", dst)
    g = member(where, group, async_op)
    root = group_rank(where, g, dst, "dst")
    if g.rank == root:
        check_per_rank(where, gather_list, g, tensor, "gather_list")
    send = collectives._wire(tensor._data, where)

    def start(pending):
        recv = np.empty((g.size,) + send.shape, send.dtype) if g.rank == root else None
        if g.size == 1:
            recv[0] = send
        _start(where, g, pending, lambda: g.comm.Igather(send, recv, root=root))

        def finish():
            if recv is not None:
                for i, t in enumerate(gather_list):
                    write(t, recv[i])
        return finish

    return _now_or_later(where, g, async_op, start)


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """Mirrors `mindspore.ops.scatter_tensor`: `output_tensor` of process r becomes block r
    (along axis 0) of `input_tensor` on the process whose world rank is `src`."""
    where = "scatter_tensor"
    check_tensor(where, input_tensor)
    check_tensor(where, output_tensor, "output tensor")
    check_rank_arg(where, "src", src)
    g = member(where, group, async_op)
    root = group_rank(where, g, src, "src")
    send = None
    if g.rank == root:
        _rows(where, input_tensor, None, g, "input")
        check_shape(where, output_tensor, (input_tensor.shape[0] // g.size,)
                    + tuple(input_tensor.shape[1:]), "output tensor")
        send = collectives._wire(input_tensor._data, where)

    def start(pending):
        if g.size == 1:
            return lambda: write(output_tensor, send)
        recv = np.empty(output_tensor.shape,
                        collectives._wire(output_tensor._data[:0], where).dtype)
        _start(where, g, pending, lambda: g.comm.Iscatter(send, recv, root=root))
        return lambda: write(output_tensor, recv)

    return _now_or_later(where, g, async_op, start)


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """Mirrors `mindspore.ops.gather_into_tensor`: on the process whose world rank is `dst`,
    `output_tensor` becomes the group's `input_tensor`s concatenated along axis 0."""
    where = "gather_into_tensor"
    check_tensor(where, input_tensor)
    check_tensor(where, output_tensor, "output tensor")
    check_rank_arg(where, "dst", dst)
    g = member(where, group, async_op)
    root = group_rank(where, g, dst, "dst")
    send = collectives._wire(input_tensor._data, where)
    if g.rank == root:
        check_shape(where, output_tensor, (g.size * send.shape[0],) + send.shape[1:]
                    if send.ndim else (g.size,), "output tensor")

    def start(pending):
        recv = np.empty((g.size,) + send.shape, send.dtype) if g.rank == root else None
        if g.size == 1:
            recv[0] = send
        _start(where, g, pending, lambda: g.comm.Igather(send, recv, root=root))
        return lambda: recv is not None and write(output_tensor, recv)

    return _now_or_later(where, g, async_op, start)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,
                                  async_op=False):
    """Mirrors `mindspore.mint.distributed.all_gather_into_tensor_uneven`: `output` becomes
    the group's `input`s, of `output_split_sizes[r]` rows each, concatenated along axis 0."""
    where = "all_gather_into_tensor_uneven"
    check_tensor(where, input)
    check_tensor(where, output, "output tensor")
    g = member(where, group, async_op)
    counts = _rows(where, output, output_split_sizes, g, "output")
    send = collectives._wire(input._data, where).reshape(-1)
    if send.size != counts[g.rank]:
        raise ValueError(f"For {where}, this process's input {tuple(input.shape)} must hold "
                         f"{counts[g.rank]} elements (its split of the output), but holds "
                         f"{send.size}.")

    def start(pending):
        recv = np.empty(sum(counts), send.dtype)
        if g.size == 1:
            recv[...] = send
        _start(where, g, pending, lambda: g.comm.Iallgatherv(send, _spec(recv, counts)))
        return lambda: write(output, recv)

    return _now_or_later(where, g, async_op, start)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum", group=None,
                                 async_op=False):
    """Mirrors `mindspore.mint.distributed.reduce_scatter_tensor_uneven`: `op` of the group's
    `input`, split along axis 0 in `input_split_sizes` rows; `output` becomes this process's
    split."""
    where = "reduce_scatter_tensor_uneven"
    check_op(where, op, ("sum", "min", "max", "avg"))
    check_tensor(where, input)
    check_tensor(where, output, "output tensor")
    g = member(where, group, async_op)
    counts = _rows(where, input, input_split_sizes, g, "input")
    if output.size != counts[g.rank]:
        raise ValueError(f"For {where}, the output {tuple(output.shape)} must hold "
                         f"{counts[g.rank]} elements (this process's split), but holds "
                         f"{output.size}.")
    send = collectives._wire(input._data, where).reshape(-1)
    if op == "avg" and send.dtype.kind != "f":
        raise TypeError(f"For {where}, 'avg' needs a floating Tensor, but got {send.dtype}.")

    def start(pending):
        recv = np.empty(counts[g.rank], send.dtype)
        if g.size == 1:
            recv[...] = send
        mpi_op = collectives._mpi_op("sum" if op == "avg" else op) if g.size > 1 else None
        _start(where, g, pending, lambda: g.comm.Ireduce_scatter(send, recv, counts, mpi_op))
        return lambda: write(output, recv / g.size if op == "avg" else recv)

    return _now_or_later(where, g, async_op, start)


def _alltoallv(where, g, pending, send, send_counts, recv_counts, dtype):
    recv = np.empty(sum(recv_counts), dtype)
    if g.size == 1:
        recv[...] = send
    _start(where, g, pending, lambda: g.comm.Ialltoallv(_spec(send, send_counts),
                                                        _spec(recv, recv_counts)))
    return recv


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Mirrors `mindspore.mint.distributed.all_to_all`: process r's `input_tensor_list[q]`
    becomes process q's `output_tensor_list[r]`."""
    where = "all_to_all"
    g = member(where, group, async_op)
    check_tensors(where, input_tensor_list, "input_tensor_list")
    check_tensors(where, output_tensor_list, "output_tensor_list")
    for name, tensors in (("input_tensor_list", input_tensor_list),
                          ("output_tensor_list", output_tensor_list)):
        if len(tensors) != g.size:
            raise ValueError(f"For {where}, '{name}' must hold one Tensor per process of the "
                             f"group ({g.size}), but holds {len(tensors)}.")
        for t in tensors:
            check_dtype(where, t, input_tensor_list[0].dtype, f"tensors of '{name}'")
    send = collectives._wire(np.concatenate([t._data.reshape(-1) for t in input_tensor_list]),
                             where)

    def start(pending):
        counts = [t.size for t in output_tensor_list]
        recv = _alltoallv(where, g, pending, send, [t.size for t in input_tensor_list], counts,
                          send.dtype)

        def finish():
            for t, part in zip(output_tensor_list, np.split(recv, np.cumsum(counts)[:-1])):
                write(t, part)
        return finish

    return _now_or_later(where, g, async_op, start)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,
                      async_op=False):
    """Mirrors `mindspore.mint.distributed.all_to_all_single`: `input` split along axis 0
    (`input_split_sizes` rows, equal when None), split q to process q; `output` becomes the
    splits received, in rank order."""
    where = "all_to_all_single"
    check_tensor(where, input)
    check_tensor(where, output, "output tensor")
    g = member(where, group, async_op)
    check_dtype(where, output, input.dtype, "output tensor")
    send_counts = _rows(where, input, input_split_sizes, g, "input")
    recv_counts = _rows(where, output, output_split_sizes, g, "output")
    send = collectives._wire(input._data, where).reshape(-1)

    def start(pending):
        recv = _alltoallv(where, g, pending, send, send_counts, recv_counts, send.dtype)
        return lambda: write(output, recv)

    return _now_or_later(where, g, async_op, start)


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):
    """Mirrors `mindspore.ops.all_to_all_v_c`: `send_count_matrix` (flattened, size x size)
    says how many elements process i sends process j; `output` (flat) receives them in rank
    order."""
    where = "all_to_all_v_c"
    check_tensor(where, input)
    check_tensor(where, output, "output tensor")
    g = member(where, group, async_op)
    matrix = np.asarray(list(send_count_matrix), np.int64).reshape(g.size, g.size)
    send = collectives._wire(input._data, where).reshape(-1)
    send_counts, recv_counts = matrix[g.rank].tolist(), matrix[:, g.rank].tolist()
    if sum(send_counts) != send.size or sum(recv_counts) != output.size:
        raise ValueError(f"For {where}, 'send_count_matrix' says this process sends "
                         f"{sum(send_counts)} and receives {sum(recv_counts)} elements, but the "
                         f"input holds {send.size} and the output {output.size}.")

    def start(pending):
        recv = _alltoallv(where, g, pending, send, send_counts, recv_counts, send.dtype)
        return lambda: write(output, recv)

    return _now_or_later(where, g, async_op, start)


def _now_or_later(where, g, async_op, start):
    def now():
        pending = []
        finish = start(pending)
        from cellgrad_distributed import watchdog

        watchdog.wait(pending, where, g)
        finish()

    return run(where, g, async_op, now, start)
