"""Argument checks of the recurrent layers and cells, with MindSpore's error classes."""

from cellgrad._core._buffer import TensorBuffer

from cellgrad.dtype import float16, float32, float64

# MindSpore takes Float32 and Float16; Float64 is accepted too so whole layers gradcheck.
FLOATS = (float32, float16, float64)


def describe(x) -> str:
    if isinstance(x, TensorBuffer):
        return f"Tensor(shape={tuple(x.shape)}, dtype={x.dtype})"
    return type(x).__name__


def tensor(cell, name, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{cell}', the '{name}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    return x


def floating(cell, name, x, floats=FLOATS):
    tensor(cell, name, x)
    if x.dtype not in floats:
        allowed = ", ".join(str(d) for d in floats)
        raise TypeError(f"For '{cell}', the '{name}' must have dtype one of {allowed}, but got "
                        f"{describe(x)}.")
    return x


def state_tuple(cell, name, hx):
    """An LSTM's (h, c): a tuple of two Tensors."""
    if not isinstance(hx, tuple):
        raise TypeError(f"For '{cell}', the '{name}' must be a tuple (h, c) of two Tensors, but "
                        f"got {describe(hx)}.")
    if len(hx) != 2:
        raise TypeError(f"For '{cell}', the length of '{name}' must be 2 (h, c), but got "
                        f"{len(hx)}.")
    tensor(cell, f"{name}[0]", hx[0])
    tensor(cell, f"{name}[1]", hx[1])
    return hx


def shape(cell, name, x, expected, what):
    if tuple(x.shape) != tuple(expected):
        raise ValueError(f"For '{cell}', the '{name}' must have shape {tuple(expected)} "
                         f"({what}), but got {describe(x)}.")


def same_dtype(cell, x, name, other):
    if other.dtype != x.dtype:
        raise TypeError(f"For '{cell}', the '{name}' must have the dtype of 'x' ({x.dtype}), "
                        f"but got {describe(other)}.")


def check_bool(cell, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For '{cell}', the type of '{name}' should be 'bool', but got type "
                        f"'{type(value).__name__}'.")
    return value


def positive_int(cell, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{cell}', the '{name}' must be int and must > 0, but got "
                         f"'{value}' with type '{type(value).__name__}'.")
    return value
