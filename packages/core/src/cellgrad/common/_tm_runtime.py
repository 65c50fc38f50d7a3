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

from cellgrad._not_provided import NotProvidedError

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


def delete_(self, non_blocking=False):
    """Mirrors `Tensor.delete_`: releases the Tensor's memory and returns it, now all zeros of
    the same shape and dtype (MindSpore's CPU build has no kernel for it; here the array is
    dropped and replaced by a calloc'd one, whose pages the OS maps only when written)."""
    if not isinstance(non_blocking, bool):
        raise ValueError(f"The type of 'non_blocking' must be bool, but got {non_blocking}")
    self._data = np.zeros(self._data.shape, self._data.dtype)
    return self


def set_param_info(tensor, param_info):
    """Mirrors `Tensor.set_param_info` (a static method): attaches a Parameter's `ParamInfo`
    to `tensor`, which `tensor.param_info` then returns (a Parameter keeps its own)."""
    from cellgrad._core._buffer import TensorBuffer
    from cellgrad._param_attrs import ParamInfo

    if not isinstance(tensor, TensorBuffer):
        raise TypeError(f"For 'Tensor.set_param_info', the argument 'tensor' must be Tensor, "
                        f"but got {type(tensor).__name__}.")
    if not isinstance(param_info, ParamInfo):
        raise TypeError(f"For 'Tensor.set_param_info', the argument 'param_info' must be "
                        f"ParamInfo (a Parameter's param_info), but got "
                        f"{type(param_info).__name__}.")
    _state(tensor)["param_info"] = param_info


def _param_info(self):
    return _flag(self, "param_info", None)


def set_device_address(self, address, shape, dtype):
    """Mirrors `Tensor.set_device_address`: the Tensor now uses the memory at `address` (a data
    pointer such as another Tensor's `data_ptr()`) as `shape` and `dtype`, sharing it. As in
    MindSpore, that memory must outlive this Tensor."""
    import ctypes

    from cellgrad.dtype import dtype_to_nptype, to_dtype

    name = "Tensor.set_device_address"
    if isinstance(address, bool) or not isinstance(address, int) or address <= 0:
        raise TypeError(f"For '{name}', the argument 'address' must be a positive int (a data "
                        f"pointer), but got {address!r}.")
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise TypeError(f"For '{name}', the argument 'shape' must be a tuple or list of "
                        f"non-negative ints, but got {shape!r}.")
    np_dtype = np.dtype(dtype_to_nptype(dtype))
    count = int(np.prod(shape, dtype=np.int64))
    raw = (ctypes.c_char * (count * np_dtype.itemsize)).from_address(address)
    self._data = np.frombuffer(raw, np_dtype, count).reshape(tuple(shape))
    self._dtype = to_dtype(dtype)


def _data_ptr(self):
    return self._data.ctypes.data


_INDEX_INFO = (
    "returns the plan of MindSpore's graph compiler for lowering a Tensor index (the C++ enum "
    "codes that its GetitemTensorIndexInfo/SetitemTensorIndexInfo primitives hand to the "
    "compiled graph); cellgrad indexes eagerly and has no such plan: index the Tensor itself "
    "(x[index], x[index] = value)")


def getitem_index_info(data, index, is_ascend):
    """Mirrors `Tensor.getitem_index_info` by saying why cellgrad has no index plan."""
    raise NotProvidedError(f"Tensor.getitem_index_info {_INDEX_INFO}",
                           qualname="Tensor.getitem_index_info")


def setitem_index_info(data, index, value, is_ascend):
    """Mirrors `Tensor.setitem_index_info` by saying why cellgrad has no index plan."""
    raise NotProvidedError(f"Tensor.setitem_index_info {_INDEX_INFO}",
                           qualname="Tensor.setitem_index_info")


def set_cast_dtype(self, dtype=None):
    """Mirrors `Tensor.set_cast_dtype` by saying why it has no meaning in cellgrad."""
    raise NotProvidedError(
        "Tensor.set_cast_dtype sets the dtype MindSpore's graph compiler casts the Tensor to "
        "when it enters a compiled graph (nothing outside that compiler reads it, and the "
        "Tensor's own dtype does not change); cellgrad compiles no graph: cast it where it is "
        "used, with Tensor.astype(dtype) or ops.cast(x, dtype)",
        qualname="Tensor.set_cast_dtype")


METHODS = {
    "fold": fold, "col2im": col2im,
    "requires_grad_": requires_grad_,
    "remove_hook": staticmethod(remove_hook), "is_init": is_init,
    "set_init_flag": set_init_flag, "data_sync": data_sync, "wait_pipeline": wait_pipeline,
    "flush_from_cache": flush_from_cache, "get_bytes": get_bytes,
    "convert_bytes_to_tensor": staticmethod(convert_bytes_to_tensor), "offload": offload,
    "offload_file_path": offload_file_path, "assign_value_cpp": assign_value_cpp,
    "set_const_arg": set_const_arg, "const_arg": property(_const_arg, _set_const_arg),
    "delete_": delete_, "set_param_info": staticmethod(set_param_info),
    "param_info": property(_param_info, doc="The `ParamInfo` `set_param_info` attached."),
    "set_device_address": set_device_address, "_data_ptr": _data_ptr,
    "getitem_index_info": staticmethod(getitem_index_info),
    "setitem_index_info": staticmethod(setitem_index_info), "set_cast_dtype": set_cast_dtype,
}
