"""MindSpore's other spellings of the arithmetic and comparison ops (`tensor_add`,
`true_divide`, `floordiv`, `reduce_max`, ...), the graph-mode scalar arithmetic
(`scalar_add`, `augassign_*`, `bool_*`, `tuple_div`, ...) on Python values, and `std_mean`,
`var_mean`, `trapz`, `is_nonzero`. Several scalar ones have no PyNative implementation in
MindSpore 2.10 ("has no attr:__infer__"); here they compute what their names say."""

import math
import operator

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import to_dtype
from cellgrad.ops import functional as F

__all__ = ["tensor_add", "tensor_sub", "tensor_div", "tensor_floordiv", "tensor_ge",
           "tensor_gt", "tensor_le", "tensor_lt", "tensor_muls", "tensor_pow", "true_divide",
           "floordiv", "float_power_ext", "isnan_ext", "inplace_sigmoid", "reduce_max",
           "reduce_min", "std_mean", "var_mean", "trapz", "is_nonzero", "scalar_add",
           "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod",
           "scalar_pow", "scalar_eq", "scalar_ne", "scalar_gt", "scalar_ge", "scalar_lt",
           "scalar_le", "scalar_max", "scalar_min", "scalar_log", "scalar_uadd", "scalar_usub",
           "scalar_cast", "bool_and", "bool_or", "bool_eq", "bool_not", "augassign_add",
           "augassign_sub", "augassign_mul", "augassign_div", "augassign_floordiv",
           "augassign_mod", "tuple_div", "tuple_equal", "list_equal", "string_eq",
           "string_concat", "shape_mul", "hyper_add"]


def tensor_add(input, other):
    """Mirrors `mindspore.ops.tensor_add`: `add`."""
    return F.add(input, other)


def tensor_sub(*args):
    """Mirrors `mindspore.ops.tensor_sub(*args)`: `sub`."""
    return F.sub(*args)


def tensor_div(x, y):
    """Mirrors `mindspore.ops.tensor_div`: true division of floats; integer Tensors divide
    truncating and keep their dtype, as MindSpore 2.10's Div does."""
    ints = [v for v in (x, y) if isinstance(v, TensorBuffer)]
    if ints and all(v._data.dtype.kind in "iu" for v in ints) and \
            all(isinstance(v, (TensorBuffer, int)) for v in (x, y)):
        return F.div(x, y, rounding_mode="trunc")
    return F.div(x, y)


def tensor_floordiv(input, other):
    """Mirrors `mindspore.ops.tensor_floordiv`: `floor_divide`."""
    return F.floor_divide(input, other)


floordiv = tensor_floordiv


def tensor_ge(input, other):
    """Mirrors `mindspore.ops.tensor_ge`."""
    return F.ge(input, other)


def tensor_gt(input, other):
    """Mirrors `mindspore.ops.tensor_gt`."""
    return F.gt(input, other)


def tensor_le(input, other):
    """Mirrors `mindspore.ops.tensor_le`."""
    return F.le(input, other)


def tensor_lt(*args, **kwargs):
    """Mirrors `mindspore.ops.tensor_lt(*args, **kwargs)`: `less`."""
    return F.lt(*args, **kwargs)


def tensor_muls(input, other):
    """Mirrors `mindspore.ops.tensor_muls`: a Tensor times a Python number."""
    if isinstance(other, TensorBuffer) or isinstance(other, bool) or not isinstance(
            other, (int, float)):
        raise TypeError(f'Failed calling Muls with "Muls()(input={type(input).__name__}, '
                        f'other={type(other).__name__})": other must be a number.')
    return F.mul(input, other)


def tensor_pow(input, exponent):
    """Mirrors `mindspore.ops.tensor_pow`."""
    return F.pow(input, exponent)


def true_divide(dividend, divisor):
    """Mirrors `mindspore.ops.true_divide`: `div` (integers give Float32)."""
    return F.div(dividend, divisor)


def float_power_ext(input, exponent):
    """Mirrors `mindspore.ops.float_power_ext`: `float_power`."""
    from cellgrad.ops._fn_math2 import float_power

    return float_power(input, exponent)


def isnan_ext(tensor):
    """Mirrors `mindspore.ops.isnan_ext`."""
    return F.isnan(tensor)


