"""`cellgrad.mint.distributed`, mirroring `mindspore.mint.distributed`: its names come from
`cellgrad-distributed` (collectives on MPI, through mpi4py).

Without that package a program of one process still asks what MindSpore answers there
(`get_rank()` 0, `get_world_size()` 1, `is_initialized()` False, `get_backend()`;
`is_available()` is False: no communication can be made); any other name raises an error
naming the package to install.
"""

import sys as _sys

from cellgrad import _namespace


def _is_available():
    return False


def _is_initialized():
    return False


def _get_rank(group=None):
    return 0


def _get_world_size(group=None):
    return 1


def _get_backend(group=None):
    if group is None:
        return "hccl"
    if not isinstance(group, str):
        raise TypeError(f"For 'get_backend', the argument 'group' must be type of string or "
                        f"None, but got 'group' type : {type(group)}.")
    return "mccl" if "mccl" in group and "hccl" not in group else "hccl"


# A world of one without the package: the names MindSpore answers before init().
_ALONE = {"is_available": _is_available, "is_initialized": _is_initialized,
          "get_rank": _get_rank, "get_world_size": _get_world_size, "get_backend": _get_backend}
for _name, _fn in _ALONE.items():
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__module__ = __name__
    _fn.__doc__ = (f"Mirrors `mindspore.mint.distributed.{_name}` for one process without "
                   f"cellgrad-distributed.")
del _name, _fn


def __getattr__(name):
    if name.startswith("_") or not name.isidentifier():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return _namespace.lookup(__name__, "mint.distributed", name,
                                 _namespace._in_from_import(_sys._getframe(1)))
    except (AttributeError, ImportError):
        if name in _ALONE:  # cellgrad-distributed is not installed (or is disabled)
            return _ALONE[name]
        raise


def __dir__():
    return sorted(set(_namespace.names(__name__, "mint.distributed")) | set(_ALONE))
