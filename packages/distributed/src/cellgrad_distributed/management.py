"""`cellgrad.communication`: mirrors `mindspore.communication` (init, ranks, groups) on MPI.

Launch N processes with the MPI implementation's launcher (`mpirun -n 8 python train.py`;
`pip install cellgrad-distributed[mpich]` puts one next to the interpreter) and call `init()`
in each. Outside a launcher `init()` gives a world of one and everything runs unchanged.
"""

from __future__ import annotations

from cellgrad_distributed import threads, watchdog, world
from cellgrad_distributed.world import (
    HCCL_WORLD_COMM_GROUP,
    MCCL_WORLD_COMM_GROUP,
    NCCL_WORLD_COMM_GROUP,
    GlobalComm,
    Group,
)

__all__ = [
    "GlobalComm", "HCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
    "create_group", "destroy_group", "get_comm_name", "get_group_rank_from_world_rank",
    "get_group_size", "get_local_rank", "get_local_rank_size", "get_process_group_ranks",
    "get_rank", "get_world_rank_from_group_rank", "init", "release",
]

_BACKENDS = (None, "mccl", "mpi")


def init(backend_name=None):
    """Mirrors `mindspore.communication.init`: join the job's processes (MPI's world).

    `backend_name` None, 'mccl' (MindSpore's CPU backend) or 'mpi' all mean MPI; 'hccl' and
    'nccl' need Ascend or GPU devices, which cellgrad does not drive. A second call does
    nothing. Installs the watchdog: an uncaught exception in one process ends the whole job.
    The processes on one host share its cores: numpy's BLAS threads are limited accordingly
    (unless OMP_NUM_THREADS or a BLAS-specific variable says otherwise).
    """
    if backend_name is not None and not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the "
                        f"type : {type(backend_name)}")
    if backend_name not in _BACKENDS:
        raise RuntimeError(f"For 'init', cellgrad communicates through MPI on the CPU: "
                           f"'backend_name' must be None, 'mccl' or 'mpi', but got "
                           f"{backend_name!r} (HCCL and NCCL drive Ascend and GPU devices).")
    group = world.start()
    GlobalComm.BACKEND = "mpi"
    GlobalComm.WORLD_COMM_GROUP = MCCL_WORLD_COMM_GROUP
    GlobalComm.INITED = True
    if group.comm is not None:
        watchdog.install(group.comm)
        threads.share_cores(group.local().Get_size())


def release():
    """Mirrors `mindspore.communication.release`: free the groups; a later `init()` rejoins.

    MPI itself stays initialised until the process exits (MPI cannot be started twice).
    """
    watchdog.uninstall()
    world.stop()
    GlobalComm.INITED = False
    GlobalComm.WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP


def get_rank(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_rank`: this process's rank in `group` (0 before
    `init()`, as MindSpore)."""
    return world.member(group, "get_rank").rank


def get_group_size(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_group_size`: the number of processes in `group`."""
    return world.resolve(group, "get_group_size").size


def get_local_rank(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_local_rank`: the rank among the processes of
    `group` on this host."""
    g = world.member(group, "get_local_rank")
    return 0 if g.comm is None else g.local().Get_rank()


def get_local_rank_size(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_local_rank_size`: how many processes of `group`
    run on this host."""
    g = world.member(group, "get_local_rank_size")
    return 1 if g.comm is None else g.local().Get_size()


def get_world_rank_from_group_rank(group, group_rank_id):
    """Mirrors `mindspore.communication.get_world_rank_from_group_rank`."""
    g = world.resolve(group, "get_world_rank_from_group_rank")
    _check_rank("get_world_rank_from_group_rank", "group_rank_id", group_rank_id, g.size,
                f"group '{g.name}'")
    return g.world_ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """Mirrors `mindspore.communication.get_group_rank_from_world_rank`."""
    g = world.resolve(group, "get_group_rank_from_world_rank")
    _check_rank("get_group_rank_from_world_rank", "world_rank_id", world_rank_id,
                world.world().size, "the world")
    if world_rank_id not in g.world_ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', the world rank {world_rank_id} "
                         f"is not in the group '{g.name}', which holds the world ranks "
                         f"{list(g.world_ranks)}.")
    return g.world_ranks.index(world_rank_id)


def get_process_group_ranks(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_process_group_ranks`: the world ranks of `group`."""
    return list(world.resolve(group, "get_process_group_ranks").world_ranks)


def get_comm_name(group=HCCL_WORLD_COMM_GROUP):
    """Mirrors `mindspore.communication.get_comm_name`: the MPI communicator's name."""
    g = world.resolve(group, "get_comm_name")
    return g.name if g.comm is None else g.comm.Get_name()


def create_group(group, rank_ids, options=None):
    """Mirrors `mindspore.communication.create_group`: a group of the world ranks `rank_ids`.

    Every process in `rank_ids` must call it (in the same order for several groups); the
    others may call it too and get a group they cannot communicate in.
    """
    if not isinstance(group, str):
        raise TypeError(f"For 'create_group', the argument 'group' must be type of string, but "
                        f"got 'group' type : {type(group)}.")
    if not GlobalComm.INITED:
        raise RuntimeError("Distributed Communication has not been inited.You can't invoke this "
                           "interface yet. Please call `init()` method first.")
    if not isinstance(rank_ids, list):
        raise TypeError(f"For 'create_group', the argument 'rank_ids' must be a list, but got "
                        f"{type(rank_ids).__name__}.")
    if group in world.WORLD_NAMES or group in world._groups:
        raise ValueError(f"For 'create_group', the group {group!r} already exists.")
    if len(rank_ids) < 2:
        raise ValueError(f"For 'create_group', 'rank_ids' must hold more than 1 rank, but got "
                         f"{rank_ids}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"For 'create_group', 'rank_ids' must not repeat a rank, but got "
                         f"{rank_ids}.")
    w = world.world()
    for r in rank_ids:
        _check_rank("create_group", "rank_ids", r, w.size, "the world", shown=rank_ids)
    rank = rank_ids.index(w.rank) if w.rank in rank_ids else -1
    comm = None
    if rank >= 0:
        members = w.comm.Get_group().Incl(rank_ids)
        comm = w.comm.Create_group(members, tag=_group_tag(group))
        members.Free()
        comm.Set_name(group)
    world.add(Group(group, tuple(rank_ids), rank, comm))


def destroy_group(group):
    """Mirrors `mindspore.communication.destroy_group`."""
    if not isinstance(group, str):
        raise TypeError(f"For 'destroy_group', the argument 'group' must be type of string, but "
                        f"got 'group' type : {type(group)}.")
    if group in world.WORLD_NAMES:
        raise ValueError(f"For 'destroy_group', the world group {group!r} cannot be destroyed.")
    world.resolve(group, "destroy_group")
    world.remove(group)


def _check_rank(where, name, value, size, of, shown=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{where}', '{name}' must be an int, but got "
                        f"{type(value).__name__} {value!r}.")
    if not 0 <= value < size:
        seen = value if shown is None else f"{shown}, which holds {value},"
        raise ValueError(f"For '{where}', '{name}' {seen} is out of range: {of} has {size} "
                         f"process{'es' if size != 1 else ''} (ranks 0 to {size - 1}).")


def _group_tag(name):
    """A tag for MPI_Comm_create_group derived from the name (the same in every process)."""
    import zlib

    return zlib.crc32(name.encode()) % 32767
