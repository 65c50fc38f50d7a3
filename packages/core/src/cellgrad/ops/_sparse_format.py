"""The text of a sparse tensor, character for character as MindSpore prints it.

MindSpore's sparse tensors print their parts with the C++ ``Tensor::ToString``, which differs
from ``repr(Tensor)``: no commas between elements, no space after ``value=`` for a 1-D tensor,
and a tensor of 30 or more elements prints as ``[...]``.
"""

from __future__ import annotations

import numpy as np

from cellgrad._format import _EDGE, _FLOAT_CELLS, _LIMIT_1D, _LIMIT_ND, _cells, _scalar

__all__ = ["part_text", "sparse_text"]

_PRINT_LIMIT = 30  # ToString prints the elements only of a tensor smaller than this


def _row(items: list[str], wrap: int) -> str:
    out = []
    for i, item in enumerate(items):
        out.append(item if i == len(items) - 1 else item + " ")
        # as in repr(Tensor), a long 1-D tensor breaks after every `wrap` elements
        if wrap and (i + 1) % wrap == 0:
            out.append("\n ")
    return "".join(out)


def _nest(cells, shape: tuple, cut: list[bool], wrap: int, depth: int = 0) -> str:
    n = shape[depth]
    if depth == len(shape) - 1:
        items = [next(cells) for _ in range(n)]
        if cut[depth]:
            return f"[{_row(items[:_EDGE], 0)} ... {_row(items[_EDGE:], 0)}]"
        return f"[{_row(items, wrap if n > _EDGE else 0)}]"
    rows = [_nest(cells, shape, cut, wrap, depth + 1) for _ in range(n)]
    brk = "\n" + " " * (depth + 1)
    if cut[depth]:
        return f"[{brk.join(rows[:_EDGE])}{brk}...{brk}{brk.join(rows[_EDGE:])}]"
    return "[" + brk.join(rows) + "]"


def _values(arr: np.ndarray, dtype_name: str) -> str:
    if arr.size == 0:
        return ""
    if arr.ndim == 0:
        return _scalar(arr.item(), dtype_name)
    if arr.size >= _PRINT_LIMIT:
        return "[...]"
    limit = _LIMIT_1D if arr.ndim == 1 else _LIMIT_ND
    cut = [n > limit for n in arr.shape]
    keep = [[*range(_EDGE), *range(n - _EDGE, n)] if c else list(range(n))
            for n, c in zip(arr.shape, cut)]
    shown = arr[np.ix_(*keep)]
    cells = _cells(shown.ravel().tolist(), dtype_name)
    is_int = dtype_name not in _FLOAT_CELLS and dtype_name != "Bool"
    wrap = 0 if arr.ndim != 1 else (24 if is_int else 12)
    return _nest(iter(cells), shown.shape, cut, wrap)


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
