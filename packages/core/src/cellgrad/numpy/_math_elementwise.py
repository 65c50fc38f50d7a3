"""Elementwise functions of `mindspore.numpy.math_ops`, with MindSpore's dtype rules: Python
values become 32-bit Tensors, integer inputs of trig functions compute in Float16/Float32,
and so on (recorded in tests/core/ms_programs/numpy_math*.out)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32, int32
from cellgrad.numpy import _math_prims as P
from cellgrad.numpy._common import broadcast_shape, promote, to_tensor
from cellgrad.numpy._math_common import (
    MS_FLOATS,
    apply,
    cast,
    need_float,
    need_not_bool,
    need_tensor,
    origin_tensor,
    to_float32_unless_ms_float,
    trig_input,
)
from cellgrad.ops import _elementwise as _ew
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


def arctan2(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.arctan2` (both inputs Tensors, cast by the trig table)."""
    op = "mindspore.numpy.arctan2"
    return cast(F.atan2(trig_input(op, x1), trig_input(op, x2)), dtype)


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
    truncating, 1 / 0 is the dtype's maximum (MindSpore's Div kernel)."""
    def run(x):
        if x.dtype.kind == 2:
            return F.reciprocal(x)
        d = x.dtype if x.dtype is not bool_ else promote(bool_, int32, x.dtype)
        a = x._data.astype(np.int64)
        big = np.iinfo(d.np_dtype).max if x.dtype is not bool_ else np.iinfo(np.int64).max
        q = np.trunc(1.0 / np.where(a == 0, 1, a)).astype(np.int64)
        out = np.where(a == 0, np.int64(big), q)
        return make_tensor(out.astype(d.np_dtype if x.dtype is not bool_ else np.int64))
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
    """Mirrors `mindspore.numpy.ceil` (always computed, and returned, in Float32)."""
    return apply(lambda x: F.ceil(cast(x, float32)), x, dtype=dtype, op="mindspore.numpy.ceil")


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


# ---- two inputs ----
def _binary(name, fn, doc):
    op = f"mindspore.numpy.{name}"

    def public(x1, x2, dtype=None):
        return apply(fn, x1, x2, dtype=dtype, op=op)
    public.__name__ = name
    public.__doc__ = f"Mirrors `mindspore.numpy.{name}`{doc}."
    return public


def _no_bool(name, fn, second_only=False):
    """`fn`, refusing Bool where MindSpore's CPU kernels do: a Bool result dtype, or (for add,
    which negates its second input) a Bool `x2`."""
    def run(x1, x2):
        if (x2.dtype if second_only else promote(x1.dtype, x2.dtype)) is bool_:
            raise TypeError(f"For 'mindspore.numpy.{name}', Bool inputs are not supported "
                            f"(got {x1.dtype} and {x2.dtype}).")
        return fn(x1, x2)
    return run


def _floor_div(x1, x2):
    out = F.floor_div(x1, x2)
    if getattr(x1, "dtype", None) is bool_ and getattr(x2, "dtype", None) is bool_:
        return cast(out, bool_)
    return out


add = _binary("add", _no_bool("add", F.add, True), " (a Bool `x2` is a TypeError, as on "
              "MindSpore's CPU)")
subtract = _binary("subtract", _no_bool("subtract", F.sub), "")
power = _binary("power", _no_bool("power", lambda a, b: F.pow(a, b) if a.dtype.kind == 2
                                  or b.dtype.kind == 2 else _int_power(a, b)), "")
floor_divide = _binary("floor_divide", _floor_div, "")
bitwise_and = _binary("bitwise_and", lambda a, b: _bitwise("bitwise_and", a, b), "")
bitwise_or = _binary("bitwise_or", lambda a, b: _bitwise("bitwise_or", a, b), "")
bitwise_xor = _binary("bitwise_xor", lambda a, b: _bitwise("bitwise_xor", a, b), "")


def _int_power(a, b):
    """Integer `a ** b`: a negative exponent truncates to 0 (1 for a == 1), as MindSpore's Pow
    kernel, where numpy would raise."""
    d = promote(a.dtype, b.dtype)
    x, y = np.broadcast_arrays(a._data.astype(np.float64), b._data.astype(np.float64))
    return make_tensor(np.trunc(np.power(x, y)).astype(d.np_dtype), None, 0, d)


def _bitwise(name, a, b):
    for t in (a, b):
        if t.dtype.kind == 2:
            raise TypeError(f"For 'mindspore.numpy.{name}', the inputs must be integer or bool "
                            f"Tensors, but got {t.dtype}.")
    return apply_op(_ew.OPS[name], (a, b))


def multiply(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.multiply` (both inputs Tensors, as MindSpore's CPU path)."""
    need_tensor("mindspore.numpy.multiply", x1, x2)
    broadcast_shape("mindspore.numpy.multiply", x1.shape, x2.shape)
    return cast(F.mul(x1, x2), dtype)


