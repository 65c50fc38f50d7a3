"""Mirrors `mindspore.dataset.config`: the pipeline's global settings.

The seed seeds shuffling, random samplers and splits (`ms.set_seed` seeds them too);
`num_parallel_workers` is the default worker count of `map`/`batch`/sources;
`prefetch_size` is how many tasks each worker process keeps in flight; `enable_shared_mem`
chooses whether worker results travel through shared memory; the multiprocessing start method
and timeout drive the worker processes. The others are stored and returned (no effect on a
CPU-only numpy pipeline, as several of them have none in MindSpore on CPU either).
"""

import enum
import os

from cellgrad import context

INT32_MAX = 2147483647
UINT32_MAX = 4294967295
_DEFAULT_SEED = 5489  # std::mt19937's default: MindSpore's "no seed set" value

_state = {
    "seed": None, "num_parallel_workers": None, "prefetch_size": 16, "enable_shared_mem": True,
    "multiprocessing_timeout_interval": 300, "callback_timeout": 60,
    "monitor_sampling_interval": 1000, "numa_enable": False, "auto_num_workers": False,
    "enable_autotune": False, "autotune_interval": 0, "enable_watchdog": True,
    "fast_recovery": True, "debug_mode": False, "multiprocessing_start_method": "fork",
    "video_backend": "CPU", "auto_offload": False, "dynamic_shape": False,
    "iterator_mode": {"do_copy": False, "parallel_convert": False}, "sending_batches": 0,
}


class ErrorSamplesMode(enum.IntEnum):
    """Mirrors `mindspore.dataset.config.ErrorSamplesMode`."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


_state["error_samples_mode"] = ErrorSamplesMode.RETURN


def _int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} isn't of type int.")


def _bool(value, message):
    if not isinstance(value, bool):
        raise TypeError(message)


def set_seed(seed):
    """Mirrors `mindspore.dataset.config.set_seed`."""
    _int(seed, "seed")
    if not 0 <= seed <= UINT32_MAX:
        raise ValueError("seed given is not within the required range [0, UINT32_MAX(4294967295)].")
    _state["seed"] = seed
    _state["context_seed"] = context.get_seed()


def get_seed():
    """Mirrors `mindspore.dataset.config.get_seed` (5489 until a seed is set)."""
    seed = seed_or_none()
    return _DEFAULT_SEED if seed is None else seed


def seed_or_none():
    """The seed set last by `set_seed` or `ms.set_seed` (which sets the dataset seed too, as
    MindSpore's), None when none was set."""
    global_seed = context.get_seed()
    if _state["seed"] is None or global_seed != _state.get("context_seed"):
        return global_seed
    return _state["seed"]


def set_num_parallel_workers(num):
    """Mirrors `mindspore.dataset.config.set_num_parallel_workers`."""
    _int(num, "num")
    if not 0 < num <= INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range "
                         "(0, INT32_MAX(2147483647)].")
    cpus = os.cpu_count() or 1
    if num > cpus:
        raise RuntimeError(f"Invalid Parameter, num_parallel_workers exceeds the boundary "
                           f"between 1 and {cpus}, as got {num}.")
    _state["num_parallel_workers"] = num


def get_num_parallel_workers():
    """Mirrors `mindspore.dataset.config.get_num_parallel_workers` (default: min(8, cpus))."""
    n = _state["num_parallel_workers"]
    return min(8, os.cpu_count() or 1) if n is None else n


def set_prefetch_size(size):
    """Mirrors `mindspore.dataset.config.set_prefetch_size`."""
    _int(size, "size")
    if not 0 < size <= INT32_MAX:
        raise ValueError("size is not within the required range (0, INT32_MAX(2147483647)].")
    _state["prefetch_size"] = size


def get_prefetch_size():
    """Mirrors `mindspore.dataset.config.get_prefetch_size`."""
    return _state["prefetch_size"]


