"""Elementwise functions of `mindspore.ops` beyond the core arithmetic: trigonometric and
hyperbolic spellings, division variants, bitwise shifts, float classification, `lerp`,
`addcdiv`/`addcmul`, `nan_to_num`, ... with MindSpore 2.10's dtype rules (recorded in
tests/core/ms_programs/math2_*.py)."""

import math

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float64, to_dtype
from cellgrad.ops import _ew_math2 as E
from cellgrad.ops import functional as F
from cellgrad.ops._call_errors import bad_call
from cellgrad.ops._registry import apply

__all__ = ["tan", "acosh", "arccosh", "asinh", "arcsinh", "atanh", "arctanh", "deg2rad",
           "rad2deg", "inv", "invert", "frac", "float_power", "xdivy", "xlogy", "fmax", "fmin",
           "hypot", "ldexp", "logaddexp", "logaddexp2", "copysign", "nextafter", "heaviside",
           "gcd", "lcm", "bitwise_left_shift", "bitwise_right_shift", "population_count",
           "approximate_equal", "isneginf", "isposinf", "signbit", "sgn", "positive",
           "nan_to_num", "logit", "lerp", "addcdiv", "addcmul", "accumulate_n", "floor_mod",
           "floormod", "truncate_div", "truncate_mod", "tensor_mod", "tensor_exp",
           "tensor_expm1", "fmod", "tanh_", "clamp_", "erfinv_"]

_FLOAT = ("float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_INT = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _dtype_set(names):
    return "{" + ", ".join(f"Tensor[{to_dtype(n)}]" for n in sorted(names)) + "}"


def _need(prim, arg, x, names):
    """`x` must be a Tensor of one of the numpy dtypes `names` (MindSpore's message)."""
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{prim}', the input '{arg}' must be a Tensor, but got "
                        f"{type(x).__name__}.")
    if x._data.dtype.name not in names:
        raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of "
                        f"{_dtype_set(names)}, but got Tensor[{x.dtype}].")
    return x


def _unsupported(prim, x, names):
    """MindSpore's CPU kernel-selection error for a dtype the kernel lacks."""
    if not isinstance(x, TensorBuffer):
        raise bad_call(prim, (("input", x),), ("Tensor",))
    if x._data.dtype.name not in names:
        raise TypeError(f"Select CPU operator[{prim}] fail! Unsupported data type! The "
                        f"input is Tensor[{x.dtype}]; supported: {_dtype_set(names)}.")
    return x


