"""Context, seeds and `jit`: mirrors `mindspore.context`, `mindspore.set_seed`, `mindspore.jit`.

cellgrad always runs eagerly on the CPU: `GRAPH_MODE` is accepted (MindSpore programs set it)
but changes nothing, and `device_target` must be 'CPU'.
"""

import functools
import warnings

import numpy as np

from cellgrad import seeding
from cellgrad.parallel_context import (
    ParallelMode,
    get_auto_parallel_context,
    get_ps_context,
    reset_auto_parallel_context,
    reset_ps_context,
    set_auto_parallel_context,
    set_ps_context,
)

__all__ = [
    "COMPATIBLE",
    "GRAPH_MODE",
    "LAX",
    "PYNATIVE_MODE",
    "STRICT",
    "ParallelMode",
    "get_auto_parallel_context",
    "get_context",
    "get_ps_context",
    "get_seed",
    "jit",
    "reset_auto_parallel_context",
    "reset_ps_context",
    "set_auto_parallel_context",
    "set_context",
    "set_ps_context",
    "set_seed",
]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
# jit_syntax_level values (MindSpore's graph compiler; stored, nothing is compiled here)
STRICT = 0
COMPATIBLE = 1
LAX = 2

# MindSpore's set_context keywords with cellgrad's defaults. Only mode and device_target mean
# something here; the others are stored so programs written for MindSpore keep running.
_DEFAULTS = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "deterministic": "OFF",
    "max_call_depth": 1000,
    "save_graphs": False,
    "save_graphs_path": ".",
    "enable_dump": False,
    "save_dump_path": ".",
    "print_file_path": "",
    "env_config_path": "",
    "precompile_only": False,
    "reserve_class_name_in_scope": True,
    "pynative_synchronize": False,
    "runtime_num_threads": 30,
    "inter_op_parallel_num": 0,
    "max_device_memory": "1024GB",
    "variable_memory_max_size": "",
    "mempool_block_size": "1GB",
    "memory_optimize_level": "O0",
    "op_timeout": 900,
    "enable_graph_kernel": False,
    "graph_kernel_flags": "",
    "enable_reduce_precision": True,
    "enable_compile_cache": False,
    "compile_cache_path": ".",
    "check_bprop": False,
    "grad_for_scalar": False,
    "disable_format_transform": False,
    "support_binary": False,
    "jit_syntax_level": 2,
    "jit_config": None,
    "debug_level": 0,
    "aoe_tune_mode": "",
    "aoe_config": None,
    "ascend_config": None,
    "gpu_config": None,
    "enable_profiling": False,
    "profiling_options": "",
    "enable_auto_mixed_precision": False,
    # graph-compiler knobs (MindSpore's context parameters): stored; each function and cell
    # already runs op by op, which is what jit_level "O0" and PyNative mean
    "jit_level": "",
    "infer_boost": "off",
    "exec_order": "bfs",
    "topo_order": "",
    "enable_parallel_split": False,
    "enable_task_opt": False,
}
# MindSpore's context parameters whose value must have the default's type (its C++ check)
_TYPED = ("jit_level", "infer_boost", "topo_order", "enable_parallel_split", "enable_task_opt")

_context = dict(_DEFAULTS)
_graph_mode_warned = False


def _unknown(key, what):
    return ValueError(
        f"For '{what}', the keyword argument '{key}' is not recognized. Known keys: "
        + ", ".join(sorted(_DEFAULTS)) + ".")


def _check_mode(mode):
    global _graph_mode_warned
    if isinstance(mode, bool) or mode not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(f"For 'set_context', 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), "
                         f"but got {mode!r}.")
    if mode == GRAPH_MODE and not _graph_mode_warned:
        _graph_mode_warned = True
        warnings.warn("cellgrad has no graph compiler: GRAPH_MODE is accepted but every cell and "
                      "function still runs eagerly (PyNative semantics).", stacklevel=3)


def _check_device(target):
    if target != "CPU":
        raise ValueError(f"For 'set_context', device_target {target!r} is not supported: cellgrad "
                         "computes with numpy on the CPU, so 'CPU' is the only target.")


def _check_device_id(device_id):
    if isinstance(device_id, bool) or not isinstance(device_id, int) or device_id < 0:
        raise ValueError(f"For 'set_context', 'device_id' must be a non-negative int, but got "
                         f"{device_id!r}.")


