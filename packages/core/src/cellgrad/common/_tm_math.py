"""Tensor methods of the elementwise math, special-function, bitwise, reduction and scan
families (an area of `_tensor_methods.AREAS`), and the in-place elementwise methods
(`add_`, `mul_`, `exp_`, ...). MindSpore 2.10's CPU build returns a new Tensor from
`add_`/`sub_`/`mul_`/`div_`/`remainder_`/`floor_divide_`/`exp_` and leaves `self` unchanged,
and has no kernel for `floor_`/`log_`/`sigmoid_`/`tanh_`/`sign_`/`erfinv_`; these write into
`self` as MindSpore documents (and does on Ascend), in `self`'s dtype and shape, on the tape
when a gradient is being recorded."""

import numpy as np

from cellgrad import _jit_hook
from cellgrad import ops as O
from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops import _fn_reduce2 as R
from cellgrad.ops import functional as F

THIN = {
    "tan": O.tan, "acosh": O.acosh, "arccosh": O.acosh, "asinh": O.asinh, "arcsinh": O.asinh,
    "atanh": O.atanh, "arctanh": O.atanh, "deg2rad": (O.deg2rad, ""),
    "rad2deg": (O.rad2deg, ""), "erf": O.erf, "erfc": O.erfc, "erfinv": O.erfinv,
    "inv": O.inv, "invert": O.invert, "frac": O.frac, "float_power": (O.float_power, "other"),
    "xdivy": O.xdivy, "xlogy": O.xlogy, "fmax": O.fmax, "fmin": O.fmin, "hypot": O.hypot,
    "ldexp": O.ldexp, "logaddexp": O.logaddexp, "logaddexp2": O.logaddexp2,
    "copysign": O.copysign, "nextafter": O.nextafter, "heaviside": O.heaviside, "gcd": O.gcd,
    "lcm": O.lcm, "bitwise_left_shift": O.bitwise_left_shift,
    "bitwise_right_shift": O.bitwise_right_shift,
    "approximate_equal": (O.approximate_equal, "other, tolerance=1e-05"),
    "isneginf": O.isneginf, "isposinf": O.isposinf, "signbit": O.signbit, "sgn": O.sgn,
    "positive": O.positive, "nan_to_num": O.nan_to_num, "logit": O.logit, "lerp": O.lerp,
    "addcdiv": O.addcdiv, "addcmul": O.addcmul, "digamma": O.digamma, "lgamma": O.lgamma,
    "igamma": O.igamma, "igammac": O.igammac, "mvlgamma": O.mvlgamma, "sinc": O.sinc,
    "i0": O.i0, "cummax": O.cummax, "cumprod": O.cumprod, "logcumsumexp": O.logcumsumexp,
    "nanmedian": O.nanmedian, "quantile": O.quantile,
    "nanquantile": O.nanquantile, "nanmean": O.nanmean, "nansum": O.nansum,
    "histc": O.histc, "bincount": O.bincount, "msort": O.msort,
    "count_nonzero": O.count_nonzero, "fmod": O.fmod,
    "kthvalue": (R.kthvalue, "k, dim=-1, keepdim=False"),
}


def bitwise_not(self):
    """Mirrors `mindspore.Tensor.bitwise_not`: NOT of a Bool or integer Tensor."""
    if self._data.dtype.kind == "b":
        return F.logical_not(self)
    return O.invert(self)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Mirrors `mindspore.Tensor.allclose`: whether every element is close, a Python bool."""
    return bool(np.all(O.isclose(self, other, rtol, atol, equal_nan)._data))


def ptp(self, axis=None, keepdims=False):
    """Mirrors `mindspore.Tensor.ptp`: max - min along `axis`."""
    return O.amax(self, axis, keepdims) - O.amin(self, axis, keepdims)


def argmax_with_value(self, axis=0, keep_dims=False):
    """Mirrors `mindspore.Tensor.argmax_with_value`: `(values, Int64 indices)`."""
    return R.argmax_with_value(self, axis, keep_dims, True)


def argmin_with_value(self, axis=0, keep_dims=False):
    """Mirrors `mindspore.Tensor.argmin_with_value`: `(values, Int64 indices)`."""
    return R.argmax_with_value(self, axis, keep_dims, False)


# ---- in place ----
def _write(self, name, out):
    """`out` (in `self`'s dtype; it must keep `self`'s shape) becomes this tensor's value."""
    from cellgrad.common._tensor_methods import _inplace

    if tuple(out.shape) != tuple(self.shape):
        raise RuntimeError(f"For 'Tensor.{name}', the result of shape {tuple(out.shape)} "
                           f"cannot be written into a tensor of shape {tuple(self.shape)}.")
    if out.dtype != self.dtype:
        out = F.cast(out, self.dtype)
    _jit_hook.wrote(self, f"Tensor.{name}")  # a jit replay would not repeat the write
    return _inplace(self, out)


def _scaled(other, alpha):
    return other if alpha == 1 else other * alpha


def add_(self, other, *, alpha=1):
    """Mirrors `mindspore.Tensor.add_(other, *, alpha=1)`: `self += alpha * other`."""
    return _write(self, "add_", F.add(self, _scaled(other, alpha)))


def sub_(self, other, *, alpha=1):
    """Mirrors `mindspore.Tensor.sub_(other, *, alpha=1)`: `self -= alpha * other`."""
    return _write(self, "sub_", F.sub(self, _scaled(other, alpha)))


def mul_(self, other):
    """Mirrors `mindspore.Tensor.mul_`: `self *= other`."""
    return _write(self, "mul_", F.mul(self, other))


def div_(self, other, *, rounding_mode=None):
    """Mirrors `mindspore.Tensor.div_(other, *, rounding_mode=None)`."""
    return _write(self, "div_", F.div(self, other, rounding_mode=rounding_mode))


def remainder_(self, other):
    """Mirrors `mindspore.Tensor.remainder_`: the remainder with the divisor's sign."""
    return _write(self, "remainder_", F.remainder(self, other))


def floor_divide_(self, other):
    """Mirrors `mindspore.Tensor.floor_divide_`."""
    return _write(self, "floor_divide_", F.floor_divide(self, other))


def _unary_inplace(name, fn):
    def method(self):
        if not isinstance(self, TensorBuffer):
            raise TypeError(f"Tensor.{name} needs a Tensor.")
        return _write(self, name, fn(self))
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Mirrors `mindspore.Tensor.{name}`: `{name[:-1]}` in place."
    return method


METHODS = {
    "bitwise_not": bitwise_not, "allclose": allclose, "ptp": ptp,
    "argmax_with_value": argmax_with_value, "argmin_with_value": argmin_with_value,
    "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "remainder_": remainder_,
    "floor_divide_": floor_divide_,
    **{name: _unary_inplace(name, fn) for name, fn in (
        ("exp_", F.exp), ("floor_", F.floor), ("log_", F.log), ("sigmoid_", F.sigmoid),
        ("tanh_", F.tanh), ("sign_", F.sign), ("erfinv_", O.erfinv))},
}
