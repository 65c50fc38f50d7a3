"""`ops.TensorDump`, `ops.tensordump` and `ops.DumpGradient`: tensors written to .npy files.

MindSpore 2.10 names each file `<last part of file>_<dtype>_<id>.npy` next to the given path
(a trailing `.npy` dropped, the id one counter for the whole process); bfloat16 data is stored
as float32 under the name `bfloat16`. Its CPU build writes the same name for mode 'in' when not
running in parallel (the `_in` part is for sliced inputs), and so does cellgrad. MindSpore
writes asynchronously; cellgrad writes before the call returns.
"""

import itertools
import os

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops._registry import Op, apply
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["DumpGradient", "TensorDump", "tensordump"]

_ids = itertools.count()


def _write(file, tensor):
    """Save `tensor` as MindSpore names its dump of `file`; returns the path written."""
    head, tail = os.path.split(file)
    if tail.endswith(".npy"):
        tail = tail[:-4]
    name = str(tensor.dtype).lower()
    data = tensor.asnumpy()
    if name == "bfloat16":
        data = data.astype(np.float32)
    path = os.path.join(head, f"{tail}_{name}_{next(_ids)}.npy")
    if head:
        os.makedirs(head, exist_ok=True)
    np.save(path, data)
    return path


class TensorDump(Primitive):
    """Mirrors `mindspore.ops.TensorDump(input_output='out')(file, input_x)`: saves `input_x`
    as `<file>_<dtype>_<id>.npy` and returns None."""

    @prim_attr_register
    def __init__(self, input_output='out'):
        if input_output not in ['in', 'out']:
            raise ValueError(f"The 'input_output' argument should be one of ['in', 'out'], but "
                             f"got: {input_output}")
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", "ms_tensor_dump")

    def __call__(self, file, input_x):
        if not isinstance(file, str):
            raise TypeError(f"For 'TensorDump', the type of 'file' should be 'str', but got type "
                            f"'{type(file).__name__}'.")
        if not file:
            raise ValueError("For 'TensorDump', the input argument[file] cannot be an empty "
                             "string.")
        if not isinstance(input_x, TensorBuffer):
            raise TypeError(f"For 'TensorDump', the type of 'input_x' should be 'Tensor', but got "
                            f"type '{type(input_x).__name__}'.")
        _write(file, input_x)


def tensordump(file_name, tensor, mode='out'):
    """Mirrors `mindspore.ops.tensordump`: `TensorDump(mode)(file_name, tensor)`."""
    if not isinstance(file_name, str):
        raise TypeError(f"Parameter file_name should only be build_in str type but got: "
                        f"{type(file_name)}")
    if not isinstance(tensor, TensorBuffer):
        raise TypeError(f"Parameter tensor should only be Tensor type, but got: {type(tensor)}")
    if not isinstance(mode, str):
        raise TypeError(f"Parameter mode should only be build_in str type, but got: {type(mode)}")
    mode_list = ['out', 'in']
    if mode not in mode_list:
        if mode == 'all':
            raise ValueError("Argument [mode] has been not supported value of 'all'.")
        raise ValueError(f"Parameter mode should in {mode_list}, but got {mode}")
    return TensorDump(input_output=mode)(file_name, tensor)


# ---- DumpGradient: identity forward; the backward saves the gradient reaching `x` ----

def _dump_grad_forward(x, *, path, dtype):
    return x, (path, dtype)


def _dump_grad_backward(ctx, g):
    path, dtype = ctx.saved
    if g is not None:
        t = g if isinstance(g, TensorBuffer) else make_tensor(np.asarray(g), None, 0, dtype)
        TensorDump()(path, t)
    return g


_DUMP_GRAD_OP = Op("DumpGradient", _dump_grad_forward, _dump_grad_backward)


class DumpGradient(Primitive):
    """Mirrors `mindspore.ops.DumpGradient()(path, x, input_output)`: returns `x`; the backward
    pass saves the gradient flowing to `x` as TensorDump does (`<path>_<dtype>_<id>.npy`)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, path, x, input_output):
        if not isinstance(x, TensorBuffer):
            return x  # MindSpore's InsertGradientOf passes a non-Tensor through
        out = apply(_DUMP_GRAD_OP, (x,), {"path": path, "dtype": x._dtype})
        out._dtype = x._dtype
        return out
