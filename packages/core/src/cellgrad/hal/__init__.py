"""`mindspore.hal` on the CPU: the device queries real code makes before it picks a device.

cellgrad computes on the CPU only, with numpy: the CPU backend is available and initialized,
Ascend and GPU are not, and `synchronize` has nothing to wait for. Streams, events and device
memory statistics say why they are missing (`cellgrad._not_provided`).
"""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.runtime import synchronize

_BACKENDS = ("CPU", "GPU", "Ascend")


def _target(device_target, prefix):
    if device_target not in _BACKENDS:
        raise ValueError(f"{prefix}the argument 'device_target' must be one of "
                         f"{list(_BACKENDS)}, but got {device_target}.")
    return device_target


def is_available(device_target):
    """Mirrors `mindspore.hal.is_available`: True for "CPU" only."""
    return _target(device_target, "For 'hal.is_available', ") == "CPU"


def is_initialized(device_target):
    """Mirrors `mindspore.hal.is_initialized`: True for "CPU" (cellgrad's CPU backend needs no
    initialization; MindSpore's says False until its first op ran), False for GPU and Ascend."""
    return _target(device_target, "For 'hal.is_initialized', ") == "CPU"


def device_count(device_target=None):
    """Mirrors `mindspore.hal.device_count`: one CPU device; GPU and Ascend are not available."""
    if device_target is None or _target(device_target, "") == "CPU":
        return 1
    raise ValueError(f"{device_target} backend is not available for this MindSpore package."
                     "You can call hal.is_available to check the reason.")


__all__ = ["synchronize", "is_available", "is_initialized", "device_count"]

__getattr__, __dir__ = _plugin_names(__name__)
