"""One-input elementwise functions of `mindspore.numpy.math_ops` (exp, log, trig, rounding,
sign, ...), with MindSpore's dtype rules: Python values become 32-bit Tensors, integer inputs
of trig functions compute in Float16/Float32, exp/log/floor/rint take floats only (recorded in
tests/core/ms_programs/numpy_math_elementwise.out)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32, int64
from cellgrad.numpy import _math_prims as P
from cellgrad.numpy._common import promote, to_tensor
from cellgrad.numpy._math_common import (
    apply,
    cast,
    need_float,
    need_not_bool,
    need_tensor,
    origin_tensor,
    to_float32_unless_ms_float,
    trig_input,
)
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply as apply_op

_PI = 3.141592653589793


def _float_only(name, fn):
    """A function of one floating Tensor (exp, log, floor, ...): other dtypes are a TypeError,
    as on MindSpore's CPU."""
    op = f"mindspore.numpy.{name}"

    def run(x):
        need_float(op, x)
        return fn(x)

    def public(x, dtype=None):
        return apply(run, x, dtype=dtype, op=op)

    public.__name__ = name
    public.__doc__ = f"Mirrors `mindspore.numpy.{name}` (floating inputs only, as MindSpore's)."
    return public


exp = _float_only("exp", F.exp)
expm1 = _float_only("expm1", F.expm1)
log = _float_only("log", F.log)
log1p = _float_only("log1p", F.log1p)
log2 = _float_only("log2", F.log2)
log10 = _float_only("log10", F.log10)
floor = _float_only("floor", F.floor)


def rint(x, dtype=None):
    """Mirrors `mindspore.numpy.rint`: round half to even (floating inputs only; Python ints
    become Int64 here, so they are refused too, as in MindSpore)."""
    op = "mindspore.numpy.rint"
    x = origin_tensor(x, op)
    need_float(op, x)
    return cast(apply_op(P.RINT, (x,)), dtype)


def _trig(name, fn, arg="x"):
    """A trig function: the input (a Tensor) computes in its `TRIG_DTYPE`."""
    op = f"mindspore.numpy.{name}"

    def run(x, dtype):
        return cast(fn(trig_input(op, x)), dtype)

    if arg == "input":
        def public(input, dtype=None):
            return run(input, dtype)
    else:
        def public(x, dtype=None):
            return run(x, dtype)
    public.__name__ = name
    public.__doc__ = (f"Mirrors `mindspore.numpy.{name}` (integer and bool inputs compute in "
                      "Float16 or Float32, as MindSpore's trig table says).")
    return public


sin = _trig("sin", F.sin)
cos = _trig("cos", F.cos)
tan = _trig("tan", lambda x: apply_op(P.TAN, (x,)))
arcsin = _trig("arcsin", F.asin)
arccos = _trig("arccos", F.acos, arg="input")
arctan = _trig("arctan", F.atan)
sinh = _trig("sinh", F.sinh)
cosh = _trig("cosh", F.cosh)
tanh = _trig("tanh", F.tanh)
arcsinh = _trig("arcsinh", lambda x: apply_op(P.ASINH, (x,)))
arccosh = _trig("arccosh", lambda x: apply_op(P.ACOSH, (x,)))
arctanh = _trig("arctanh", lambda x: apply_op(P.ATANH, (x,)))


def absolute(x, dtype=None):
    """Mirrors `mindspore.numpy.absolute` (keeps the input's dtype)."""
    return apply(F.abs, x, dtype=dtype, op="mindspore.numpy.absolute")


def sqrt(x, dtype=None):
    """Mirrors `mindspore.numpy.sqrt` (integers give Float32)."""
    return apply(F.sqrt, x, dtype=dtype, op="mindspore.numpy.sqrt")


def square(x, dtype=None):
    """Mirrors `mindspore.numpy.square` (keeps the dtype; Bool is a TypeError)."""
    def run(x):
        need_not_bool("mindspore.numpy.square", x)
        return x * x
    return apply(run, x, dtype=dtype, op="mindspore.numpy.square")


def negative(a, dtype=None):
    """Mirrors `mindspore.numpy.negative`."""
    return apply(F.neg, a, dtype=dtype, op="mindspore.numpy.negative")


