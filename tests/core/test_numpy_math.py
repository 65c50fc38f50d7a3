"""`cellgrad.numpy`'s math (MindSpore 2.10's `mindspore.numpy.math_ops`): every name against
numpy (values, shapes), MindSpore's dtype rules as recorded from MindSpore 2.10, bad input, and
the "done when" check against the signature fixture. Gradients: test_numpy_math_grad.py;
printed behaviour: ms_programs/numpy_math_*.py."""

import json
import pathlib

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import Tensor

FIXTURE = pathlib.Path(__file__).parents[1] / "signatures" / "mindspore-2.10.json"

# `mindspore.numpy.math_module` of MindSpore 2.10 without `not_equal` (a logic_ops name it
# also lists): the functions defined in mindspore/numpy/math_ops.py
MS_MATH_NAMES = """abs absolute add amax amin arccos arccosh arcsin arcsinh arctan arctan2 arctanh
argmax argmin average bincount bitwise_and bitwise_not bitwise_or bitwise_xor cbrt ceil clip
convolve copysign corrcoef correlate cos cosh count_nonzero cov cross cumprod cumsum deg2rad diff
digitize divide divmod dot ediff1d exp exp2 expm1 fabs fix float_power floor floor_divide fmod gcd
gradient heaviside histogram histogram2d histogramdd hypot inner interp invert kron lcm log log10
log1p log2 logaddexp logaddexp2 matmul max maximum mean min minimum mod multi_dot multiply
nancumsum nanmax nanmean nanmin nanstd nansum nanvar negative norm outer polyadd polyder polyint
polymul polysub polyval positive power promote_types ptp rad2deg radians ravel_multi_index
reciprocal remainder result_type rint searchsorted sign sin sinh sqrt square std subtract sum tan
tanh tensordot trapz true_divide trunc unwrap var""".split()
# mindspore.numpy.dtypes' names
MS_DTYPE_NAMES = ["int_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                  "uint64", "uint", "float_", "float16",
                  "float32", "float64", "bool_", "inf", "PINF", "NINF", "nan", "pi",
                  "numeric_types"]


def t(v, d="float32"):
    return Tensor(np.array(v, dtype=d))


# ---- done when ---------------------------------------------------------------------------
def test_every_math_name_of_mindspore_2_10_exists_with_its_signature():
    import inspect

    recorded = json.loads(FIXTURE.read_text())["namespaces"]["numpy"]
    assert len(MS_MATH_NAMES) == 121
    assert set(MS_MATH_NAMES) <= set(recorded)
    missing = [n for n in MS_MATH_NAMES if not hasattr(mnp, n)]
    assert not missing
    for name in MS_MATH_NAMES:
        params = [[p.name, p.kind.name.lower(),
                   None if p.default is inspect.Parameter.empty else repr(p.default)]
                  for p in inspect.signature(getattr(mnp, name)).parameters.values()]
        want = recorded[name]["params"]
        assert [p[:2] for p in params] == [p[:2] for p in want], name
        assert [p[2] for p in params] == [p[2] for p in want], name


def test_math_ops_all_lists_the_math_names_and_the_dtypes():
    assert set(mnp.math_ops.__all__) == set(MS_MATH_NAMES) | set(MS_DTYPE_NAMES)
    assert set(mnp.math_ops.__all__) <= set(mnp.__all__)


def test_dtype_names_are_mindspore_numpy_s():
    assert mnp.int_ is ms.int32 and mnp.float_ is ms.float32  # 32-bit defaults
    assert (mnp.bool_, mnp.int8, mnp.uint8, mnp.float64) == (ms.bool_, ms.int8, ms.uint8,
                                                              ms.float64)
    assert mnp.pi == np.pi and mnp.inf == mnp.PINF == np.inf and mnp.NINF == -np.inf
    assert np.isnan(mnp.nan)
    assert all(hasattr(mnp, n) for n in mnp.numeric_types)
    assert mnp.uint is mnp.uint32 is ms.uint32


# ---- values against numpy ----------------------------------------------------------------
X = np.array([[0.3, -1.2, 2.5], [1.7, 0.4, -0.6]], np.float32)
Y = np.array([[1.1, 0.5, -2.0], [0.9, -1.4, 3.2]], np.float32)
P = np.abs(X) + 0.5  # positive
U = np.array([[0.2, -0.7, 0.5], [0.9, -0.1, 0.3]], np.float32)  # in (-1, 1)
I1 = np.array([[4, -3, 6], [12, 20, 7]], np.int32)
I2 = np.array([[3, 2, -4], [20, 8, 5]], np.int32)
V3 = np.array([1.0, 2.0, 4.0], np.float32)
W3 = np.array([0.5, -1.0, 3.0], np.float32)

