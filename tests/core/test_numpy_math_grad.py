"""Gradients of `cellgrad.numpy`'s math: every function differentiable in MindSpore is
gradchecked in float64 (one line each), and compared with PyTorch where it has the function."""

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import Tensor
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(7)


def r(*shape, low=-2.0, high=2.0):
    return Tensor(RNG.uniform(low, high, shape))


def spread(*shape):
    """Values at least 0.1 apart and away from 0 and the integers: no ties, no kinks."""
    n = int(np.prod(shape))
    v = RNG.permutation(n) * 0.23 + 0.11 - 0.115 * n
    return Tensor(v.reshape(shape))


POS = dict(low=0.5, high=2.0)
I3 = Tensor(np.array([1, 2, 1], np.int32))
MASK = Tensor(np.array([True, False, True]))
NANS = Tensor(np.array([[0.0, np.nan, 0.0], [np.nan, 0.0, 0.0]]))  # added: NaN where set

# name: (function of float Tensors, inputs); `f32` marks MindSpore's Float32 computations
# (divide of two non-Float16/32 inputs, float_power, cov, convolve, ...): checked with a
# coarser finite-difference step
CASES = {
    "abs": (mnp.abs, [spread(2, 3)]),
    "absolute": (mnp.absolute, [spread(3)]),
    "fabs": (mnp.fabs, [spread(3)]),
    "add": (mnp.add, [r(2, 3), r(3)]),
    "subtract": (mnp.subtract, [r(2, 3), r(2, 1)]),
    "multiply": (mnp.multiply, [r(2, 3), r(3)]),
    "divide": (lambda a, b: mnp.divide(a, b), [r(2, 3), r(3, **POS)], "f32"),
    "true_divide": (lambda a, b: mnp.true_divide(a, b), [r(3), r(3, **POS)], "f32"),
    "power": (mnp.power, [r(2, 3, **POS), r(2, 3)]),
    "float_power": (mnp.float_power, [r(3, **POS), r(3)], "f32"),
    "maximum": (mnp.maximum, [spread(2, 3), spread(2, 3) + 0.05]),
    "minimum": (lambda a: mnp.minimum(a, 0.05), [spread(2, 3)]),
    "heaviside": (lambda b: mnp.heaviside(Tensor(np.array([-1.0, 0.0, 2.0])), b), [r(3)]),
    "hypot": (mnp.hypot, [r(2, 3), r(2, 3)]),
    "remainder": (mnp.remainder, [spread(2, 3), r(3, low=2.5, high=3.0)]),
    "mod": (mnp.mod, [spread(3), r(3, low=2.5, high=3.0)]),
    "fmod": (mnp.fmod, [spread(3), r(3, low=2.5, high=3.0)]),
    "divmod": (lambda a, b: mnp.divmod(a, b)[1], [spread(3), r(3, low=2.5, high=3.0)]),
    "logaddexp": (mnp.logaddexp, [r(2, 3), r(2, 3)]),
    "logaddexp2": (mnp.logaddexp2, [r(2, 3), r(3)]),
    "arctan2": (mnp.arctan2, [r(2, 3), r(2, 3, **POS)]),
    "copysign": (mnp.copysign, [spread(2, 3), spread(2, 3) + 0.05]),
    "clip": (lambda a: mnp.clip(a, -0.5, 0.5), [spread(2, 3)]),
    "sqrt": (mnp.sqrt, [r(2, 3, **POS)]),
    "cbrt": (mnp.cbrt, [spread(2, 3)]),
    "square": (mnp.square, [r(2, 3)]),
    "reciprocal": (mnp.reciprocal, [r(2, 3, **POS)]),
    "negative": (mnp.negative, [r(3)]),
    "positive": (mnp.positive, [r(3)]),
    "sign": (lambda a: mnp.sign(a) * a, [spread(3)]),
    "exp": (mnp.exp, [r(2, 3)]),
    "exp2": (mnp.exp2, [r(2, 3)]),
    "expm1": (mnp.expm1, [r(2, 3)]),
    "log": (mnp.log, [r(2, 3, **POS)]),
    "log2": (mnp.log2, [r(2, 3, **POS)]),
    "log10": (mnp.log10, [r(2, 3, **POS)]),
    "log1p": (mnp.log1p, [r(2, 3, **POS)]),
    "floor": (lambda a: mnp.floor(a) * a, [spread(3)]),
    "ceil": (lambda a: mnp.ceil(a) * a, [spread(3)], "f32"),
    "trunc": (lambda a: mnp.trunc(a) * a, [spread(3)], "f32"),
    "fix": (lambda a: mnp.fix(a) * a, [spread(3)], "f32"),
    "rint": (lambda a: mnp.rint(a) * a, [spread(3)]),
    "sin": (mnp.sin, [r(2, 3)]),
    "cos": (mnp.cos, [r(2, 3)]),
    "tan": (mnp.tan, [r(2, 3, low=-1.2, high=1.2)]),
    "arcsin": (mnp.arcsin, [r(2, 3, low=-0.8, high=0.8)]),
    "arccos": (mnp.arccos, [r(2, 3, low=-0.8, high=0.8)]),
    "arctan": (mnp.arctan, [r(2, 3)]),
    "sinh": (mnp.sinh, [r(2, 3)]),
    "cosh": (mnp.cosh, [r(2, 3)]),
    "tanh": (mnp.tanh, [r(2, 3)]),
    "arcsinh": (mnp.arcsinh, [r(2, 3)]),
    "arccosh": (mnp.arccosh, [r(2, 3, low=1.2, high=3.0)]),
    "arctanh": (mnp.arctanh, [r(2, 3, low=-0.8, high=0.8)]),
    "deg2rad": (mnp.deg2rad, [r(3)]),
    "radians": (mnp.radians, [r(3)]),
    "rad2deg": (mnp.rad2deg, [r(3)]),
    # reductions and scans
    "sum": (lambda a: mnp.sum(a, axis=1, initial=0.5), [r(2, 3)]),
    "mean": (lambda a: mnp.mean(a, axis=0, keepdims=True), [r(2, 3)]),
    "amax": (lambda a: mnp.amax(a, axis=1), [spread(2, 3)]),
    "amin": (lambda a: mnp.amin(a, initial=0.0, where=MASK), [spread(2, 3)]),
    "max": (mnp.max, [spread(2, 3)]),
    "min": (lambda a: mnp.min(a, 0), [spread(2, 3)]),
    "ptp": (lambda a: mnp.ptp(a, 1), [spread(2, 3)]),
    "std": (lambda a: mnp.std(a, 1, ddof=1), [r(2, 3)]),
    "var": (mnp.var, [r(2, 3)]),
    "average": (lambda a, w: mnp.average(a, 1, w), [r(2, 3), r(3, **POS)]),
    "cumsum": (lambda a: mnp.cumsum(a, 1), [r(2, 3)]),
    "cumprod": (lambda a: mnp.cumprod(a, 0), [r(3, 2, **POS)]),
    "nansum": (lambda a: mnp.nansum(a + NANS, axis=1), [r(2, 3)]),
    "nanmean": (lambda a: mnp.nanmean(a + NANS, axis=0, dtype=ms.float64), [r(2, 3)]),
    "nanvar": (lambda a: mnp.nanvar(a + NANS, dtype=ms.float64), [r(2, 3)], "f32"),
    "nanstd": (lambda a: mnp.nanstd(a + NANS, axis=1, dtype=ms.float64), [r(2, 3, **POS)],
               "f32"),
    "nanmax": (lambda a: mnp.nanmax(a + NANS, axis=1), [spread(2, 3)]),
    "nanmin": (lambda a: mnp.nanmin(a + NANS), [spread(2, 3)]),
    "nancumsum": (lambda a: mnp.nancumsum(a + NANS, 1), [r(2, 3)]),
    # products, norms, convolution, covariance
    "dot": (mnp.dot, [r(2, 3), r(3, 4)]),
    "inner": (mnp.inner, [r(2, 3), r(4, 3)]),
    "outer": (mnp.outer, [r(3), r(2, 2)]),
    "tensordot": (lambda a, b: mnp.tensordot(a, b, 1), [r(2, 3), r(3, 2)]),
    "matmul": (mnp.matmul, [r(2, 2, 3), r(3, 2)]),
    "multi_dot": (lambda a, b, c: mnp.multi_dot([a, b, c]), [r(3), r(3, 4), r(4, 2)]),
    "kron": (mnp.kron, [r(2, 2), r(3)]),
    "cross": (mnp.cross, [r(2, 3), r(3)]),
    "norm": (lambda a: mnp.norm(a, 3, axis=1), [r(2, 3, **POS)]),
    "convolve": (lambda a, v: mnp.convolve(a, v, "same"), [r(5), r(3)], "f32"),
    "correlate": (lambda a, v: mnp.correlate(a, v, "full"), [r(5), r(3)]),
    "cov": (lambda m: mnp.cov(m, aweights=I3), [r(2, 3)], "f32"),
    "corrcoef": (mnp.corrcoef, [r(2, 4)], "f32"),
    # differences, integrals, interpolation, polynomials
    "diff": (lambda a: mnp.diff(a, 2, 1), [r(2, 4)]),
    "ediff1d": (lambda a, b: mnp.ediff1d(a, to_begin=b), [r(2, 3), r(1)]),
    "trapz": (lambda y, x: mnp.trapz(y, x), [r(2, 3), spread(3)]),
    "gradient": (lambda f: mnp.gradient(f)[1], [r(3, 4)]),
    "unwrap": (mnp.unwrap, [Tensor(np.array([0.0, 3.0, 6.5, 0.2, -3.0]))]),
    "interp": (lambda x, fp: mnp.interp(x, Tensor(np.array([0.0, 1.0, 2.0])), fp),
               [Tensor(np.array([0.3, 1.6, -1.0, 2.5])), r(3)], "f32"),
    "polyadd": (mnp.polyadd, [r(3), r(2)]),
    "polysub": (mnp.polysub, [r(2), r(3)]),
    "polymul": (mnp.polymul, [r(3), r(2)], "f32"),
    "polyval": (mnp.polyval, [r(3), r(2, 2)]),
    "polyder": (lambda p: mnp.polyder(p, 2), [r(4)]),
    "polyint": (lambda p: mnp.polyint(p, 1, 0.5), [r(3)], "f32"),
    "bincount": (lambda w: mnp.bincount(Tensor(np.array([0, 2, 2], np.int32)), w), [r(3)],
                 "f32"),
    "histogram": (lambda w: mnp.histogram(Tensor(np.array([0.1, 0.7, 0.9])), 2, weights=w)[0],
                  [r(3)], "f32"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name):
    fn, args, *f32 = CASES[name]
    if f32:
        assert gradcheck(fn, *args, eps=1e-3, atol=2e-3, rtol=1e-2)
    else:
        assert gradcheck(fn, *args)


NOT_DIFFERENTIABLE = {"argmax", "argmin", "count_nonzero", "gcd", "lcm", "bitwise_and",
                      "bitwise_or", "bitwise_xor", "bitwise_not", "invert", "floor_divide",
                      "searchsorted", "digitize", "histogram2d", "histogramdd",
                      "ravel_multi_index", "promote_types", "result_type"}


def test_every_float_function_has_a_gradcheck_line():
    from test_numpy_math import MS_MATH_NAMES  # tests/core is on sys.path (rootdir import)

    assert set(MS_MATH_NAMES) - set(CASES) == NOT_DIFFERENTIABLE


def test_second_order_through_the_new_ops():
    x = Tensor(np.array([0.3, -0.4, 0.7]))
    for f, d2 in [(mnp.tan, lambda v: 2 * np.tan(v) / np.cos(v) ** 2),
                  (mnp.arcsinh, lambda v: -v / (v * v + 1) ** 1.5),
                  (mnp.arctanh, lambda v: 2 * v / (1 - v * v) ** 2)]:
        g2 = ms.grad(ms.grad(lambda t, f=f: f(t).sum()))(x)
        np.testing.assert_allclose(g2.asnumpy(), d2(x.asnumpy()), rtol=1e-7)


def test_maximum_and_minimum_share_the_gradient_at_ties_as_mindspore():
    x, y = Tensor(np.array([1.0, 2.0, 3.0])), Tensor(np.array([2.0, 2.0, 1.0]))
    gx, gy = ms.grad(lambda a, b: mnp.maximum(a, b).sum(), (0, 1))(x, y)
    assert gx.asnumpy().tolist() == [0.0, 0.5, 1.0] and gy.asnumpy().tolist() == [1.0, 0.5, 0.0]
    gx, gy = ms.grad(lambda a, b: mnp.minimum(a, b).sum(), (0, 1))(x, y)
    assert gx.asnumpy().tolist() == [1.0, 0.5, 0.0] and gy.asnumpy().tolist() == [0.0, 0.5, 1.0]
    assert np.isnan(mnp.maximum(Tensor(np.array([np.nan])), 1.0).asnumpy()).all()


def test_integer_only_functions_are_constants_for_the_tape():
    x = Tensor(np.array([0.2, 0.6, 1.7]))
    g = ms.grad(lambda t: (mnp.searchsorted(Tensor(np.array([0.0, 1.0])), t) * t).sum())(x)
    assert g.asnumpy().tolist() == [1.0, 1.0, 2.0]


# ---- PyTorch -----------------------------------------------------------------------------
def _torch_pairs(torch):
    return {
        "tan": (mnp.tan, torch.tan, [r(2, 3, low=-1.2, high=1.2)]),
        "arcsinh": (mnp.arcsinh, torch.asinh, [r(2, 3)]),
        "arccosh": (mnp.arccosh, torch.acosh, [r(2, 3, low=1.2, high=3.0)]),
        "arctanh": (mnp.arctanh, torch.atanh, [r(2, 3, low=-0.8, high=0.8)]),
        "cumprod": (lambda a: mnp.cumprod(a, 1), lambda a: torch.cumprod(a, 1),
                    [r(2, 4, **POS)]),
        "logaddexp": (mnp.logaddexp, torch.logaddexp, [r(2, 3), r(2, 3)]),
        "logaddexp2": (mnp.logaddexp2, torch.logaddexp2, [r(2, 3), r(2, 3)]),
        "hypot": (mnp.hypot, torch.hypot, [r(2, 3), r(2, 3)]),
        "copysign": (mnp.copysign, torch.copysign, [spread(2, 3), spread(2, 3)]),
        "arctan2": (mnp.arctan2, torch.atan2, [r(3), r(3, **POS)]),
        "fmod": (mnp.fmod, torch.fmod, [spread(3), r(3, low=2.5, high=3.0)]),
        "remainder": (mnp.remainder, torch.remainder, [spread(3), r(3, low=2.5, high=3.0)]),
        "exp2": (mnp.exp2, torch.exp2, [r(3)]),
        "expm1": (mnp.expm1, torch.expm1, [r(3)]),
        "log1p": (mnp.log1p, torch.log1p, [r(3, **POS)]),
        "deg2rad": (mnp.deg2rad, torch.deg2rad, [r(3)]),
        "rad2deg": (mnp.rad2deg, torch.rad2deg, [r(3)]),
        "var": (lambda a: mnp.var(a, 1, ddof=1), lambda a: torch.var(a, 1, correction=1),
                [r(2, 3)]),
        "std": (lambda a: mnp.std(a, 0), lambda a: torch.std(a, 0, correction=0), [r(2, 3)]),
        "nansum": (lambda a: mnp.nansum(a + NANS, 1),
                   lambda a: torch.nansum(a + torch.from_numpy(NANS.asnumpy()), 1), [r(2, 3)]),
        "nanmean": (lambda a: mnp.nanmean(a + NANS, 0, dtype=ms.float64),
                    lambda a: torch.nanmean(a + torch.from_numpy(NANS.asnumpy()), 0), [r(2, 3)]),
        "cross": (mnp.cross, lambda a, b: torch.linalg.cross(a, b), [r(2, 3), r(2, 3)]),
        "kron": (mnp.kron, torch.kron, [r(2, 2), r(2, 3)]),
        "tensordot": (lambda a, b: mnp.tensordot(a, b, 1), lambda a, b: torch.tensordot(a, b, 1),
                      [r(2, 3), r(3, 2)]),
        "inner": (mnp.inner, torch.inner, [r(2, 3), r(4, 3)]),
        "outer": (mnp.outer, torch.outer, [r(3), r(2)]),
        "diff": (lambda a: mnp.diff(a, 2, 0), lambda a: torch.diff(a, 2, 0), [r(4, 3)]),
        "trapz": (lambda y, x: mnp.trapz(y, x), lambda y, x: torch.trapezoid(y, x),
                  [r(2, 3), spread(3)]),
        "norm": (lambda a: mnp.norm(a, 3, axis=1),
                 lambda a: torch.linalg.vector_norm(a, 3, dim=1), [r(2, 3, **POS)]),
        "cov": (lambda m: mnp.cov(m), torch.cov, [r(2, 5)]),
        "corrcoef": (mnp.corrcoef, torch.corrcoef, [r(3, 5)]),
        "float_power": (mnp.float_power, torch.float_power, [r(3, **POS), r(3)]),
        "cbrt": (mnp.cbrt, lambda a: torch.sign(a) * a.abs() ** (1 / 3), [spread(3)]),
        "gradient": (lambda f: mnp.gradient(f, axis=1), lambda f: torch.gradient(f, dim=1)[0],
                     [r(3, 4)]),
    }


def test_values_and_gradients_match_torch():
    torch = pytest.importorskip("torch")
    for name, (ours, theirs, args) in _torch_pairs(torch).items():
        out = ours(*args)
        w = np.random.default_rng(1).standard_normal(out.shape)
        weight = Tensor(w.astype(np.float64))

        def loss(*xs, ours=ours, weight=weight):
            return (ours(*xs) * weight).sum()

        grads = ms.grad(loss, tuple(range(len(args))))(*args)
        grads = grads if isinstance(grads, tuple) else (grads,)
        targs = [torch.tensor(a.asnumpy(), requires_grad=True) for a in args]
        tout = theirs(*targs)
        (tout * torch.from_numpy(w).to(tout.dtype)).sum().backward()
        # MindSpore computes float_power, cov and corrcoef in Float32
        tol = 1e-4 if name in ("float_power", "cov", "corrcoef") else 1e-7
        np.testing.assert_allclose(out.asnumpy(), tout.detach().numpy(), rtol=tol, atol=tol,
                                   err_msg=name)
        for g, ta in zip(grads, targs):
            np.testing.assert_allclose(g.asnumpy(), ta.grad.numpy(), rtol=tol * 10,
                                       atol=tol * 10, err_msg=name)
