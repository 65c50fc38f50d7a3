"""`mindspore.runtime` on the CPU: the settings real code makes, with their meaning here.

cellgrad runs every op synchronously on numpy arrays in host memory, so `launch_blocking` and
`synchronize` have nothing to wait for, and `set_memory`'s pool sizes bound no pool: they are
validated as MindSpore validates them and kept (`memory_config()`) so a program that sets them
runs unchanged. The device-memory statistics, streams and events say why they are missing
(`cellgrad._not_provided`).
"""

import re

from cellgrad._namespace import plugin_names as _plugin_names

_MEMORY_PATTERN = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")
_RESERVE_PATTERN = re.compile(r"[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")
_state = {"memory": None, "launch_blocking": False, "cpu_affinity": None, "threads": 5}


def _memory_size(name, value, pattern=_MEMORY_PATTERN, zero_ok=False):
    if not isinstance(value, str):
        raise TypeError(f"The parameter '{name}' must be {str}, but got {type(value)}")
    if not pattern.fullmatch(value):
        if zero_ok:
            raise ValueError(f"For 'set_memory', '{name}' must be a string like \"1GB\" or "
                             f"\"0.5GB\", but got {value}.")
        raise ValueError("The memory value should be in correct format!It must be a string "
                         "ending with 'GB', in addition to that, it must contain only numbers or "
                         f"decimal points, such as \"5GB\" or \"3.5GB\", but got {value}.")
    if not zero_ok and value in ("0GB", "0.0GB"):
        raise ValueError("The memory value should not be \"0GB\".")
    return float(value[:-2])


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Mirrors `mindspore.runtime.set_memory`: validated and kept; once per process, as in
    MindSpore. cellgrad's arrays live in host memory that Python manages, so the sizes bound
    no pool here."""
    if _state["memory"] is not None:
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    sizes = {name: _memory_size(name, value) for name, value in (
        ("init_size", init_size), ("increase_size", increase_size), ("max_size", max_size))}
    sizes["huge_page_reserve_size"] = _memory_size(
        "huge_page_reserve_size", huge_page_reserve_size, _RESERVE_PATTERN, zero_ok=True)
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"The optimize_level must be one of ['O0', 'O1'], but got "
                         f"{optimize_level}.")
    _state["memory"] = {**sizes, "optimize_level": optimize_level}


def memory_config():
    """The settings `set_memory` kept (sizes in GB), or None before it was called."""
    return None if _state["memory"] is None else dict(_state["memory"])


def launch_blocking():
    """Mirrors `mindspore.runtime.launch_blocking`: every cellgrad op already runs to completion
    before it returns, so an error points at the line that caused it; nothing changes."""
    _state["launch_blocking"] = True


def synchronize():
    """Mirrors `mindspore.runtime.synchronize`: returns at once, as no op is ever pending."""


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None,
                     bind_file=None):
    """Mirrors `mindspore.runtime.set_cpu_affinity`: validated and kept. MindSpore binds its
    runtime threads (kernels, data queues) to cores; cellgrad has no runtime threads of its
    own (numpy's BLAS threads are set with OPENBLAS_NUM_THREADS / threadpoolctl)."""
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', 'enable_affinity' must be bool, but got "
                        f"{type(enable_affinity).__name__}.")
    if affinity_cpu_list is not None and not isinstance(affinity_cpu_list, list):
        raise TypeError(f"For 'set_cpu_affinity', 'affinity_cpu_list' must be a list of strings "
                        f"like '0-3', but got {type(affinity_cpu_list).__name__}.")
    if module_to_cpu_dict is not None and not isinstance(module_to_cpu_dict, dict):
        raise TypeError(f"For 'set_cpu_affinity', 'module_to_cpu_dict' must be a dict, but got "
                        f"{type(module_to_cpu_dict).__name__}.")
    _state["cpu_affinity"] = {"enable_affinity": enable_affinity,
                              "affinity_cpu_list": affinity_cpu_list,
                              "module_to_cpu_dict": module_to_cpu_dict, "bind_file": bind_file}


def dispatch_threads_num(threads_num):
    """Mirrors `mindspore.runtime.dispatch_threads_num`: validated and kept; cellgrad dispatches
    each op on the calling thread."""
    if not isinstance(threads_num, int):
        raise TypeError(f"The parameter 'threads_num' must be {int}, but got "
                        f"{type(threads_num)}")
    if isinstance(threads_num, bool):
        raise TypeError(f"The 'threads_num' must be int and must > 0, but got '{threads_num}' "
                        f"with type 'bool'.")
    if threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be int and must > 0, but got '{threads_num}' "
                         f"with type 'int'.")
    _state["threads"] = threads_num


from cellgrad.heap_stats import *  # noqa: E402, F403 (mindspore.runtime has them too)
from cellgrad.heap_stats import __all__ as _memory_names  # noqa: E402
from cellgrad.streams import *  # noqa: E402, F403
from cellgrad.streams import __all__ as _stream_names  # noqa: E402

__all__ = ["set_memory", "launch_blocking", "synchronize", "set_cpu_affinity",
           "dispatch_threads_num", *_memory_names, *_stream_names]

__getattr__, __dir__ = _plugin_names(__name__)