def inplace_sigmoid(input):
    """Mirrors `mindspore.ops.inplace_sigmoid`: `Tensor.sigmoid_` (MindSpore 2.10's CPU build
    has no kernel)."""
    F._need_tensor("inplace_sigmoid", input)
    return input.sigmoid_()


def _axis(axis):
    return None if axis in ((), []) else axis


def reduce_max(x, axis=()):
    """Mirrors `mindspore.ops.reduce_max(x, axis=())` (`()`: all axes)."""
    return F.amax(x, _axis(axis))


def reduce_min(x, axis=()):
    """Mirrors `mindspore.ops.reduce_min(x, axis=())`."""
    return F.amin(x, _axis(axis))


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.ops.var_mean`: `(var, mean)`."""
    return F.var(input, axis, ddof, keepdims), F.mean(input, axis, keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.ops.std_mean`: `(std, mean)`."""
    return F.std(input, axis, ddof, keepdims), F.mean(input, axis, keepdims)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """Mirrors `mindspore.ops.trapz`: the trapezoidal rule along `dim`, with sample points
    `x` (1-D, or broadcast against `y`) or spacing `dx`."""
    F._need_tensor("trapz", y)
    dim %= max(y.ndim, 1)
    n = y.shape[dim]
    lo, hi = _slice(y, dim, 0, n - 1), _slice(y, dim, 1, n)
    if x is None:
        return F.sum(lo + hi, dim) * (dx / 2)
    F._need_tensor("trapz", x)
    if x.ndim == 1:
        d = x[1:] - x[:-1]
        d = F.reshape(d, tuple(n - 1 if a == dim else 1 for a in range(y.ndim)))
    else:
        d = _slice(x, dim - y.ndim + x.ndim, 1, n) - _slice(x, dim - y.ndim + x.ndim, 0, n - 1)
    return F.sum((lo + hi) * d, dim) / 2


def _slice(t, dim, start, stop):
    index = [slice(None)] * t.ndim
    index[dim] = slice(start, stop)
    return t[tuple(index)]


def is_nonzero(input):
    """Mirrors `mindspore.ops.is_nonzero`: whether a one-element Tensor is non-zero (a Python
    bool)."""
    F._need_tensor("is_nonzero", input)
    if input.size != 1:
        raise RuntimeError(f"For 'is_nonzero', the input must have exactly one element, but "
                           f"got {input.size}.")
    return bool(input._data.reshape(-1)[0])


# ---- graph-mode scalar arithmetic on Python values ----
def _scalar_op(name, fn, params=("x", "y")):
    if params == ("x",):
        def public(x):
            return fn(x)
    else:
        def public(x, y):
            return fn(x, y)
    public.__name__ = public.__qualname__ = name
    public.__doc__ = f"Mirrors `mindspore.ops.{name}` on Python numbers."
    return public


def _div(x, y):
    if y == 0:
        raise ValueError("The divisor could not be zero.")
    return x / y


def _floordiv(x, y):
    if y == 0:
        raise ValueError("The divisor could not be zero.")
    return x // y


def _mod(x, y):
    if y == 0:
        raise ValueError("Cannot perform modulo operation on zero.")
    return x % y


scalar_add = _scalar_op("scalar_add", operator.add)
scalar_sub = _scalar_op("scalar_sub", operator.sub)
scalar_mul = _scalar_op("scalar_mul", operator.mul)
scalar_div = _scalar_op("scalar_div", _div)
scalar_floordiv = _scalar_op("scalar_floordiv", _floordiv)
scalar_mod = _scalar_op("scalar_mod", _mod)
scalar_pow = _scalar_op("scalar_pow", operator.pow)
scalar_eq = _scalar_op("scalar_eq", operator.eq)
scalar_gt = _scalar_op("scalar_gt", operator.gt)
scalar_ge = _scalar_op("scalar_ge", operator.ge)
scalar_lt = _scalar_op("scalar_lt", operator.lt)
scalar_le = _scalar_op("scalar_le", operator.le)
# MindSpore 2.10 returns the chosen operand as it is (scalar_min(7.5, -2) is the int -2)
scalar_max = _scalar_op("scalar_max", lambda x, y: x if x >= y else y)
scalar_min = _scalar_op("scalar_min", lambda x, y: x if x <= y else y)
scalar_log = _scalar_op("scalar_log", math.log, ("x",))
scalar_uadd = _scalar_op("scalar_uadd", operator.pos, ("x",))
# MindSpore 2.10 answers -3 for scalar_uadd(-3) and for scalar_usub(3)
scalar_usub = _scalar_op("scalar_usub", operator.neg, ("x",))


def scalar_ne(*args):
    """Mirrors `mindspore.ops.scalar_ne(x, y)`."""
    x, y = args
    return x != y


def scalar_cast(input_x, input_y):
    """Mirrors `mindspore.ops.scalar_cast(input_x, input_y)`: a Python number as int64,
    float64 or bool."""
    d = to_dtype(input_y)
    if d.name not in ("Int64", "Float64", "Bool"):
        raise ValueError(f"For 'ScalarCast', the supported type is in the list: "
                         f"[mindspore.int64, mindspore.float64, mindspore.bool], but got {d}")
    return {"Int64": int, "Float64": float, "Bool": bool}[d.name](input_x)


def bool_and(*args):
    """Mirrors `mindspore.ops.bool_and(x, y)`."""
    x, y = args
    return bool(x) and bool(y)


def bool_or(*args):
    """Mirrors `mindspore.ops.bool_or(x, y)`."""
    x, y = args
    return bool(x) or bool(y)


def bool_eq(*args):
    """Mirrors `mindspore.ops.bool_eq(x, y)`."""
    x, y = args
    return bool(x) == bool(y)


def bool_not(*args):
    """Mirrors `mindspore.ops.bool_not(x)`: a Bool Tensor, as MindSpore 2.10 returns."""
    from cellgrad._core._buffer import make_tensor

    (x,) = args
    return make_tensor(np.asarray(not x))


def _augassign(name, tensor_fn, scalar_fn):
    def public(*args):
        x, y = args
        if isinstance(x, TensorBuffer) or isinstance(y, TensorBuffer):
            return tensor_fn(x, y)
        return scalar_fn(x, y)
    public.__name__ = public.__qualname__ = name
    public.__doc__ = f"Mirrors `mindspore.ops.{name}(x, y)`: `x {name[10:]}= y`."
    return public


augassign_add = _augassign("augassign_add", F.add, operator.add)
augassign_sub = _augassign("augassign_sub", F.sub, operator.sub)
augassign_mul = _augassign("augassign_mul", F.mul, operator.mul)
augassign_div = _augassign("augassign_div", F.div, _div)
augassign_floordiv = _augassign("augassign_floordiv", F.floor_divide, _floordiv)
augassign_mod = _augassign("augassign_mod", F.remainder, _mod)


def tuple_div(*args):
    """Mirrors `mindspore.ops.tuple_div(x, y)`: elementwise integer division of two tuples
    (each must divide exactly, as in a shape computation)."""
    x, y = args
    if len(x) != len(y):
        raise ValueError(f"For 'tuple_div', the tuples must have one length, but got {x} and "
                         f"{y}.")
    out = []
    for a, b in zip(x, y):
        if b == 0 or a % b:
            raise ValueError(f"For 'tuple_div', {a} cannot be divided by {b} exactly.")
        out.append(a // b)
    return tuple(out)


def tuple_equal(*args):
    """Mirrors `mindspore.ops.tuple_equal(x, y)`."""
    x, y = args
    return tuple(x) == tuple(y)


def list_equal(*args):
    """Mirrors `mindspore.ops.list_equal(x, y)`."""
    x, y = args
    return list(x) == list(y)


def string_eq(*args):
    """Mirrors `mindspore.ops.string_eq(x, y)`."""
    x, y = args
    return x == y


def string_concat(*args):
    """Mirrors `mindspore.ops.string_concat(x, y)`."""
    x, y = args
    return x + y


def shape_mul(input_data):
    """Mirrors `mindspore.ops.shape_mul`: the product of a shape tuple."""
    out = 1
    for v in input_data:
        out *= v
    return out


def hyper_add(*args):
    """Mirrors `mindspore.ops.hyper_add(x, y)`: `addn` of two Tensors of one shape (or of
    nested tuples/lists of them, leaf by leaf)."""
    from cellgrad.ops._fn_math import addn

    x, y = args
    if isinstance(x, (tuple, list)):
        return type(x)(hyper_add(a, b) for a, b in zip(x, y))
    return addn([x, y])
