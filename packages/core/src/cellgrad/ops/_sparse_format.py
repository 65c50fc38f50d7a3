"""The text of a sparse tensor, character for character as MindSpore prints it.

MindSpore's sparse tensors print their parts with the C++ ``Tensor::ToString``, which differs
from ``repr(Tensor)``: no commas between elements, no space after ``value=`` for a 1-D tensor,
and a tensor of 30 or more elements prints as ``[...]``.
"""

from __future__ import annotations

import numpy as np

from cellgrad._format import _repr_value

__all__ = ["part_text", "sparse_text"]

_PRINT_LIMIT = 30  # ToString prints the elements only of a tensor smaller than this


def _values(arr: np.ndarray, dtype_name: str) -> str:
    if arr.ndim and arr.size >= _PRINT_LIMIT:
        return "[...]"
    return _repr_value(arr, dtype_name, sep="")  # repr(Tensor)'s layout without commas


def part_text(tensor) -> str:
    """One part (indices, values, indptr) as ``Tensor::ToString`` writes it."""
    arr, name = tensor.asnumpy(), str(tensor.dtype)
    shape = ", ".join(str(n) for n in arr.shape)
    text = _values(arr, name)
    sep = "\n" if arr.ndim > 1 and text != "[...]" else ""
    return f"Tensor(shape=[{shape}], dtype={name}, value={sep}{text})"


def sparse_text(kind: str, shape: tuple, dtype, parts: dict) -> str:
    """``COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(...), values=Tensor(...))``."""
    dims = ", ".join(str(n) for n in shape)
    body = ", ".join(f"{name}={part_text(t)}" for name, t in parts.items())
    return f"{kind}(shape=[{dims}], dtype={dtype}, {body})"
