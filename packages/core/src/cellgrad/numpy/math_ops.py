"""Mirrors `mindspore.numpy.math_ops`: numpy's math on Tensors with MindSpore's dtype rules,
differentiable through `cellgrad.ops` wherever MindSpore's functions are.

The functions live in the private modules `_math_unary`, `_math_binary`, `_math_reduce`,
`_math_linalg`, `_math_correlation`, `_math_series` and `_math_discrete`; the dtype names and
constants `mindspore.numpy` re-exports from its `dtypes` module come from `_math_dtypes`.
"""

from cellgrad.dtype import bool_, float32, int32
from cellgrad.numpy._common import check_dtype, promote
from cellgrad.numpy._math_binary import (
    add,
    arctan2,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    clip,
    copysign,
    divide,
    divmod,
    float_power,
    floor_divide,
    fmod,
    gcd,
    heaviside,
    hypot,
    lcm,
    logaddexp,
    logaddexp2,
    maximum,
    minimum,
    mod,
    multiply,
    power,
    remainder,
    subtract,
    true_divide,
)
from cellgrad.numpy._math_correlation import convolve, corrcoef, correlate, cov
from cellgrad.numpy._math_discrete import (
    bincount,
    digitize,
    histogram,
    histogram2d,
    histogramdd,
    ravel_multi_index,
    searchsorted,
)
from cellgrad.numpy._math_dtypes import *  # noqa: F403
from cellgrad.numpy._math_dtypes import __all__ as _dtype_names
from cellgrad.numpy._math_linalg import (
    cross,
    dot,
    inner,
    kron,
    matmul,
    multi_dot,
    norm,
    outer,
    tensordot,
)
from cellgrad.numpy._math_reduce import (
    amax,
    amin,
    argmax,
    argmin,
    average,
    count_nonzero,
    cumprod,
    cumsum,
    mean,
    nancumsum,
    nanmax,
    nanmean,
    nanmin,
    nanstd,
    nansum,
    nanvar,
    ptp,
    std,
    sum,
    var,
)
from cellgrad.numpy._math_series import (
    diff,
    ediff1d,
    gradient,
    interp,
    polyadd,
    polyder,
    polyint,
    polymul,
    polysub,
    polyval,
    trapz,
    unwrap,
)
from cellgrad.numpy._math_unary import (
    abs,
    absolute,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctanh,
    bitwise_not,
    cbrt,
    ceil,
    cos,
    cosh,
    deg2rad,
    exp,
    exp2,
    expm1,
    fabs,
    fix,
    floor,
    invert,
    log,
    log1p,
    log2,
    log10,
    negative,
    positive,
    rad2deg,
    radians,
    reciprocal,
    rint,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    tan,
    tanh,
    trunc,
)

max = amax
min = amin


def promote_types(type1, type2):
    """Mirrors `mindspore.numpy.promote_types`: the dtype both promote to (names, numpy
    types and Python types accepted; `int` is Int32, `float` Float32)."""
    op = "mindspore.numpy.promote_types"
    return promote(check_dtype(type1, op), check_dtype(type2, op))


def _dtype_of(x):
    from cellgrad._core._buffer import TensorBuffer

    if isinstance(x, TensorBuffer):
        return x.dtype
    if isinstance(x, bool):
        return bool_
    if isinstance(x, int):
        return int32
    if isinstance(x, float):
        return float32
    try:
        return check_dtype(x, "mindspore.numpy.result_type")
    except TypeError:
        raise TypeError(f"For 'mindspore.numpy.result_type', data type {x!r} not "
                        "understood.") from None


def result_type(*arrays_and_dtypes):
    """Mirrors `mindspore.numpy.result_type`: the promoted dtype of Tensors, dtypes and
    Python scalars (bool, int -> Int32, float -> Float32)."""
    if not arrays_and_dtypes:
        raise ValueError("For 'mindspore.numpy.result_type', at least one array or dtype is "
                         "required.")
    return promote(*(_dtype_of(x) for x in arrays_and_dtypes))


__all__ = [
    "abs", "absolute", "add", "amax", "amin", "arccos", "arccosh", "arcsin", "arcsinh",
    "arctan", "arctan2", "arctanh", "argmax", "argmin", "average", "bincount", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "cbrt", "ceil", "clip", "convolve", "copysign",
    "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cov", "cross", "cumprod",
    "cumsum", "deg2rad", "diff", "digitize", "divide", "divmod", "dot", "ediff1d", "exp",
    "exp2", "expm1", "fabs", "fix", "float_power", "floor", "floor_divide", "fmod", "gcd",
    "gradient", "heaviside", "histogram", "histogram2d", "histogramdd", "hypot", "inner",
    "interp", "invert", "kron", "lcm", "log", "log10", "log1p", "log2", "logaddexp",
    "logaddexp2", "matmul", "max", "maximum", "mean", "min", "minimum", "mod", "multi_dot",
    "multiply", "nancumsum", "nanmax", "nanmean", "nanmin", "nanstd", "nansum", "nanvar",
    "negative", "norm", "outer", "polyadd", "polyder", "polyint", "polymul", "polysub",
    "polyval", "positive", "power", "promote_types", "ptp", "radians", "rad2deg",
    "ravel_multi_index", "reciprocal", "remainder", "result_type", "rint", "searchsorted",
    "sign", "sin", "sinh", "sqrt", "square", "std", "subtract", "sum", "tan", "tanh",
    "tensordot", "trapz", "true_divide", "trunc", "unwrap", "var",
    *_dtype_names,
]
