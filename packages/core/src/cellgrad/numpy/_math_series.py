"""Differences, integrals, interpolation and polynomials of `mindspore.numpy.math_ops`
(diff, trapz, gradient, unwrap, interp, poly*), differentiable through `cellgrad.ops`."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import bool_, float32, float64, int32
from cellgrad.numpy._common import axes_valid, axis_in_range, check_int, to_tensor
from cellgrad.numpy._math_binary import add, remainder, true_divide
from cellgrad.numpy._math_common import cast, need_tensor
from cellgrad.numpy._math_correlation import convolve
from cellgrad.ops import functional as F

_PI = 3.141592653589793


def _slice(x, axis, start, stop):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _edge(x, value, axis):
    """`value` (scalar or Tensor) broadcast to `x`'s shape with `axis` of length 1."""
    if isinstance(value, (int, float, bool)):
        value = to_tensor(value)
    elif not isinstance(value, TensorBuffer):
        raise TypeError(f"For 'mindspore.numpy.diff', prepend and append must be scalars or "
                        f"Tensors, but got {type(value).__name__}.")
    shape = x.shape[:axis] + (1,) + x.shape[axis + 1:]
    return F.broadcast_to(cast(value, x.dtype), shape)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """Mirrors `mindspore.numpy.diff`: the `n`-th difference along `axis`."""
    op = "mindspore.numpy.diff"
    need_tensor(op, a)
    axis = axis_in_range(op, axis, a.ndim)
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For '{op}', input n should be int, but got {type(n).__name__}.")
    if n < 0:
        raise ValueError(f"For '{op}', input n must be >= 0, got {n}.")
    if n == 0:
        return a
    parts = [a]
    if prepend is not None:
        parts.insert(0, _edge(a, prepend, axis))
    if append is not None:
        parts.append(_edge(a, append, axis))
    if len(parts) > 1:
        a = F.concat(parts, axis)
    if n >= a.shape[axis]:
        raise ValueError(f"For '{op}', n ({n}) is bigger than the specified dimension "
                         f"({a.shape[axis]}), this would result in an empty tensor.")
    orig = a.dtype
    if orig is bool_:
        a = cast(a, float32)
    for _ in range(n):
        a = _slice(a, axis, 1, None) - _slice(a, axis, None, -1)
    return cast(a, orig)


def ediff1d(ary, to_end=None, to_begin=None):
    """Mirrors `mindspore.numpy.ediff1d`: differences of the flattened array, with `to_begin`
    and `to_end` (cast to its dtype) around them."""
    op = "mindspore.numpy.ediff1d"
    need_tensor(op, ary)
    parts = [diff(F.reshape(ary, (-1,)))]
    if to_begin is not None:
        parts.insert(0, cast(F.reshape(to_tensor(to_begin, op=op), (-1,)), ary.dtype))
    if to_end is not None:
        parts.append(cast(F.reshape(to_tensor(to_end, op=op), (-1,)), ary.dtype))
    return F.concat(parts, 0)


def trapz(y, x=None, dx=1.0, axis=-1):
    """Mirrors `mindspore.numpy.trapz`: the trapezoidal rule along `axis` (integer `y` gives
    Float32)."""
    op = "mindspore.numpy.trapz"
    y = to_tensor(y, op=op)
    axis = axis_in_range(op, axis, y.ndim)
    if x is not None:
        dx = diff(to_tensor(x, op=op))
    else:
        dx = to_tensor(dx, op=op)
    if dx.ndim:
        dx = F.reshape(dx, dx.shape + (1,) * (y.ndim - axis - 1))
    if y.dtype.kind != 2:
        y = cast(y, float32)
    dx = cast(dx, y.dtype)
    left, right = _slice(y, axis, None, -1), _slice(y, axis, 1, None)
    return F.sum((left * dx + right * dx) / 2.0, axis)


