"""Functions of `mindspore.ops.functional` on Python values and sequences: `partial`,
`tuple_to_array`, `scalar_to_tensor`, `make_range`, `tuple_len`, `identity`, `is_tensor`,
`mixed_precision_cast`."""

import functools
import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int32, to_dtype


def partial(*args):
    """Mirrors `mindspore.ops.partial`: `functools.partial` of the first argument's
    `__call__` with the remaining arguments bound."""
    return functools.partial(args[0].__call__, *args[1:])


def tuple_to_array(input_x):
    """Mirrors `mindspore.ops.tuple_to_array`: a tuple of numbers as a Tensor, Int32 when its
    first element is an int (or bool), else Float32. MindSpore 2.10 returns None for a list."""
    if isinstance(input_x, list):
        return None
    if not isinstance(input_x, tuple):
        raise TypeError(f"For 'tuple_to_array', 'input_x' must be a tuple of numbers, but got "
                        f"{type(input_x).__name__}.")
    if not input_x:
        raise IndexError("For 'tuple_to_array', 'input_x' is an empty tuple; expected at least "
                         "one number.")
    dt = int32 if isinstance(input_x[0], int) else float32
    return make_tensor(np.array(input_x).astype(dt.np_dtype), None, 0, dt)


def scalar_to_tensor(input_x, dtype=float32):
    """Mirrors `mindspore.ops.scalar_to_tensor`: a bool, int or float as a 0-d Tensor."""
    if not isinstance(input_x, (bool, int, float)):
        raise TypeError(f"For 'ScalarToTensor', the type of 'x' should be one of '['bool', "
                        f"'int', 'float']', but got type '{type(input_x).__name__}'.")
    dt = to_dtype(dtype)
    return make_tensor(np.array(input_x).astype(dt.np_dtype), None, 0, dt)


def make_range(*args):
    """Mirrors `mindspore.ops.make_range`: `range(*args)` as a tuple of ints."""
    if not 1 <= len(args) <= 3:
        raise RuntimeError(f"For 'make_range', the input size should within [1, 3] but got"
                           f"{len(args)}")
    for i, a in enumerate(args):
        if isinstance(a, bool) or not isinstance(a, numbers.Integral):
            raise TypeError(f"For 'make_range', the {i}th input should be a int scalar but got "
                            f"{type(a).__name__} {a!r}.")
    if len(args) == 3 and args[2] == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    return tuple(range(*(int(a) for a in args)))


def tuple_len(*args):
    """Mirrors `mindspore.ops.tuple_len`: the length of one tuple or list."""
    if len(args) != 1:
        raise ValueError(f"For primitive[sequence_len], the input number must be equal to 1, "
                         f"but got {len(args)}.")
    (seq,) = args
    if not isinstance(seq, (tuple, list)):
        raise RuntimeError(f"For 'tuple_len', the input must be a tuple or list, but got "
                           f"{type(seq).__name__}.")
    return len(seq)


def identity(x):
    """Mirrors `mindspore.ops.identity`: returns `x` itself."""
    return x


def is_tensor(obj):
    """Mirrors `mindspore.ops.is_tensor`: whether `obj` is a Tensor (or Parameter)."""
    return isinstance(obj, TensorBuffer)


_CASTABLE = ("Float16", "Float32", "Float64", "BFloat16")


def mixed_precision_cast(dst_dtype, x):
    """Mirrors `mindspore.ops.mixed_precision_cast`: casts every floating Tensor of `x` (a
    Tensor or nested tuples/lists of them, which come back as tuples) to `dst_dtype`; other
    values, dicts included, pass unchanged."""
    from cellgrad.ops.composite import HyperMap
    from cellgrad.ops.creation import cast

    def cast_inner(data):
        if isinstance(data, TensorBuffer) and str(data.dtype) in _CASTABLE:
            return cast(data, dst_dtype)
        return data

    return HyperMap()(cast_inner, x)