# name: (cellgrad call, numpy reference); inputs are numpy arrays made Tensors by `_tensors`
VALUES = {
    "abs": (lambda: mnp.abs(t(X)), lambda: np.abs(X)),
    "absolute": (lambda: mnp.absolute(t(I1, "int32")), lambda: np.abs(I1)),
    "fabs": (lambda: mnp.fabs(t(X)), lambda: np.fabs(X)),
    "add": (lambda: mnp.add(t(X), t(Y)), lambda: X + Y),
    "subtract": (lambda: mnp.subtract(t(X), 2), lambda: X - 2),
    "multiply": (lambda: mnp.multiply(t(X), t(Y[0])), lambda: X * Y[0]),
    "divide": (lambda: mnp.divide(t(I1, "int32"), t(I2, "int32")), lambda: I1 / I2),
    "true_divide": (lambda: mnp.true_divide(t(X), t(Y)), lambda: X / Y),
    "power": (lambda: mnp.power(t(P), t(Y)), lambda: P ** Y),
    "float_power": (lambda: mnp.float_power(t(P), t(Y)), lambda: np.float_power(P, Y)),
    "maximum": (lambda: mnp.maximum(t(X), t(Y)), lambda: np.maximum(X, Y)),
    "minimum": (lambda: mnp.minimum(t(X), 0.5), lambda: np.minimum(X, 0.5)),
    "heaviside": (lambda: mnp.heaviside(t([-1.5, 0.0, 2.0]), t([0.5])),
                  lambda: np.heaviside([-1.5, 0.0, 2.0], 0.5)),
    "hypot": (lambda: mnp.hypot(t(X), t(Y)), lambda: np.hypot(X, Y)),
    "floor_divide": (lambda: mnp.floor_divide(t(I1, "int32"), t(I2, "int32")),
                     lambda: np.floor_divide(I1, I2)),
    "remainder": (lambda: mnp.remainder(t(X), t(Y)), lambda: np.remainder(X, Y)),
    "mod": (lambda: mnp.mod(t(I1, "int32"), t(I2, "int32")), lambda: np.mod(I1, I2)),
    "fmod": (lambda: mnp.fmod(t(X), t(Y)), lambda: np.fmod(X, Y)),
    "divmod": (lambda: mnp.divmod(t(X), t(Y)), lambda: np.divmod(X, Y)),
    "gcd": (lambda: mnp.gcd(t(I1, "int32"), t(I2, "int32")), lambda: np.gcd(I1, I2)),
    "lcm": (lambda: mnp.lcm(t(I1, "int32"), t(I2, "int32")), lambda: np.lcm(I1, I2)),
    "logaddexp": (lambda: mnp.logaddexp(t(X), t(Y)), lambda: np.logaddexp(X, Y)),
    "logaddexp2": (lambda: mnp.logaddexp2(t(X), t(Y)), lambda: np.logaddexp2(X, Y)),
    "arctan2": (lambda: mnp.arctan2(t(X), t(Y)), lambda: np.arctan2(X, Y)),
    "copysign": (lambda: mnp.copysign(t(X), t(Y)), lambda: np.copysign(X, Y)),
    "bitwise_and": (lambda: mnp.bitwise_and(t(I1, "int32"), t(I2, "int32")), lambda: I1 & I2),
    "bitwise_or": (lambda: mnp.bitwise_or(t(I1, "int32"), t(I2, "int32")), lambda: I1 | I2),
    "bitwise_xor": (lambda: mnp.bitwise_xor(t(I1, "int32"), 5), lambda: I1 ^ 5),
    "invert": (lambda: mnp.invert(t(I1, "int32")), lambda: ~I1),
    "bitwise_not": (lambda: mnp.bitwise_not(t(I1, "int8")), lambda: ~I1.astype(np.int8)),
    "clip": (lambda: mnp.clip(t(X), -0.5, 1.0), lambda: np.clip(X, -0.5, 1.0)),
    "sqrt": (lambda: mnp.sqrt(t(P)), lambda: np.sqrt(P)),
    "cbrt": (lambda: mnp.cbrt(t(X)), lambda: np.cbrt(X)),
    "square": (lambda: mnp.square(t(X)), lambda: np.square(X)),
    "reciprocal": (lambda: mnp.reciprocal(t(P)), lambda: 1 / P),
    "negative": (lambda: mnp.negative(t(X)), lambda: -X),
    "positive": (lambda: mnp.positive(t(X)), lambda: +X),
    "sign": (lambda: mnp.sign(t([-2.0, 0.0, 3.0])), lambda: np.sign([-2.0, 0.0, 3.0])),
    "exp": (lambda: mnp.exp(t(X)), lambda: np.exp(X)),
    "exp2": (lambda: mnp.exp2(t(X)), lambda: np.exp2(X)),
    "expm1": (lambda: mnp.expm1(t(X)), lambda: np.expm1(X)),
    "log": (lambda: mnp.log(t(P)), lambda: np.log(P)),
    "log2": (lambda: mnp.log2(t(P)), lambda: np.log2(P)),
    "log10": (lambda: mnp.log10(t(P)), lambda: np.log10(P)),
    "log1p": (lambda: mnp.log1p(t(P)), lambda: np.log1p(P)),
    "floor": (lambda: mnp.floor(t(X)), lambda: np.floor(X)),
    "ceil": (lambda: mnp.ceil(t(X)), lambda: np.ceil(X)),
    "trunc": (lambda: mnp.trunc(t(X)), lambda: np.trunc(X)),
    "fix": (lambda: mnp.fix(t(X)), lambda: np.fix(X)),
    "rint": (lambda: mnp.rint(t([0.5, 1.5, -2.5, 2.6])), lambda: np.rint([0.5, 1.5, -2.5, 2.6])),
    "sin": (lambda: mnp.sin(t(X)), lambda: np.sin(X)),
    "cos": (lambda: mnp.cos(t(X)), lambda: np.cos(X)),
    "tan": (lambda: mnp.tan(t(X)), lambda: np.tan(X)),
    "arcsin": (lambda: mnp.arcsin(t(U)), lambda: np.arcsin(U)),
    "arccos": (lambda: mnp.arccos(t(U)), lambda: np.arccos(U)),
    "arctan": (lambda: mnp.arctan(t(X)), lambda: np.arctan(X)),
    "sinh": (lambda: mnp.sinh(t(X)), lambda: np.sinh(X)),
    "cosh": (lambda: mnp.cosh(t(X)), lambda: np.cosh(X)),
    "tanh": (lambda: mnp.tanh(t(X)), lambda: np.tanh(X)),
    "arcsinh": (lambda: mnp.arcsinh(t(X)), lambda: np.arcsinh(X)),
    "arccosh": (lambda: mnp.arccosh(t(P + 1)), lambda: np.arccosh(P + 1)),
    "arctanh": (lambda: mnp.arctanh(t(U)), lambda: np.arctanh(U)),
    "deg2rad": (lambda: mnp.deg2rad(t(X)), lambda: np.deg2rad(X)),
    "radians": (lambda: mnp.radians(t(X)), lambda: np.radians(X)),
    "rad2deg": (lambda: mnp.rad2deg(t(X)), lambda: np.rad2deg(X)),
    # reductions and scans
    "sum": (lambda: mnp.sum(t(X), axis=1, keepdims=True), lambda: X.sum(1, keepdims=True)),
    "mean": (lambda: mnp.mean(t(X), axis=0), lambda: X.mean(0)),
    "amax": (lambda: mnp.amax(t(X), axis=1), lambda: X.max(1)),
    "amin": (lambda: mnp.amin(t(X), axis=(0, 1)), lambda: X.min()),
    "max": (lambda: mnp.max(t(X), initial=2.0), lambda: np.max(X, initial=2.0)),
    "min": (lambda: mnp.min(t(X), axis=0, initial=0.0, where=t([True, False, True], "bool")),
            lambda: np.min(X, axis=0, initial=0.0, where=[True, False, True])),
    "ptp": (lambda: mnp.ptp(t(X), axis=1), lambda: np.ptp(X, axis=1)),
    "std": (lambda: mnp.std(t(X), ddof=1), lambda: X.std(ddof=1)),
    "var": (lambda: mnp.var(t(X), axis=0), lambda: X.var(0)),
    "average": (lambda: mnp.average(t(X), axis=1, weights=t(V3)),
                lambda: np.average(X, axis=1, weights=V3)),
    "count_nonzero": (lambda: mnp.count_nonzero(t([[0.0, 1.0], [2.0, 0.0]]), axis=0),
                      lambda: np.count_nonzero([[0.0, 1.0], [2.0, 0.0]], axis=0)),
    "argmax": (lambda: mnp.argmax(t(X), 1), lambda: X.argmax(1)),
    "argmin": (lambda: mnp.argmin(t(X)), lambda: X.argmin()),
    "cumsum": (lambda: mnp.cumsum(t(X), 1), lambda: X.cumsum(1)),
    "cumprod": (lambda: mnp.cumprod(t(X), 0), lambda: X.cumprod(0)),
    "nansum": (lambda: mnp.nansum(t([[1.0, np.nan], [3.0, 4.0]]), axis=0),
               lambda: np.nansum([[1.0, np.nan], [3.0, 4.0]], axis=0)),
    "nanmean": (lambda: mnp.nanmean(t([[1.0, np.nan], [3.0, 4.0]])),
                lambda: np.nanmean([[1.0, np.nan], [3.0, 4.0]])),
    "nanvar": (lambda: mnp.nanvar(t([[1.0, np.nan], [3.0, 4.0]]), axis=1),
               lambda: np.nanvar([[1.0, np.nan], [3.0, 4.0]], axis=1)),
    "nanstd": (lambda: mnp.nanstd(t([1.0, np.nan, 3.0, 7.0]), ddof=1),
               lambda: np.nanstd([1.0, np.nan, 3.0, 7.0], ddof=1)),
    "nanmax": (lambda: mnp.nanmax(t([[1.0, np.nan], [3.0, 4.0]]), axis=0),
               lambda: np.nanmax([[1.0, np.nan], [3.0, 4.0]], axis=0)),
    "nanmin": (lambda: mnp.nanmin(t([[1.0, np.nan], [3.0, 4.0]]), axis=1),
               lambda: np.nanmin([[1.0, np.nan], [3.0, 4.0]], axis=1)),
    "nancumsum": (lambda: mnp.nancumsum(t([[1.0, np.nan], [3.0, 4.0]]), 1),
                  lambda: np.nancumsum([[1.0, np.nan], [3.0, 4.0]], 1)),
    # products and linear algebra
    "dot": (lambda: mnp.dot(t(X), t(Y.T)), lambda: X @ Y.T),
    "inner": (lambda: mnp.inner(t(X), t(Y)), lambda: np.inner(X, Y)),
    "outer": (lambda: mnp.outer(t(V3), t(W3)), lambda: np.outer(V3, W3)),
    "tensordot": (lambda: mnp.tensordot(t(X), t(Y), ((0, 1), (0, 1))),
                  lambda: np.tensordot(X, Y, ((0, 1), (0, 1)))),
    "matmul": (lambda: mnp.matmul(t(X), t(V3)), lambda: X @ V3),
    "multi_dot": (lambda: mnp.multi_dot([t(V3[:2]), t(X), t(Y.T), t(X)]),
                  lambda: np.linalg.multi_dot([V3[:2], X, Y.T, X])),
    "kron": (lambda: mnp.kron(t(X), t([[1.0, -1.0]])), lambda: np.kron(X, [[1.0, -1.0]])),
    "cross": (lambda: mnp.cross(t(X), t(Y)), lambda: np.cross(X, Y)),
    "norm": (lambda: mnp.norm(t(X), 1), lambda: np.linalg.norm(X, 1)),
    "convolve": (lambda: mnp.convolve(t(V3), t(W3[:2]), "same"),
                 lambda: np.convolve(V3, W3[:2], "same")),
    "correlate": (lambda: mnp.correlate(t(V3), t(W3), "full"),
                  lambda: np.correlate(V3, W3, "full")),
    "cov": (lambda: mnp.cov(t(X), fweights=t([1, 2, 1], "int32")),
            lambda: np.cov(X, fweights=[1, 2, 1])),
    "corrcoef": (lambda: mnp.corrcoef(t(X), rowvar=False), lambda: np.corrcoef(X, rowvar=False)),
    # differences, integrals, interpolation
    "diff": (lambda: mnp.diff(t(X), 1, 0), lambda: np.diff(X, 1, 0)),
    "ediff1d": (lambda: mnp.ediff1d(t(X), to_begin=t([9.0])),
                lambda: np.ediff1d(X, to_begin=[9.0])),
    "trapz": (lambda: mnp.trapz(t(X), x=t(V3)),
              lambda: np.trapezoid(X, x=V3) if hasattr(np, "trapezoid") else np.trapz(X, V3)),
    "gradient": (lambda: mnp.gradient(t(X), axis=1), lambda: np.gradient(X, axis=1)),
    "unwrap": (lambda: mnp.unwrap(t([0.0, 3.0, 6.5, 0.2, -3.0])),
               lambda: np.unwrap(np.array([0.0, 3.0, 6.5, 0.2, -3.0], np.float32))),
    "interp": (lambda: mnp.interp(t([0.5, 1.5, -1.0, 5.0]), t([0.0, 1.0, 2.0]), t(V3)),
               lambda: np.interp([0.5, 1.5, -1.0, 5.0], [0.0, 1.0, 2.0], V3)),
    "searchsorted": (lambda: mnp.searchsorted(t([1.0, 2.0, 2.0, 3.0]), t([2.0, 0.5]), "right"),
                     lambda: np.searchsorted([1.0, 2.0, 2.0, 3.0], [2.0, 0.5], "right")),
    "digitize": (lambda: mnp.digitize(t([0.2, 6.4, 3.0]), t([10.0, 4.0, 2.5, 0.0])),
                 lambda: np.digitize([0.2, 6.4, 3.0], [10.0, 4.0, 2.5, 0.0])),
    "bincount": (lambda: mnp.bincount(t([0, 1, 1, 3], "int32"), t([0.5, 1.0, 2.0, 0.25])),
                 lambda: np.bincount([0, 1, 1, 3], [0.5, 1.0, 2.0, 0.25])),
    "histogram": (lambda: mnp.histogram(t(X), 3), lambda: np.histogram(X, 3)),
    "histogram2d": (lambda: mnp.histogram2d(t(X[0]), t(X[1]), 2),
                    lambda: np.histogram2d(X[0], X[1], 2)),
    "histogramdd": (lambda: mnp.histogramdd(t(X.T), 2, density=True),
                    lambda: np.histogramdd(X.T, 2, density=True)),
    "ravel_multi_index": (lambda: mnp.ravel_multi_index(t([[3, 6], [4, 5]], "int32"), (7, 6)),
                          lambda: np.ravel_multi_index([[3, 6], [4, 5]], (7, 6))),
    # polynomials
    "polyadd": (lambda: mnp.polyadd(t(V3), t(W3[:2])), lambda: np.polyadd(V3, W3[:2])),
    "polysub": (lambda: mnp.polysub(t(V3[:2]), t(W3)), lambda: np.polysub(V3[:2], W3)),
    "polymul": (lambda: mnp.polymul(t(V3), t(W3)), lambda: np.polymul(V3, W3)),
    "polyval": (lambda: mnp.polyval(t(V3), t(X)), lambda: np.polyval(V3, X)),
    "polyder": (lambda: mnp.polyder(t([1.0, 2.0, 3.0, 4.0]), 2),
                lambda: np.polyder([1.0, 2.0, 3.0, 4.0], 2)),
    "polyint": (lambda: mnp.polyint(t(V3), 2, [1.0, 2.0]), lambda: np.polyint(V3, 2, [1.0, 2.0])),
}


