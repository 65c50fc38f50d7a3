"""Mirrors `mindspore.device_manager`: `set_device`, `get_current_device`,
`set_deterministic`. cellgrad computes on the CPU only."""

__all__ = ["get_current_device", "set_deterministic", "set_device"]

_DEVICES = ("CPU", "GPU", "Ascend")
_current = {"device_target": "CPU", "device_id": 0, "deterministic": True}


class DeviceInfo(tuple):
    """(device_target, device_id), with those names as attributes, as MindSpore returns."""

    def __new__(cls, device_target, device_id):
        return super().__new__(cls, (device_target, device_id))

    device_target = property(lambda self: self[0])
    device_id = property(lambda self: self[1])


def set_device(device_target, device_id=None):
    """Mirrors `mindspore.set_device`: 'CPU' is accepted; 'GPU' and 'Ascend' raise
    MindSpore's error for a build without them (cellgrad has only the CPU)."""
    if device_target not in _DEVICES:
        raise ValueError(f"The argument 'device_target' must be one of {list(_DEVICES)}, but "
                         f"got {device_target!r}.")
    if device_id is not None and (isinstance(device_id, bool) or not isinstance(device_id, int)
                                  or device_id < 0):
        raise ValueError(f"The argument 'device_id' must be a non-negative int, but got "
                         f"{device_id!r}.")
    if device_target != "CPU":
        raise RuntimeError(f"Unsupported device target {device_target}. This process only "
                           f"supports one of the ['CPU']. cellgrad computes with numpy on the "
                           f"CPU; remove set_device or pass 'CPU'.")
    _current["device_target"] = "CPU"
    _current["device_id"] = 0 if device_id is None else device_id


def get_current_device():
    """Mirrors `mindspore.get_current_device`: (device_target, device_id)."""
    return DeviceInfo(_current["device_target"], _current["device_id"])


def set_deterministic(deterministic):
    """Mirrors `mindspore.set_deterministic`: cellgrad's CPU computation is deterministic
    either way (its reductions run in a fixed order); the flag is checked and recorded."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"The argument 'deterministic' must be bool, but got "
                        f"{type(deterministic).__name__}.")
    _current["deterministic"] = deterministic
