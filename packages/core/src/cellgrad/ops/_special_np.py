"""Special functions on numpy arrays (float64 in, float64 out), written with numpy alone:
the core does not depend on scipy. Series and continued fractions as in Cephes and Numerical
Recipes; Bessel functions by Gauss-Legendre quadrature of their integral representations
(exponentially convergent for these analytic integrands) and Hankel's expansions past 40."""

import math
from functools import cache

import numpy as np

_EULER = 0.5772156649015329
_ERF = np.vectorize(math.erf, otypes=[np.float64])
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])


def erf(x):
    return _ERF(x)


def erfc(x):
    return _ERFC(x)


def erfinv(y):
    """Giles' single-precision approximation refined by Newton steps on math.erf."""
    y = np.asarray(y, np.float64)
    with np.errstate(all="ignore"):
        w = -np.log((1.0 - y) * (1.0 + y))
        small = w < 5.0
        ws, wl = w - 2.5, np.sqrt(w) - 3.0
        ps = np.polyval([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                         0.00021858087, -0.00125372503, -0.00417768164, 0.246640727,
                         1.50140941], ws)
        pl = np.polyval([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                         0.00573950773, -0.0076224613, 0.00943887047, 1.00167406,
                         2.83297682], wl)
        x = np.where(small, ps, pl) * y
        for _ in range(3):
            step = (erf(x) - y) / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
            x = np.where(np.isfinite(step), x - step, x)
        x = np.where(y == 1.0, np.inf, np.where(y == -1.0, -np.inf, x))
        return np.where(np.abs(y) > 1.0, np.nan, x)


def _lgamma1(v):
    if math.isnan(v):
        return v
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0, -1, -2, ...
        return math.inf


_LGAMMA = np.vectorize(_lgamma1, otypes=[np.float64])


def lgamma(x):
    return _LGAMMA(x)


_B2K = np.array([1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
                 43867 / 798, -174611 / 330, 854513 / 138, -236364091 / 2730])


