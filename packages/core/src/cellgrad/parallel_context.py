"""The parallel contexts of one process, mirroring MindSpore's: `ParallelMode`,
`set_auto_parallel_context`, `get_auto_parallel_context`, `reset_auto_parallel_context`, and
the parameter-server context (`set_ps_context`, `get_ps_context`, `reset_ps_context`).

The core owns them so a single-device program that sets them runs without
cellgrad-distributed (MindSpore programs set them unconditionally). Only data parallelism
exists in cellgrad: with cellgrad-distributed, `parallel_mode` 'data_parallel' (or
'hybrid_parallel', which MindSpore's TrainOneStepCell treats the same) makes
`nn.TrainOneStepCell` and `Model.train` all-reduce the gradients, averaged when
`gradients_mean`; `comm_fusion={"allreduce": {"mode": "size", "config": MB}}` sets the size of
its gradient buckets. The other keys are stored so MindSpore programs keep running.
Parameter-server training is not available: `set_ps_context(enable_ps=True)` says so.
"""

from __future__ import annotations

import copy

__all__ = ["ParallelMode", "get_auto_parallel_context", "get_ps_context",
           "reset_auto_parallel_context", "reset_ps_context", "set_auto_parallel_context",
           "set_ps_context"]


class ParallelMode:
    """Mirrors `mindspore.ParallelMode`."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


DATA_PARALLEL_MODES = (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)

_DEFAULTS = {
    "parallel_mode": ParallelMode.STAND_ALONE,
    "gradients_mean": False,
    "device_num": 1,
    "global_rank": 0,
    "gradient_fp32_sync": True,
    "loss_repeated_mean": True,
    "search_mode": "recursive_programming",
    "auto_parallel_search_mode": "recursive_programming",
    "parameter_broadcast": False,
    "full_batch": False,
    "dataset_strategy": "data_parallel",
    "enable_parallel_optimizer": False,
    "enable_alltoall": False,
    "all_reduce_fusion_config": [],
    "comm_fusion": {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                    "allgather": {"mode": "auto", "config": None},
                    "reducescatter": {"mode": "auto", "config": None}},
    "pipeline_stages": 1,
    "pipeline_interleave": False,
    "pipeline_scheduler": "1f1b",
    "pipeline_result_broadcast": False,
    "grad_accumulation_step": 1,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "optimizer_weight_shard_size": -1,
    "optimizer_weight_shard_aggregated_save": False,
    "sharding_propagation": False,
    "auto_pipeline": False,
    "force_fp32_communication": False,
    "dump_local_norm": False,
    "dump_local_norm_path": "",
    "dump_device_local_norm": False,
}
# Keys MindSpore accepts in set_auto_parallel_context but does not return from get.
_SET_ONLY = ("parallel_optimizer_config", "pipeline_config", "pipeline_segments",
             "group_ckpt_save_file")
_TYPES = {"device_num": int, "global_rank": int, "gradients_mean": bool,
          "gradient_fp32_sync": bool, "parallel_mode": str, "auto_parallel_search_mode": str,
          "search_mode": str, "parameter_broadcast": bool, "strategy_ckpt_load_file": str,
          "strategy_ckpt_save_file": str, "full_batch": bool, "enable_parallel_optimizer": bool,
          "enable_alltoall": bool, "all_reduce_fusion_config": list, "pipeline_stages": int,
          "pipeline_segments": int, "pipeline_result_broadcast": bool,
          "parallel_optimizer_config": dict, "pipeline_config": dict, "comm_fusion": dict,
          "strategy_ckpt_config": dict, "force_fp32_communication": bool}

_context = copy.deepcopy(_DEFAULTS)
_set_only: dict = {}
_explicit: set = set()  # keys set since the last reset (device_num: else the group size)


def set_auto_parallel_context(**kwargs):
    """Mirrors `mindspore.set_auto_parallel_context`: unknown keys are a ValueError, values of
    the wrong type a TypeError, as in MindSpore."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS and key not in _SET_ONLY:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        want = _TYPES.get(key)
        if want is not None and (not isinstance(value, want)
                                 or (want is int and isinstance(value, bool))):
            raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
    for key, value in kwargs.items():
        check = _CHECKS.get(key)
        if check is not None:
            check(value)
    for key, value in kwargs.items():
        if key in _SET_ONLY:
            _set_only[key] = copy.deepcopy(value)
        elif key == "comm_fusion":
            _context[key] = _merged_fusion(value)
        else:
            _context[key] = copy.deepcopy(value)
        _explicit.add(key)


