"""`mint.distributed`'s process groups: mirrors `mindspore.mint.distributed`'s
`init_process_group`, `new_group`, ranks and backends, on `cellgrad.communication`.

The processes meet through the MPI launcher (`mpirun -n 4 python train.py`): `init_method` and
`store` are accepted, but `world_size` and `rank` must be what the launcher says.
"""

from __future__ import annotations

import hashlib
import warnings
from datetime import timedelta

from cellgrad_distributed import management, world
from cellgrad_distributed.dist_store import TCPStore
from cellgrad_distributed.world import GlobalComm, Group

__all__ = ["destroy_process_group", "get_backend", "get_global_rank",
           "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size",
           "init_process_group", "is_available", "is_initialized", "new_group"]

_BACKENDS = ("hccl", "mccl", "mpi")


_NOT_INITED = ("Distributed Communication has not been inited.You can't invoke this interface "
               "yet. Please call `init()` method first.")


def _inited():
    if not GlobalComm.INITED:
        raise RuntimeError(_NOT_INITED)


def group_name(group):
    """`group` as a group name: None is the world."""
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def is_available():
    """Mirrors `mindspore.mint.distributed.is_available`: True when MPI (mpi4py) loads."""
    try:
        world.mpi()
    except ImportError:
        return False
    return True


def is_initialized():
    """Mirrors `mindspore.mint.distributed.is_initialized`."""
    return bool(GlobalComm.INITED)


def _check_types(**values):
    kinds = {"init_method": str, "timeout": timedelta, "world_size": int, "rank": int,
             "store": TCPStore, "group_name": str}
    for name, value in values.items():
        if value is not None and not isinstance(value, kinds[name]):
            raise TypeError(f"The argument '{name}' of 'init_process_group' must be "
                            f"{kinds[name].__name__}, but got {type(value).__name__}.")


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    """Mirrors `mindspore.mint.distributed.init_process_group`: join the job (MPI's world).

    `backend` 'hccl' (MindSpore's default, here meaning cellgrad's CPU backend), 'mccl' or
    'mpi'; `world_size` and `rank` other than -1 must be what the launcher gave (with
    `init_method` or `store` they are required, as MindSpore, and the processes still meet
    through the launcher).
    """
    _check_types(init_method=init_method, timeout=timeout, world_size=world_size, rank=rank,
                 store=store, group_name=group_name)
    if pg_options is not None:
        warnings.warn("pg_options is ignored, setting is invalid", stacklevel=2)
    if device_id is not None:
        warnings.warn("device_id is ignored, setting is invalid", stacklevel=2)
    if backend not in _BACKENDS:
        raise ValueError(f"For 'init_process_group', cellgrad communicates through MPI on the "
                         f"CPU: 'backend' must be 'hccl' (the default), 'mccl' or 'mpi', but got "
                         f"{backend!r}.")
    if init_method is not None and store is not None:
        raise ValueError("Only one of init_method and store is supported.")
    if init_method is not None or store is not None:
        if world_size <= 0:
            raise ValueError("Specified world_size must be a positive integer.")
        if rank < 0:
            raise ValueError("Specified rank must be a non-negative integer.")
    management.init()
    w = world.world()
    if world_size not in (-1, w.size):
        raise ValueError(f"For 'init_process_group', 'world_size' is {world_size}, but the MPI "
                         f"launcher started {w.size} process{'es' if w.size != 1 else ''}: start "
                         f"the job with mpirun -n {world_size}, or use -1 or {w.size}.")
    if rank not in (-1, w.rank):
        raise ValueError(f"For 'init_process_group', 'rank' is {rank}, but the MPI launcher gave "
                         f"this process the rank {w.rank}: use the default -1.")


