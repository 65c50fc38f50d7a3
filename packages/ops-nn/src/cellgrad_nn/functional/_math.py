"""Elementwise math the nn rules need beyond numpy: `erf`, and helpers that run a function on
numpy arrays (first-order rules) or as recorded cellgrad ops on Tensors (higher orders)."""

import math

import numpy as np
from numpy.polynomial import chebyshev

from cellgrad.plugins import PROMOTE_FLOAT, Op, apply

# erf on [0, 6) as piecewise Chebyshev series, fitted to `math.erf` at import (no scipy). The
# first piece fits erf(x) / x so small arguments keep full relative precision; past 6,
# erf(x) == 1 in float64.
_PIECE = 0.5
_DEGREE = 18
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _fit(k):
    lo = k * _PIECE

    def f(t):
        x = lo + (np.asarray(t) + 1.0) * (_PIECE / 2)
        if k == 0:
            return np.array([math.erf(v) / v if v else _TWO_OVER_SQRT_PI for v in x])
        return np.array([math.erf(v) for v in x])

    return chebyshev.chebinterpolate(f, _DEGREE)


_COEFFS = np.stack([_fit(k) for k in range(int(6 / _PIECE))])  # (pieces, degree + 1)
_COLUMNS = {np.dtype(np.float64): np.ascontiguousarray(_COEFFS.T),  # row per degree, by piece
            np.dtype(np.float32): np.ascontiguousarray(_COEFFS.T, np.float32)}


def erf(x: np.ndarray) -> np.ndarray:
    """The error function of a floating array, in its dtype (float64-accurate for float64;
    computed in float32 for float32 and float16 inputs)."""
    work = np.float64 if x.dtype == np.float64 else np.float32
    columns = _COLUMNS[np.dtype(work)]
    a = np.fmin(np.abs(x), 6.0).astype(work)  # erf is 1 from 6 on; inf and NaN must not index
    k = np.minimum((a * (1 / _PIECE)).astype(np.intp), len(_COEFFS) - 1)
    t = a - k.astype(work) * work(_PIECE)
    t *= work(2 / _PIECE)
    t -= work(1.0)
    t2 = t + t
    b1 = columns[_DEGREE].take(k)
    b2 = np.zeros_like(t)
    for j in range(_DEGREE - 1, 0, -1):  # Clenshaw recurrence, in place
        nxt = t2 * b1
        nxt -= b2
        nxt += columns[j].take(k)
        b1, b2 = nxt, b1
    y = t * b1
    y -= b2
    y += columns[0].take(k)
    y = np.where(k == 0, y * a, y)
    y = np.where(a >= 6.0, work(1.0), y)
    y = np.where(np.isnan(x), work(np.nan), y)
    return np.copysign(y, x).astype(x.dtype, copy=False)


def _erf_fwd(x):
    return erf(x), (x,)


def _erf_bwd(ctx, g):
    (x,) = ctx.saved
    return g * _TWO_OVER_SQRT_PI * ctx.xp.exp(-(x * x))


ERF = Op("nn_erf", _erf_fwd, _erf_bwd, PROMOTE_FLOAT)


def erf_xp(xp, x):
    """erf on a numpy array, or as a recorded op on a Tensor."""
    return apply(ERF, (x,)) if xp.IS_TENSOR else erf(x)


def tanh_xp(xp, x):
    if xp.IS_TENSOR:
        from cellgrad.ops import functional as F

        return F.tanh(x)
    return np.tanh(x)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Logistic sigmoid without overflow warnings for large |x|."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def sigmoid_xp(xp, x):
    if xp.IS_TENSOR:
        from cellgrad.ops import functional as F

        return F.sigmoid(x)
    return sigmoid(x)


OPS = (ERF,)
