"""Math Primitive classes (`ops.Tan()(x)`, `ops.Cummax(axis)(x)`, `ops.Median(...)(x)`, ...)
over the functions of `_fn_math2`, `_fn_special` and `_fn_reduce2`: one table for those with
no attributes, a class each for the rest."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops import _fn_math2 as M
from cellgrad.ops import _fn_reduce2 as R
from cellgrad.ops import _fn_special as S
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops._fn_math import isclose
from cellgrad.ops.primitive import Primitive, prim_attr_register


def _float(prim, fn):
    return lambda x: fn(C.floating(prim, "x", x))


def _float_complex(prim, fn):
    return lambda x: fn(C.dtype_in(prim, "x", x, "fc", "{Tensor[Complex128], Tensor[Complex64], "
                                   "Tensor[Float16], Tensor[Float32], Tensor[Float64]}"))


def _bitwise(prim, fn):
    def call(x, y):
        for name, v in (("x", x), ("y", y)):
            C.dtype_in(prim, name, v, "biu", "{Tensor[Bool], Tensor[Int16], Tensor[Int32], "
                       "Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], "
                       "Tensor[UInt64], Tensor[UInt8]}")
        return fn(x, y)
    return call


def _check_numerics(x):
    C.floating("CheckNumerics", "x", x)
    if not np.all(np.isfinite(x._data)):
        raise RuntimeError("For 'CheckNumerics', the input contains Inf or NaN values.")
    return x * 1


def _square_sum_all(x, y):
    for name, v in (("x", x), ("y", y)):
        C.dtype_in("SquareSumAll", name, v, "f", "{Tensor[Float16], Tensor[Float32]}")
    return F.sum(x * x), F.sum(y * y)


def _lerp_scalar(start, end, weight):
    if not isinstance(weight, (int, float)) or isinstance(weight, bool):
        raise TypeError(f"For 'LerpScalar', 'weight' must be a float, but got "
                        f"{type(weight).__name__}.")
    return M.lerp(start, end, float(weight))


def _addc(fn):
    def call(input_data, x1, x2, value):
        return fn(input_data, x1, x2, value)
    return call


def _compare_and_bitpack(x, threshold):
    for name, v in (("x", x), ("threshold", threshold)):
        if not isinstance(v, TensorBuffer):
            raise TypeError(f"The primitive[CompareAndBitpack]'s input arguments[threshold, x] "
                            f"must be all tensor and those type must be same. But got input "
                            f"argument[{name}]:{type(v).__name__}")
    if x.dtype != threshold.dtype or threshold.ndim:
        raise TypeError(f"For 'CompareAndBitpack', 'threshold' must be a 0-D Tensor of x's "
                        f"dtype {x.dtype}, but got {threshold.dtype} of shape {threshold.shape}.")
    if x.ndim == 0 or x.shape[-1] % 8:
        raise ValueError(f"For primitive[CompareAndBitpack], the attribute[x innermost "
                         f"dimension % 8] must be equal to 0, but got "
                         f"{x.shape[-1] % 8 if x.ndim else 0}.")
    data = x._data
    if data.dtype.kind == "b":
        # MindSpore 2.10 packs Bool inputs as they are, first element in the lowest bit
        bits, order = data, "little"
    else:
        bits, order = data > threshold._data, "big"
    packed = np.packbits(bits.reshape(*x.shape[:-1], -1, 8), axis=-1, bitorder=order)
    return R._const(packed.reshape(*x.shape[:-1], -1))


_NO_ATTRS = {
    # name: the function it calls with the call arguments
    "Tan": M.tan, "Asin": _float_complex("Asin", F.asin), "Atan": _float_complex("Atan", F.atan),
    "Atan2": lambda x, y: F.atan2(C.floating("Atan2", "x", x), y),
    "Acosh": M.acosh, "Asinh": M.asinh, "Atanh": M.atanh, "Sinh": _float_complex("Sinh", F.sinh),
    "Cosh": _float_complex("Cosh", F.cosh), "Log1p": _float_complex("Log1p", F.log1p),
    "Expm1": _float_complex("Expm1", F.expm1), "Erfc": S.erfc, "Erfinv": S.erfinv, "Inv": M.inv,
    "Invert": M.invert, "Rint": lambda x: F.cast(_rint(C.floating("Rint", "x", x)), x.dtype),
    "Trunc": lambda x: F.trunc(x) if x._data.dtype.kind == "f" else x * 1,
    "TruncateDiv": M.truncate_div, "TruncateMod": M.truncate_mod, "FloorMod": M.floor_mod,
    "Xdivy": M.xdivy, "Xlogy": M.xlogy, "DivNoNan": lambda x, y: _div_no_nan(x, y),
    "MulNoNan": lambda x, y: _mul_no_nan(x, y), "Fmax": M.fmax, "Fmin": M.fmin,
    "Hypot": M.hypot, "NextAfter": M.nextafter, "Heaviside": M.heaviside, "Gcd": M.gcd,
    "Lcm": M.lcm, "BitwiseAnd": _bitwise("BitwiseAnd", lambda x, y: x & y),
    "BitwiseOr": _bitwise("BitwiseOr", lambda x, y: x | y),
    "BitwiseXor": _bitwise("BitwiseXor", lambda x, y: x ^ y),
    "LeftShift": M.bitwise_left_shift, "RightShift": M.bitwise_right_shift,
    "PopulationCount": M.population_count, "CheckNumerics": _check_numerics,
    "SquaredDifference": lambda x, y: _squared_difference(x, y),
    "SquareSumAll": _square_sum_all, "Lerp": M.lerp, "LerpScalar": _lerp_scalar,
    "Addcdiv": _addc(M.addcdiv), "Addcmul": _addc(M.addcmul),
    "AccumulateNV2": M.accumulate_n, "Digamma": S.digamma, "Lgamma": S.lgamma,
    "Igamma": S.igamma, "Igammac": S.igammac, "Polygamma": lambda a, x: S.polygamma(a, x),
    "Zeta": S.zeta, "Betainc": S.betainc, "Sinc": S.sinc,
    "Bincount": R.bincount_prim, "CompareAndBitpack": _compare_and_bitpack,
    **{f"Bessel{n[0].upper()}{n[1:]}": getattr(S, f"bessel_{n}") for n in (
        "i0", "i0e", "i1", "i1e", "j0", "j1", "k0", "k0e", "k1", "k1e", "y0", "y1")},
}


def _rint(x):
    from cellgrad.numpy._math_prims import RINT
    from cellgrad.ops._registry import apply

    return apply(RINT, (x,))


def _div_no_nan(x, y):
    from cellgrad.ops._ew_math2 import OPS
    from cellgrad.ops._registry import apply

    C.dtype_in("DivNoNan", "x1", x, "fc", "{Tensor[Complex128], Tensor[Complex64], "
               "Tensor[Float16], Tensor[Float32], Tensor[Float64]}")
    return apply(OPS["div_no_nan"], (x, y))


def _mul_no_nan(x, y):
    from cellgrad.ops._ew_math2 import OPS
    from cellgrad.ops._registry import apply

    C.dtype_in("MulNoNan", "x", x, "fciu", "{Tensor[Float16], Tensor[Float32], Tensor[Float64], "
               "Tensor[Int...], Tensor[Complex...]}")
    return apply(OPS["mul_no_nan"], (x, y))


def _squared_difference(x, y):
    from cellgrad.ops._ew_math2 import OPS
    from cellgrad.ops._registry import apply

    for name, v in (("x", x), ("y", y)):
        if isinstance(v, TensorBuffer):
            C.dtype_in("SquaredDifference", name, v, "fciu", "{Tensor[Float16], "
                       "Tensor[Float32], Tensor[Float64], Tensor[Int32], ...}")
    return apply(OPS["squared_difference"], (x, y))


def _simple(name, fn):
    def __call__(self, *args):
        return fn(*args)
    return type(name, (Primitive,), {"__call__": __call__, "__module__": __name__,
                                     "__doc__": f"Mirrors `mindspore.ops.{name}`."})


globals().update({name: _simple(name, fn) for name, fn in _NO_ATTRS.items()})


class IsClose(Primitive):
    """Mirrors `mindspore.ops.IsClose(rtol=1e-05, atol=1e-08, equal_nan=False)(x1, x2)`."""

    @prim_attr_register
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=False):
        pass

    def __call__(self, x1, x2):
        return isclose(x1, x2, self.rtol, self.atol, self.equal_nan)


class ApproximateEqual(Primitive):
    """Mirrors `mindspore.ops.ApproximateEqual(tolerance=1e-05)(x1, x2)`."""

    @prim_attr_register
    def __init__(self, tolerance=1e-05):
        if not isinstance(tolerance, float):
            raise TypeError(f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', "
                            f"but got type '{type(tolerance).__name__}'.")

    def __call__(self, x1, x2):
        return M.approximate_equal(x1, x2, self.tolerance)


class NanToNum(Primitive):
    """Mirrors `mindspore.ops.NanToNum(nan=None, posinf=None, neginf=None)(x)`."""

    @prim_attr_register
    def __init__(self, nan=None, posinf=None, neginf=None):
        pass

    def __call__(self, x):
        return M.nan_to_num(x, self.nan, self.posinf, self.neginf)


class Logit(Primitive):
    """Mirrors `mindspore.ops.Logit(eps=-1.0)(x)`: a negative `eps` clips nothing."""

    @prim_attr_register
    def __init__(self, eps=-1.0):
        if not isinstance(eps, float):
            raise TypeError(f"For 'Logit', the type of 'eps' should be 'float', but got "
                            f"'{type(eps).__name__}'.")

    def __call__(self, x):
        return M.logit(x, None if self.eps < 0 else self.eps)


class Mvlgamma(Primitive):
    """Mirrors `mindspore.ops.Mvlgamma(p)(x)`."""

    @prim_attr_register
    def __init__(self, p):
        C.integer("Mvlgamma", "p", p)

    def __call__(self, x):
        return S.mvlgamma(x, self.p)


class _AxisAttr(Primitive):
    _fn = None

    @prim_attr_register
    def __init__(self, axis):
        C.integer(type(self).__name__, "axis", axis)

    def __call__(self, x):
        return type(self)._fn(x, self.axis)


class Cummax(_AxisAttr):
    """Mirrors `mindspore.ops.Cummax(axis)(x)`: `(values, Int64 indices)`."""

    _fn = staticmethod(R.cummax)


class Cummin(_AxisAttr):
    """Mirrors `mindspore.ops.Cummin(axis)(x)`: `(values, Int32 indices)`."""

    _fn = staticmethod(R.cummin_prim)


class CumProd(Primitive):
    """Mirrors `mindspore.ops.CumProd(exclusive=False, reverse=False)(x, axis)` (the dtype
    kept)."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        C.boolean("CumProd", "exclusive", exclusive)
        C.boolean("CumProd", "reverse", reverse)

    def __call__(self, x, axis):
        return R.cumprod_ex(x, axis, self.exclusive, self.reverse)


