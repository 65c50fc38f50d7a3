"""`mint.distributed`'s Python-object collectives: mirrors `all_gather_object`,
`broadcast_object_list`, `gather_object`, `scatter_object_list`, `send_object_list` and
`recv_object_list`. Objects travel pickled, as int8 Tensors, through the Tensor collectives,
with their sizes sent first (MindSpore's scheme). Unpickling runs code the sender chose: use
them only between processes of one job.
"""

from __future__ import annotations

import pickle

import numpy as np

from cellgrad import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad_distributed import dist_collectives as C
from cellgrad_distributed import dist_exchange as X
from cellgrad_distributed import dist_p2p as P
from cellgrad_distributed.dist_groups import get_rank, group_name

__all__ = ["all_gather_object", "broadcast_object_list", "gather_object", "recv_object_list",
           "scatter_object_list", "send_object_list"]


def _to_bytes(obj, size=0):
    buf = np.frombuffer(pickle.dumps(obj), np.int8)
    return np.resize(buf, size) if size > buf.size else buf, buf.size


def _from_bytes(array, size):
    return pickle.loads(np.asarray(array, np.int8).tobytes()[:int(size)])


def _sizes(n):
    return Tensor(np.zeros(n, np.int32), mstype.int32)


def _check_group(where, group):
    if group is None:
        return None
    if not isinstance(group, str):
        raise TypeError(f"For '{where}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    return group


def _size(group):
    return C.member("object collectives", group).size


def _padded(obj, n, group):
    """Every process's pickled size (all-gathered), `n` receive buffers of the longest and
    this process's bytes padded to it: objects of different sizes then travel as one shape."""
    _, size = _to_bytes(obj)
    sizes = [_sizes(1) for _ in range(n)]
    C.all_gather(sizes, Tensor(np.array([size], np.int32)), group)
    longest = max(int(s.asnumpy()[0]) for s in sizes)
    parts = [Tensor(np.zeros(longest, np.int8)) for _ in range(n)]
    return sizes, parts, Tensor(_to_bytes(obj, longest)[0])


def all_gather_object(object_list, obj, group=None):
    """Mirrors `mindspore.mint.distributed.all_gather_object`: `object_list[r]` becomes
    process r's `obj`."""
    _check_group("all_gather_object", group)
    n = _size(group)
    if not isinstance(object_list, list) or len(object_list) != n:
        got = len(object_list) if isinstance(object_list, list) else object_list
        raise TypeError(f"The len of argument object_list must be equal to group rank size, but "
                        f"got {got}.")
    sizes, parts, payload = _padded(obj, n, group)
    C.all_gather(parts, payload, group)
    for i in range(n):
        object_list[i] = _from_bytes(parts[i].asnumpy(), sizes[i].asnumpy()[0])


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """Mirrors `mindspore.mint.distributed.broadcast_object_list`: the objects of
    `object_list` on world rank `src` replace those of the list on every process."""
    _check_group("broadcast_object_list", group)
    C.check_rank_arg("broadcast_object_list", "src", src)
    if not isinstance(object_list, list) or not object_list:
        raise TypeError("The object_list can not be empty.")
    me = get_rank()
    sizes = _sizes(len(object_list))
    if me == src:
        pieces = [_to_bytes(obj) for obj in object_list]
        sizes = Tensor(np.array([s for _, s in pieces], np.int32))
        data = Tensor(np.concatenate([b for b, _ in pieces]))
    C.broadcast(sizes, src, group)
    counts = sizes.asnumpy().astype(np.int64)
    if me != src:
        data = Tensor(np.zeros(int(counts.sum()), np.int8))
    C.broadcast(data, src, group)
    if me != src:
        raw = data.asnumpy()
        for i, part in enumerate(np.split(raw, np.cumsum(counts)[:-1])):
            object_list[i] = _from_bytes(part, counts[i])


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """Mirrors `mindspore.mint.distributed.gather_object`: on world rank `dst`,
    `object_gather_list[r]` becomes process r's `obj`."""
    _check_group("gather_object", group)
    C.check_rank_arg("gather_object", "dst", dst)
    n = _size(group)
    me = get_rank()
    if me == dst and (not isinstance(object_gather_list, list) or len(object_gather_list) != n):
        raise TypeError(f"The len of object_gather_list must be equal to group rank size, but "
                        f"got {len(object_gather_list or ())}.")
    sizes, parts, payload = _padded(obj, n, group)
    X.gather(payload, parts, dst, group)
    if me == dst:
        for i in range(n):
            object_gather_list[i] = _from_bytes(parts[i].asnumpy(), sizes[i].asnumpy()[0])


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None):
    """Mirrors `mindspore.mint.distributed.scatter_object_list`:
    `scatter_object_output_list[0]` of process r becomes `scatter_object_input_list[r]` of
    world rank `src`."""
    _check_group("scatter_object_list", group)
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError("The scatter_object_output_list can not be empty.")
    C.check_rank_arg("scatter_object_list", "src", src)
    g = C.member("scatter_object_list", group)
    me = get_rank()
    sizes = _sizes(g.size)
    parts = []
    if me == src:
        if not isinstance(scatter_object_input_list, list) or \
                len(scatter_object_input_list) != g.size:
            raise TypeError(f"The len of scatter_object_input_list must be equal to group rank "
                            f"size, but got {len(scatter_object_input_list or ())}.")
        sizes = Tensor(np.array([_to_bytes(o)[1] for o in scatter_object_input_list], np.int32))
    C.broadcast(sizes, src, group)
    counts = sizes.asnumpy()
    longest = int(counts.max())
    if me == src:
        parts = [Tensor(_to_bytes(o, longest)[0]) for o in scatter_object_input_list]
    out = Tensor(np.zeros(longest, np.int8))
    X.scatter(out, parts, src, group)
    scatter_object_output_list[0] = _from_bytes(out.asnumpy(), counts[g.rank])


def send_object_list(object_list, dst, group=None, device=None):
    """Mirrors `mindspore.mint.distributed.send_object_list`: send the objects of
    `object_list` to world rank `dst`."""
    if isinstance(dst, bool) or not isinstance(dst, int):
        raise TypeError("For send_object_list, the dst must be int")
    group_name(group)
    if not isinstance(object_list, list):
        raise TypeError("For send_object_list, the object_list must be a list")
    pieces = [_to_bytes(obj) for obj in object_list]
    P.send(Tensor(np.array([s for _, s in pieces], np.int32)), dst, group)
    P.send(Tensor(np.concatenate([b for b, _ in pieces])), dst, group)


def recv_object_list(object_list, src=0, group=None, device=None):
    """Mirrors `mindspore.mint.distributed.recv_object_list`: the objects world rank `src`
    sent replace those of `object_list` (of the same length); returns 0."""
    if isinstance(src, bool) or not isinstance(src, int):
        raise TypeError("For recv_object_list, the src must be int")
    group_name(group)
    if not isinstance(object_list, list):
        raise TypeError("For recv_object_list, the object_list must be a list")
    sizes = _sizes(len(object_list))
    P.recv(sizes, src, group)
    counts = sizes.asnumpy().astype(np.int64)
    data = Tensor(np.zeros(int(counts.sum()), np.int8))
    P.recv(data, src, group)
    for i, part in enumerate(np.split(data.asnumpy(), np.cumsum(counts)[:-1])):
        object_list[i] = _from_bytes(part, counts[i])
    return 0