def _flat(x):
    if isinstance(x, (tuple, list)):
        return [a for v in x for a in _flat(v)]
    return [np.asarray(x.asnumpy() if isinstance(x, Tensor) else x)]


@pytest.mark.parametrize("name", sorted(VALUES))
def test_values_match_numpy(name):
    ours, ref = VALUES[name]
    got, want = _flat(ours()), _flat(ref())
    assert len(got) == len(want), name
    for g, w in zip(got, want):
        assert g.shape == w.shape, (name, g.shape, w.shape)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=2e-5,
                                   atol=2e-5, err_msg=name)


def test_the_values_table_covers_every_function_but_the_dtype_helpers():
    assert set(VALUES) == set(MS_MATH_NAMES) - {"promote_types", "result_type"}


# ---- MindSpore's dtypes (recorded from MindSpore 2.10, see ms_programs/numpy_math_*.out) --
I32 = t([[4, -3, 6], [1, 2, 0]], "int32")
DTYPES = [
    (lambda: mnp.sum(I32), "Int64"),  # integer sums are Int64
    (lambda: mnp.sum(I32, dtype=ms.float32), "Float32"),
    (lambda: mnp.sum(t([2.5, 1.0]), dtype=ms.int32), "Int32"),
    (lambda: mnp.sum(I32, initial=5.5), "Float32"),
    (lambda: mnp.mean(I32), "Int32"),  # truncated in the integer dtype: 10 / 6 -> 1
    (lambda: mnp.mean(I32, dtype=ms.float32), "Float32"),
    (lambda: mnp.nansum(I32), "Int32"),
    (lambda: mnp.nanmean(I32), "Float32"),
    (lambda: mnp.nanmean(t([1.0], "float64")), "Float64"),
    (lambda: mnp.nanvar(t([1.0, 2.0], "float64")), "Float32"),
    (lambda: mnp.var(I32), "Float32"),
    (lambda: mnp.std(t([1.0, 2.0], "float16")), "Float16"),
    (lambda: mnp.average(I32), "Int32"),
    (lambda: mnp.count_nonzero(t([1.0, 0.0])), "Int32"),
    (lambda: mnp.argmax(I32), "Int64"),
    (lambda: mnp.argmin(I32), "Int32"),
    (lambda: mnp.cumsum(t([1, 2], "int8")), "Int32"),
    (lambda: mnp.cumsum(t([1, 2], "int64")), "Int64"),
    (lambda: mnp.cumprod(t([True, False], "bool")), "Int32"),
    (lambda: mnp.cumprod([1, 2]), "Int64"),  # Python lists keep Int64 there
    (lambda: mnp.divide(t([1.0], "float64"), t([2.0], "float64")), "Float32"),
    (lambda: mnp.divide(t([1.0], "float32"), t([2.0], "float64")), "Float64"),
    (lambda: mnp.divide(I32, 2), "Float32"),
    (lambda: mnp.add(t([1], "int8"), t([1], "uint8")), "Int16"),
    (lambda: mnp.add(t([1], "int32"), 1.5), "Float32"),  # Python floats become Float32 Tensors
    (lambda: mnp.add(t([1], "float16"), 1.5), "Float32"),
    (lambda: mnp.maximum(I32, 2.5), "Int32"),  # a 0-d operand takes the other's dtype
    (lambda: mnp.float_power(t([2], "float64"), t([2], "float64")), "Float32"),
    (lambda: mnp.ceil(t([1.5], "float64")), "Float32"),
    (lambda: mnp.trunc(t([1.5], "float64")), "Float32"),
    (lambda: mnp.floor(t([1.5], "float64")), "Float64"),
    (lambda: mnp.sqrt(I32), "Float32"),
    (lambda: mnp.square(I32), "Int32"),
    (lambda: mnp.sin(t([1], "int8")), "Float16"),
    (lambda: mnp.sin(t([1], "int16")), "Float32"),
    (lambda: mnp.arctan2(t([1], "int32"), t([1], "float16")), "Float32"),
    (lambda: mnp.sign(I32), "Float32"),
    (lambda: mnp.exp2(t([True], "bool")), "Int64"),
    (lambda: mnp.reciprocal(I32), "Int32"),
    (lambda: mnp.deg2rad(I32), "Float32"),
    (lambda: mnp.cbrt(t([8.0], "float16")), "Float32"),
    (lambda: mnp.copysign(I32, t([-1.0, 1.0, 1.0])), "Int32"),
    (lambda: mnp.correlate(t([1, 2, 3], "int32"), t([1, 1], "int32")), "Float32"),
    (lambda: mnp.convolve(t([1, 2, 3], "int32"), t([1, 1], "int32")), "Int32"),
    (lambda: mnp.cov(t([[1.0, 2.0, 4.0]], "float64")), "Float32"),
    (lambda: mnp.bincount(t([0, 1], "int32")), "Float32"),
    (lambda: mnp.searchsorted(t([1.0, 2.0]), 1.5), "Int32"),
    (lambda: mnp.ravel_multi_index(t([[1], [2]], "int32"), (3, 4)), "Float32"),
    (lambda: mnp.polyval(t([1, 2], "int32"), t([1], "int32")), "Float32"),
    (lambda: mnp.polyint(t([1, 2], "int32")), "Float32"),
    (lambda: mnp.interp(t([0], "int32"), t([0, 1], "int32"), t([1, 2], "int32")), "Float32"),
    (lambda: mnp.matmul(I32, t([1, 2, 3], "int32"), ms.float64), "Float64"),
    (lambda: mnp.gradient(t([1, 3, 4], "float64")), "Float64"),
    (lambda: mnp.gradient(t([1, 3, 4], "int32")), "Float32"),
    (lambda: mnp.promote_types("int8", "uint8"), None),
]


