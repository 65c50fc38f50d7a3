"""Two-input elementwise functions of `mindspore.numpy.math_ops` (arithmetic, extremes,
remainders, gcd/lcm, logaddexp, copysign, clip), with MindSpore's dtype rules: Python values
become 32-bit Tensors before the usual Tensor promotion, division of two non-Float16/32 inputs
computes in Float32, Bool is refused where MindSpore's CPU kernels refuse it."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32
from cellgrad.numpy._common import broadcast_shape, promote, to_tensor
from cellgrad.numpy._math_common import (
    MS_FLOATS,
    apply,
    cast,
    need_float,
    need_not_bool,
    need_tensor,
    trig_input,
)
from cellgrad.numpy._math_unary import exp2
from cellgrad.ops import _elementwise as _ew
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply as apply_op


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


def _nan_wins(plain):
    """`plain` (the core's maximum or minimum) with NaN selected wherever an input has one, as
    MindSpore's numpy selects it: those places pass no gradient to either input."""
    def fn(x1, x2):
        x1, x2, d = _promoted(x1, x2)
        out = plain(x1, x2)
        if d.kind != 2:
            return out
        return F.where(F.isnan(x1) | F.isnan(x2), float("nan"), out)
    return fn


maximum = _extreme("maximum", _nan_wins(F.maximum))
minimum = _extreme("minimum", _nan_wins(F.minimum))


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


def arctan2(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.arctan2` (both inputs Tensors, cast by the trig table)."""
    op = "mindspore.numpy.arctan2"
    return cast(F.atan2(trig_input(op, x1), trig_input(op, x2)), dtype)


mod = remainder
