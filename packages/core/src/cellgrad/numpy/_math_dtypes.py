"""The dtype names and constants `mindspore.numpy` re-exports from `mindspore.numpy.dtypes`.

`uint` is uint32, as MindSpore's.
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
    uint16,
    uint32,
    uint64,
)

inf = float("inf")
PINF = float("inf")
NINF = float("-inf")
nan = float("nan")
pi = 3.141592653589793
int_ = int32  # mindspore.numpy's default int is 32-bit (numpy's and cellgrad.int_ are 64)
float_ = float32

uint = uint32

numeric_types = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float_", "float16", "float32", "float64", "bool_"]

__all__ = [*numeric_types, "uint", "inf", "PINF", "NINF", "nan", "pi", "numeric_types"]