def positive(a, dtype=None):
    """Mirrors `mindspore.numpy.positive`: `a` (a Tensor) negated twice, so Bool fails."""
    need_tensor("mindspore.numpy.positive", a)
    return cast(F.neg(F.neg(a)), dtype)


def reciprocal(x, dtype=None):
    """Mirrors `mindspore.numpy.reciprocal`: `1 / x` in the input's dtype; integers divide
    truncating, 1 / 0 is the dtype's maximum (MindSpore's Div kernel); Bool meets the Python
    1 as Int64."""
    def run(x):
        if x.dtype.kind == 2:
            return F.reciprocal(x)
        d = int64 if x.dtype is bool_ else x.dtype
        a = x._data.astype(np.int64)
        q = np.trunc(1.0 / np.where(a == 0, 1, a)).astype(np.int64)
        out = np.where(a == 0, np.iinfo(d.np_dtype).max, q)
        return make_tensor(out.astype(d.np_dtype), None, 0, d)
    return apply(run, x, dtype=dtype, op="mindspore.numpy.reciprocal")


def cbrt(x, dtype=None):
    """Mirrors `mindspore.numpy.cbrt` (Float32, or Float64 for Float64 input)."""
    def run(x):
        d = promote(x.dtype, float32) if x.dtype.kind == 2 else float32
        x = cast(x, d)
        return F.sign(x) * F.pow(F.abs(x), 1.0 / 3.0)
    return apply(run, x, dtype=dtype, op="mindspore.numpy.cbrt")


def fix(x):
    """Mirrors `mindspore.numpy.fix`: round toward zero (a Tensor; computed in Float32 unless
    Float16/Float32)."""
    need_tensor("mindspore.numpy.fix", x)
    x = to_float32_unless_ms_float(x)
    return F.where(x < 0, F.ceil(x), F.floor(x))


def trunc(x, dtype=None):
    """Mirrors `mindspore.numpy.trunc` (as `fix`)."""
    return apply(fix, x, dtype=dtype, op="mindspore.numpy.trunc")


def ceil(x, dtype=None):
    """Mirrors `mindspore.numpy.ceil`: `-floor(-x)` in Float32, as MindSpore computes it (its
    zero gradient is -0 there too)."""
    return apply(lambda x: -F.floor(-cast(x, float32)), x, dtype=dtype,
                 op="mindspore.numpy.ceil")


def sign(x, dtype=None):
    """Mirrors `mindspore.numpy.sign` (integers give Float32; Bool is a TypeError)."""
    op = "mindspore.numpy.sign"
    if not isinstance(x, (int, float, list, tuple, TensorBuffer)) or isinstance(x, bool):
        raise TypeError(f"For '{op}', integer, float, list, tuple or Tensor are expected, but "
                        f"got {type(x).__name__}.")
    x = to_tensor(x, op=op)
    need_not_bool(op, x)
    return cast(F.sign(x if x.dtype.kind == 2 else cast(x, float32)), dtype)


def _degrees(mul, div, name):
    op = f"mindspore.numpy.{name}"

    def public(x, dtype=None):
        need_tensor(op, x)
        return cast(x * mul / div, dtype)  # two roundings, as MindSpore's (Float16 shows it)
    public.__name__ = name
    public.__doc__ = f"Mirrors `mindspore.numpy.{name}` (integers give Float32)."
    return public


deg2rad = _degrees(_PI, 180.0, "deg2rad")
radians = _degrees(_PI, 180.0, "radians")
rad2deg = _degrees(180.0, _PI, "rad2deg")


def exp2(x, dtype=None):
    """Mirrors `mindspore.numpy.exp2`: `2 ** x` in the input's dtype (integer powers truncate,
    Bool gives Int64)."""
    def run(x):
        if x.dtype.kind == 2:
            return F.pow(2.0, x)
        d = np.int64 if x.dtype is bool_ else x.dtype.np_dtype
        return make_tensor(np.trunc(np.exp2(x._data.astype(np.float64))).astype(d))
    return apply(run, x, dtype=dtype, op="mindspore.numpy.exp2")


def invert(x, dtype=None):
    """Mirrors `mindspore.numpy.invert`: bitwise NOT of an integer Tensor."""
    return apply(lambda x: apply_op(P.INVERT, (x,)), x, dtype=dtype,
                 op="mindspore.numpy.invert")


absolute.__name__ = "absolute"
abs = fabs = absolute
bitwise_not = invert
