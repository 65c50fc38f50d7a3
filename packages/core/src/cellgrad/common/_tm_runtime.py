"""Tensor methods of MindSpore's runtime side: flags, raw bytes, spilling to a file, syncs.

cellgrad's Tensors are numpy arrays in host memory and every op completes before it returns,
so the syncs (`data_sync`, `wait_pipeline`, `flush_from_cache`) have nothing pending. The flags
MindSpore keeps on its C++ tensor (`set_init_flag`, `set_const_arg`, `requires_grad_`,
`offload`'s file) live in a side table keyed by the Tensor, dropped with it (the Tensor class
has fixed slots).
"""

import os
import weakref

import numpy as np

_flags = {}  # id(tensor) -> {flag: value}, removed when the tensor is collected


def _state(tensor):
    key = id(tensor)
    state = _flags.get(key)
    if state is None:
        state = _flags[key] = {}
        weakref.finalize(tensor, _flags.pop, key, None)
    return state


def _flag(tensor, name, default):
    state = _flags.get(id(tensor))
    return default if state is None else state.get(name, default)


def requires_grad_(self, requires_grad=True):
    """Mirrors `Tensor.requires_grad_`: on a Parameter sets `requires_grad`; on a Tensor keeps
    the flag (MindSpore's private `_requires_grad`), which cellgrad's functional `grad` does not
    read."""
    from cellgrad.parameter import Parameter

    if isinstance(self, Parameter):
        self.requires_grad = bool(requires_grad)
    else:
        _state(self)["requires_grad"] = bool(requires_grad)


def remove_hook(handle_id):
    """Mirrors `Tensor.remove_hook` (a static method): removes the `register_hook` hook whose
    handle has `handle_id`; an id of no live hook does nothing."""
    if not isinstance(handle_id, int) or isinstance(handle_id, bool):
        raise TypeError(f"For 'Tensor.remove_hook', the argument 'handle_id' must be int (a "
                        f"hook handle's handle_id), but got {type(handle_id).__name__}.")
    try:
        from cellgrad_hooks.handles import tensor_handle
    except ImportError:
        return  # without cellgrad-hooks no hook was ever registered
    handle = tensor_handle(handle_id)
    if handle is not None:
        handle.remove()


def is_init(self):
    """Mirrors `Tensor.is_init`: the flag `set_init_flag` set (False until then)."""
    return _flag(self, "init_flag", False)


def set_init_flag(self, flag):
    """Mirrors `Tensor.set_init_flag`."""
    _state(self)["init_flag"] = bool(flag)


def data_sync(self, wait=True):
    """Mirrors `Tensor.data_sync`: the host copy is the data itself; nothing to copy back."""


def wait_pipeline(self):
    """Mirrors `Tensor.wait_pipeline`: no task is ever pending on a cellgrad Tensor."""


def flush_from_cache(self):
    """Mirrors `Tensor.flush_from_cache`: no device cache holds a newer copy on the CPU."""


def get_bytes(self):
    """Mirrors `Tensor.get_bytes`: the Tensor's data as raw bytes (C order)."""
    return np.ascontiguousarray(self.asnumpy()).tobytes()


def convert_bytes_to_tensor(data, shape, dtype):
    """Mirrors `Tensor.convert_bytes_to_tensor` (a static method): the Tensor of `shape` and
    `dtype` whose raw bytes are `data` (what `get_bytes` returned)."""
    from cellgrad.common.tensor import Tensor
    from cellgrad.dtype import dtype_to_nptype

    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"For 'Tensor.convert_bytes_to_tensor', the argument 'data' must be "
                        f"bytes, but got {type(data).__name__}.")
    np_dtype = np.dtype(dtype_to_nptype(dtype))
    shape = tuple(shape)
    need = int(np.prod(shape, dtype=np.int64)) * np_dtype.itemsize
    if len(data) != need:
        raise ValueError(f"For 'Tensor.convert_bytes_to_tensor', a Tensor of shape {shape} and "
                         f"dtype {dtype} needs {need} bytes, but 'data' has {len(data)}.")
    return Tensor(np.frombuffer(bytes(data), dtype=np_dtype).reshape(shape).copy(), dtype)


def offload(self, file_path):
    """Mirrors `Tensor.offload`: writes the data to `file_path` (raw bytes, as `get_bytes`)
    and returns True; `offload_file_path()` then names the file."""
    if not isinstance(file_path, (str, os.PathLike)):
        raise TypeError(f"For 'Tensor.offload', the argument 'file_path' must be str, but got "
                        f"{type(file_path).__name__}.")
    path = os.fspath(file_path)
    with open(path, "wb") as f:
        f.write(get_bytes(self))
    _state(self)["offload_file_path"] = path
    return True


def offload_file_path(self):
    """Mirrors `Tensor.offload_file_path`: the file `offload` wrote, or '' before."""
    return _flag(self, "offload_file_path", "")


def assign_value_cpp(self, value):
    """Mirrors `Tensor.assign_value_cpp`: this Tensor takes `value`'s data, shape and dtype."""
    from cellgrad.common.tensor import Tensor

    if not isinstance(value, Tensor):
        raise TypeError(f"For 'Tensor.assign_value_cpp', the argument 'value' must be Tensor, "
                        f"but got {type(value).__name__}.")
    self.assign_value(value)


def set_const_arg(self, const_arg=True):
    """Mirrors `Tensor.set_const_arg`: marks the Tensor as a constant argument of a jit
    function (`const_arg`) and returns it."""
    if not isinstance(const_arg, bool):
        raise TypeError(f"For 'set_const_arg', the type of 'const_arg' should be 'bool', but got "
                        f"type '{type(const_arg).__name__}'.")
    _state(self)["const_arg"] = const_arg
    return self


def _const_arg(self):
    return _flag(self, "const_arg", False)


def _set_const_arg(self, value):
    _state(self)["const_arg"] = value


def fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `Tensor.fold`: `ops.fold(self, ...)` (sliding blocks back to an image, col2im;
    cellgrad-ops-nn provides it)."""
    from cellgrad import ops

    return ops.fold(self, output_size, kernel_size, dilation, padding, stride)


def col2im(self, output_size, kernel_size, dilation, padding_value, stride):
    """Mirrors `Tensor.col2im`: `ops.col2im(self, ...)` (cellgrad-ops-nn provides it)."""
    from cellgrad import ops

    return ops.col2im(self, output_size, kernel_size, dilation, padding_value, stride)


METHODS = {
    "fold": fold, "col2im": col2im,
    "requires_grad_": requires_grad_,
    "remove_hook": staticmethod(remove_hook), "is_init": is_init,
    "set_init_flag": set_init_flag, "data_sync": data_sync, "wait_pipeline": wait_pipeline,
    "flush_from_cache": flush_from_cache, "get_bytes": get_bytes,
    "convert_bytes_to_tensor": staticmethod(convert_bytes_to_tensor), "offload": offload,
    "offload_file_path": offload_file_path, "assign_value_cpp": assign_value_cpp,
    "set_const_arg": set_const_arg, "const_arg": property(_const_arg, _set_const_arg),
}
