"""The communication groups of this process: the world and those `create_group` made.

A group is a name, an MPI communicator (mpi4py) and the world ranks it holds. Before `init()`,
and after it outside `mpirun`, the world is a world of one: no MPI call is ever made for a
group of one process, so single-process programs run unchanged (and without MPI at all when
mpi4py cannot load). Under an MPI launcher, collectives before `init()` are an error rather
than a silent world of one, where each process would train alone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
WORLD_NAMES = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)

# Environment variables an MPI launcher sets for the processes it starts (MPICH/Hydra, Open MPI,
# PMIx): a size > 1 means this process is one of several.
_LAUNCHER_SIZE_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS")


class GlobalComm:
    """Mirrors `mindspore.communication.GlobalComm`: the backend and world group in use."""

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


@dataclass
class Group:
    """One communication group as this process sees it."""

    name: str
    world_ranks: tuple  # the world rank of each group rank
    rank: int  # this process's rank in the group; -1 when it is not a member
    comm: object = None  # the mpi4py communicator; None for a group of one or a non-member
    _local: Optional[object] = field(default=None, repr=False)  # processes of this host

    @property
    def size(self) -> int:
        return len(self.world_ranks)

    def local(self):
        """The communicator of this group's processes on this host (made once)."""
        if self._local is None:
            from mpi4py import MPI

            self._local = self.comm.Split_type(MPI.COMM_TYPE_SHARED)
        return self._local


_ONE = Group(MCCL_WORLD_COMM_GROUP, (0,), 0)
_world: Optional[Group] = None  # set by init()
_groups: dict = {}  # user groups by name
_mpi = None  # the mpi4py.MPI module once loaded


def launched_size() -> int:
    """How many processes the MPI launcher started (1 when not started by one)."""
    for var in _LAUNCHER_SIZE_VARS:
        value = os.environ.get(var, "")
        if value.isdigit() and int(value) > 1:
            return int(value)
    return 1


def mpi():
    """The mpi4py.MPI module, importing it (and initialising MPI) on first use."""
    global _mpi
    if _mpi is None:
        import mpi4py

        # Only this module's thread calls MPI, and MPI_THREAD_MULTIPLE would make MPICH take a
        # lock around every call.
        mpi4py.rc.thread_level = "serialized"
        from mpi4py import MPI

        _mpi = MPI
    return _mpi


def start() -> Group:
    """Build the world group (init()): MPI's world, or a world of one without MPI."""
    global _world
    if _world is not None:
        return _world
    try:
        MPI = mpi()
    except ImportError as exc:
        if launched_size() > 1:
            raise RuntimeError(
                f"For 'init', this process was started by an MPI launcher with "
                f"{launched_size()} processes, but mpi4py cannot be imported ({exc}): "
                f"pip install 'cellgrad-distributed[mpich]'.") from exc
        _world = _ONE
        return _world
    comm = MPI.COMM_WORLD.Dup()  # our own context: user MPI traffic never mixes with ours
    comm.Set_name(MCCL_WORLD_COMM_GROUP)
    size = comm.Get_size()
    _world = Group(MCCL_WORLD_COMM_GROUP, tuple(range(size)), comm.Get_rank(),
                   comm if size > 1 else None)
    return _world


def stop():
    """Free the groups' communicators (release()); MPI itself stays up until exit."""
    global _world
    for group in list(_groups.values()) + ([_world] if _world is not None else []):
        for comm in (group.comm, group._local):
            if comm is not None:
                try:
                    comm.Free()
                except Exception:  # already freed, or MPI finalized at exit
                    pass
    _groups.clear()
    _world = None


def world() -> Group:
    """The world group: init()'s, or a world of one before init() (not under a launcher)."""
    if _world is not None:
        return _world
    return _ONE


def check_started(where):
    """Raise when collectives run under an MPI launcher before init()."""
    if _world is None and launched_size() > 1:
        raise RuntimeError(
            f"For '{where}', this process is one of {launched_size()} started by an MPI "
            f"launcher, but cellgrad.communication.init() has not been called: call init() "
            f"first, or every process would compute alone.")


def resolve(group, where) -> Group:
    """The Group named `group`; TypeError/ValueError naming `where` when there is none."""
    if not isinstance(group, str):
        raise TypeError(f"For '{where}', the argument 'group' must be type of string, but got "
                        f"'group' type : {type(group)}.")
    if group in WORLD_NAMES:
        return world()
    found = _groups.get(group)
    if found is None:
        known = ", ".join(repr(n) for n in (GlobalComm.WORLD_COMM_GROUP, *_groups))
        raise ValueError(f"For '{where}', the group {group!r} does not exist: create it with "
                         f"create_group({group!r}, rank_ids) on its processes first (known "
                         f"groups: {known}).")
    return found


def member(group, where) -> Group:
    """`resolve`, and this process must belong to the group."""
    g = resolve(group, where)
    if g.rank < 0:
        raise ValueError(f"For '{where}', this process (world rank {world().rank}) is not in "
                         f"the group {g.name!r}, which holds the world ranks "
                         f"{list(g.world_ranks)}.")
    return g


def add(group: Group):
    _groups[group.name] = group


def remove(name):
    group = _groups.pop(name)
    for comm in (group.comm, group._local):
        if comm is not None:
            comm.Free()
