"""Leftover Tensor methods (an area of `_tensor_methods.AREAS`): `diff`, `hardshrink`,
`soft_shrink`, and the memory queries with their CPU meaning (`is_pinned`, `is_shared`,
`pin_memory`, `to_`, `storage`): cellgrad's Tensors live in ordinary, unshared host memory."""

import inspect

import numpy as np

from cellgrad import ops as O
from cellgrad.ops import functional as F


def _lambd(method, lambd):
    if isinstance(lambd, bool) or not isinstance(lambd, (int, float)):
        raise TypeError(f"For '{method}', the type of 'lambd' must be float, but got "
                        f"{type(lambd).__name__}.")
    return float(lambd)


def diff(self, n=1, axis=-1, prepend=None, append=None):
    """Mirrors `Tensor.diff`: `ops.diff(self, ...)`."""
    return O.diff(self, n, axis, prepend, append)


def hardshrink(self, lambd=0.5):
    """Mirrors `Tensor.hardshrink`: `self` where `|self| > lambd`, else 0."""
    lambd = _lambd("hardshrink", lambd)
    return F.where(F.greater(F.abs(self), lambd), self, F.zeros_like(self))


def soft_shrink(self, lambd=0.5):
    """Mirrors `Tensor.soft_shrink`: `self - lambd` above `lambd`, `self + lambd` below
    `-lambd`, else 0."""
    lambd = _lambd("soft_shrink", lambd)
    if lambd < 0:
        raise ValueError(f"For 'soft_shrink', the 'lambd' must be no less than 0, but got "
                         f"{lambd}.")
    zero = F.zeros_like(self)
    return F.where(F.greater(self, lambd), F.sub(self, lambd),
                   F.where(F.less(self, -lambd), F.add(self, lambd), zero))


def is_pinned(self):
    """Mirrors `Tensor.is_pinned`: False (host memory is not page-locked for a device)."""
    return False


def is_shared(self):
    """Mirrors `Tensor.is_shared`: False (the data is not in shared memory)."""
    return False


def pin_memory(self):
    """Mirrors `Tensor.pin_memory`: with no device to copy to, the Tensor itself."""
    return self


def to_(self, device=None, non_blocking=False):
    """Mirrors `Tensor.to_(device=None, non_blocking=False)`: cellgrad runs on the CPU, so
    'CPU' (or None) returns the Tensor itself; 'Ascend' has no device here."""
    if device is None or device == "CPU":
        return self
    if device == "Ascend":
        raise RuntimeError("For 'to_', cellgrad runs on the CPU only and has no 'Ascend' "
                           "device; keep the Tensor on the CPU (device='CPU').")
    raise ValueError(f"The value of 'to' must be one of ['Ascend', 'CPU'], but got {device}")


class UntypedStorage:
    """Mirrors `mindspore.UntypedStorage` as `Tensor.untyped_storage()` returns it: the
    Tensor's bytes in host memory ('CPU'); `copy_` writes them in place."""

    __signature__ = inspect.Signature()  # MindSpore's: made only by Tensor.untyped_storage()

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'UntypedStorage' instances")

    @classmethod
    def _of(cls, tensor):
        data = tensor._data
        if not data.flags.c_contiguous:
            raise RuntimeError("For 'untyped_storage', the Tensor's data must be contiguous; "
                               "call Tensor.contiguous() first.")
        storage = object.__new__(cls)
        storage._tensor, storage._bytes = tensor, data.reshape(-1).view(np.uint8)
        return storage

    device = "CPU"

    @property
    def dtype(self):
        return self._tensor.dtype

    def element_size(self):
        return 1

    def nbytes(self):
        return int(self._bytes.size)

    def size(self):
        return int(self._bytes.size)

    def data_ptr(self):
        return int(self._bytes.ctypes.data)

    def is_shared(self):
        return False

    def copy_(self, src, non_blocking=False):
        """Write the bytes of `src` (an UntypedStorage of as many bytes) into this one."""
        if not isinstance(src, UntypedStorage) or src.nbytes() != self.nbytes():
            raise RuntimeError(f"For 'UntypedStorage.copy_', 'src' must be an UntypedStorage "
                               f"of {self.nbytes()} bytes, but got {src!r}.")
        self._bytes[...] = src._bytes
        return self


def untyped_storage(self):
    """Mirrors `Tensor.untyped_storage`: the Tensor's bytes as an UntypedStorage."""
    return UntypedStorage._of(self)


def hooks(self):
    """Mirrors `Tensor.hooks`: the functions `register_hook` put on this Tensor (none without
    cellgrad-hooks, which is what registers them)."""
    if self._node is None or not self._node.hooks:
        return []
    try:
        from cellgrad_hooks.tensor_hooks import hooks_of
    except ImportError:
        return []
    return hooks_of(self)


METHODS = {"hooks": hooks, "diff": diff, "hardshrink": hardshrink, "soft_shrink": soft_shrink,
           "is_pinned": is_pinned, "is_shared": is_shared, "pin_memory": pin_memory,
           "to_": to_, "storage": untyped_storage, "untyped_storage": untyped_storage}
