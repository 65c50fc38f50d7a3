"""The helpers of MindSpore's private `mindspore.parallel._utils` that real training code
imports (model-zoo TrainOneStepCell wrappers: `_get_parallel_mode`, `_get_gradients_mean`,
`_get_device_num`, ...), on cellgrad's auto-parallel context, with MindSpore 2.10's rules."""

from cellgrad.parallel_context import get_auto_parallel_context as _get
from cellgrad.parallel_context import is_set as _is_set


def _get_parallel_mode():
    """The context's `parallel_mode`."""
    return _get("parallel_mode")


def _get_gradients_mean():
    """The context's `gradients_mean`."""
    return _get("gradients_mean")


def _get_device_num():
    """1 when stand-alone; else `device_num` if it was set, or the world's size."""
    if _get_parallel_mode() == "stand_alone":
        return 1
    return _get("device_num") if _is_set("device_num") else _world()[1]


def _get_global_rank():
    """0 when stand-alone; else `global_rank` if it was set, or this process's rank."""
    if _get_parallel_mode() == "stand_alone":
        return 0
    return _get("global_rank") if _is_set("global_rank") else _world()[0]


def _get_enable_parallel_optimizer():
    """The context's `enable_parallel_optimizer`."""
    return _get("enable_parallel_optimizer")


def _get_pipeline_stages():
    """The context's `pipeline_stages`."""
    return _get("pipeline_stages")


def _is_sharding_propagation():
    """Whether sharding propagation is on (always False: cellgrad refuses auto parallel)."""
    return _get("search_mode") == "sharding_propagation" or _get("sharding_propagation")


def _world():
    """(rank, size) from cellgrad-distributed's world, (0, 1) without it."""
    from cellgrad import communication

    try:
        return communication.get_rank(), communication.get_group_size()
    except AttributeError:  # cellgrad-distributed is not installed
        return 0, 1