def _gradient_along(f, h, axis):
    end = f.shape[axis]
    upper = _slice(f, axis, 1, 2) - _slice(f, axis, 0, 1)
    lower = _slice(f, axis, end - 1, end) - _slice(f, axis, end - 2, end - 1)
    if end <= 2:
        parts = (upper, lower)
    else:
        parts = (upper, (_slice(f, axis, 2, end) - _slice(f, axis, 0, end - 2)) * 0.5, lower)
    return F.concat(parts, axis) / h


def gradient(f, *varargs, axis=None, edge_order=1):
    """Mirrors `mindspore.numpy.gradient`: central differences inside, one-sided at the edges
    (edge_order=1 and constant spacings only, as MindSpore); a list for several axes."""
    op = "mindspore.numpy.gradient"
    if edge_order != 1:
        raise NotImplementedError(f"For '{op}', edge_order != 1 is not implemented.")
    f = to_tensor(f, op=op)
    if f.dtype is not float64:
        f = cast(f, float32)
    axes = axes_valid(op, axis, f.ndim)
    if axis is not None and not isinstance(axis, (tuple, list)):
        axes = axes[:1]
    if not varargs:
        dx = (1,) * len(axes)
    elif len(varargs) == 1:
        dx = varargs * len(axes)
    elif len(varargs) == len(axes):
        dx = varargs
    else:
        raise TypeError(f"For '{op}', invalid number of spacing arguments: {len(varargs)} for "
                        f"{len(axes)} axes.")
    grads = []
    for h, ax in zip(dx, axes):
        if f.shape[ax] < 2:
            raise ValueError(f"For '{op}', shape of array too small to calculate a numerical "
                             "gradient, at least 2 elements are required.")
        if not (isinstance(h, (int, float, bool)) or (isinstance(h, TensorBuffer)
                                                      and h.ndim == 0)):
            raise NotImplementedError(f"For '{op}', non-constant spacing is not implemented.")
        grads.append(_gradient_along(f, h, ax))
    return grads[0] if len(axes) == 1 else grads


def unwrap(p, discont=_PI, axis=-1):
    """Mirrors `mindspore.numpy.unwrap`: jumps larger than `discont` along `axis` are undone
    by multiples of 2*pi."""
    op = "mindspore.numpy.unwrap"
    if not isinstance(discont, (int, float)) or isinstance(discont, bool):
        raise TypeError(f"For '{op}', discont should be a float, got {type(discont).__name__}.")
    p = to_tensor(p, op=op)
    axis = axis_in_range(op, axis, p.ndim)
    dd = diff(p, axis=axis)
    ddmod = remainder(add(dd, _PI), 2 * _PI) - _PI
    ddmod = F.masked_fill(ddmod, (ddmod == -_PI) & (dd > 0), _PI)
    correct = F.masked_fill(ddmod - dd, F.abs(dd) < discont, 0)
    tail = add(_slice(p, axis, 1, None), F.cumsum(correct, axis))
    return F.concat((cast(_slice(p, axis, 0, 1), tail.dtype), tail), axis)


def interp(x, xp, fp, left=None, right=None):
    """Mirrors `mindspore.numpy.interp`: piecewise-linear interpolation (Float32), `left` and
    `right` (default: the end values) outside `xp`."""
    from cellgrad.numpy._math_discrete import searchsorted

    op = "mindspore.numpy.interp"
    x, xp, fp = to_tensor(x, xp, fp, op=op)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError(f"For '{op}', xp and fp must be 1-d sequences, got shapes {xp.shape} "
                         f"and {fp.shape}.")
    size = xp.size
    if fp.size != size:
        raise ValueError(f"For '{op}', the y-coordinates must have the same length as `xp`: "
                         f"{fp.size} != {size}.")
    xp, fp = cast(xp, float32), cast(fp, float32)
    i1 = np.clip(searchsorted(xp, x)._data, 0, size - 1)
    i0 = make_tensor(np.clip(i1 - 1, 0, size - 1))
    i1 = make_tensor(i1)
    x0, x1, y0, y1 = xp[i0], xp[i1], fp[i0], fp[i1]
    same = x0 == x1
    # a safe denominator where the segment is a point: NaN there would reach the gradient
    res = (y0 * (x1 - x) + y1 * (x - x0)) / F.where(same, 1.0, x1 - x0)
    res = F.where(same, y0, res)
    lo = fp[0] if left is None else left
    hi = fp[size - 1] if right is None else right
    res = F.where(x < xp[0], cast(F.broadcast_to(cast(to_tensor(lo), float32), x.shape),
                                  res.dtype), res)
    return F.where(x > xp[size - 1], cast(F.broadcast_to(cast(to_tensor(hi), float32), x.shape),
                                          res.dtype), res)


