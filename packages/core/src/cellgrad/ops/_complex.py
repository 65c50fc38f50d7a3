"""Complex ops: real/imag/conj/angle, building complex tensors (Complex, polar), ComplexAbs,
conjugate transposes; forward and backward side by side.

Gradient convention. The tape carries cotangents without conjugation (a holomorphic op's
rule is `g * f'(z)`, as every real rule already is); `grad` conjugates complex gradients
where they leave (and complex `sens` where it enters), so users see MindSpore's (and
PyTorch's) convention: for a real loss L of z = x + iy, the gradient is dL/dx + i dL/dy.
The rules below are written for the tape's convention.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply, define
from cellgrad.ops.primitive import Primitive

__all__ = ["Angle", "Complex", "ComplexAbs", "Conj", "ConjugateTranspose", "Imag", "Polar", "Real",
           "adjoint", "angle", "conj", "imag", "is_complex", "is_floating_point", "isreal",
           "polar", "real", "view_as_real"]

_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _is_complex(a):
    return a.dtype.kind == "c"


def _tensor(op, name, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"Failed calling {op} with \"{op}()({name}={type(x).__name__})\": "
                        f"'{name}' must be a Tensor.")
    return x


def _complex_input(op, name, x):
    _tensor(op, name, x)
    if not _is_complex(x._data):
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{{Tensor[Complex128], Tensor[Complex64]}}, but got Tensor[{x.dtype}].")
    return x


# ---- higher-order helpers: the same ops on Tensors (rules get Tensors when recording) ----
def _re(xp, a):
    return real(a) if xp.IS_TENSOR else np.real(a)


def _im(xp, a):
    return imag(a) if xp.IS_TENSOR else np.imag(a)


def _cj(xp, a):
    return conj(a) if xp.IS_TENSOR else np.conj(a)


def _cx(xp, re, im):
    """re + i im (xp None: numpy, in a forward)."""
    if xp is not None and xp.IS_TENSOR:
        return apply(COMPLEX, (re, im))
    return (re + 1j * im).astype(_COMPLEX_OF.get(np.result_type(re, im), np.complex128))


# ---- Real / Imag / Conj ----
def _real_fwd(x):
    return (np.real(x).copy() if _is_complex(x) else x.copy()), (_is_complex(x),)


def _real_bwd(ctx, g):
    (was_complex,) = ctx.saved
    return _cx(ctx.xp, g, g * 0) if was_complex else g


def _imag_fwd(x):
    return (np.imag(x).copy() if _is_complex(x) else np.zeros_like(x)), (_is_complex(x),)


def _imag_bwd(ctx, g):
    # Im(z) = (z - conj z) / 2i: its cotangent for z is -i g (the tape's convention).
    (was_complex,) = ctx.saved
    return _cx(ctx.xp, g * 0, -g) if was_complex else g * 0


def _conj_fwd(x):
    return np.conj(x), None


REAL = define("Real", _real_fwd, _real_bwd)
IMAG = define("Imag", _imag_fwd, _imag_bwd)
CONJ = define("Conj", _conj_fwd, lambda ctx, g: _cj(ctx.xp, g))


def real(input):
    """Mirrors `mindspore.ops.real`: the real part (a real tensor is returned as it is)."""
    return apply(REAL, (_tensor("Real", "input", input),))


def imag(input):
    """Mirrors `mindspore.ops.imag`: the imaginary part (zeros for a real tensor)."""
    return apply(IMAG, (_tensor("Imag", "input", input),))


def conj(input):
    """Mirrors `mindspore.ops.conj`: the complex conjugate (a real tensor as it is)."""
    return apply(CONJ, (_tensor("Conj", "input", input),))


# ---- Angle / ComplexAbs ----
def _angle_fwd(z):
    return np.angle(z).astype(np.real(z).dtype), (z,)


def _angle_bwd(ctx, g):
    # d angle = (x dy - y dx) / |z|^2; cotangent for z: g (-y - ix) / |z|^2.
    (z,) = ctx.saved
    xp = ctx.xp
    x, y = _re(xp, z), _im(xp, z)
    r2 = x * x + y * y
    r2 = xp.where(r2 == 0, r2 + 1, r2)  # angle(0) is 0 with a zero gradient (as atan2)
    return _cx(xp, -g * y / r2, -g * x / r2)


def _cabs_fwd(z):
    return np.abs(z), (z,)


def abs_cotangent(xp, z, g):
    """The tape's cotangent of |z|: d|z| = Re(conj(z) dz) / |z|, so g conj(z) / |z| (zero at
    z = 0). Also the rule of `ops.abs` on complex tensors."""
    a = apply(COMPLEX_ABS, (z,)) if xp.IS_TENSOR else np.abs(z)
    scale = g / xp.where(a == 0, a + 1, a)
    return _cx(xp, scale * _re(xp, z), -scale * _im(xp, z))


def _cabs_bwd(ctx, g):
    return abs_cotangent(ctx.xp, ctx.saved[0], g)


ANGLE = define("Angle", _angle_fwd, _angle_bwd)
COMPLEX_ABS = define("ComplexAbs", _cabs_fwd, _cabs_bwd)


def angle(input):
    """Mirrors `mindspore.ops.angle`: the argument of each complex element (float)."""
    return apply(ANGLE, (_complex_input("Angle", "input", input),))


# ---- Complex / polar / view_as_real ----
def _complex_fwd(re, im):
    return _cx(None, re, im), None


def _complex_bwd(ctx, g):
    # the tape's cotangent of z = a + ib is dL/da - i dL/db
    xp = ctx.xp
    return _re(xp, g), -_im(xp, g)


def _polar_fwd(r, theta):
    return _cx(None, r * np.cos(theta), r * np.sin(theta)), (r, theta)


def _polar_bwd(ctx, g):
    # z = r e^{i theta}: cotangents Re(g e^{i theta}) for r and Re(g i z) for theta.
    r, theta = ctx.saved
    xp = ctx.xp
    c, s = xp.cos(theta), xp.sin(theta)
    gx, gy = _re(xp, g), _im(xp, g)
    return gx * c - gy * s, -(gx * s + gy * c) * r


def _view_as_real_fwd(z):
    return np.stack([np.real(z), np.imag(z)], axis=-1), None


def _view_as_real_bwd(ctx, g):
    xp = ctx.xp
    if xp.IS_TENSOR:
        return apply(COMPLEX, (g[..., 0], -g[..., 1]))
    return _cx(None, g[..., 0], -g[..., 1])


COMPLEX = define("Complex", _complex_fwd, _complex_bwd)
POLAR = define("Polar", _polar_fwd, _polar_bwd)
VIEW_AS_REAL = define("ViewAsReal", _view_as_real_fwd, _view_as_real_bwd)


def _float_pair(op, names, a, b):
    for name, x in zip(names, (a, b)):
        _tensor(op, name, x)
        if x._data.dtype not in _COMPLEX_OF:
            raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                            f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{x.dtype}].")
    if a.dtype is not b.dtype:
        raise TypeError(f"For primitive[{op}], the input type must be same.")
    if a.shape != b.shape:
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            raise ValueError(f"For primitive[{op}], the shapes of '{names[0]}' {a.shape} and "
                             f"'{names[1]}' {b.shape} cannot be broadcast.") from None


def polar(abs, angle):
    """Mirrors `mindspore.ops.polar`: `abs * (cos(angle) + i sin(angle))`."""
    _float_pair("Polar", ("abs", "angle"), abs, angle)
    return apply(POLAR, (abs, angle))


def view_as_real(input):
    """Mirrors `mindspore.ops.view_as_real`: a complex tensor as (..., 2) real and imaginary
    parts (a copy here: numpy's view would alias the complex storage)."""
    _tensor("view_as_real", "input", input)
    if not _is_complex(input._data):
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return apply(VIEW_AS_REAL, (input,))


# ---- predicates and conjugate transposes ----
def is_complex(input):
    """Mirrors `mindspore.ops.is_complex`."""
    if not isinstance(input, TensorBuffer):
        raise TypeError("The input must be Tensor!")
    return input.dtype.is_complex


def is_floating_point(input):
    """Mirrors `mindspore.ops.is_floating_point` (float16/32/64 and bfloat16)."""
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For 'is_floating_point', the input must be a Tensor, but got "
                        f"{type(input).__name__}.")
    return input.dtype.is_floating_point


