"""The dtype names and constants `mindspore.numpy` re-exports from `mindspore.numpy.dtypes`.

MindSpore also exports uint16, uint32, uint64 and `uint` (= uint32); cellgrad has no unsigned
dtype wider than uint8 yet, so those names are absent (and left out of `numeric_types`).
"""

from cellgrad.dtype import (  # noqa: F401  (re-exported: __all__ lists them)
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)

inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793
int_ = int32  # mindspore.numpy's default int is 32-bit (numpy's and cellgrad.int_ are 64)
float_ = float32

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "float_", "float16",
                 "float32", "float64", "bool_"]

__all__ = [*numeric_types, "inf", "PINF", "NINF", "nan", "pi", "numeric_types"]