def _unary(name, prim, names=_FLOAT, kernel_error=True):
    op = E.OPS[name]
    check = _unsupported if kernel_error else (lambda p, x, n: _need(p, "x", x, n))

    def fn(input):
        return apply(op, (check(prim, input, names),))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}` ({prim})."
    return fn


tan = _unary("tan", "Tan", _FLOAT + _COMPLEX)
acosh = arccosh = _unary("acosh", "Acosh", _FLOAT + _COMPLEX)
asinh = arcsinh = _unary("asinh", "Asinh", _FLOAT + _COMPLEX)
atanh = arctanh = _unary("atanh", "Atanh", _FLOAT + _COMPLEX)


def _scale(op, x, factor):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', the 'x' must be a Tensor, but got {type(x).__name__}.")
    if x._data.dtype.name not in _FLOAT:
        raise TypeError(f"For '{op}', the 'x' should be one of [mindspore.float16, "
                        f"mindspore.float32, mindspore.float64], but got 'mindspore.{x.dtype}'.")
    return x * factor


def deg2rad(x):
    """Mirrors `mindspore.ops.deg2rad` (float inputs)."""
    return _scale("deg2rad", x, math.pi / 180.0)


def rad2deg(x):
    """Mirrors `mindspore.ops.rad2deg` (float inputs)."""
    return _scale("rad2deg", x, 180.0 / math.pi)


def inv(x):
    """Mirrors `mindspore.ops.inv`: 1 / x; integer inputs keep their dtype (truncated)."""
    return apply(E.OPS["inv"], (_need("Inv", "x", x, _FLOAT + _INT + _COMPLEX),))


def invert(x):
    """Mirrors `mindspore.ops.invert`: bitwise NOT of an integer Tensor."""
    return apply(E.OPS["invert"], (_need("Invert", "x", x, _INT),))


def frac(x):
    """Mirrors `mindspore.ops.frac`: `x - trunc(x)` (integer inputs give zeros; Bool Int64)."""
    F._need_tensor("frac", x)
    if x._data.dtype.kind == "b":
        x = F.cast(x, "int64")
    if x._data.dtype.kind in "iu":
        return x - x
    return x - F.trunc(x)


def float_power(input, exponent):
    """Mirrors `mindspore.ops.float_power`: `pow` computed in Float64."""
    if not isinstance(input, TensorBuffer) and not isinstance(exponent, TensorBuffer):
        raise TypeError("For 'float_power', at least one of 'input' and 'exponent' must be a "
                        f"Tensor, but got {type(input).__name__} and {type(exponent).__name__}.")
    a, b = (F.cast(v, float64) if isinstance(v, TensorBuffer) else float(v)
            for v in (input, exponent))
    return F.pow(a, b)


def _binary(name, prim, left=None, right_tensor=False, names=None, arg_names=("x", "y"),
            params=("input", "other")):
    """The public function of table op `name`: `left` names the dtypes the first input may
    have; `right_tensor` requires the second to be a Tensor of the same dtype. `params` are
    MindSpore's parameter names of the function."""
    op = E.OPS[name]

    def impl(input, other):
        if left is not None:
            _need(prim, arg_names[0], input, left)
        elif not isinstance(input, TensorBuffer) and not isinstance(other, TensorBuffer):
            raise TypeError(f"For '{prim}', at least one of the inputs must be a Tensor, but "
                            f"got {type(input).__name__} and {type(other).__name__}.")
        if right_tensor:
            _need(prim, arg_names[1], other, left or names)
            if input.dtype != other.dtype:
                raise TypeError(f"For primitive[{prim}], the input type must be same, but got "
                                f"{input.dtype} and {other.dtype}.")
        for v in (input, other):
            if isinstance(v, TensorBuffer) and v._data.dtype.kind == "b" and names is not None \
                    and "bool" not in names:
                raise TypeError(f"For primitive[{prim}], the input argument[{arg_names[0]}] "
                                f"must be a type of {_dtype_set(names)}, but got "
                                f"Tensor[{v.dtype}].")
        return apply(op, (input, other))
    fn = _SIGNATURES[params](impl)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}` ({prim})."
    return fn


def _input_other(impl):
    def fn(input, other):
        return impl(input, other)
    return fn


def _x_y(impl):
    def fn(x, y):
        return impl(x, y)
    return fn


def _input_values(impl):
    def fn(input, values):
        return impl(input, values)
    return fn


_SIGNATURES = {("input", "other"): _input_other, ("x", "y"): _x_y,
               ("input", "values"): _input_values}


xdivy = _binary("xdivy", "Xdivy", left=_FLOAT, params=("x", "y"))
xlogy = _binary("xlogy", "Xlogy")
fmax = _binary("fmax", "Fmax", names=("float16", "float32", "float64", "int32", "int64"),
               arg_names=("x1", "x2"))
fmin = _binary("fmin", "Fmin", names=("float16", "float32", "float64", "int32", "int64"),
               arg_names=("x1", "x2"))
hypot = _binary("hypot", "Hypot", left=("float32", "float64"), arg_names=("x1", "x2"))
nextafter = _binary("nextafter", "NextAfter", left=("float32", "float64"), right_tensor=True,
                    arg_names=("x1", "x2"))
heaviside = _binary("heaviside", "Heaviside", left=_FLOAT + _INT[:4] + ("uint8",),
                    right_tensor=True, arg_names=("x", "values"), params=("input", "values"))
gcd = _binary("gcd", "Gcd", left=("int16", "int32", "int64"), right_tensor=True,
              arg_names=("x1", "x2"))
lcm = _binary("lcm", "Lcm", left=("int32", "int64"), arg_names=("x1", "x2"))
_left_shift = _binary("left_shift", "LeftShift", left=_INT)
_right_shift = _binary("right_shift", "RightShift", left=_INT)
truncate_div = _binary("truncate_div", "TruncateDiv", names=_FLOAT + _INT, params=("x", "y"))
truncate_mod = _binary("truncate_mod", "TruncateMod", names=_FLOAT + _INT, params=("x", "y"))
floor_mod = floormod = tensor_mod = _binary("floor_mod", "FloorMod", names=_FLOAT + _INT,
                                            params=("x", "y"))
_fmod = _binary("truncate_mod", "fmod")
tensor_exp = F.exp
tensor_expm1 = F.expm1


def fmod(input, other):
    """Mirrors `mindspore.ops.fmod`: the remainder with the dividend's sign (C's fmod)."""
    return _fmod(input, other)


