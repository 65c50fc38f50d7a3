"""Mirrors `mindspore.parallel.set_algo_parameters` & co.: the options of MindSpore's
sharding-strategy search. cellgrad runs data parallelism only, where no strategy is
searched; the options are checked as MindSpore checks them and kept, so scripts that set them
run and read them back."""

_DEFAULTS = {"fully_use_devices": False, "elementwise_op_strategy_follow": False,
             "enable_algo_approxi": False, "algo_approxi_epsilon": 0.10000000149011612,
             "tensor_slice_align_enable": False, "tensor_slice_align_size": 16}
_TYPES = {"fully_use_devices": bool, "elementwise_op_strategy_follow": bool,
          "enable_algo_approxi": bool, "algo_approxi_epsilon": float,
          "tensor_slice_align_enable": bool, "tensor_slice_align_size": int}
_values = dict(_DEFAULTS)

__all__ = ["get_algo_parameters", "reset_algo_parameters", "set_algo_parameters"]


def set_algo_parameters(**kwargs):
    """Mirrors `mindspore.parallel.set_algo_parameters`."""
    for key, value in kwargs.items():
        if key not in _TYPES:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        kind = _TYPES[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
        if key == "algo_approxi_epsilon" and not 0 < value <= 1:
            raise RuntimeError("'epsilon' must be in (0, 1]")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise RuntimeError("'tensor_slice_align_size' must be in [1, 1024]")
    _values.update(kwargs)


def get_algo_parameters(attr_key):
    """Mirrors `mindspore.parallel.get_algo_parameters`."""
    if attr_key not in _values:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters():
    """Mirrors `mindspore.parallel.reset_algo_parameters`."""
    _values.clear()
    _values.update(_DEFAULTS)
