"""Argument checks shared by the primitive classes; messages follow MindSpore's."""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer


def tensor(op, name, x):
    """`x` must be a Tensor."""
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', the input '{name}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def called_with(op, name, x):
    """`x` must be a Tensor (MindSpore's "Failed calling" message)."""
    if not isinstance(x, TensorBuffer):
        from cellgrad.ops._call_errors import bad_call
        raise bad_call(op, ((name, x),), ("Tensor",))
    return x


def dtype_in(op, name, x, kinds, what):
    """`x` must be a Tensor whose numpy dtype kind is in `kinds` (e.g. "f", "iu")."""
    tensor(op, name, x)
    if x._data.dtype.kind not in kinds:
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{what}, but got Tensor[{x.dtype}].")
    return x


def floating(op, name, x):
    return dtype_in(op, name, x, "f", "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}")


def indices(op, name, x):
    """An int32/int64 index Tensor (or nested ints), as a numpy array."""
    if isinstance(x, TensorBuffer):
        return dtype_in(op, name, x, "iu", "{Tensor[Int32], Tensor[Int64]}")._data
    arr = np.asarray(x)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got {type(x).__name__}.")
    return arr


def integer(op, name, value):
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'int', but got "
                        f"'{type(value).__name__}'.")
    return int(value)


def boolean(op, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'bool', but got "
                        f"'{type(value).__name__}'.")
    return bool(value)


def int_tuple(op, name, value, allow_tensor=True):
    """A tuple or list of ints (an int Tensor too when `allow_tensor`)."""
    if allow_tensor and isinstance(value, TensorBuffer):
        value = value._data.tolist()
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, bool)
            for v in value):
        raise TypeError(f"For '{op}', the type of '{name}' should be one of '[list of int, "
                        f"tuple of int]', but got {value!r}.")
    return tuple(int(v) for v in value)


def axis(op, name, value, ndim):
    """An int axis in [-ndim, ndim), normalised (a 0-d tensor has the range of a 1-d one)."""
    value = integer(op, name, value)
    rank = max(ndim, 1)
    if not -rank <= value < rank:
        raise ValueError(f"For primitive[{op}], the {name} must be in [{-rank},{rank}), but got "
                         f"{value}.")
    return value % rank
