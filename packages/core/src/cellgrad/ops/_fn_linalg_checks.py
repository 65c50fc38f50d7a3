"""Argument checks and small helpers the linear-algebra modules share."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops import functional as F


def _tensor(op, name, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(x).__name__}.")


def _matrix(op, name, x, square=False):
    _tensor(op, name, x)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', '{name}' must be at least 2-D, but got shape {x.shape}.")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{op}', '{name}' must be square matrices (*, n, n), but got "
                         f"shape {x.shape}.")


def _mT(x):
    return F.swapaxes(x, -1, -2)


def _eye_like(x, n=None, m=None):
    n = x.shape[-1] if n is None else n
    return F.cast(F.eye(n, n if m is None else m), x.dtype)