def get_auto_parallel_context(attr_key):
    """Mirrors `mindspore.get_auto_parallel_context`."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return copy.deepcopy(_context[attr_key])


def reset_auto_parallel_context():
    """Mirrors `mindspore.reset_auto_parallel_context`: every key back to its default."""
    _context.clear()
    _context.update(copy.deepcopy(_DEFAULTS))
    _set_only.clear()
    _explicit.clear()


def is_set(key):
    """Whether `key` was given to `set_auto_parallel_context` since the last reset."""
    return key in _explicit


def _check_mode(mode):
    if mode not in ParallelMode.MODE_LIST:
        raise ValueError(f"The context configuration parameter 'parallel_mode' only support "
                         f"'stand_alone', 'data_parallel', 'hybrid_parallel', "
                         f"'semi_auto_parallel' and 'auto_parallel', but got the value : "
                         f"{mode}.")
    if mode in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
        raise ValueError(f"For 'set_auto_parallel_context', cellgrad runs data parallelism "
                         f"only: 'parallel_mode' must be 'stand_alone', 'data_parallel' or "
                         f"'hybrid_parallel' (the same as data_parallel), but got {mode!r}, "
                         f"which shards operators through MindSpore's graph compiler.")


def _check_positive(key):
    def check(value):
        if value < 1:
            raise ValueError(f"The context configuration parameter '{key}' must be a positive "
                             f"integer, but got the value of {key} : {value}.")
    return check


def _check_rank(value):
    if value < 0:
        raise ValueError(f"The context configuration parameter 'global_rank' must be in [0, "
                         f"4095], but got the value of global_rank : {value}.")


def _check_fusion(value):
    for kind, conf in value.items():
        if kind == "openstate":
            continue
        if kind not in ("allreduce", "allgather", "reducescatter") or not isinstance(conf, dict):
            raise KeyError(f"comm_fusion option must be allreduce, allgather or reducescatter "
                           f"with a dict value, but got {kind!r}: {conf!r}.")
        if conf.get("mode", "auto") not in ("auto", "size", "index"):
            raise KeyError(f"fusion mode must be auto, size or index, but got "
                           f"{conf.get('mode')!r}.")
        size = conf.get("config")
        if kind == "allreduce" and conf.get("mode") == "size" and \
                (isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0):
            raise TypeError(f"comm_fusion allreduce 'size' mode needs a positive number of MB as "
                            f"'config', but got {size!r}.")


def _merged_fusion(value):
    merged = copy.deepcopy(_context["comm_fusion"])
    for kind, conf in value.items():
        merged[kind] = copy.deepcopy(conf)
    return merged


_CHECKS = {"parallel_mode": _check_mode, "device_num": _check_positive("device_num"),
           "pipeline_stages": _check_positive("pipeline_stages"), "global_rank": _check_rank,
           "comm_fusion": _check_fusion}


# ---- the parameter-server context ----

_PS_DEFAULTS = {"server_mode": "", "ms_role": "MS_NOT_PS", "enable_ps": False, "worker_num": 0,
                "server_num": 0, "scheduler_ip": "127.0.0.1", "scheduler_port": 6667,
                "enable_ssl": False, "config_file_path": ""}
_PS_SET_ONLY = ("client_password", "server_password")
_PS_TYPES = {"server_mode": str, "ms_role": str, "enable_ps": bool, "worker_num": int,
             "server_num": int, "scheduler_ip": str, "scheduler_port": int, "enable_ssl": bool,
             "config_file_path": str, "client_password": str, "server_password": str}
_ps_context = dict(_PS_DEFAULTS)


def set_ps_context(**kwargs):
    """Mirrors `mindspore.set_ps_context`: MindSpore's keys are stored, except that
    `enable_ps=True` is a ValueError (cellgrad has no parameter-server runtime)."""
    for key, value in kwargs.items():
        if key not in _PS_TYPES:
            raise ValueError(f"Set PS context keyword {key} is not recognized!")
        want = _PS_TYPES[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise TypeError(f"For 'set_ps_context', '{key}' must be {want.__name__}, but got "
                            f"{type(value).__name__}.")
    if kwargs.get("enable_ps"):
        raise ValueError("For 'set_ps_context', enable_ps=True asks for MindSpore's "
                         "parameter-server training (graph mode, a scheduler, servers and "
                         "workers), which cellgrad does not provide: train data-parallel with "
                         "cellgrad-distributed instead (set_auto_parallel_context("
                         "parallel_mode=ParallelMode.DATA_PARALLEL) under mpirun).")
    _ps_context.update((k, v) for k, v in kwargs.items() if k not in _PS_SET_ONLY)


def get_ps_context(attr_key):
    """Mirrors `mindspore.get_ps_context`: `enable_ps` is always False in cellgrad."""
    if attr_key not in _PS_DEFAULTS:
        raise ValueError(f"Get PS context keyword {attr_key} is not recognized!")
    return _ps_context[attr_key]


def reset_ps_context():
    """Mirrors `mindspore.reset_ps_context`: `enable_ps` back to False (the only key
    MindSpore resets)."""
    _ps_context["enable_ps"] = False
