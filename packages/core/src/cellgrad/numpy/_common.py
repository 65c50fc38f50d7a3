"""Argument handling shared by `cellgrad.numpy`'s array modules, as MindSpore's
`mindspore/numpy/utils.py` and `utils_const.py` do it: Python data becomes a Tensor with
Int32/Float32 (not numpy's 64-bit) dtypes, and `dtype` accepts names and Python types."""

import numpy as np

from cellgrad._construct import infer_array
from cellgrad._core._buffer import TensorBuffer, make_tensor, promote_types
from cellgrad.dtype import (
    ALL_DTYPES,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    to_dtype,
    uint8,
)
from cellgrad.ops import functional as F

ARRAY_TYPES = (int, float, bool, list, tuple, TensorBuffer)
MAX_NUMPY_DIMS = 32

# mindspore.numpy's names: 'int' and `int` are Int32 there (numpy's default int is 64-bit)
_DTYPE_NAMES = {"int": int32, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
                "uint8": uint8, "float": float32, "float16": float16, "float32": float32,
                "float64": float64, "bool": bool_}


def new(arr, dtype=None):
    """A Tensor (no gradient) holding `arr`, of `dtype` (default: the array's)."""
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def check_dtype(dtype, op="mindspore.numpy"):
    """A cellgrad dtype from a dtype, numpy type, Python type or mindspore.numpy name."""
    if isinstance(dtype, str):
        found = _DTYPE_NAMES.get(dtype.lower())
        if found is not None:
            return found
    elif dtype is int:
        return int32
    elif dtype is float:
        return float32
    try:
        d = to_dtype(dtype)
    except TypeError:
        d = None
    if d is None or d not in ALL_DTYPES:
        raise TypeError(f"For '{op}', 'dtype' must be one of {sorted(_DTYPE_NAMES)} or a "
                        f"cellgrad dtype, but got {dtype!r}.")
    return d


_NARROW = {int64: int32, float64: float32}


def narrow_dtype(dtype):
    """MindSpore's `_convert_64_to_32` on a dtype: Int64 -> Int32, Float64 -> Float32."""
    return _NARROW.get(dtype, dtype)


def narrow(t):
    """MindSpore's `_convert_64_to_32`: an Int64 or Float64 Tensor cast to 32 bits."""
    d = narrow_dtype(t.dtype)
    return t if d is t.dtype else t.astype(d)


def to_tensor(*args, op="mindspore.numpy"):
    """MindSpore's `_to_tensor`: Python scalars and sequences become 32-bit Tensors; Tensors
    pass through. One argument gives one Tensor, several a tuple."""
    res = []
    for arg in args:
        if isinstance(arg, (int, float, bool, list, tuple)):
            arr, d = infer_array(arg)
            arg = narrow(make_tensor(arr, None, 0, d))
        elif not isinstance(arg, TensorBuffer):
            raise TypeError(f"For '{op}', the input must be array like (a Tensor, Python "
                            f"scalar, list or tuple), but got {type(arg).__name__}.")
        res.append(arg)
    return res[0] if len(res) == 1 else tuple(res)


def check_tensor(op, *tensors):
    """MindSpore's `_check_input_tensor`: TypeError unless every argument is a Tensor."""
    for t in tensors:
        if not isinstance(t, TensorBuffer):
            raise TypeError(f"For '{op}', the input must be a Tensor, but got "
                            f"{type(t).__name__}.")


def scalar_dtype(*numbers):
    """MindSpore's `_get_dtype_from_scalar`: Bool if all bools, Int32 if all ints, else
    Float32 (None entries are skipped)."""
    present = [n for n in numbers if n is not None]
    if all(isinstance(n, bool) for n in present):
        return bool_
    if all(isinstance(n, int) for n in present):  # numpy ints and Tensors give Float32 too
        return int32
    return float32


def promote(*dtypes):
    """The common dtype of `dtypes` (mindspore.numpy's promotion table)."""
    out = dtypes[0]
    for d in dtypes[1:]:
        out = promote_types(out, d)
    return out