@pytest.mark.parametrize("i", range(len(DTYPES)))
def test_result_dtypes_are_mindspore_s(i):
    fn, want = DTYPES[i]
    r = fn()
    if want is None:
        assert r is ms.int16
    else:
        assert str(r.dtype) == want


def test_promote_types_and_result_type():
    assert mnp.promote_types(mnp.int32, mnp.float16) is ms.float16
    assert mnp.promote_types(int, float) is ms.float32
    assert mnp.promote_types(bool, "int64") is ms.int64
    assert mnp.promote_types(np.int16, np.float32) is ms.float32
    assert mnp.result_type(t([1.0]), t([1], "int64")) is ms.float32
    assert mnp.result_type(1, 2.0) is ms.float32
    assert mnp.result_type(True, t([1], "int8")) is ms.int8
    assert mnp.result_type(1, t([1], "int8")) is ms.int32
    assert mnp.result_type("int16", "float16") is ms.float16


def test_integer_results_follow_mindspore_s_kernels():
    assert mnp.mean(I32).asnumpy() == 1  # 10 / 6, truncated in Int32
    np.testing.assert_allclose(mnp.var(I32).asnumpy(), 52 / 6, rtol=1e-6)  # around mean 1
    assert mnp.reciprocal(t([-2, 3, -1, 0], "int32")).asnumpy().tolist() == [
        0, 0, -1, 2**31 - 1]
    assert mnp.exp2(t([-1, -3, 4], "int32")).asnumpy().tolist() == [0, 0, 16]
    assert mnp.power(t([2, 3], "int32"), t([-1, 2], "int32")).asnumpy().tolist() == [0, 9]
    assert mnp.remainder(t([-3, 5], "int32"), t([0, -2], "int32")).asnumpy().tolist() == [0, -1]
    assert mnp.average(t([[-4, -3]], "int32"), axis=1,
                       weights=t([1, 2], "int32")).asnumpy().tolist() == [-3]
    assert float(mnp.nanmax(t([np.nan]))) == -2.0**63  # MindSpore's fill value