def _poly1d(op, x):
    x = to_tensor(x, op=op)
    if x.ndim == 0:
        x = F.reshape(x, (1,))
    if x.ndim > 1:
        raise ValueError(f"For '{op}', input array must be scalar or 1-d sequence, got shape "
                         f"{x.shape}.")
    return x


def polyadd(a1, a2):
    """Mirrors `mindspore.numpy.polyadd`: the sum of two polynomials (highest power first)."""
    op = "mindspore.numpy.polyadd"
    a1, a2 = _poly1d(op, a1), _poly1d(op, a2)
    d = a1.size - a2.size
    if d == 0:
        return add(a1, a2)
    if d > 0:
        s = add(a1[d:], a2)
        return F.concat((cast(a1[:d], s.dtype), s), 0)
    s = add(a1, a2[-d:])
    return F.concat((cast(a2[:-d], s.dtype), s), 0)


def polysub(a1, a2):
    """Mirrors `mindspore.numpy.polysub`: the difference of two polynomials."""
    return polyadd(a1, F.neg(to_tensor(a2, op="mindspore.numpy.polysub")))


def polyval(p, x):
    """Mirrors `mindspore.numpy.polyval`: `p` evaluated at `x` (Float32 for integers)."""
    op = "mindspore.numpy.polyval"
    p = _poly1d(op, p)
    x = to_tensor(x, op=op)
    powers = make_tensor(np.arange(p.size - 1, -1, -1, dtype=np.float32))
    return F.sum(p * F.pow(F.expand_dims(x, -1), powers), -1)


def polyder(p, m=1):
    """Mirrors `mindspore.numpy.polyder`: the `m`-th derivative (empty Float32 when `m` is at
    least the number of coefficients)."""
    op = "mindspore.numpy.polyder"
    p = _poly1d(op, p)
    m = check_int(op, "m", m)
    if m < 0:
        raise ValueError(f"For '{op}', order of derivative must be positive, got {m}.")
    if m >= p.size:
        return make_tensor(np.zeros(0, np.float32))
    for _ in range(m):
        coeff = make_tensor(np.arange(p.size - 1, 0, -1, dtype=np.int32), None, 0, int32)
        p = p[:-1] * coeff
    return p


def polymul(a1, a2):
    """Mirrors `mindspore.numpy.polymul`: the product (a convolution of the coefficients)."""
    op = "mindspore.numpy.polymul"
    return convolve(_poly1d(op, a1), _poly1d(op, a2))


def polyint(p, m=1, k=None):
    """Mirrors `mindspore.numpy.polyint`: the `m`-th antiderivative, integration constants
    `k` (Float32 for integers)."""
    op = "mindspore.numpy.polyint"
    p = _poly1d(op, p)
    m = check_int(op, "m", m)
    if m < 0:
        raise ValueError(f"For '{op}', order of integral must be positive, got {m}.")
    if m == 0:
        return p
    k = make_tensor(np.zeros(m, p.dtype.np_dtype), None, 0, p.dtype) if k is None else k
    k = F.reshape(to_tensor(k, op=op), (-1,))
    if k.size == 1:
        k = F.tile(k, (m,))
    for i in range(m):
        coeff = make_tensor(np.arange(p.size, 0, -1, dtype=np.int32), None, 0, int32)
        p = true_divide(p, coeff)
        p = F.concat((p, cast(k[i:i + 1], p.dtype)), 0)
    return p