def axis_in_range(op, axis, ndim):
    """An int axis in [-ndim, ndim), made non-negative (MindSpore's `_check_axis_in_range`)."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', axes should be integers, not {type(axis).__name__}.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"For '{op}', axis {axis} is out of bounds for array of dimension "
                         f"{ndim}.")
    return int(axis) % ndim


def axes_valid(op, axes, ndim):
    """A tuple of distinct non-negative axes; None means all (MindSpore's `_check_axis_valid`)."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (tuple, list)):
        out = tuple(axis_in_range(op, a, ndim) for a in axes)
        if len(set(out)) != len(out):
            raise ValueError(f"For '{op}', duplicate value in 'axis': {tuple(axes)}.")
        return out
    return (axis_in_range(op, axes, ndim),)


def broadcast_shape(op, *shapes):
    """The broadcast of `shapes`, or MindSpore's ValueError."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"For '{op}', operands could not be broadcast together with shapes "
                         f"{shapes}.") from None


def check_int(op, name, value):
    """`value` as an int, or a TypeError naming `op` and `name`."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got "
                        f"{type(value).__name__} {value!r}.")
    return int(value)


def const_array(a, dtype, op):
    """MindSpore's `asarray_const`: Python data as a Tensor; sequences of Python ints and
    floats are Int32 and Float32 unless `dtype` says otherwise. Numpy arrays are refused."""
    if not isinstance(a, (TensorBuffer, list, tuple, int, float, bool)):
        raise TypeError(f"For '{op}', input data must be `int`, `float`, `bool`, `Tensor`, "
                        f"`list`, `tuple`, but got {type(a).__name__}.")
    if isinstance(a, TensorBuffer):
        return a if dtype is None else a.astype(dtype)
    if isinstance(a, (list, tuple)):
        arr = _deep_array(a, op)
        return narrow(new(arr)) if dtype is None else new(arr.astype(dtype.np_dtype), dtype)
    d = scalar_dtype(a) if dtype is None else dtype
    return new(np.asarray(a, d.np_dtype), d)


def _deep_array(a, op):
    """A nested sequence (Tensors allowed inside) as one numpy array; ragged is an error."""
    def plain(v):
        if isinstance(v, TensorBuffer):
            return v.asnumpy()
        return [plain(e) for e in v] if isinstance(v, (list, tuple)) else v

    try:
        arr = np.asarray(plain(a))
    except ValueError:
        arr = np.empty(0, object)
    if arr.dtype == object:
        raise ValueError(f"For '{op}', input array must have the same size across all "
                         f"dimensions, got {a!r}.")
    return arr


def check_shape(op, shape):
    """A shape tuple from an int, a sequence of ints or an int Tensor (MindSpore's
    `_check_shape`)."""
    if isinstance(shape, TensorBuffer):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op}', only int, tuple, list and tensor are allowed for shape, "
                        f"but got {type(shape).__name__}.")
    for s in shape:
        if not isinstance(s, int) or isinstance(s, bool):
            raise TypeError(f"For '{op}', each entry in shape should be int, got {shape!r}.")
        if s < 0:
            raise ValueError(f"For '{op}', each entry in shape should no less than 0, got "
                             f"{tuple(shape)}.")
    return tuple(shape)


def iota(n, dtype=float32, increasing=True):
    """0, 1, ..., n - 1 (or reversed) as a constant Tensor; n <= 0 is MindSpore's error."""
    if n <= 0:
        raise ValueError(f"zero shape Tensor is not currently supported (got {n} elements).")
    r = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return new(r.astype(dtype.np_dtype), dtype)


def expand(x, ndim):
    """Leading unit axes up to `ndim` dimensions."""
    return F.reshape(x, (1,) * (ndim - x.ndim) + tuple(x.shape)) if x.ndim < ndim else x


def via_float32(fn, x):
    """`fn(x)` computed in Float32 unless x is Float16/Float32, then cast back: MindSpore's
    `if not _check_is_float(dtype): x = x.astype(float32)` (so Float64 and integers beyond
    2**24 lose precision in flip, roll, diag, as there)."""
    if x.dtype in (float16, float32):
        return fn(x)
    return fn(x.astype(float32)).astype(x.dtype)


def promote_all(tensors):
    """The Tensors cast to their common dtype."""
    d = promote(*(t.dtype for t in tensors))
    return tuple(t if t.dtype is d else t.astype(d) for t in tensors)
