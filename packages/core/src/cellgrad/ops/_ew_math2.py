"""More elementwise ops (trigonometric/hyperbolic, division variants, bitwise, float
classification, ...): the table machinery of `_elementwise`, forward and backward of each on one
line where the rule is one line."""

import numpy as np

from cellgrad._core._buffer import SAVE_INPUTS, SAVE_NONE, SAVE_OUTPUT, make_tensor
from cellgrad.ops._elementwise import _ufunc_forward
from cellgrad.ops._registry import PROMOTE_ARITH, PROMOTE_FLOAT, PROMOTE_NONE, define


def _ins(fn):
    return _ufunc_forward(fn, SAVE_INPUTS)


def _out(fn):
    return _ufunc_forward(fn, SAVE_OUTPUT)


def _out2(fn):
    def forward(x, y):
        out = fn(x, y)
        return out, (x, y, out)
    return forward


def _none(fn):
    return _ufunc_forward(fn, SAVE_NONE)


def _quiet(fn):
    """`fn` with numpy's divide/invalid warnings off (MindSpore's kernels warn about nothing)."""
    def run(*xs):
        with np.errstate(all="ignore"):
            return fn(*xs)
    return run


def _nonzero(xp, y):
    return xp.where(y == 0, y * 0 + 1, y)


def _piecewise(xp, fn, *xs):
    """`fn` of the inputs' values: piecewise constant, so a constant to every order."""
    if not xp.IS_TENSOR:
        with np.errstate(all="ignore"):
            return fn(*xs)
    with np.errstate(all="ignore"):
        out = fn(*(x._data for x in xs))
    return make_tensor(np.asarray(out, xs[0]._data.dtype), None, 0, xs[0].dtype)


def _trunc_q(xp, x, y):
    return _piecewise(xp, lambda a, b: np.trunc(a / np.where(b == 0, 1, b)), x, y)


def _floor_q(xp, x, y):
    return _piecewise(xp, lambda a, b: np.floor(a / np.where(b == 0, 1, b)), x, y)


def _copysign_factor(xp, x, y):
    return _piecewise(xp, lambda a, b: np.sign(a) * np.where(np.signbit(b), -1.0, 1.0), x, y)


def _fmax_bwd(ctx, g, pick_x):
    x, y = ctx.saved
    return g * pick_x, g * ~pick_x


def _logaddexp_bwd(ctx, g, base):
    x, y = ctx.saved
    xp = ctx.xp
    wx = 1 / (1 + xp.exp((y - x) * base))
    return g * wx, g - g * wx


def _invert(x):
    return np.invert(x)


def _popcount(x):
    u = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    count = np.zeros(x.shape, np.uint8)
    while np.any(u):
        count += (u & np.uint64(1)).astype(np.uint8)
        u = u >> np.uint64(1)
    return count


def _inv(x):
    if x.dtype.kind in "iu":
        with np.errstate(all="ignore"):
            return np.where(x == 0, 0, np.trunc(1.0 / np.where(x == 0, 1, x))).astype(x.dtype)
    with np.errstate(divide="ignore"):
        return np.reciprocal(x)


def _inv_bwd(ctx, g):
    y = ctx.saved[0]
    dtype = y._data.dtype if ctx.xp.IS_TENSOR else y.dtype
    if dtype.kind == "c":
        # MindSpore's InvGrad is -dy * y * y for complex too: the gradient users see is
        # -1/z**2 itself, not its conjugate (ops.reciprocal's gradient is the conjugate)
        from cellgrad.ops._complex import _cj
        y = _cj(ctx.xp, y)
    return -g * y * y


def _trunc_div(x, y):
    if x.dtype.kind in "iu":
        with np.errstate(all="ignore"):
            q = np.abs(x) // np.where(y == 0, 1, np.abs(y))
            return np.where(y == 0, 0, np.where((x < 0) != (y < 0), -q, q)).astype(x.dtype)
    with np.errstate(all="ignore"):
        return np.trunc(x / y)


def _div_no_nan(x, y):
    with np.errstate(all="ignore"):
        return np.where(y == 0, 0, x / np.where(y == 0, 1, y)).astype(x.dtype)


def _mul_no_nan(x, y):
    with np.errstate(invalid="ignore"):
        return np.where(y == 0, 0, x * y).astype(x.dtype)


def _xlogy(x, y):
    with np.errstate(all="ignore"):
        return np.where(x == 0, 0, x * np.log(y)).astype(np.result_type(x, y))


def _xdivy(x, y):
    with np.errstate(all="ignore"):
        return np.where(x == 0, 0, x / y).astype(np.result_type(x, y))


def _heaviside(x, v):
    return np.heaviside(x, v).astype(np.result_type(x, v))


def _nan_to_num(x, nan, posinf, neginf):
    info = np.finfo(x.dtype)
    out = np.nan_to_num(x, nan=0.0 if nan is None else nan,
                        posinf=info.max if posinf is None else posinf,
                        neginf=info.min if neginf is None else neginf)
    return out, (np.isfinite(x),)


