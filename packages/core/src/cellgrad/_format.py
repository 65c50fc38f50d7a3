"""``str()`` and ``repr()`` of tensor values, character for character as MindSpore prints them.

``repr`` mirrors MindSpore's C++ ``TensorStringifier`` and ignores numpy's print options;
``str`` is numpy's ``str`` of the array, as MindSpore's ``str(self.asnumpy())``, so it honours
them (``np.set_printoptions``/``np.printoptions``: precision, suppress, linewidth, threshold,
edgeitems, sign, floatmode, formatter, nanstr/infstr).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["tensor_repr", "tensor_str"]

_FLOAT_CELLS = {"Float16": (11, "%.4e"), "Float32": (15, "%.8e"), "Float64": (15, "%.8e")}
_BOOL_WIDTH = 5  # len("False")
_EDGE = 3  # elements (or rows) kept at each end of a summarised axis
_LIMIT_ND = 6  # in a tensor of 2 or more dims every axis longer than this is summarised
_LIMIT_1D = 1000  # a 1-D tensor only when longer than this


def _c_float(x: float, fmt: str) -> str:
    """Format ``x`` like C's printf, which keeps the sign of a NaN (glibc prints ``-nan``)."""
    if math.isnan(x):
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return fmt % x


def _scalar(value: object, dtype_name: str) -> str:
    """One value as ``std::ostream << value`` writes it (floats: ``%g``, 6 significant digits)."""
    if dtype_name == "Bool":
        return "True" if value else "False"
    if dtype_name.startswith(("Int", "UInt")):
        return str(int(value))
    if dtype_name.startswith("Complex"):  # std::complex as MindSpore prints it: 1-0.5j, -0+1j
        z = complex(value)
        sign = "-" if math.copysign(1.0, z.imag) < 0 else "+"
        return f"{_c_float(z.real, '%g')}{sign}{_c_float(abs(z.imag), '%g')}j"
    return _c_float(float(value), "%g")


def _cells(values: list, dtype_name: str) -> list[str]:
    """Padded element texts of a non-scalar tensor."""
    if dtype_name in _FLOAT_CELLS:
        width, fmt = _FLOAT_CELLS[dtype_name]
        return [_c_float(v, fmt).rjust(width) for v in values]
    if dtype_name == "Bool":
        return [("True" if v else "False").rjust(_BOOL_WIDTH) for v in values]
    texts = [_scalar(v, dtype_name) for v in values]
    if dtype_name.startswith("Complex"):  # not padded
        return texts
    # ints and bfloat16: right-aligned to the widest printed element
    width = max(map(len, texts))
    return [t.rjust(width) for t in texts]


def _row(items: list[str], wrap: int, sep: str = ",") -> str:
    out = []
    for i, item in enumerate(items):
        out.append(item if i == len(items) - 1 else item + sep + " ")
        # MindSpore breaks a long 1-D tensor after every `wrap` elements, even after the last
        if wrap and (i + 1) % wrap == 0:
            out.append("\n ")
    return "".join(out)


def _nest(cells, shape: tuple, cut: list[bool], wrap: int, depth: int = 0,
          sep: str = ",") -> str:
    """Bracket the C-ordered ``cells`` iterator into rows; ``cut`` axes get an ellipsis.
    ``sep`` follows each element and row (MindSpore's sparse reprs print none)."""
    n = shape[depth]
    if depth == len(shape) - 1:
        items = [next(cells) for _ in range(n)]
        if cut[depth]:
            return f"[{_row(items[:_EDGE], 0, sep)} ... {_row(items[_EDGE:], 0, sep)}]"
        return f"[{_row(items, wrap if n > _EDGE else 0, sep)}]"
    rows = [_nest(cells, shape, cut, wrap, depth + 1, sep) for _ in range(n)]
    brk = "\n" + " " * (depth + 1)
    if cut[depth]:
        head, tail = (sep + brk).join(rows[:_EDGE]), (sep + brk).join(rows[_EDGE:])
        return f"[{head}{sep}{brk}...{brk}{tail}]"
    return "[" + (sep + brk).join(rows) + "]"


def _repr_value(arr: np.ndarray, dtype_name: str, sep: str = ",") -> str:
    if arr.size == 0:
        return ""
    if arr.ndim == 0:
        return _scalar(arr.item(), dtype_name)
    limit = _LIMIT_1D if arr.ndim == 1 else _LIMIT_ND
    cut = [n > limit for n in arr.shape]
    keep = [
        [*range(_EDGE), *range(n - _EDGE, n)] if c else list(range(n))
        for n, c in zip(arr.shape, cut, strict=True)
    ]
    shown = arr[np.ix_(*keep)]
    cells = _cells(shown.ravel().tolist(), dtype_name)
    is_int = dtype_name not in _FLOAT_CELLS and dtype_name != "Bool"
    wrap = 0 if arr.ndim != 1 else (24 if is_int else 12)
    return _nest(iter(cells), shown.shape, cut, wrap, sep=sep)


def tensor_repr(arr: np.ndarray, dtype_name: str) -> str:
    """``repr(Tensor)``, e.g. ``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00, ...])``.

    Args:
        arr: the tensor's values (``BFloat16``: ml_dtypes' numpy bfloat16).
        dtype_name: MindSpore's dtype name, e.g. ``Float32``, ``Int64``, ``Bool``, ``BFloat16``.
    """
    arr = np.asarray(arr)
    shape = ", ".join(str(n) for n in arr.shape)
    sep = "\n" if arr.ndim > 1 else " "
    return f"Tensor(shape=[{shape}], dtype={dtype_name}, value={sep}{_repr_value(arr, dtype_name)})"


def _bf16_text(x: object) -> str:
    # MindSpore's numpy bfloat16 scalar prints via std::to_string, i.e. "%f"
    return _c_float(float(x), "%f")


def tensor_str(arr: np.ndarray, dtype_name: str) -> str:
    """``str(Tensor)``: numpy's ``str`` of the values under the current print options, e.g.
    ``[1. 2.]``; bfloat16 elements as ``%f`` (its numpy type ignores precision and sign)."""
    if dtype_name == "BFloat16":
        arr = np.asarray(arr)
        if arr.ndim == 0:
            return _bf16_text(arr.item())
        return np.array2string(arr, formatter={"all": _bf16_text})
    return str(arr)
