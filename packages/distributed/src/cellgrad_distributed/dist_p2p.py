"""`mint.distributed`'s point-to-point messages: mirrors `send`, `recv`, `isend`, `irecv`,
`P2POp` and `batch_isend_irecv`, on MPI's `Isend`/`Irecv` (ranks are world ranks, `tag` the
MPI tag). A received message is written into the caller's Tensor (not on the tape)."""

from __future__ import annotations

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad_distributed import collectives, watchdog
from cellgrad_distributed.comm_func import CommHandle
from cellgrad_distributed.dist_collectives import check_rank_arg, group_rank, member, write
from cellgrad_distributed.dist_groups import group_name

__all__ = ["P2POp", "batch_isend_irecv", "irecv", "isend", "recv", "send"]


def _check(where, tensor, rank, name, group):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {where}, the input tensor must be tensor")
    check_rank_arg(where, name, rank)
    group_name(group)


def _peer(where, g, rank, name, sending):
    if sending and rank == g.world_ranks[g.rank]:
        raise ValueError("Invalid destination rank: destination rank should not be the same as "
                         "the rank of the current process.")
    if g.size == 1:
        raise ValueError(f"For {where}, the group '{g.name}' holds one process: there is no other "
                         f"to exchange messages with (start several with mpirun).")
    return group_rank(where, g, rank, name)


def _post_send(where, tensor, dst, group, tag, pending):
    g = member(where, group)
    peer = _peer(where, g, dst, "dst", True)
    buf = collectives._wire(tensor._data, where)
    collectives._run(lambda: g.comm.Isend(buf, dest=peer, tag=tag), where, g, pending)
    return g, lambda: None


def _post_recv(where, tensor, src, group, tag, pending):
    g = member(where, group)
    peer = _peer(where, g, src, "src", False)
    buf = np.empty(tensor.shape, collectives._wire(tensor._data[:0], where).dtype)
    collectives._run(lambda: g.comm.Irecv(buf, source=peer, tag=tag), where, g, pending)
    return g, lambda: write(tensor, buf)


def _blocking(where, post, tensor, rank, group, tag):
    pending = []
    g, finish = post(where, tensor, rank, group, tag, pending)
    watchdog.wait(pending, where, g)
    finish()


def send(tensor, dst=0, group=None, tag=0):
    """Mirrors `mindspore.mint.distributed.send`: send `tensor` to world rank `dst`."""
    _check("send", tensor, dst, "dst", group)
    _blocking("send", _post_send, tensor, dst, group, tag)


def recv(tensor, src=0, group=None, tag=0):
    """Mirrors `mindspore.mint.distributed.recv`: `tensor` becomes the message of world rank
    `src`; returns 0."""
    _check("recv", tensor, src, "src", group)
    _blocking("recv", _post_recv, tensor, src, group, tag)
    return 0


def isend(tensor, dst=0, group=None, tag=0):
    """Mirrors `mindspore.mint.distributed.isend`: a `CommHandle`; `wait()` until sent."""
    _check("isend", tensor, dst, "dst", group)
    pending = []
    g, finish = _post_send("isend", tensor, dst, group, tag, pending)
    return CommHandle((pending, g, "isend", finish))


def irecv(tensor, src=0, group=None, tag=0):
    """Mirrors `mindspore.mint.distributed.irecv`: a `CommHandle`; after `wait()` `tensor` holds
    the message of world rank `src`."""
    _check("irecv", tensor, src, "src", group)
    pending = []
    g, finish = _post_recv("irecv", tensor, src, group, tag, pending)
    return CommHandle((pending, g, "irecv", finish))


class P2POp:
    """Mirrors `mindspore.mint.distributed.P2POp`: one send or receive of
    `batch_isend_irecv`."""

    def __new__(cls, op, tensor, peer, group=None, tag=0):
        if isinstance(op, str):
            if op not in ("isend", "irecv"):
                raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        elif op not in (isend, irecv):
            raise TypeError(f"Expected op to be of type isend or irecv, but got {op}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"Expected tensor to be Tensor, but got {type(tensor)}.")
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError("For P2POp, the peer must be int")
        if tag != 0:
            raise NotImplementedError("tag is not support yet.")
        return object.__new__(cls)

    def __init__(self, op, tensor, peer, group=None, tag=0):
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag


def batch_isend_irecv(p2p_op_list):
    """Mirrors `mindspore.mint.distributed.batch_isend_irecv`: start every send and receive of
    the list at once; a list of one `CommHandle` for them all."""
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("The elements in p2p_op_list must be type of P2POp.")
    group = p2p_op_list[0].group
    if any(p.group != group for p in p2p_op_list):
        raise TypeError("The group name in p2p_op_list must be consistent.")
    pending, finishes, g = [], [], None
    for p in p2p_op_list:
        name = p.op if isinstance(p.op, str) else p.op.__name__
        post = _post_send if name == "isend" else _post_recv
        g, finish = post("batch_isend_irecv", p.tensor, p.peer, group, p.tag, pending)
        finishes.append(finish)

    def finish_all():
        for finish in finishes:
            finish()

    return [CommHandle((pending, g, "batch_isend_irecv", finish_all))]
