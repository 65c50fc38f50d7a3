"""Argument and input checks shared by the layers; errors name the layer and what was seen."""

from cellgrad._errors import ShapeError
from cellgrad.common.tensor import Tensor


def positive_int(layer, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{layer}', the '{name}' must be int, but got "
                        f"'{type(value).__name__}' {value!r}.")
    if value < 1:
        raise ValueError(f"For '{layer}', '{name}' must be a positive int, but got {value!r}.")
    return value


def number_in(layer, name, value, low, high, low_open=False, high_open=False):
    """`value` as a float within [low, high] (open ends as asked)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"For '{layer}', '{name}' must be a number, but got "
                        f"{type(value).__name__} {value!r}.")
    bad = value < low or value > high or (low_open and value == low) or \
        (high_open and value == high)
    if bad:
        interval = f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"For '{layer}', '{name}' must be in {interval}, but got {value}.")
    return float(value)


def describe(x):
    return f"shape {tuple(x.shape)} {x.dtype}" if isinstance(x, Tensor) else type(x).__name__


def input_tensor(layer, x, ranks, layout):
    """`x` must be a Tensor of one of `ranks` dimensions; `layout` names them, e.g. (N, C, H, W)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{layer}', the input must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim not in ranks:
        expected = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"For '{layer}', the input must be {expected} {layout}, but got "
                         f"{describe(x)}.")


def channels(layer, x, axis, expected, name="in_channels"):
    if x.shape[axis] != expected:
        raise ShapeError(f"For '{layer}', the input's dimension {axis} must be {name}="
                         f"{expected}, but got input {describe(x)}.")


def same_dtype(layer, x, weight, name="weight"):
    """MindSpore's layers refuse an input of another dtype than their weight (no promotion)."""
    if x.dtype != weight.dtype:
        raise TypeError(f"For '{layer}', the type of the input should be same as '{name}', but "
                        f"got the input with type Tensor[{x.dtype}] and '{name}' with type "
                        f"Tensor[{weight.dtype}].")
