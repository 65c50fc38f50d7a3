"""Mirrors `mindspore.common.device`: `DeviceCtx`, the device a block of code runs on."""

from cellgrad import device_manager

_TARGETS = ["CPU", "GPU", "Ascend", "meta"]


class DeviceCtx:
    """Mirrors `mindspore.DeviceCtx(name, device_id=None)`: `with DeviceCtx("CPU", 0):` sets
    the current device inside the block and restores the previous one after. cellgrad has the
    CPU only: "GPU" and "Ascend" raise `set_device`'s error, and "meta" (data-less tensors,
    which cellgrad does not have) says so."""

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id
        self._previous = []

    def __enter__(self):
        if self.name not in _TARGETS:
            raise ValueError(f"For DeviceCtx, the name must be one of {_TARGETS}, but got "
                             f"{self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == "meta":
            raise RuntimeError("For DeviceCtx, cellgrad has no 'meta' device (Tensors without "
                               "data): create the Tensors on the CPU, or build Parameters lazily "
                               "with nn.no_init_parameters().")
        self._previous.append(dict(device_manager._current))
        try:
            device_manager.set_device(self.name, self.device_id)
        except Exception:
            device_manager._current.update(self._previous.pop())
            raise
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        device_manager._current.update(self._previous.pop())
