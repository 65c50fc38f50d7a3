"""Primitives between Python scalars/tuples and Tensors: ScalarToTensor, ScalarToArray,
ScalarCast, TupleToArray, LinSpace. Their results are constants (no gradient), as MindSpore's."""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32, float64, int32, int64, to_dtype
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive

__all__ = ["LinSpace", "ScalarCast", "ScalarToArray", "ScalarToTensor", "TupleToArray"]


def _scalar(op, value, allowed="['bool', 'int', 'float']"):
    if isinstance(value, TensorBuffer) or not isinstance(value, (numbers.Number, np.generic)) \
            or isinstance(value, complex):
        raise TypeError(f"For '{op}', the type of 'x' should be one of '{allowed}', but got "
                        f"type '{type(value).__name__}'.")
    return value


def _constant(value, dtype):
    return make_tensor(np.asarray(value).astype(dtype.np_dtype), None, 0, dtype)


class ScalarToTensor(Primitive):
    """Mirrors `mindspore.ops.ScalarToTensor()(input_x, dtype=float32)`: a 0-d Tensor."""

    def __call__(self, input_x, dtype=float32):
        return _constant(_scalar("ScalarToTensor", input_x), to_dtype(dtype))


class ScalarToArray(Primitive):
    """Mirrors `mindspore.ops.ScalarToArray()(input_x)`: a 0-d Tensor of the scalar's type
    (Int64, Float32 or Bool, as `Tensor(x)`). MindSpore 2.10's own fails in PyNative."""

    def __call__(self, input_x):
        value = _scalar("ScalarToArray", input_x)
        dt = bool_ if isinstance(value, (bool, np.bool_)) else \
            int64 if isinstance(value, (numbers.Integral, np.integer)) else float32
        return _constant(value, dt)


_CASTS = {int64: int, float64: float, bool_: bool}


class ScalarCast(Primitive):
    """Mirrors `mindspore.ops.ScalarCast()(input_x, input_t)`: a Python scalar cast to
    int64 (int), float64 (float) or bool."""

    def __call__(self, input_x, input_t):
        value = _scalar("ScalarCast", input_x, "['bool', 'Number']")
        if input_t not in _CASTS:
            raise ValueError(f"For 'ScalarCast', the supported type is in the list: "
                             f"[mindspore.int64, mindspore.float64, mindspore.bool], but got "
                             f"{input_t}")
        return _CASTS[input_t](value)


class TupleToArray(Primitive):
    """Mirrors `mindspore.ops.TupleToArray()(input_x)`: a 1-d Tensor from a tuple of numbers
    of one type (ints give Int32, floats Float32)."""

    def __call__(self, input_x):
        if not isinstance(input_x, tuple):
            raise TypeError(f"For 'TupleToArray', the type of 'x' should be 'tuple', but got "
                            f"type '{type(input_x).__name__}'.")
        if not input_x:
            raise ValueError("For 'TupleToArray', 'input_x' must not be empty.")
        for v in input_x:
            _scalar("TupleToArray", v, "['int', 'float']")
        kinds = {float if isinstance(v, (float, np.floating)) else int for v in input_x}
        if len(kinds) > 1:
            raise TypeError("For 'TupleToArray', all elements of 'input_x' must be have same "
                            "type.")
        return _constant(list(input_x), float32 if kinds == {float} else int32)


class LinSpace(Primitive):
    """Mirrors `mindspore.ops.LinSpace()(start, stop, num)`: `num` evenly spaced values from
    `start` to `stop` (0-d float Tensors) inclusive, of `start`'s dtype."""

    def __call__(self, start, stop, num):
        for name, v in (("start", start), ("stop", stop)):
            if not isinstance(v, TensorBuffer):
                raise TypeError(f"For 'LinSpace', '{name}' must be a Tensor, but got "
                                f"{type(v).__name__}.")
            C.dtype_in("LinSpace", f"{name} type", v, "f", "{Tensor[Float32], Tensor[Float64]}")
        if isinstance(num, TensorBuffer):
            num = num._data.item()
        num = C.integer("LinSpace", "num", num)
        if num <= 0:
            raise ValueError(f"For 'LinSpace', 'num' must be positive, but got {num}.")
        values = np.linspace(start._data.item(), stop._data.item(), num)
        return _constant(values, start.dtype)