def test_nan_propagates_through_maximum_and_nan_functions_skip_it():
    a, b = t([1.0, np.nan, 3.0]), t([2.0, 2.0, np.nan])
    assert np.isnan(mnp.maximum(a, b).asnumpy()[1:]).all()
    assert np.isnan(mnp.minimum(a, b).asnumpy()[1:]).all()
    assert mnp.nanmax(a).asnumpy() == 3.0 and mnp.nansum(a).asnumpy() == 4.0


def test_zero_size_reductions():
    e = Tensor(np.zeros((0, 3), np.float32))
    assert np.isnan(mnp.mean(e).asnumpy())
    assert mnp.mean(e, axis=1).shape == (0,)
    assert np.isnan(mnp.nansum(e, axis=0).asnumpy()).all()
    assert mnp.sum(e, axis=0, initial=7).asnumpy().tolist() == [7.0, 7.0, 7.0]
    assert mnp.count_nonzero(e).asnumpy() == 0


def test_gradient_of_several_axes_is_a_list():
    g = mnp.gradient(t(X))
    assert isinstance(g, list) and len(g) == 2
    for ours, ref in zip(g, np.gradient(X)):
        np.testing.assert_allclose(ours.asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(mnp.gradient(t(X), 2.0, 0.5)[1].asnumpy(),
                               np.gradient(X, 2.0, 0.5)[1], rtol=1e-6)


def test_average_returned_and_multi_dot_of_a_stacked_tensor():
    avg, total = mnp.average(t(X), axis=0, returned=True)
    np.testing.assert_allclose(avg.asnumpy(), X.mean(0), rtol=1e-6)
    assert total.asnumpy().tolist() == [2.0, 2.0, 2.0]
    stacked = Tensor(np.stack([np.eye(2, dtype=np.float32) * (i + 1) for i in range(3)]))
    np.testing.assert_allclose(mnp.multi_dot(stacked).asnumpy(), np.eye(2) * 6)


# ---- bad input: MindSpore's error classes, messages naming the function ---------------
ERRORS = [
    (lambda: mnp.exp(I32), TypeError, "floating"),
    (lambda: mnp.log([1, 2]), TypeError, "log"),
    (lambda: mnp.rint(2), TypeError, "rint"),
    (lambda: mnp.invert(t([1.0])), TypeError, "integer"),
    (lambda: mnp.bitwise_and(t([1.0]), t([1.0])), TypeError, "bitwise_and"),
    (lambda: mnp.sign(t([True], "bool")), TypeError, "Bool"),
    (lambda: mnp.sign("a"), TypeError, "sign"),
    (lambda: mnp.negative(t([True], "bool")), TypeError, "neg"),
    (lambda: mnp.square(t([True], "bool")), TypeError, "square"),
    (lambda: mnp.add(I32, t([True, False, True], "bool")), TypeError, "Bool"),
    (lambda: mnp.sin([1.0]), TypeError, "Tensor"),
    (lambda: mnp.multiply(I32, 2), TypeError, "multiply"),
    (lambda: mnp.maximum("x", I32), TypeError, "array_like"),
    (lambda: mnp.copysign("a", I32), TypeError, "copysign"),
    (lambda: mnp.add(t([1.0, 2.0]), t([1.0, 2.0, 3.0])), ValueError, "broadcast"),
    (lambda: mnp.clip(I32, None, None), ValueError, "min"),
    (lambda: mnp.amax(t([True], "bool")), TypeError, "Bool"),
    (lambda: mnp.amax(Tensor(np.zeros((0, 2), np.float32))), ValueError, "zero-size"),
    (lambda: mnp.amax(t(X), where=t([True, False, True], "bool")), ValueError, "initial"),
    (lambda: mnp.mean(t(X), axis=2), ValueError, "out of bounds"),
    (lambda: mnp.mean(t(X), axis=(0, 0)), ValueError, "duplicate"),
    (lambda: mnp.mean(t(X), axis=0.5), TypeError, "integers"),
    (lambda: mnp.mean(t([True], "bool")), RuntimeError, "bool"),
    (lambda: mnp.sum(t(X), initial=[1]), TypeError, "scalar"),
    (lambda: mnp.count_nonzero([1, 2]), TypeError, "Tensor"),
    (lambda: mnp.cumprod(t(X), (0, 1)), TypeError, "integer axis"),
    (lambda: mnp.average(t(X), weights=t(V3)), TypeError, "axis must be specified"),
    (lambda: mnp.dot(t(X), t([1.0, 2.0])), ValueError, "not aligned"),
    (lambda: mnp.dot(I32, t(V3)), TypeError, "same"),
    (lambda: mnp.inner(t(X), t([1.0, 2.0])), ValueError, "not aligned"),
    (lambda: mnp.matmul([[1, 2]], [[1], [2]]), TypeError, "Tensor"),
    (lambda: mnp.multi_dot([t(X)]), ValueError, "at least 2"),
    (lambda: mnp.multi_dot([t(V3[:2]), t(X.T), t(X), t(V3)]), ValueError, "not aligned"),
    (lambda: mnp.cross(t([1.0, 2, 3, 4]), t([1.0, 2, 3, 4])), ValueError, "2 or 3"),
    (lambda: mnp.norm(t(X), "x"), ValueError, "ord"),
    (lambda: mnp.norm(t(X), 2), NotImplementedError, "2-norm"),
    (lambda: mnp.norm(t(X), "nuc"), NotImplementedError, "nuclear"),
    (lambda: mnp.norm(t(V3), "fro"), ValueError, "Frobenius"),
    (lambda: mnp.convolve(t(X), t(V3)), ValueError, "1-D"),
    (lambda: mnp.convolve(t(V3), t(V3), "x"), ValueError, "mode"),
    (lambda: mnp.cov(Tensor(np.ones((2, 2, 2), np.float32))), ValueError, "dimension"),
    (lambda: mnp.cov(t(X), fweights=t(V3)), TypeError, "integer"),
    (lambda: mnp.cov(t(X), rowvar=1), TypeError, "rowvar"),
    (lambda: mnp.diff(t(X), -1), ValueError, "n must"),
    (lambda: mnp.diff(t(X), 3), ValueError, "bigger"),
    (lambda: mnp.diff(t(X), 1.5), TypeError, "int"),
    (lambda: mnp.gradient(t([1.0])), ValueError, "too small"),
    (lambda: mnp.gradient(t(V3), edge_order=2), NotImplementedError, "edge_order"),
    (lambda: mnp.gradient(t(V3), t(V3)), NotImplementedError, "spacing"),
    (lambda: mnp.unwrap(t(V3), "pi"), TypeError, "discont"),
    (lambda: mnp.interp(t([0.5]), t(V3), t([1.0, 2.0])), ValueError, "same length"),
    (lambda: mnp.searchsorted(t(X), t([1.0])), ValueError, "1-D"),
    (lambda: mnp.searchsorted(t(V3), t([1.0]), "middle"), ValueError, "side"),
    (lambda: mnp.digitize(t([1.0]), t(X)), ValueError, "1-dimensional"),
    (lambda: mnp.bincount(t(V3)), TypeError, "ints"),
    (lambda: mnp.bincount(t([[0, 1]], "int32")), ValueError, "one-dimensional"),
    (lambda: mnp.bincount(t([0, 1], "int32"), t(V3)), ValueError, "same length"),
    (lambda: mnp.histogram(t(V3), weights=t(X)), ValueError, "same shape"),
    (lambda: mnp.histogramdd(t(V3)), ValueError, "2-dimensional"),
    (lambda: mnp.histogramdd(t(X.T), [2, 2, 2]), ValueError, "dimension of bins"),
    (lambda: mnp.polyadd(t(X), t(V3)), ValueError, "1-d"),
    (lambda: mnp.polyder(t(V3), -1), ValueError, "positive"),
    (lambda: mnp.polyint(t(V3), -1), ValueError, "positive"),
    (lambda: mnp.ravel_multi_index(t([[3], [4]], "int32"), (7, 6), mode="raise"),
     NotImplementedError, "raise"),
    (lambda: mnp.ravel_multi_index(t([[3.0], [4.0]]), (7, 6)), TypeError, "int indices"),
    (lambda: mnp.ravel_multi_index(t([[3], [4]], "int32"), (7, 6, 2)), ValueError, "length"),
    (lambda: mnp.promote_types("foo", "int64"), TypeError, "dtype"),
    (lambda: mnp.result_type("foo"), TypeError, "not understood"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_bad_input_raises_mindspore_s_error_class(i):
    fn, cls, fragment = ERRORS[i]
    with pytest.raises(cls, match=fragment):
        fn()