def _same_int(x, other):
    """A Python int shift amount as a Tensor of `x`'s dtype (MindSpore 2.10's LeftShift
    refuses it with a misleading dtype error; this takes it)."""
    if isinstance(other, (int, np.integer)) and not isinstance(other, bool) \
            and isinstance(x, TensorBuffer):
        return make_tensor(np.asarray(other, x._data.dtype), None, 0, x.dtype)
    return other


def bitwise_left_shift(input, other):
    """Mirrors `mindspore.ops.bitwise_left_shift` (integer Tensors; bits shifted out are
    lost)."""
    return _left_shift(input, _same_int(input, other))


def bitwise_right_shift(input, other):
    """Mirrors `mindspore.ops.bitwise_right_shift` (arithmetic shift for signed types)."""
    return _right_shift(input, _same_int(input, other))


def population_count(input_x):
    """Mirrors `mindspore.ops.population_count`: the set bits of each element, as UInt8."""
    return apply(E.OPS["population_count"], (_need("PopulationCount", "input_x", input_x,
                                                   _INT),))


def logaddexp(input, other):
    """Mirrors `mindspore.ops.logaddexp`: `log(exp(input) + exp(other))`, computed stably."""
    return _logaddexp("logaddexp", input, other, "the other")


def logaddexp2(input, other):
    """Mirrors `mindspore.ops.logaddexp2`: `log2(2**input + 2**other)`, computed stably."""
    return _logaddexp("logaddexp2", input, other, "other")


def _logaddexp(name, input, other, other_word):
    for v in (input, other):
        if not isinstance(v, TensorBuffer):
            raise TypeError(f"For {name}, {other_word} must be a Tensor, but got {type(v)}.")
    if input._data.dtype.kind != "f" or other._data.dtype.kind != "f":
        raise TypeError(f"For {name}, the dtype of 'input' and 'other' must be float,but got "
                        f"{input.dtype} and {other.dtype}.")
    return apply(E.OPS[name], (input, other))


def copysign(x, other):
    """Mirrors `mindspore.ops.copysign`: |x| with the sign of `other` (integers become
    Float32); differentiable in `x`."""
    for v in (x, other):
        if isinstance(v, (bool, np.bool_)) or (isinstance(v, TensorBuffer)
                                               and v._data.dtype.kind == "b"):
            raise TypeError("copysign does not accept dtype bool.")
    F._need_tensor("copysign", x)
    if isinstance(other, TensorBuffer) and other._data.dtype.kind != "f" \
            and x._data.dtype.kind == "f":
        other = F.cast(other, x.dtype)
    return apply(E.OPS["copysign"], (x, other))


def approximate_equal(x, y, tolerance=1e-05):
    """Mirrors `mindspore.ops.approximate_equal`: `|x - y| < tolerance`, as Bool (float
    Tensors of one shape)."""
    _need("ApproximateEqual", "x1", x, _FLOAT)
    _need("ApproximateEqual", "x2", y, _FLOAT)
    if x.shape != y.shape:
        raise RuntimeError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as "
                           f"'x2'. But got 'x1' shape: {x.shape}, 'x2' shape: {y.shape}.")
    if x.ndim >= 8:
        raise RuntimeError(f"For 'ApproximateEqual', the x's rank should be less than 8, but "
                           f"got: {x.ndim}")
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool):
        raise TypeError(f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', "
                        f"but got '{type(tolerance).__name__}'.")
    diff = np.abs(x._data.astype(np.float64) - y._data.astype(np.float64))
    return make_tensor(diff < tolerance)


def _classify(name, input):
    F._need_tensor(name, input)
    return apply(E.OPS[name], (input,))


def isneginf(input):
    """Mirrors `mindspore.ops.isneginf`: Bool, True at -inf."""
    return _classify("isneginf", input)


def isposinf(input):
    """Mirrors `mindspore.ops.isposinf`: Bool, True at +inf (MindSpore 2.10's CPU build
    refuses Float32 here; any real dtype works in cellgrad)."""
    return _classify("isposinf", input)


def signbit(input):
    """Mirrors `mindspore.ops.signbit`: Bool, True where the sign bit is set (-0.0 too)."""
    return _classify("signbit", input)