def divide(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.divide`: unless one input is Float16/Float32, both compute in
    Float32 (Float64 / Float64 too, as MindSpore)."""
    x1, x2 = to_tensor(x1, x2, op="mindspore.numpy.divide")
    if x1.dtype not in MS_FLOATS and x2.dtype not in MS_FLOATS:
        x1, x2 = cast(x1, float32), cast(x2, float32)
    return cast(x1 / x2, dtype)


def true_divide(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.true_divide` (as `divide`)."""
    return divide(x1, x2, dtype=dtype)


def float_power(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.float_power`: both Tensors, computed in Float32."""
    need_tensor("mindspore.numpy.float_power", x1, x2)
    return cast(F.pow(cast(x1, float32), cast(x2, float32)), dtype)


def _extreme(name, fn):
    op = f"mindspore.numpy.{name}"

    def public(x1, x2, dtype=None):
        for i, x in enumerate((x1, x2), 1):
            if not isinstance(x, (int, float, bool, list, tuple, TensorBuffer)):
                raise TypeError(f"For '{op}', input x{i} is expected to be array_like, but got "
                                f"{type(x).__name__}.")
        x1, x2 = to_tensor(x1, x2, op=op)
        if x1.ndim == 0 and x2.ndim != 0:
            dtype = x2.dtype if dtype is None else dtype
        elif x2.ndim == 0 and x1.ndim != 0:
            dtype = x1.dtype if dtype is None else dtype
        # NaN propagates from either side (numpy's maximum/minimum do so already)
        return cast(fn(x1, x2), dtype)
    public.__name__ = name
    public.__doc__ = (f"Mirrors `mindspore.numpy.{name}` (NaN propagates; with a 0-d operand "
                      "the result takes the other's dtype).")
    return public


maximum = _extreme("maximum", F.maximum)
minimum = _extreme("minimum", F.minimum)


def _promoted(x1, x2):
    d = promote(x1.dtype, x2.dtype)
    return cast(x1, d), cast(x2, d), d


def heaviside(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.heaviside`: 0 below zero, 1 above, `x2` at zero."""
    def run(x1, x2):
        x1, x2, d = _promoted(x1, x2)
        shape = broadcast_shape("mindspore.numpy.heaviside", x1.shape, x2.shape)
        x1, x2 = F.broadcast_to(x1, shape), F.broadcast_to(x2, shape)
        x2 = F.where(x1 < 0, make_tensor(np.zeros(shape, d.np_dtype), None, 0, d), x2)
        return F.where(x1 > 0, make_tensor(np.ones(shape, d.np_dtype), None, 0, d), x2)
    return apply(run, x1, x2, dtype=dtype, op="mindspore.numpy.heaviside")


def hypot(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.hypot`: `sqrt(x1**2 + x2**2)`."""
    def run(x1, x2):
        need_not_bool("mindspore.numpy.hypot", x1, x2)
        return F.sqrt(x1 * x1 + x2 * x2)
    return apply(run, x1, x2, dtype=dtype, op="mindspore.numpy.hypot")


def _remainder(x1, x2, c_style=False):
    """MindSpore's `_remainder`: `x1 - x2 * floor(x1 / x2)` (`trunc` for fmod) computed in
    floating point; integer results are 0 where `x2` is 0."""
    d = promote(x1.dtype, x2.dtype)
    if d.kind != 2:
        x1, x2 = cast(x1, float32), cast(x2, float32)
    else:
        x1, x2 = cast(x1, d), cast(x2, d)
    q = x1 / x2
    q = F.trunc(q) if c_style else F.floor(q)
    res = x1 - x2 * q
    if d.kind == 1:
        res = F.where(x2 == 0, 0.0, res)
    return cast(res, d)


def remainder(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.remainder`: the sign of the divisor, as numpy."""
    return apply(_remainder, x1, x2, dtype=dtype, op="mindspore.numpy.remainder")


def fmod(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.fmod`: the sign of the dividend, as C."""
    return apply(lambda a, b: _remainder(a, b, True), x1, x2, dtype=dtype,
                 op="mindspore.numpy.fmod")


def divmod(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.divmod`: `(floor_divide(x1, x2), remainder(x1, x2))`; the
    quotient keeps a Tensor's dtype against a Python scalar, as MindSpore's FloorDiv."""
    if isinstance(x1, TensorBuffer) or isinstance(x2, TensorBuffer):
        q = _floor_div(*(x if isinstance(x, TensorBuffer) else to_tensor(x)
                         if isinstance(x, (list, tuple)) else x for x in (x1, x2)))
    else:
        q = floor_divide(x1, x2)
    r = remainder(x1, x2)
    return cast(q, dtype), cast(r, dtype)


def _gcd_numpy(a, b, d):
    if d.kind != 2:
        return np.gcd(a.astype(np.int64), b.astype(np.int64)).astype(d.np_dtype)
    # floats: Euclid on the values, as MindSpore's loop does
    a, b = np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))
    a, b = np.broadcast_arrays(np.maximum(a, b), np.minimum(a, b))
    a, b = a.copy(), np.where(b == 0, a, b)
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(200):
            r = np.mod(a, b)
            if not np.any(r > 0):
                break
            done = r == 0
            a, b = np.where(done, a, b), np.where(done, b, r)
    return b.astype(d.np_dtype)


def gcd(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.gcd` (no gradient: integer-valued)."""
    def run(x1, x2):
        d = promote(x1.dtype, x2.dtype)
        return make_tensor(_gcd_numpy(x1._data, x2._data, d), None, 0, d)
    return apply(run, x1, x2, dtype=dtype, op="mindspore.numpy.gcd")


def lcm(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.lcm` (no gradient: integer-valued)."""
    def run(x1, x2):
        d = promote(x1.dtype, x2.dtype)
        a, b = x1._data.astype(np.float64), x2._data.astype(np.float64)
        g = _gcd_numpy(x1._data, x2._data, d).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where((a * b) == 0, 0.0, np.abs(a / g * b))
        return make_tensor(out.astype(d.np_dtype), None, 0, d)
    return apply(run, x1, x2, dtype=dtype, op="mindspore.numpy.lcm")


def logaddexp(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.logaddexp` (floating inputs only), computed stably: MindSpore's
    `log(exp(x1) + exp(x2))` overflows to inf past 88 in Float32, this does not."""
    def run(x1, x2):
        need_float("mindspore.numpy.logaddexp", x1, x2)
        m = F.maximum(x1, x2)
        return m + F.log(F.exp(x1 - m) + F.exp(x2 - m))
    return apply(run, x1, x2, dtype=dtype, op="mindspore.numpy.logaddexp")


def logaddexp2(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.logaddexp2` (Tensors of a floating common dtype), computed
    stably as `logaddexp`."""
    op = "mindspore.numpy.logaddexp2"
    need_tensor(op, x1, x2)
    if x1.dtype.kind != 2 or x2.dtype.kind != 2:
        # MindSpore's `log2(2**x1 + 2**x2)`: an integer power truncates before the sum
        total = exp2(x1) + exp2(x2)
        need_float(op, total)
        return cast(F.log2(total), dtype)
    x1, x2, _ = _promoted(x1, x2)
    m = F.maximum(x1, x2)
    return cast(m + F.log2(F.exp2(x1 - m) + F.exp2(x2 - m)), dtype)


def copysign(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.copysign`: `|x1|` with the sign of `x2`, in `x1`'s dtype."""
    op = "mindspore.numpy.copysign"
    for x in (x1, x2):
        if not isinstance(x, (int, float, list, tuple, TensorBuffer)):
            raise TypeError(f"For '{op}', integer, float, list, tuple or Tensor are expected, "
                            f"but got {type(x).__name__}.")
    x1, x2 = to_tensor(x1, x2, op=op)
    shape = broadcast_shape(op, x1.shape, x2.shape)
    x1, x2 = F.broadcast_to(x1, shape), F.broadcast_to(x2, shape)
    need_not_bool(op, x1, x2)
    pos = F.abs(x1)
    return cast(F.where(x2 < 0, -pos, pos), dtype)


def clip(x, xmin, xmax, dtype=None):
    """Mirrors `mindspore.numpy.clip`: `minimum(maximum(x, xmin), xmax)`."""
    if xmin is None and xmax is None:
        raise ValueError("For 'mindspore.numpy.clip', one of max or min must be given.")
    if xmin is not None:
        x = maximum(x, xmin, dtype=dtype)
    if xmax is not None:
        x = minimum(x, xmax, dtype=dtype)
    return x


absolute.__name__ = "absolute"
abs = fabs = absolute
mod = remainder
bitwise_not = invert
