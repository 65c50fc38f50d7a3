"""Argument checks shared by the functional ops: errors name the op, the argument, what was
seen and what was expected, with MindSpore's exception classes."""

from __future__ import annotations

from cellgrad._core._buffer import TensorBuffer

REDUCTIONS = ("none", "mean", "sum")


def describe(x) -> str:
    """`Tensor(shape=(2, 3), dtype=Float32)`, or the type name of a non-Tensor."""
    if isinstance(x, TensorBuffer):
        return f"Tensor(shape={tuple(x.shape)}, dtype={x.dtype})"
    return type(x).__name__


def tensor(op: str, name: str, x) -> TensorBuffer:
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, got {type(x).__name__}.")
    return x


def floating(op: str, name: str, x) -> TensorBuffer:
    """A Tensor of a floating dtype (Float16/32/64, BFloat16)."""
    tensor(op, name, x)
    if not x.dtype.is_floating:
        raise TypeError(f"For '{op}', '{name}' must be a floating Tensor (Float16, Float32, "
                        f"Float64), got {describe(x)}.")
    return x


def integer(op: str, name: str, x) -> TensorBuffer:
    """A Tensor of an integer dtype (class indices)."""
    tensor(op, name, x)
    if x.dtype.is_floating or str(x.dtype) == "Bool":
        raise TypeError(f"For '{op}', '{name}' must be an integer Tensor (Int32, Int64), got "
                        f"{describe(x)}.")
    return x


def reduction(op: str, value) -> str:
    if value not in REDUCTIONS:
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', 'sum', got "
                         f"{value!r}.")
    return value


def axis(op: str, value, ndim: int, name: str = "axis") -> int:
    """An int axis in [-ndim, ndim) (a 0-d tensor counts as rank 1), made non-negative."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, got {type(value).__name__} "
                        f"{value!r}.")
    rank = max(ndim, 1)
    if not -rank <= value < rank:
        raise ValueError(f"For '{op}', '{name}' must be in [{-rank}, {rank}) for an input of "
                         f"rank {ndim}, got {value}.")
    return value % rank


def number(op: str, name: str, value, types=(int, float)) -> float:
    if isinstance(value, bool) or not isinstance(value, types):
        kinds = " or ".join(t.__name__ for t in types)
        raise TypeError(f"For '{op}', '{name}' must be a {kinds}, got {type(value).__name__} "
                        f"{value!r}.")
    return float(value)


def same_shape(op: str, a_name: str, a, b_name: str, b) -> None:
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"For '{op}', '{a_name}' and '{b_name}' must have the same shape, got "
                         f"{describe(a)} and {describe(b)}.")