def sgn(input):
    """Mirrors `mindspore.ops.sgn`: `sign` for real Tensors, `x / |x|` (0 at 0) for complex."""
    F._need_tensor("sgn", input)
    if input.dtype.is_complex:
        mag = F.abs(input)
        safe = F.where(mag == 0, 1.0, mag)
        return input / F.cast(safe, input.dtype)  # 0 where |x| is 0: x is 0 there
    if input._data.dtype.kind == "b":
        raise TypeError("Select CPU operator[Sign] fail! Unsupported data type! The input is "
                        "Tensor[Bool].")
    return F.sign(input)


def positive(input):
    """Mirrors `mindspore.ops.positive`: the input itself."""
    F._need_tensor("positive", input)
    return input


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Mirrors `mindspore.ops.nan_to_num`: NaN to `nan` (0), +inf to `posinf` (the dtype's
    max), -inf to `neginf` (its lowest); the gradient passes where the input is finite.
    MindSpore 2.10 refuses Float64; cellgrad takes it."""
    _unsupported("NanToNum", input, _FLOAT)
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool)):
            raise TypeError(f"For 'nan_to_num', the type of '{arg}' should be 'float', but got "
                            f"'{type(v).__name__}'.")
    return apply(E.NAN_TO_NUM, (input,), {"nan": nan, "posinf": posinf, "neginf": neginf})


def logit(input, eps=None):
    """Mirrors `mindspore.ops.logit`: `log(x / (1 - x))`, `x` first clipped to
    [eps, 1 - eps] when `eps` is given (no gradient outside)."""
    _unsupported("Logit", input, _FLOAT)
    if eps is not None and eps >= 0:
        input = F.clamp(input, float(eps), 1.0 - float(eps))
    return F.log(input / (1 - input))


def lerp(input, end, weight):
    """Mirrors `mindspore.ops.lerp`: `input + weight * (end - input)` (weight a float or a
    Tensor)."""
    F._need_tensor("lerp", input, end)
    if input.dtype != end.dtype:
        raise TypeError(f"For 'lerp', 'input' and 'end' must have the same dtype, but got "
                        f"{input.dtype} and {end.dtype}.")
    if not isinstance(weight, (TensorBuffer, float)):
        raise TypeError(f"For 'lerp', 'weight' must be a float or a Tensor, but got "
                        f"{type(weight).__name__}.")
    return input + weight * (end - input)


def _value(name, value, like):
    if isinstance(value, TensorBuffer):
        return value
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"For '{name}', 'value' must be a Tensor, int or float, but got "
                        f"{type(value).__name__}.")
    return value


def addcdiv(input, tensor1, tensor2, value=1):
    """Mirrors `mindspore.ops.addcdiv`: `input + value * tensor1 / tensor2`."""
    F._need_tensor("addcdiv", input, tensor1, tensor2)
    return input + _value("addcdiv", value, input) * (tensor1 / tensor2)


def addcmul(input, tensor1, tensor2, value=1):
    """Mirrors `mindspore.ops.addcmul`: `input + value * tensor1 * tensor2`."""
    F._need_tensor("addcmul", input, tensor1, tensor2)
    return input + _value("addcmul", value, input) * (tensor1 * tensor2)


def accumulate_n(x):
    """Mirrors `mindspore.ops.accumulate_n`: the sum of a list of Tensors of one shape."""
    from cellgrad.ops._fn_math import addn

    if isinstance(x, TensorBuffer):
        return x
    return addn(x)


def ldexp(x, other):
    """Mirrors `mindspore.ops.ldexp`: `x * 2**other` (integer inputs give Float32)."""
    F._need_tensor("ldexp", x)
    if isinstance(other, TensorBuffer):
        return x * F.exp2(other)
    if isinstance(other, bool) or not isinstance(other, (int, float)):
        raise TypeError(f"For 'ldexp', 'other' must be a Tensor or a number, but got "
                        f"{type(other).__name__}.")
    out = x * (2.0 ** other)
    return out


def tanh_(input):
    """Mirrors `mindspore.ops.tanh_`: `Tensor.tanh_` (in place; returns `input`)."""
    F._need_tensor("tanh_", input)
    return input.tanh_()


def clamp_(input, min=None, max=None):
    """Mirrors `mindspore.ops.clamp_`: `Tensor.clamp_` (in place; returns `input`)."""
    F._need_tensor("clamp_", input)
    return input.clamp_(min, max)


def erfinv_(input):
    """Mirrors `mindspore.ops.erfinv_`: `Tensor.erfinv_` (in place; returns `input`)."""
    F._need_tensor("erfinv_", input)
    return input.erfinv_()