class CumulativeLogsumexp(Primitive):
    """Mirrors `mindspore.ops.CumulativeLogsumexp(exclusive=False, reverse=False)(x, axis)`;
    `axis` a 0-d integer Tensor, as MindSpore requires."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        C.boolean("CumulativeLogsumexp", "exclusive", exclusive)
        C.boolean("CumulativeLogsumexp", "reverse", reverse)

    def __call__(self, x, axis):
        if not isinstance(axis, TensorBuffer):
            raise TypeError(f"For Primitive[CumulativeLogsumexp], the type of input argument"
                            f"[axis] must be Tensor but got {type(axis).__name__}.")
        return R.cum_logsumexp(x, int(axis._data), self.exclusive, self.reverse)


class Median(Primitive):
    """Mirrors `mindspore.ops.Median(global_median=False, axis=0, keep_dims=False,
    ignore_nan=False)(x)`: `(values, Int64 indices)`; the global median's index is 0, as
    MindSpore 2.10 returns it."""

    @prim_attr_register
    def __init__(self, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
        pass

    def __call__(self, x):
        if self.global_median:
            v, _ = R._median("Median", F.reshape(x, (-1,)), 0, False, self.ignore_nan)
            return v, R._const(np.zeros((), np.int64))
        return R._median("Median", x, self.axis, self.keep_dims, self.ignore_nan)


class Quantile(Primitive):
    """Mirrors `mindspore.ops.Quantile(dim=None, keep_dims=False, ignore_nan=False)(input,
    q)`."""

    @prim_attr_register
    def __init__(self, dim=None, keep_dims=False, ignore_nan=False):
        pass

    def __call__(self, input, q):
        return R._quantile("Quantile", input, q, self.dim, self.keep_dims, self.ignore_nan)


class CountNonZero(Primitive):
    """Mirrors `mindspore.ops.CountNonZero(dims=None)(x)`: Int64 counts over `dims` (None:
    all). MindSpore 2.10's CPU build asks for a second input and fails."""

    @prim_attr_register
    def __init__(self, dims=None):
        pass

    def __call__(self, x):
        from cellgrad.ops._fn_array import count_nonzero

        dims = () if self.dims is None else self.dims
        return count_nonzero(x, tuple(dims) if isinstance(dims, list) else dims, False,
                             "int64")


