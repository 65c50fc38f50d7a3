"""Mirrors `mindspore.ops.operations.array_ops`: every Primitive class of `cellgrad.ops`
(cellgrad does not keep the split of `ops.operations` into modules; see `cellgrad._paths`),
and the module's own `ConcatOffsetV1`."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ConcatOffsetV1"]


def _int32_tensor(name, value):
    if not isinstance(value, TensorBuffer):
        raise TypeError(f"For Primitive[ConcatOffsetV1], the type of input argument[{name}] must "
                        f"be Tensor but got {type(value).__name__}.")
    if value.dtype.py_name != "int32":
        raise TypeError(f"For primitive[ConcatOffsetV1], the input argument[{name}] must be a "
                        f"type of {{Tensor[Int32]}}, but got Tensor[{value.dtype}].")
    return value.asnumpy()


class ConcatOffsetV1(Primitive):
    """Mirrors `array_ops.ConcatOffsetV1()(axis, x)`: for int32 shape vectors `x` of the inputs
    of a concatenation along `axis` (a 0-d int32 Tensor), each input's offset in the output:
    a tuple of int32 Tensors, zero except the running sum on `axis` (Concat's gradient). A bad
    axis or mismatched shapes raise RuntimeError, as MindSpore's kernel launch does."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["axis", "x"], outputs=["y"])

    def __call__(self, axis, x):
        axis = int(_int32_tensor("axis", axis))
        if not isinstance(x, (tuple, list)) or not x:
            raise TypeError(f"For 'ConcatOffsetV1', 'x' must be a non-empty tuple or list of "
                            f"Tensors, but got {type(x).__name__}.")
        shapes = [_int32_tensor(f"tensor{i}", v).reshape(-1) for i, v in enumerate(x)]
        rank = shapes[0].size
        if not -rank <= axis < rank:
            raise RuntimeError(f"For 'ConcatOffsetV1', 'axis' must be in [{-rank}, {rank}), but "
                             f"got {axis}.")
        axis %= rank
        offsets, position = [], 0
        for i, shape in enumerate(shapes):
            if shape.size != rank or np.any(np.delete(shape, axis) != np.delete(shapes[0], axis)):
                raise RuntimeError(f"For 'ConcatOffsetV1', input {i} has shape {shape.tolist()}, "
                                 f"which differs from input 0's {shapes[0].tolist()} outside "
                                 f"axis {axis}.")
            offset = np.zeros(rank, np.int32)
            offset[axis] = position
            position += int(shape[axis])
            offsets.append(make_tensor(offset))
        return tuple(offsets)


__getattr__, __dir__ = _plugin_names(__name__)
