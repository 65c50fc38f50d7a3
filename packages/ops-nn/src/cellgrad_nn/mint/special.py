"""The error functions of `mint` and `mint.special` on ops-nn's erf, with erfinv's op."""

import math

import numpy as np

from cellgrad.plugins import PROMOTE_FLOAT, Op, apply
from cellgrad_nn.functional._math import ERF
from cellgrad_nn.functional._math import erf as _erf_array

_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2


def _erfinv(y):
    """erf's inverse on (-1, 1) by Newton's method from Giles' single-precision start."""
    outside = np.abs(y)
    y64 = np.where(outside < 1, y, 0.0).astype(np.float64)  # the edges are set at the end
    w = -np.log((1.0 - y64) * (1.0 + y64))
    x = np.where(w < 5.0, _central(w - 2.5), _tail(np.sqrt(w) - 3.0)) * y64
    for _ in range(3):
        x = x - (_erf_array(x) - y64) * _SQRT_PI_OVER_2 * np.exp(x * x)
    x = np.where(outside == 1, np.copysign(np.inf, y), x)
    return np.where(outside > 1, np.nan, x).astype(y.dtype, copy=False)


def _central(w):
    p = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941):
        p = c + p * w
    return p


def _tail(w):
    p = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682):
        p = c + p * w
    return p


def _erfinv_fwd(y):
    out = _erfinv(y)
    return out, (out,)


def _erfinv_bwd(ctx, g):
    (x,) = ctx.saved
    return g * _SQRT_PI_OVER_2 * ctx.xp.exp(x * x)


ERFINV = Op("mint_erfinv", _erfinv_fwd, _erfinv_bwd, PROMOTE_FLOAT)
OPS = (ERFINV,)


def erf(input):
    """Mirrors `mindspore.mint.erf`."""
    return apply(ERF, (input,))


def erfc(input):
    """Mirrors `mindspore.mint.erfc`: 1 - erf(input)."""
    return 1 - apply(ERF, (input,))


def erfinv(input):
    """Mirrors `mindspore.mint.erfinv`: NaN outside [-1, 1], ±inf at ±1."""
    return apply(ERFINV, (input,))


def log_softmax(input, dim=None, *, dtype=None):
    """Mirrors `mindspore.mint.special.log_softmax`."""
    from cellgrad_nn.mint.functional import log_softmax as functional_log_softmax

    return functional_log_softmax(input, dim, dtype=dtype)


__all__ = ["erf", "erfc", "erfinv", "log_softmax"]