class ReduceStd(Primitive):
    """Mirrors `mindspore.ops.ReduceStd(axis=[], unbiased=True, keep_dims=False)(x)`:
    `(std, mean)`."""

    @prim_attr_register
    def __init__(self, axis=[], unbiased=True, keep_dims=False):  # noqa: B006 (MindSpore's)
        pass

    def __call__(self, input_x):
        return R.reduce_std(input_x, self.axis, self.unbiased, self.keep_dims)


class Histogram(Primitive):
    """Mirrors `mindspore.ops.Histogram(bins=100, min=0.0, max=0.0)(x)`: `ops.histc`."""

    @prim_attr_register
    def __init__(self, bins=100, min=0.0, max=0.0):
        pass

    def __call__(self, x):
        return R.histc(x, self.bins, self.min, self.max)


class HistogramFixedWidth(Primitive):
    """Mirrors `mindspore.ops.HistogramFixedWidth(nbins, dtype='int32')(x, range)`
    (MindSpore 2.10's CPU build has no kernel; here it runs)."""

    @prim_attr_register
    def __init__(self, nbins, dtype="int32"):
        C.integer("HistogramFixedWidth", "nbins", nbins)
        if nbins < 1:
            raise ValueError(f"For 'HistogramFixedWidth', 'nbins' must be at least 1, but got "
                             f"{nbins}.")

    def __call__(self, x, range):
        return R.histogram_fixed_width(x, range, self.nbins, self.dtype)


__all__ = [*_NO_ATTRS, "IsClose", "ApproximateEqual", "NanToNum", "Logit", "Mvlgamma", "Cummax",
           "Cummin", "CumProd", "CumulativeLogsumexp", "Median", "Quantile", "CountNonZero",
           "ReduceStd", "Histogram", "HistogramFixedWidth"]
