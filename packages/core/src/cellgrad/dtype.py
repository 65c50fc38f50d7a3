"""dtypes, mirroring `mindspore.common.dtype` (`str(float32) == 'Float32'`).

bfloat16 is stored as float32 holding bfloat16-representable values (numpy has no bfloat16):
arithmetic runs in float32 and results are rounded back to bfloat16.
"""

import numpy as np

from cellgrad._core._buffer import (
    ALL_DTYPES,
    DType,
    bfloat16,
    bool_,
    dtype_of_array,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    uint8,
    uint16,
    uint32,
    uint64,
)

__all__ = [
    "DType",
    "bfloat16",
    "bool_",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "half",
    "single",
    "double",
    "float_",
    "int_",
    "to_dtype",
    "promote_types",
    "dtype_of_array",
    "ALL_DTYPES",
    "dtype_to_nptype",
    "pytype_to_dtype",
]

half = float16
single = float32
double = float64
float_ = float32
int_ = int64
Type = DType

_BY_NAME = {d.py_name: d for d in ALL_DTYPES}
_BY_NAME.update({d.name: d for d in ALL_DTYPES})
_BY_NAME.update({"bool": bool_, "float": float32, "int": int64, "half": float16,
                 "double": float64, "single": float32})


def to_dtype(value, what="dtype"):
    """Convert a cellgrad dtype, numpy dtype/type, Python type or name to a cellgrad dtype."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if value is float:
        return float32
    if value is int:
        return int64
    if value is bool:
        return bool_
    try:
        return dtype_of_array(np.empty(0, dtype=np.dtype(value)))
    except TypeError:
        pass
    raise TypeError(
        f"Unsupported {what} {value!r}; expected one of "
        + ", ".join(d.py_name for d in ALL_DTYPES) + " (cellgrad dtypes or their numpy types).")


def dtype_to_nptype(type_):
    """Mirrors `mindspore.dtype_to_nptype` (bfloat16 maps to its float32 storage)."""
    return to_dtype(type_).np_dtype.type


def pytype_to_dtype(obj):
    """Mirrors `mindspore.pytype_to_dtype`."""
    return to_dtype(obj)


# MindSpore's C-style and Python-style aliases. Assigned through globals() because `bool`,
# `int` and `float` as plain names would hide the builtins from the code above.
ALIASES = {"long": int64, "bool": bool_, "int": int32, "float": float32, "short": int16,
           "ushort": uint16, "byte": int8, "ubyte": uint8, "intc": int32, "uintc": uint32,
           "intp": int64, "uintp": uint64}
globals().update(ALIASES)
__all__ += list(ALIASES)

# MindSpore's dtype groups (those of cellgrad's dtypes: no complex or 8-bit float types).
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
signed_type = int_type + float_type
number_type = int_type + uint_type + float_type
all_types = (bool_,) + number_type
__all__ += ["int_type", "uint_type", "float_type", "signed_type", "number_type", "all_types"]