def digamma(x):
    """psi(x): reflection below 0.5, recurrence up to 10, then the asymptotic series."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        neg = x < 0.5
        pole = (x <= 0) & (x == np.floor(x))
        refl = np.where(neg, math.pi / np.tan(math.pi * x), 0.0)
        z = np.where(neg, 1.0 - x, x)
        acc = np.zeros_like(z)
        for _ in range(10):
            low = z < 10.0
            acc = acc - np.where(low, 1.0 / z, 0.0)
            z = np.where(low, z + 1.0, z)
        z2 = 1.0 / (z * z)
        series = np.zeros_like(z)
        for k in range(len(_B2K) - 1, -1, -1):
            series = series * z2 + _B2K[k] / (2 * (k + 1))
        out = np.log(z) - 0.5 / z - series * z2 + acc
        out = np.where(neg, out - refl, out)
        return np.where(pole, np.nan, out)


# Euler-Maclaurin coefficients (2k)! / B_2k, as Cephes' zeta
_ZETA_A = np.array([12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                    7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                    -4.5979787224074726105e15, 1.8152105401943546773e17,
                    -7.1661652561756670113e18])


def zeta(s, q):
    """Hurwitz zeta(s, q) for s > 1 (Cephes' algorithm); s == 1 is inf, s < 1 NaN."""
    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    with np.errstate(all="ignore"):
        total = np.zeros(s.shape)
        a = q.copy()
        i = 0
        while i < 9 or np.any(a <= 9.0):
            total = total + a ** -s
            a = a + 1.0
            i += 1
        w = a
        total = total + w ** (1.0 - s) / (s - 1.0) + 0.5 * w ** -s
        fac, k = np.ones(s.shape), 0.0
        term_pow = w ** -s
        for j in range(12):
            fac = fac * (s + k)
            term_pow = term_pow / w
            total = total + fac * term_pow / _ZETA_A[j]
            k += 1.0
            fac = fac * (s + k)
            term_pow = term_pow / w
            k += 1.0
        total = np.where(s == 1.0, np.inf, total)
        total = np.where(s < 1.0, np.nan, total)
        nonpos_int = (q <= 0) & (q == np.floor(q))
        total = np.where(nonpos_int & (s > 1.0), np.inf, total)
        return np.where((q <= 0) & ~nonpos_int & (s != np.floor(s)), np.nan, total)


def polygamma(n, x):
    """psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1; digamma for n == 0."""
    n, x = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    out = digamma(x)
    higher = n >= 1
    if higher.any():
        fact = np.exp(lgamma(n + 1.0))
        sign = np.where(np.mod(n, 2) == 0, -1.0, 1.0)
        out = np.where(higher, sign * fact * zeta(n + 1.0, x), out)
    return out


def igamma(a, x):
    """The regularized lower incomplete gamma P(a, x): the series below a + 1, Lentz's
    continued fraction for Q above."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        log_pref = a * np.log(x) - x - lgamma(a)
        # series
        ap, term = a.copy(), 1.0 / a
        total = term.copy()
        for _ in range(500):
            ap = ap + 1.0
            term = term * x / ap
            total = total + term
        p_series = total * np.exp(log_pref)
        # continued fraction for Q
        tiny = 1e-300
        b = x + 1.0 - a
        c = np.full(a.shape, 1.0 / tiny)
        d = 1.0 / np.where(b == 0, tiny, b)
        h = d.copy()
        for i in range(1, 500):
            an = -i * (i - a)
            b = b + 2.0
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1.0 / d
            h = h * d * c
        q_cf = np.exp(log_pref) * h
        out = np.where(x < a + 1.0, p_series, 1.0 - q_cf)
        out = np.where(x == 0, 0.0, out)
        out = np.where(np.isinf(x) & (x > 0), 1.0, out)
        return np.where((a <= 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, out)


def igamma_da(a, x):
    """dP(a, x)/da by central differences of `igamma` (float64; about 1e-8 relative)."""
    h = 1e-5 * np.maximum(1.0, np.abs(a))
    return (igamma(a + h, x) - igamma(a - h, x)) / (2 * h)


def igammac(a, x):
    return 1.0 - igamma(a, x)


def _betacf(a, b, x):
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones(x.shape)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
    h = d.copy()
    for m in range(1, 300):
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        h = h * d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / np.where(np.abs(d) < tiny, tiny, d)
        c = 1.0 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        h = h * d * c
    return h


def betainc(a, b, x):
    """The regularized incomplete beta I_x(a, b) (Numerical Recipes' betai)."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    with np.errstate(all="ignore"):
        lbt = (lgamma(a + b) - lgamma(a) - lgamma(b) + a * np.log(x) + b * np.log1p(-x))
        bt = np.exp(lbt)
        direct = x < (a + 1.0) / (a + b + 2.0)
        out = np.where(direct, bt * _betacf(a, b, x) / a,
                       1.0 - bt * _betacf(b, a, 1.0 - x) / b)
        out = np.where(x == 0, 0.0, np.where(x == 1, 1.0, out))
        return np.where((x < 0) | (x > 1) | (a <= 0) | (b <= 0), np.nan, out)


# ---- Bessel functions ----
@cache
def _gauss(n, lo, hi, pieces=1):
    """Gauss-Legendre nodes and weights on [lo, hi] split into `pieces` equal parts."""
    t, w = np.polynomial.legendre.leggauss(n)
    edges = np.linspace(lo, hi, pieces + 1)
    nodes = [(a + b) / 2 + (b - a) / 2 * t for a, b in zip(edges[:-1], edges[1:])]
    weights = [(b - a) / 2 * w for a, b in zip(edges[:-1], edges[1:])]
    return np.concatenate(nodes), np.concatenate(weights)


def _hankel_terms(nu, x, count=24):
    """a_k(nu) / x^k for k < count (Hankel's asymptotic coefficients)."""
    mu = 4.0 * nu * nu
    terms, t = [np.ones_like(x)], np.ones_like(x)
    for k in range(1, count):
        t = t * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        terms.append(t)
    return terms


def _j_or_y_large(nu, x, want_y):
    terms = _hankel_terms(nu, x)
    p = sum(((-1) ** (k // 2)) * terms[k] for k in range(0, len(terms), 2))
    q = sum(((-1) ** (k // 2)) * terms[k] for k in range(1, len(terms), 2))
    chi = x - (nu / 2.0 + 0.25) * math.pi
    amp = np.sqrt(2.0 / (math.pi * x))
    if want_y:
        return amp * (p * np.sin(chi) + q * np.cos(chi))
    return amp * (p * np.cos(chi) - q * np.sin(chi))


def _split(x, limit, small_fn, large_fn):
    """`small_fn` where |x| <= limit, `large_fn` elsewhere, each on its own elements."""
    out = np.empty(x.shape)
    small = np.abs(x) <= limit
    if small.any():
        out[small] = small_fn(x[small])
    if (~small).any():
        out[~small] = large_fn(x[~small])
    return out


def _quad(x, nodes, weights, integrand, chunk=2048):
    out = np.empty(x.shape)
    flat, res = x.reshape(-1), out.reshape(-1)
    for i in range(0, flat.size, chunk):
        xs = flat[i:i + chunk, None]
        res[i:i + chunk] = integrand(xs, nodes[None, :]) @ weights
    return out


def _scaled_quad(x, top, integrand, chunk=1024):
    """The integral of `integrand(x, t)` over t in [0, top] for each element: composite
    Gauss-Legendre with pieces no longer than 2 (the integrands decay doubly exponentially)."""
    flat, tops = x.reshape(-1), top.reshape(-1)
    pieces = int(np.ceil(tops.max() / 2.0)) if tops.size else 1
    u, w = _gauss(24, 0.0, 1.0, max(pieces, 1))
    out = np.empty(flat.shape)
    for i in range(0, flat.size, chunk):
        s, t = flat[i:i + chunk, None], tops[i:i + chunk, None]
        out[i:i + chunk] = (integrand(s, t * u[None, :]) * w[None, :]).sum(axis=1) * t[:, 0]
    return out.reshape(x.shape)


def bessel_j(nu, x):
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    nodes, weights = _gauss(64, 0.0, math.pi, 2)

    def small(v):
        return _quad(v, nodes, weights, lambda s, t: np.cos(nu * t - s * np.sin(t))) / math.pi

    out = _split(ax, 40.0, small, lambda v: _j_or_y_large(nu, v, False))
    return np.where(x < 0, -out, out) if nu == 1 else out


def bessel_y(nu, x):
    x = np.asarray(x, np.float64)
    fin, fw = _gauss(64, 0.0, math.pi, 2)

    def small(v):
        first = _quad(v, fin, fw, lambda s, t: np.sin(s * np.sin(t) - nu * t)) / math.pi
        top = np.arcsinh(80.0 / v) + 1.0
        second = _scaled_quad(v, top, lambda s, t: (np.exp(nu * t) + (-1) ** nu * np.exp(
            -nu * t)) * np.exp(-s * np.sinh(t)))
        return first - second / math.pi

    with np.errstate(all="ignore"):
        pos = np.where(x > 0, x, 1.0)
        out = _split(pos, 40.0, small, lambda v: _j_or_y_large(nu, v, True))
        # MindSpore's kernels answer -inf below 0 too (scipy: NaN)
        out = np.where(x <= 0, -np.inf, out)
        return np.where(np.isnan(x), np.nan, out)


def bessel_ie(nu, x):
    """exp(-|x|) I_nu(x)."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    nodes, weights = _gauss(64, 0.0, math.pi, 2)

    def small(v):
        return _quad(v, nodes, weights, lambda s, t: np.exp(s * (np.cos(t) - 1.0))
                     * np.cos(nu * t)) / math.pi

    def large(v):
        terms = _hankel_terms(nu, v)
        return sum(((-1) ** k) * terms[k] for k in range(len(terms))) / np.sqrt(
            2.0 * math.pi * v)

    out = _split(ax, 40.0, small, large)
    return np.where(x < 0, -out, out) if nu == 1 else out


def bessel_i(nu, x):
    with np.errstate(over="ignore", invalid="ignore"):
        return bessel_ie(nu, x) * np.exp(np.abs(np.asarray(x, np.float64)))


def bessel_ke(nu, x):
    """exp(x) K_nu(x) for x > 0; inf at 0, NaN below."""
    x = np.asarray(x, np.float64)

    def small(v):
        top = np.arccosh(1.0 + 60.0 / v) + 0.5
        return _scaled_quad(v, top, lambda s, t: np.exp(-s * 2.0 * np.sinh(t / 2) ** 2)
                            * np.cosh(nu * t))

    def large(v):
        terms = _hankel_terms(nu, v)
        return sum(terms) * np.sqrt(math.pi / (2.0 * v))

    with np.errstate(all="ignore"):
        pos = np.where(x > 0, x, 1.0)
        out = _split(pos, 40.0, small, large)
        # MindSpore's kernels answer inf below 0 too (scipy: NaN)
        out = np.where(x <= 0, np.inf, out)
        return np.where(np.isnan(x), np.nan, out)


def bessel_k(nu, x):
    with np.errstate(over="ignore", invalid="ignore"):
        return bessel_ke(nu, x) * np.exp(-np.asarray(x, np.float64))


def sinc(x):
    with np.errstate(all="ignore"):
        px = math.pi * np.asarray(x, np.float64)
        return np.where(px == 0, 1.0, np.sin(px) / np.where(px == 0, 1.0, px))


EULER = _EULER
