"""`ops.NeighborExchangeV2`: mirrors MindSpore's halo exchange of NCHW Tensors between the
eight neighbours of a process grid, and its backward (each halo's gradient goes back to the
process that sent it and is added where that process took the halo from).

Directions are MindSpore's, clockwise from the top: 0 top, 1 top-right, 2 right,
3 bottom-right, 4 bottom, 5 bottom-left, 6 left, 7 top-left; lens are [top, bottom, left,
right] rows or columns. What a process sends towards direction d its neighbour receives from
direction d + 4 (mod 8); the MPI tag is the sender's direction, so two messages between the
same pair of processes cannot be confused.
"""

from __future__ import annotations

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_distributed import collectives, watchdog, world
from cellgrad_distributed.primitives import check_group, check_tensor
from cellgrad_distributed.world import HCCL_WORLD_COMM_GROUP

__all__ = ["NeighborExchangeV2"]

_TAG = 7000  # + direction

# direction -> (rows, columns): which of top/middle/bottom rows and left/middle/right columns
_PLACES = (("top", "mid"), ("top", "right"), ("mid", "right"), ("bottom", "right"),
           ("bottom", "mid"), ("bottom", "left"), ("mid", "left"), ("top", "left"))


def _span(part, size, lens, low, high):
    """The slice of one axis of a region: the first/last `lens` of `size`, or all of it."""
    if part in ("top", "left"):
        return slice(0, lens[low])
    if part in ("bottom", "right"):
        return slice(size - lens[high], size)
    return slice(0, size)


def send_region(d, h, w, lens):
    rows, cols = _PLACES[d]
    return (Ellipsis, _span(rows, h, lens, 0, 1), _span(cols, w, lens, 2, 3))


def recv_region(d, h, w, lens):
    """Where the halo from direction `d` goes in the output (input at its centre)."""
    top, bottom, left, right = lens
    rows, cols = _PLACES[d]
    r = {"top": slice(0, top), "mid": slice(top, top + h),
         "bottom": slice(top + h, top + h + bottom)}[rows]
    c = {"left": slice(0, left), "mid": slice(left, left + w),
         "right": slice(left + w, left + w + right)}[cols]
    return (Ellipsis, r, c)


def _exchange(where, g, sends, receives):
    """`sends`: (direction, peer, array); `receives`: (direction, peer, empty array) filled."""
    if g.comm is None:  # a group of one: each halo is the process's own opposite border
        mine = {d: arr for d, _, arr in sends}
        for d, _, buf in receives:
            buf[...] = mine[(d + 4) % 8]
        return
    pending = []
    for d, peer, buf in receives:
        tag = _TAG + (d + 4) % 8
        collectives._run(lambda b=buf, p=peer, t=tag: g.comm.Irecv(b, source=p, tag=t), where,
                         g, pending)
    outgoing = []
    for d, peer, arr in sends:
        buf = np.ascontiguousarray(arr)
        outgoing.append(buf)
        collectives._run(lambda b=buf, p=peer, t=_TAG + d: g.comm.Isend(b, dest=p, tag=t),
                         where, g, pending)
    watchdog.wait(pending, where, g)


def _fwd(x, *, send_ids, recv_ids, send_lens, recv_lens, group):
    g = world.member(group, "NeighborExchangeV2")
    wire = collectives._wire(x, "NeighborExchangeV2")
    n, c, h, w = x.shape
    top, bottom, left, right = recv_lens
    out = np.zeros((n, c, h + top + bottom, w + left + right), wire.dtype)
    out[..., top:top + h, left:left + w] = wire
    sends = [(d, p, wire[send_region(d, h, w, send_lens)]) for d, p in enumerate(send_ids)
             if p >= 0]
    receives = [(d, p, np.empty(out[recv_region(d, h, w, recv_lens)].shape, wire.dtype))
                for d, p in enumerate(recv_ids) if p >= 0]
    _exchange("NeighborExchangeV2", g, sends, receives)
    for d, _, buf in receives:
        out[recv_region(d, h, w, recv_lens)] = buf
    return out.astype(x.dtype, copy=False), (x.shape, x.dtype, send_ids, recv_ids, send_lens,
                                             recv_lens, group)