def set_enable_shared_mem(enable):
    """Mirrors `mindspore.dataset.config.set_enable_shared_mem`."""
    _bool(enable, "enable must be of type bool.")
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem():
    """Mirrors `mindspore.dataset.config.get_enable_shared_mem`."""
    return _state["enable_shared_mem"]


def set_multiprocessing_timeout_interval(interval):
    """Mirrors `mindspore.dataset.config.set_multiprocessing_timeout_interval`."""
    _int(interval, "interval")
    if not 0 < interval < INT32_MAX:
        raise ValueError("Interval given is not within the required range "
                         "(0, INT32_MAX(2147483647)).")
    _state["multiprocessing_timeout_interval"] = interval


def get_multiprocessing_timeout_interval():
    """Mirrors `mindspore.dataset.config.get_multiprocessing_timeout_interval`."""
    return _state["multiprocessing_timeout_interval"]


def set_multiprocessing_start_method(start_method="fork"):
    """Mirrors `mindspore.dataset.config.set_multiprocessing_start_method`."""
    if start_method not in ("fork", "spawn"):
        raise ValueError("Input start_method is not within the valid set of ['fork', 'spawn'].")
    _state["multiprocessing_start_method"] = start_method


def get_multiprocessing_start_method():
    """Mirrors `mindspore.dataset.config.get_multiprocessing_start_method`."""
    return _state["multiprocessing_start_method"]


def _positive_interval(key, message):
    def setter(interval):
        _int(interval, "interval")
        if not 0 < interval <= INT32_MAX:
            raise ValueError(message)
        _state[key] = interval
    return setter


set_monitor_sampling_interval = _positive_interval(
    "monitor_sampling_interval",
    "Interval given is not within the required range (0, INT32_MAX(2147483647)].")
set_monitor_sampling_interval.__name__ = "set_monitor_sampling_interval"
set_monitor_sampling_interval.__doc__ = "Mirrors `mindspore.dataset.config." \
    "set_monitor_sampling_interval`."


def set_callback_timeout(timeout):
    """Mirrors `mindspore.dataset.config.set_callback_timeout`."""
    _int(timeout, "timeout")
    if not 0 < timeout <= INT32_MAX:
        raise ValueError("Timeout given is not within the required range.")
    _state["callback_timeout"] = timeout


def set_autotune_interval(interval):
    """Mirrors `mindspore.dataset.config.set_autotune_interval`."""
    _int(interval, "interval")
    if not 0 <= interval <= INT32_MAX:
        raise ValueError("Interval given is not within the required range [0, INT32_MAX].")
    _state["autotune_interval"] = interval


def set_numa_enable(numa_enable):
    """Mirrors `mindspore.dataset.config.set_numa_enable`."""
    _bool(numa_enable, "numa_enable must be a boolean dtype.")
    _state["numa_enable"] = numa_enable


def set_auto_num_workers(enable):
    """Mirrors `mindspore.dataset.config.set_auto_num_workers`."""
    _bool(enable, "enable must be of type bool.")
    _state["auto_num_workers"] = enable


def set_enable_watchdog(enable):
    """Mirrors `mindspore.dataset.config.set_enable_watchdog`."""
    _bool(enable, "enable must be a boolean dtype.")
    _state["enable_watchdog"] = enable


def set_enable_autotune(enable, filepath_prefix=None):
    """Mirrors `mindspore.dataset.config.set_enable_autotune`."""
    _bool(enable, "enable must be of type bool.")
    _state["enable_autotune"] = enable


def set_fast_recovery(fast_recovery):
    """Mirrors `mindspore.dataset.config.set_fast_recovery`."""
    _bool(fast_recovery, "fast_recovery must be a boolean dtype.")
    _state["fast_recovery"] = fast_recovery


def set_auto_offload(offload):
    """Mirrors `mindspore.dataset.config.set_auto_offload`."""
    _bool(offload, "offload must be a bool dtype")
    _state["auto_offload"] = offload


