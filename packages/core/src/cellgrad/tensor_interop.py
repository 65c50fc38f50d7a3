"""Top-level `mindspore` names for tensors on a CPU: `is_tensor`, DLPack exchange through
numpy (`to_dlpack`, `from_dlpack`), `frombuffer`, `swap_tensors`, `synchronize`, and the
default `Generator`'s seed functions (`seed`, `manual_seed`, `initial_seed`,
`get_rng_state`, `set_rng_state`), and `get_grad` for `grad(..., return_ids=True)`."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops._fn_random2 import Generator, default_generator


def is_tensor(obj):
    """Mirrors `mindspore.is_tensor`: whether `obj` is a Tensor (a Parameter is one)."""
    return isinstance(obj, TensorBuffer)


def to_dlpack(tensor):
    """Mirrors `mindspore.to_dlpack`: a DLPack capsule sharing the tensor's CPU memory."""
    if not isinstance(tensor, TensorBuffer):
        raise TypeError(f"For 'to_dlpack', the input must be a Tensor, but got "
                        f"{type(tensor).__name__}.")
    data = tensor._data
    if not data.flags.c_contiguous:
        tensor._data = data = np.ascontiguousarray(data)
    return data.__dlpack__()


class _Capsule:
    """A DLPack capsule presented with the protocol numpy's `from_dlpack` asks for."""

    def __init__(self, capsule):
        self._capsule = capsule

    def __dlpack__(self, *args, **kwargs):
        return self._capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def from_dlpack(dlpack):
    """Mirrors `mindspore.from_dlpack`: a Tensor sharing the memory of a DLPack capsule (or of
    any object with `__dlpack__` on the CPU)."""
    from cellgrad.common.tensor import Tensor

    source = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    try:
        data = np.from_dlpack(source)
    except (TypeError, RuntimeError, BufferError) as e:
        raise TypeError(f"For 'from_dlpack', the input must be a CPU DLPack capsule or an object "
                        f"with __dlpack__, but got {type(dlpack).__name__}: {e}") from None
    return Tensor(data) if data.dtype.kind != "V" else make_tensor(data)


def frombuffer(buffer, dtype, count=-1, offset=0):
    """Mirrors `mindspore.frombuffer`: a 1-D Tensor over the bytes of `buffer`."""
    from cellgrad.dtype import to_dtype

    dt = to_dtype(dtype)
    data = np.frombuffer(buffer, dt.np_dtype, count, offset).copy()
    return make_tensor(data, None, 0, dt)


def swap_tensors(t1, t2):
    """Mirrors `mindspore.swap_tensors`: the two Tensors exchange their values, shapes and
    dtypes."""
    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, TensorBuffer):
            raise TypeError(f"For 'swap_tensors', '{name}' must be a Tensor, but got "
                            f"{type(t).__name__}.")
    t1._data, t2._data = t2._data, t1._data
    t1._dtype, t2._dtype = t2._dtype, t1._dtype


def synchronize():
    """Mirrors `mindspore.synchronize`: every op has finished when it returns (cellgrad runs
    synchronously), so there is nothing to wait for."""
    return None


def seed():
    """Mirrors `mindspore.seed`: seeds the default generator from fresh entropy; returns the
    seed."""
    return default_generator.seed()


def manual_seed(seed):
    """Mirrors `mindspore.manual_seed`: sets the default generator's seed; returns it."""
    return default_generator.manual_seed(seed)


def initial_seed():
    """Mirrors `mindspore.initial_seed`: the default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state():
    """Mirrors `mindspore.get_rng_state`: the default generator's state (16 UInt8 values)."""
    return default_generator.get_state()


def set_rng_state(state):
    """Mirrors `mindspore.set_rng_state`: restores the default generator's state."""
    default_generator.set_state(state)


def get_grad(gradients, identifier):
    """Mirrors `mindspore.get_grad`: the gradient tagged `identifier` (an input position or a
    Parameter) in the result of `grad(..., return_ids=True)`."""
    def walk(item):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], TensorBuffer) \
                and not isinstance(item[0], TensorBuffer):
            key = item[0]
            if key == identifier if isinstance(identifier, int) else key is identifier or (
                    getattr(identifier, "name", None) is not None and key == identifier.name):
                return item[1]
            return None
        if isinstance(item, (tuple, list)):
            for sub in item:
                found = walk(sub)
                if found is not None:
                    return found
        return None

    found = walk(gradients)
    if found is None:
        what = identifier if isinstance(identifier, int) else getattr(identifier, "name",
                                                                      identifier)
        raise RuntimeError(f"Can not find the gradient for position or Parameter {what}")
    return found


__all__ = ["Generator", "is_tensor", "to_dlpack", "from_dlpack", "frombuffer", "swap_tensors",
           "synchronize", "seed", "manual_seed", "initial_seed", "get_rng_state",
           "set_rng_state", "get_grad"]
