"""Special functions the distributions need, as compositions of core ops (so they
differentiate to any order): lgamma, digamma and lbeta for positive arguments (a shift by 6
and the asymptotic series: about 1e-10 relative error), erf (the core's Erf op), and the
regularized incomplete gamma function (a series / continued fraction in numpy, whose gradient
with respect to x is the density, passed through a straight-through term)."""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_ERF = ops.Erf()


def _shifted(x):
    """(x + 6, sum of log(x + k) for k < 6) and the reciprocal sum, for the recurrences."""
    shift = x
    logs = ops.log(x)
    recip = 1.0 / x
    for k in range(1, 6):
        shift = x + float(k)
        logs = logs + ops.log(shift)
        recip = recip + 1.0 / shift
    return x + 6.0, logs, recip


def lgamma(x):
    """log Gamma(x) for x > 0."""
    z, logs, _ = _shifted(x)
    inv = 1.0 / z
    inv2 = inv * inv
    series = inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 * (1.0 / 1260 - inv2 / 1680)))
    return (z - 0.5) * ops.log(z) - z + _HALF_LOG_2PI + series - logs


def digamma(x):
    """d/dx log Gamma(x) for x > 0."""
    z, _, recip = _shifted(x)
    inv = 1.0 / z
    inv2 = inv * inv
    series = inv2 * (1.0 / 12 - inv2 * (1.0 / 120 - inv2 * (1.0 / 252 - inv2 / 240)))
    return ops.log(z) - 0.5 * inv - series - recip


def lbeta(a, b):
    """log Beta(a, b)."""
    return lgamma(a) + lgamma(b) - lgamma(a + b)


def erf(x):
    """The error function."""
    return _ERF(x)


def _igamma_numpy(a, x):
    """P(a, x), the regularized lower incomplete gamma function (Numerical Recipes' gser and
    gcf), elementwise in float64."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.empty(a.shape)
    for i, (ai, xi) in enumerate(zip(a.reshape(-1), x.reshape(-1))):
        if not (ai > 0) or np.isnan(xi):
            out.flat[i] = np.nan
        elif xi <= 0:
            out.flat[i] = 0.0
        elif np.isinf(xi):
            out.flat[i] = 1.0
        else:
            log_front = ai * math.log(xi) - xi - math.lgamma(ai)
            if xi < ai + 1:
                term = total = 1.0 / ai
                n = ai
                for _ in range(500):
                    n += 1
                    term *= xi / n
                    total += term
                    if abs(term) < abs(total) * 1e-16:
                        break
                out.flat[i] = total * math.exp(log_front)
            else:
                b = xi + 1 - ai
                c, d = 1e300, 1 / b
                h = d
                for k in range(1, 500):
                    an = -k * (k - ai)
                    b += 2
                    d = an * d + b
                    d = 1e-300 if abs(d) < 1e-300 else d
                    c = b + an / c
                    c = 1e-300 if abs(c) < 1e-300 else c
                    d = 1 / d
                    delta = d * c
                    h *= delta
                    if abs(delta - 1) < 1e-16:
                        break
                out.flat[i] = 1.0 - math.exp(log_front) * h
    return out


def igamma(a, x):
    """P(a, x) (MindSpore's `ops.igamma`), differentiable with respect to x."""
    value = _igamma_numpy(a.asnumpy(), x.asnumpy())
    dtype = x.dtype
    const = Tensor(value.astype(dtype.np_dtype if hasattr(dtype, "np_dtype") else np.float32),
                   dtype)
    density = ops.exp((a - 1.0) * ops.log(x) - x - lgamma(a))
    density = ops.stop_gradient(ops.where(x > 0, density, ops.zeros_like(density)))
    return const + density * (x - ops.stop_gradient(x))