_SPECS = {
    # name: (forward, backward, promote)
    "tan": (_out(np.tan), lambda c, g: g + g * c.saved[0] * c.saved[0], PROMOTE_FLOAT),
    # 1 / sinh(acosh x) (MindSpore's AcoshGrad): the branch of sqrt(x^2 - 1) for complex x
    "acosh": (_out(_quiet(np.arccosh)), _quiet(lambda c, g: g / c.xp.sinh(c.saved[0])),
              PROMOTE_FLOAT),
    "asinh": (_ins(np.arcsinh), lambda c, g: g * (c.saved[0] ** 2 + 1) ** -0.5, PROMOTE_FLOAT),
    "atanh": (_ins(_quiet(np.arctanh)), _quiet(lambda c, g: g / (1 - c.saved[0] ** 2)),
              PROMOTE_FLOAT),
    "rint": (_none(np.rint), None, PROMOTE_NONE),
    "inv": (_out(_inv), _inv_bwd, PROMOTE_NONE),
    "invert": (_none(_invert), None, PROMOTE_NONE),
    "population_count": (_none(_popcount), None, PROMOTE_NONE),
    "signbit": (_none(np.signbit), None, PROMOTE_NONE),
    "isneginf": (_none(np.isneginf), None, PROMOTE_NONE),
    "isposinf": (_none(np.isposinf), None, PROMOTE_NONE),
    "hypot": (_out2(np.hypot), lambda c, g: (
        g * c.saved[0] / c.saved[2], g * c.saved[1] / c.saved[2]), PROMOTE_ARITH),
    "logaddexp": (_ins(np.logaddexp), lambda c, g: _logaddexp_bwd(c, g, 1.0), PROMOTE_ARITH),
    "logaddexp2": (_ins(np.logaddexp2), lambda c, g: _logaddexp_bwd(c, g, float(np.log(2))),
                   PROMOTE_ARITH),
    "copysign": (_ins(np.copysign), lambda c, g: (
        g * _copysign_factor(c.xp, *c.saved), None), PROMOTE_FLOAT),
    "xlogy": (_ins(_xlogy), lambda c, g: (
        g * c.xp.where(c.saved[0] == 0, c.saved[0] * 0, c.xp.log(c.saved[1])),
        g * c.saved[0] / c.saved[1]), PROMOTE_FLOAT),
    "xdivy": (_ins(_xdivy), lambda c, g: (
        g * c.xp.where(c.saved[0] == 0, c.saved[0] * 0, 1 / c.saved[1]),
        -g * c.saved[0] / (c.saved[1] * c.saved[1])), PROMOTE_ARITH),
    "fmax": (_ins(np.fmax), lambda c, g: _fmax_bwd(
        c, g, (c.saved[0] >= c.saved[1]) | (c.saved[1] != c.saved[1])), PROMOTE_ARITH),
    "fmin": (_ins(np.fmin), lambda c, g: _fmax_bwd(
        c, g, (c.saved[0] <= c.saved[1]) | (c.saved[1] != c.saved[1])), PROMOTE_ARITH),
    "nextafter": (_none(np.nextafter), None, PROMOTE_ARITH),
    "heaviside": (_none(_heaviside), None, PROMOTE_NONE),
    "gcd": (_none(np.gcd), None, PROMOTE_ARITH),
    "lcm": (_none(np.lcm), None, PROMOTE_ARITH),
    "left_shift": (_none(np.left_shift), None, PROMOTE_ARITH),
    "right_shift": (_none(np.right_shift), None, PROMOTE_ARITH),
    "truncate_div": (_none(_trunc_div), None, PROMOTE_ARITH),
    "truncate_mod": (_ins(_quiet(np.fmod)), lambda c, g: (
        g, -g * _trunc_q(c.xp, c.saved[0], c.saved[1])), PROMOTE_ARITH),
    "floor_mod": (_ins(_quiet(np.mod)), lambda c, g: (
        g, -g * _floor_q(c.xp, c.saved[0], c.saved[1])), PROMOTE_ARITH),
    "div_no_nan": (_ins(_div_no_nan), lambda c, g: (
        g * c.xp.where(c.saved[1] == 0, c.saved[1] * 0, 1 / _nonzero(c.xp, c.saved[1])),
        c.xp.where(c.saved[1] == 0, c.saved[1] * 0,
                   -g * c.saved[0] / _nonzero(c.xp, c.saved[1]) ** 2)), PROMOTE_ARITH),
    "mul_no_nan": (_ins(_mul_no_nan), lambda c, g: (
        g * c.saved[1], c.xp.where(c.saved[1] == 0, c.saved[1] * 0, g * c.saved[0])),
        PROMOTE_ARITH),
    "squared_difference": (_ins(lambda x, y: (x - y) * (x - y)), lambda c, g: (
        2 * g * (c.saved[0] - c.saved[1]), -2 * g * (c.saved[0] - c.saved[1])), PROMOTE_ARITH),
}

OPS = {name: define(name, *spec) for name, spec in _SPECS.items()}

NAN_TO_NUM = define("nan_to_num", lambda x, nan, posinf, neginf: _nan_to_num(
    x, nan, posinf, neginf), lambda c, g: g * c.saved[0])
