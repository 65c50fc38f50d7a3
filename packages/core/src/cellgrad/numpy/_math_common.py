"""Helpers of `cellgrad.numpy`'s math modules: MindSpore's `_apply_tensor_op` and its dtype
tests (`mindspore/numpy/math_ops.py`, `utils_const.py`)."""

from cellgrad._construct import infer_array
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float16, float32, float64, int8, int16, int32, int64, uint8
from cellgrad.numpy._common import check_dtype, to_tensor
from cellgrad.ops import functional as F

# MindSpore's `_check_is_float` is true for Float16 and Float32 only: many functions cast
# everything else, Float64 included, to Float32 before computing.
MS_FLOATS = (float16, float32)

# mindspore.numpy.dtypes.rule_for_trigonometric: the float dtype a trig function computes in
TRIG_DTYPE = {bool_: float16, int8: float16, uint8: float16, int16: float32, int32: float32,
              int64: float32, float16: float16, float32: float32, float64: float64}


def cast(x, dtype):
    """`x` as `dtype` (a cellgrad dtype, or any name `check_dtype` takes); None keeps it."""
    if dtype is None:
        return x
    d = check_dtype(dtype)
    return x if x.dtype is d else F.cast(x, d)


def apply(fn, *args, dtype=None, op="mindspore.numpy"):
    """MindSpore's `_apply_tensor_op`: Python values become 32-bit Tensors, `fn` runs, the
    result is cast to `dtype` when given."""
    args = to_tensor(*args, op=op)
    res = fn(*args) if isinstance(args, tuple) else fn(args)
    return cast(res, dtype)


def origin_tensor(x, op="mindspore.numpy"):
    """MindSpore's `_to_tensor_origin_dtype`: Python data becomes a Tensor as `Tensor(x)`
    makes it (int -> Int64, float -> Float32), without narrowing to 32 bits."""
    if isinstance(x, TensorBuffer):
        return x
    if not isinstance(x, (int, float, bool, list, tuple)):
        raise TypeError(f"For '{op}', the input must be array like (a Tensor, Python scalar, "
                        f"list or tuple), but got {type(x).__name__}.")
    arr, d = infer_array(x)
    return make_tensor(arr, None, 0, d)


def need_tensor(op, *xs):
    """TypeError unless every argument is a Tensor (MindSpore's `_check_input_tensor`)."""
    for x in xs:
        if not isinstance(x, TensorBuffer):
            raise TypeError(f"For '{op}', the input must be a Tensor, but got "
                            f"{type(x).__name__}.")


def need_float(op, *xs):
    """TypeError unless every Tensor is floating (MindSpore's CPU kernels of exp, log, floor,
    rint, ... take no integer or bool input)."""
    for x in xs:
        if x.dtype.kind != 2:
            raise TypeError(f"For '{op}', the input must be a floating Tensor (Float16, "
                            f"Float32 or Float64), but got {x.dtype}.")


def need_not_bool(op, *xs):
    for x in xs:
        if x.dtype is bool_:
            raise TypeError(f"For '{op}', the input must be a numeric Tensor, but got Bool.")


def to_float32_unless_ms_float(x):
    """MindSpore's `if not _check_is_float(dtype): x = x.astype(float32)`."""
    return x if x.dtype in MS_FLOATS else F.cast(x, float32)


def trig_input(op, x):
    """MindSpore's `_cast_type_for_trigonometric`: a Tensor in the dtype of its trig table."""
    need_tensor(op, x)
    return F.cast(x, TRIG_DTYPE[x.dtype]) if x.dtype is not TRIG_DTYPE[x.dtype] else x