def isreal(input):
    """Mirrors `mindspore.ops.isreal`: True where the imaginary part is zero."""
    _tensor("isreal", "input", input)
    if not _is_complex(input._data):
        return F.ones_like(input).astype("bool")
    return F.eq(imag(input), 0)


def adjoint(x):
    """Mirrors `mindspore.ops.adjoint`: the conjugate of `x` with its last two axes swapped."""
    _tensor("adjoint", "x", x)
    return conj(F.swapaxes(x, -1, -2))


class Real(Primitive):
    """Mirrors `mindspore.ops.Real()(input)`."""

    def __call__(self, input):
        return real(input)


class Imag(Primitive):
    """Mirrors `mindspore.ops.Imag()(input)`."""

    def __call__(self, input):
        return imag(input)


class Conj(Primitive):
    """Mirrors `mindspore.ops.Conj()(input)`."""

    def __call__(self, input):
        return conj(input)


class Angle(Primitive):
    """Mirrors `mindspore.ops.Angle()(input)`."""

    def __call__(self, input):
        return angle(input)


class Complex(Primitive):
    """Mirrors `mindspore.ops.Complex()(real, imag)`: float32 -> complex64, float64 ->
    complex128; both inputs of one dtype."""

    def __call__(self, real, imag):
        _float_pair("Complex", ("real", "imag"), real, imag)
        return apply(COMPLEX, (real, imag))


class ComplexAbs(Primitive):
    """Mirrors `mindspore.ops.ComplexAbs()(x)`: |x| of a complex tensor, as a real tensor."""

    def __call__(self, x):
        return apply(COMPLEX_ABS, (_complex_input("ComplexAbs", "x", x),))


class Polar(Primitive):
    """Mirrors `mindspore.ops.Polar()(abs, angle)`."""

    def __call__(self, abs, angle):
        return polar(abs, angle)


class ConjugateTranspose(Primitive):
    """Mirrors `mindspore.ops.ConjugateTranspose()(x, perm)`: `conj(transpose(x, perm))`."""

    def __call__(self, x, perm):
        _tensor("ConjugateTranspose", "x", x)
        return conj(F.transpose(x, perm))