def set_dynamic_shape(is_dynamic):
    """Mirrors `mindspore.dataset.config.set_dynamic_shape`."""
    _bool(is_dynamic, "is_dynamic must be a boolean dtype.")
    _state["dynamic_shape"] = is_dynamic


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list = None):
    """Mirrors `mindspore.dataset.config.set_debug_mode` (the pipeline always runs eagerly)."""
    _bool(debug_mode_flag, "The debug_mode_flag must be of type bool.")
    _state["debug_mode"] = debug_mode_flag


def set_error_samples_mode(error_samples_mode):
    """Mirrors `mindspore.dataset.config.set_error_samples_mode`."""
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"error_samples_mode isn't of type ErrorSamplesMode, but got "
                        f"{type(error_samples_mode)}.")
    _state["error_samples_mode"] = error_samples_mode


def set_iterator_mode(do_copy=False, parallel_convert=False):
    """Mirrors `mindspore.dataset.config.set_iterator_mode`."""
    for name, value in (("do_copy", do_copy), ("parallel_convert", parallel_convert)):
        if not isinstance(value, bool):
            raise TypeError(f"Argument {name} with value {value!r} is not of type "
                            f"[<class 'bool'>], but got {type(value)}.")
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def set_video_backend(backend):
    """Mirrors `mindspore.dataset.config.set_video_backend` (only the CPU backend exists)."""
    if backend != "CPU":
        raise ValueError(f"For 'set_video_backend', cellgrad decodes video on the CPU only, "
                         f"but got backend {backend!r}; use 'CPU'.")
    _state["video_backend"] = backend


def set_sending_batches(batch_num):
    """Mirrors `mindspore.dataset.config.set_sending_batches`."""
    _int(batch_num, "batch_num")
    _state["sending_batches"] = batch_num


def _getter(key, doc):
    def get():
        return _state[key]
    get.__name__ = f"get_{key}"
    get.__doc__ = f"Mirrors `mindspore.dataset.config.{doc}`."
    return get


get_callback_timeout = _getter("callback_timeout", "get_callback_timeout")
get_monitor_sampling_interval = _getter("monitor_sampling_interval",
                                        "get_monitor_sampling_interval")
get_numa_enable = _getter("numa_enable", "get_numa_enable")
get_auto_num_workers = _getter("auto_num_workers", "get_auto_num_workers")
get_enable_autotune = _getter("enable_autotune", "get_enable_autotune")
get_autotune_interval = _getter("autotune_interval", "get_autotune_interval")
get_enable_watchdog = _getter("enable_watchdog", "get_enable_watchdog")
get_fast_recovery = _getter("fast_recovery", "get_fast_recovery")
get_debug_mode = _getter("debug_mode", "get_debug_mode")
get_error_samples_mode = _getter("error_samples_mode", "get_error_samples_mode")
get_video_backend = _getter("video_backend", "get_video_backend")
get_auto_offload = _getter("auto_offload", "get_auto_offload")
get_dynamic_shape = _getter("dynamic_shape", "get_dynamic_shape")


def get_iterator_mode():
    """Mirrors `mindspore.dataset.config.get_iterator_mode`."""
    return dict(_state["iterator_mode"])


_LOAD_KEYS = {"seed": "seed", "numParallelWorkers": "num_parallel_workers",
              "monitorSamplingInterval": "monitor_sampling_interval",
              "callbackTimeout": "callback_timeout", "opConnectorSize": "prefetch_size",
              "numaEnable": "numa_enable"}


def load(file):
    """Mirrors `mindspore.dataset.config.load`: settings from MindSpore's JSON config file
    (its camelCase keys: seed, numParallelWorkers, monitorSamplingInterval, callbackTimeout,
    opConnectorSize, numaEnable; others are ignored)."""
    import json

    try:
        with open(file) as f:
            settings = json.load(f)
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"For 'load', cannot read the config file {file!r}: {exc}.") from None
    for key, value in settings.items():
        if key in _LOAD_KEYS:
            globals()[f"set_{_LOAD_KEYS[key]}"](value)