def _check_exec_order(order):
    if order not in ("bfs", "dfs"):
        raise ValueError(f"For 'context.set_context', the argument 'exec_order' must be one of "
                         f"['bfs', 'dfs'], but got {order}.")


def _typed(key):
    def check(value):
        kind = type(_DEFAULTS[key])
        if type(value) is not kind:
            raise RuntimeError(f"For 'set_context', '{key}' must be a {kind.__name__}, but got "
                               f"{value!r} of type {type(value)}.")
    return check


_CHECKS = {"mode": _check_mode, "device_target": _check_device, "device_id": _check_device_id,
           "exec_order": _check_exec_order, **{key: _typed(key) for key in _TYPED}}


def set_context(**kwargs):
    """Mirrors `mindspore.set_context`; an unknown key or a non-CPU target is a ValueError."""
    for key in kwargs:
        if key not in _DEFAULTS:
            raise _unknown(key, "set_context")
    for key, value in kwargs.items():
        check = _CHECKS.get(key)
        if check is not None:
            check(value)
    _context.update(kwargs)


def get_context(attr_key):
    """Mirrors `mindspore.get_context`: the value set for `attr_key`, or its default."""
    if attr_key not in _DEFAULTS:
        raise _unknown(attr_key, "get_context")
    return _context[attr_key]


# ---- seeds ----
def set_seed(seed):
    """Mirrors `mindspore.set_seed`: restarts cellgrad's random streams (`cellgrad.seeding`).

    Like MindSpore it also seeds numpy's global generator. The numbers drawn differ from
    MindSpore's (a different generator); a seed gives the same numbers on every cellgrad run.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"For 'set_seed', the seed must be an int, but got "
                        f"{type(seed).__name__}.")
    if not 0 <= seed < 2**63:
        raise ValueError(f"For 'set_seed', the seed must be in [0, 2**63), but got {seed}.")
    seeding.reset(int(seed))
    np.random.seed(int(seed) % 2**32)


def get_seed():
    """Mirrors `mindspore.get_seed`: the global seed, or None when none was set."""
    return seeding.global_seed()


def generator(kernel="default", seed=None):
    """A numpy Generator for one draw: the stream of `kernel` and op `seed` (see `seeding`).

    Random ops, initializers and dropout all draw here, so `set_seed` reproduces them all.
    """
    return seeding.generator(kernel, seed)


# ---- jit ----
def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
        backend="", **options):
    """Mirrors `mindspore.jit` as a decorator (`@jit`, `@jit(...)`) and a function (`jit(fn)`,
    `jit(cell)`). With cellgrad-jit installed, the first call traces and later calls with
    the same guards replay a plan (`cellgrad_jit.replay`); without it the function runs
    eagerly, exactly as without `jit` (hooks, Python control flow, in-place ops as in
    PyNative mode).
    """
    if capture_mode not in ("ast", "bytecode", "trace"):
        raise ValueError(f"For 'jit', the argument 'capture_mode' must be one of ['ast', "
                         f"'bytecode', 'trace'], but got {capture_mode!r}.")
    if jit_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'jit', the argument 'jit_level' must be one of ['O0', 'O1', "
                         f"'O2'], but got {jit_level!r}.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the argument 'fullgraph' must be a bool, but got "
                        f"{type(fullgraph).__name__}.")
    settings = dict(options, capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic,
                    fullgraph=fullgraph, backend=backend)
    if function is None:
        return functools.partial(_jit_wrap, settings=settings)
    return _jit_wrap(function, settings)


def _jit_wrap(function, settings=None):
    from cellgrad import _jit_hook
    from cellgrad.nn.cell import Cell

    settings = settings or {}
    if not callable(function):
        raise TypeError(f"For 'jit', the decorated object must be a function or a Cell, but got "
                        f"{type(function).__name__}.")
    make = _jit_hook.compiler()
    if isinstance(function, Cell):
        if make is not None:  # the instance's construct is traced and replayed
            function.construct = make(function.construct, settings)
        return function
    if make is not None:
        return make(function, settings)

    @functools.wraps(function)
    def eager(*args, **kwargs):
        return function(*args, **kwargs)
    return eager