def destroy_process_group(group=None):
    """Mirrors `mindspore.mint.distributed.destroy_process_group`: the world (None) ends the
    communication (a later `init_process_group()` rejoins); a group name frees that group."""
    if group is None or group in world.WORLD_NAMES:
        management.release()
        return
    if not isinstance(group, str):
        raise TypeError(f"For 'destroy_group', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    management.destroy_group(group)


def get_rank(group=None):
    """Mirrors `mindspore.mint.distributed.get_rank`: -1 (with a warning) outside `group`."""
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For 'get_rank', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    if not GlobalComm.INITED:
        return 0  # MindSpore answers a process before init() so, whatever the group
    try:
        return management.get_rank(group)
    except ValueError as exc:
        warnings.warn(str(exc), stacklevel=2)
        return -1


def get_world_size(group=None):
    """Mirrors `mindspore.mint.distributed.get_world_size`: -1 (with a warning) for an unknown
    group."""
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For 'get_world_size', the argument 'group' must be type of string, "
                        f"but got 'group' type : {type(group)}.")
    if not GlobalComm.INITED:
        return 1
    try:
        return management.get_group_size(group)
    except ValueError as exc:
        warnings.warn(str(exc), stacklevel=2)
        return -1


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None):
    """Mirrors `mindspore.mint.distributed.new_group`: the name of a group of the world ranks
    `ranks` (`<backend>_<n>_<sha1 of the ranks>`, as MindSpore), the world's for None.

    Every process calls it with the same ranks; a group of one rank is allowed (its
    collectives copy). A group made twice is the same group.
    """
    if ranks is None:
        return GlobalComm.WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"ranks must be list, but got {type(ranks)}")
    ranks = sorted(ranks)
    if backend is None:
        backend = "hccl"
    if not isinstance(backend, str) or backend not in ("hccl", "mccl"):
        raise TypeError(f"the input backend must be hccl or mccl, but got {backend}")
    name = (f"{backend}_{len(ranks)}_"
            f"{hashlib.sha1('_'.join(map(str, ranks)).encode('utf-8')).hexdigest()}")
    if name in world._groups:
        return name
    if not GlobalComm.INITED:  # MindSpore: create_group's RuntimeError, a warning and ""
        warnings.warn(_NOT_INITED, stacklevel=2)
        return ""
    if len(ranks) == 1:
        w = world.world()
        management._check_rank("new_group", "ranks", ranks[0], w.size, "the world", ranks)
        world.add(Group(name, tuple(ranks), 0 if ranks[0] == w.rank else -1))
        return name
    management.create_group(name, ranks)
    return name


def get_backend(group=None):
    """Mirrors `mindspore.mint.distributed.get_backend`: MindSpore's answer, from the name."""
    if group is None:
        return "hccl"
    if not isinstance(group, str):
        raise TypeError(f"For 'get_backend', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    for backend in ("hccl", "mccl"):
        if backend in group:
            return backend
    return GlobalComm.BACKEND


def get_global_rank(group, group_rank):
    """Mirrors `mindspore.mint.distributed.get_global_rank`: the world rank of `group_rank`."""
    if not isinstance(group_rank, int):
        raise TypeError(f"The group_rank argument must be integer, but got {type(group_rank)}.")
    if group is None or group in world.WORLD_NAMES:
        return group_rank
    if not isinstance(group, str):
        raise TypeError(f"For 'get_global_rank', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    _inited()
    return management.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank):
    """Mirrors `mindspore.mint.distributed.get_group_rank`: the rank in `group` of the world
    rank `global_rank`."""
    if not isinstance(global_rank, int):
        raise TypeError(f"The global_rank argument must be integer, but got "
                        f"{type(global_rank)}.")
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For 'get_group_rank_from_world_rank', the argument 'group' must be "
                        f"type of string, but got 'group' type : {type(group)}.")
    _inited()
    return management.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None):
    """Mirrors `mindspore.mint.distributed.get_process_group_ranks`: the world ranks of
    `group`."""
    if group is None:
        group = GlobalComm.WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For 'get_process_group_ranks', the argument 'group' must be type of "
                        f"string or None, but got 'group' type : {type(group)}.")
    _inited()
    return management.get_process_group_ranks(group)