def _bwd(ctx, dout):
    shape, dtype, send_ids, recv_ids, send_lens, recv_lens, group = ctx.saved
    g = world.member(group, "NeighborExchangeV2")
    _, _, h, w = shape
    top, _, left, _ = recv_lens
    grad = collectives._wire(dout, "NeighborExchangeV2")
    dx = grad[..., top:top + h, left:left + w].copy()
    # the reverse exchange: halo gradients back towards where they came from
    sends = [((d + 4) % 8, p, grad[recv_region(d, h, w, recv_lens)])
             for d, p in enumerate(recv_ids) if p >= 0]
    receives = [((d + 4) % 8, p, np.empty(dx[send_region(d, h, w, send_lens)].shape, dx.dtype))
                for d, p in enumerate(send_ids) if p >= 0]
    _exchange("NeighborExchangeV2", g, sends, receives)
    for d, _, buf in receives:
        dx[send_region((d + 4) % 8, h, w, send_lens)] += buf
    return dx.astype(dtype, copy=False)


NEIGHBOR_EXCHANGE_V2 = Op("NeighborExchangeV2", _fwd, _bwd, PROMOTE_NONE, first_order_only=True)
OPS = (NEIGHBOR_EXCHANGE_V2,)


class NeighborExchangeV2(Primitive):
    """Mirrors `mindspore.ops.NeighborExchangeV2`: `input_x` (NCHW) padded with the halos
    received from `recv_rank_ids` (eight directions, -1 for none), after sending its border
    regions to `send_rank_ids`."""

    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format,
                 group=HCCL_WORLD_COMM_GROUP):
        super().__init__("NeighborExchangeV2")
        where = "NeighborExchangeV2"
        self.group = check_group(where, group)
        for name, value, length in (("send_rank_ids", send_rank_ids, 8),
                                    ("recv_rank_ids", recv_rank_ids, 8),
                                    ("send_lens", send_lens, 4), ("recv_lens", recv_lens, 4)):
            if not isinstance(value, list):
                raise TypeError(f"For '{where}', '{name}' must be a list, but got "
                                f"{type(value).__name__}.")
            if len(value) != length or any(isinstance(v, bool) or not isinstance(v, int)
                                           for v in value):
                raise ValueError(f"For '{where}', '{name}' must hold {length} ints, but got "
                                 f"{value}.")
        for name, ids in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids)):
            real = [r for r in ids if r != -1]
            if any(r < -1 for r in ids) or len(set(real)) != len(real):
                raise ValueError(f"For '{where}', '{name}' can not have values less than -1 or "
                                 f"repeated ranks, but got {ids}.")
        for name, lens in (("send_lens", send_lens), ("recv_lens", recv_lens)):
            if any(v < 0 for v in lens):
                raise ValueError(f"For '{where}', '{name}' can not have values less than 0, but "
                                 f"got {lens}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{where}', 'data_format' only supports 'NCHW', but got "
                             f"{data_format!r}.")
        self.send_rank_ids, self.recv_rank_ids = send_rank_ids, recv_rank_ids
        self.send_lens, self.recv_lens = send_lens, recv_lens
        self.data_format = data_format

    def __call__(self, input_x):
        where = "NeighborExchangeV2"
        check_tensor(where, "input_x", input_x)
        if input_x.ndim != 4:
            raise ValueError(f"For '{where}', 'input_x' must be NCHW (4-D), but got the shape "
                             f"{tuple(input_x.shape)}.")
        world.check_started(where)
        g = world.member(self.group, where)
        for ids in (self.send_rank_ids, self.recv_rank_ids):
            if any(r >= g.size for r in ids):
                raise ValueError(f"For '{where}', the ranks {ids} must be below the group "
                                 f"size {g.size}.")
        _, _, h, w = input_x.shape
        top, bottom, left, right = self.send_lens
        if top + bottom > h or left + right > w:
            raise ValueError(f"For '{where}', 'send_lens' {self.send_lens} do not fit the input's "
                             f"{h} rows and {w} columns.")
        return apply(NEIGHBOR_EXCHANGE_V2, (input_x,), {
            "send_ids": tuple(self.send_rank_ids), "recv_ids": tuple(self.recv_rank_ids),
            "send_lens": tuple(self.send_lens), "recv_lens": tuple(self.recv_lens),
            "group": self.group})
