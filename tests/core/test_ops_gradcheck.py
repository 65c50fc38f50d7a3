"""Every differentiable op in `OPS`, gradchecked in float64: one line per op (tinygrad style).

`CASES` maps each line to the registry op it covers; `test_op_registry.py` fails when a
differentiable op has no line here. A line's function must record its op on the tape (checked),
and second order is checked through the op for every op that is not `first_order_only`.
"""

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import ops
from cellgrad.ops._registry import OPS, apply
from cellgrad.testing import GradcheckError, gradcheck, gradgradcheck


@dataclass
class Case:
    """One gradcheck line: `fn` applied to float64 inputs of `shapes` drawn from [low, high)."""

    op: str
    fn: Callable
    shapes: list
    low: float = -2.0
    high: float = 2.0
    extra: tuple = ()  # non-differentiable trailing arguments (masks, indices)
    distinct: bool = False  # spread values apart: no ties for max/min/sort, no kinks at 0
    eps: float = 1e-6  # finite-difference step; larger where the op rounds (casts)
    tag: str = field(default="")

    @property
    def id(self):
        return self.op + (f"-{self.tag}" if self.tag else "")


def _b(*values):
    return ms.Tensor(np.array(values, dtype=bool))


def _i(*values):
    return ms.Tensor(np.array(values, dtype=np.int64))


MASK23 = ms.Tensor(np.array([[True, False, True], [False, False, True]]))
MASK3 = _b(True, False, True)
IDX = _i(2, 0, 2)
SEG = ms.Tensor(np.array([1, 0, 1, 2, -1], np.int32))  # -1 is dropped
ADD_ZEROS = OPS["index_add_zeros"]
SCATTER = OPS["scatter_along_axis"]
TAKE = OPS["take_along_axis"]
ALONG = np.array([[2, 0], [1, 1]])
ELEMENTS = ms.Tensor(np.array([[1, -1]]))
ALONG_UNIQUE = ms.Tensor(np.array([[0, 2], [1, 0]]))  # no two writes to one place
EYE3 = ms.Tensor(np.eye(3) * 4)  # well-conditioned matrices for inverse


def _set(x, v, index):
    y = x * 1
    y[index] = v
    return y


def _c(re, im):
    return ops.Complex()(re, im)


CASES = [
    # elementwise
    Case("add", ops.add, [(2, 3), (3,)]),
    Case("add", lambda x: x + 1.5, [(2, 3)], tag="scalar"),
    Case("sub", ops.sub, [(2, 3), (2, 1)]),
    Case("sub", lambda x: 2.0 - x, [(3,)], tag="rsub"),
    Case("mul", ops.mul, [(2, 3), (2, 3)]),
    Case("mul", lambda x, y: x * y, [(4, 1), (1, 3)], tag="broadcast"),
    Case("div", ops.div, [(2, 3), (3,)], low=0.5, high=2.0),
    Case("div", lambda x: 1.0 / x, [(3,)], low=0.5, high=2.0, tag="rdiv"),
    Case("mod", ops.remainder, [(2, 3), (3,)], low=0.7, high=2.0),
    Case("pow", ops.pow, [(2, 3), (2, 3)], low=0.5, high=2.0),
    Case("pow", lambda x: x**3, [(4,)], tag="int-exponent"),
    Case("pow", lambda x: 2.0**x, [(4,)], tag="rpow"),
    Case("maximum", ops.maximum, [(2, 3), (2, 3)], distinct=True),
    Case("minimum", ops.minimum, [(2, 3), (3,)], distinct=True),
    Case("neg", ops.neg, [(2, 3)]),
    Case("abs", ops.abs, [(2, 3)], distinct=True),
    Case("exp", ops.exp, [(2, 3)]),
    Case("log", ops.log, [(2, 3)], low=0.5, high=2.0),
    Case("sqrt", ops.sqrt, [(2, 3)], low=0.5, high=2.0),
    Case("rsqrt", ops.rsqrt, [(2, 3)], low=0.5, high=2.0),
    Case("sin", ops.sin, [(2, 3)]),
    Case("cos", ops.cos, [(2, 3)]),
    Case("tanh", ops.tanh, [(2, 3)]),
    Case("sigmoid", ops.sigmoid, [(2, 3)]),
    Case("square", ops.square, [(2, 3)]),
    Case("clamp", lambda x: ops.clamp(x, -0.5, 0.5), [(3, 4)], distinct=True),
    Case("minimum", lambda x: ops.clip_by_value(x, None, 0.3), [(5,)], distinct=True, tag="clip"),
    Case("clamp", ops.clamp, [(6,), (6,), (6,)], distinct=True, tag="tensor-bounds"),
    # reductions
    Case("sum", ops.sum, [(2, 3)]),
    Case("sum", lambda x: ops.sum(x, (0, 2), keepdim=True), [(2, 3, 2)], tag="axes"),
    Case("mean", lambda x: ops.mean(x, 1), [(2, 3)]),
    Case("mean", lambda x: ops.mean(x, -1, keep_dims=True), [(2, 3)], tag="keep"),
    Case("prod", lambda x: ops.prod(x, 1), [(2, 3)], low=0.5, high=2.0),
    Case("prod", ops.prod, [(2, 2)], low=0.5, high=2.0, tag="all"),
    Case("amax", lambda x: ops.amax(x, 1), [(2, 3)], distinct=True),
    Case("amax", lambda x: ops.max(x)[0], [(2, 3)], distinct=True, tag="ops.max"),
    Case("amin", lambda x: ops.amin(x, (0, 1), True), [(2, 3)], distinct=True),
    Case("amin", lambda x: x.min(axis=(0,)), [(2, 3)], distinct=True, tag="method"),
    Case("reciprocal", ops.reciprocal, [(2, 3)], low=0.5, high=2.0),
    Case("log1p", ops.log1p, [(2, 3)], low=-0.5, high=2.0),
    Case("expm1", ops.expm1, [(2, 3)]),
    Case("log2", ops.log2, [(2, 3)], low=0.5, high=2.0),
    Case("log10", ops.log10, [(2, 3)], low=0.5, high=2.0),
    Case("exp2", ops.exp2, [(2, 3)]),
    Case("sinh", ops.sinh, [(2, 3)]),
    Case("cosh", ops.cosh, [(2, 3)]),
    Case("asin", ops.asin, [(2, 3)], low=-0.8, high=0.8),
    Case("acos", ops.acos, [(2, 3)], low=-0.8, high=0.8),
    Case("atan", ops.atan, [(2, 3)]),
    Case("atan2", ops.atan2, [(2, 3), (2, 3)], low=0.5, high=2.0),
    # linear algebra
    Case("matmul", ops.matmul, [(2, 3), (3, 4)]),
    Case("matmul", ops.mm, [(2, 3), (3, 2)], tag="mm"),
    Case("matmul", ops.bmm, [(2, 2, 3), (2, 3, 2)], tag="bmm"),
    Case("matmul", ops.matmul, [(2, 2, 3), (3, 2)], tag="batched"),
    Case("matmul", ops.matmul, [(3,), (3, 2)], tag="vec-mat"),
    Case("matmul", ops.matmul, [(2, 3), (3,)], tag="mat-vec"),
    Case("matmul", ops.matmul, [(3,), (3,)], tag="dot"),
    Case("matmul", lambda a, b: a @ b, [(2, 1, 2, 3), (3, 3, 2)], tag="broadcast-batch"),
    # shape
    Case("reshape", lambda x: ops.reshape(x, (3, -1)), [(2, 3)]),
    Case("transpose", lambda x: ops.transpose(x, (1, 2, 0)), [(2, 3, 2)]),
    Case("transpose", lambda x: ops.permute(x, (1, 0)), [(2, 3)], tag="permute"),
    Case("expand_dims", lambda x: ops.expand_dims(x, 1), [(2, 3)]),
    Case("squeeze", lambda x: ops.squeeze(x, 1), [(2, 1, 3)]),
    Case("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3, 2)), [(3, 1)]),
    Case("concat", lambda x, y: ops.concat((x, y), 1), [(2, 3), (2, 1)]),
    Case("concat", lambda x, y: ops.cat([x, y], -1), [(2,), (3,)], tag="cat"),
    Case("addn", lambda x, y: ops.addn([x, y, x]), [(2, 3), (2, 3)]),
    Case("stack", lambda x, y: ops.stack((x, y), 1), [(2, 3), (2, 3)]),
    Case("split", lambda x: ops.split(x, 2, 1), [(2, 5)]),
    Case("split", lambda x: ops.split(x, [1, 3], 0)[1], [(4, 2)], tag="sections-one-used"),
    Case("tile", lambda x: ops.tile(x, (2, 1, 3)), [(2, 2)]),
    Case("tile", lambda x: ops.tile(x, (2,)), [(2, 2)], tag="short-dims"),
    Case("cast", lambda x: ops.cast(x, ms.float32), [(2, 3)], eps=1e-2),
    Case("cumsum", lambda x: ops.cumsum(x, 1), [(2, 3)]),
    Case("cumsum", lambda x: ops.cumsum(x, -1), [(4,)], tag="1d"),
    Case("flip", lambda x: ops.flip(x, (0, 2)), [(2, 2, 3)]),
    Case("identity", lambda x: apply(OPS["identity"], (x,)), [(2, 3)]),
    # indexing and selection
    Case("getitem", lambda x: x[1:, ::2], [(3, 4)]),
    Case("getitem", lambda x: x[None, ..., 1], [(2, 3)], tag="none-ellipsis"),
    Case("getitem", lambda x: x[_i(0, 2, 0)], [(3, 2)], tag="advanced-repeat"),
    Case("getitem", lambda x: x[:, [1, 1]], [(2, 3)], tag="list"),
    Case("getitem", lambda x: x[MASK23], [(2, 3)], tag="bool-mask"),
    Case("setitem", lambda x, v: _set(x, v, (slice(None), 1)), [(2, 3), (2,)]),
    Case("setitem", lambda x, v: _set(x, v, _i(0, 2)), [(3, 2), (2,)], tag="advanced"),
    Case("setitem", lambda x, v: _set(x, v, (0, [0, 0])), [(2, 3), ()], tag="duplicate"),
    Case("index_add_zeros",
         lambda g: apply(ADD_ZEROS, (g,), {"shape": (3, 2), "index": np.array([0, 2, 0])}),
         [(3, 2)]),
    Case("gather", lambda x: ops.gather(x, IDX, 0), [(3, 2)]),
    Case("gather", lambda x: ops.gather(x, _i(1, 0), 1), [(2, 3)], tag="axis1"),
    Case("unsorted_segment_sum", lambda x: ops.unsorted_segment_sum(x, SEG, 3), [(5, 2)]),
    Case("where", lambda x, y: ops.where(MASK23, x, y), [(2, 3), (3,)]),
    Case("where", lambda x: ops.select(MASK3, x, 0.5), [(3,)], tag="scalar-other"),
    Case("masked_select", lambda x: ops.masked_select(x, MASK3), [(2, 3)]),
    Case("masked_fill", lambda x: ops.masked_fill(x, MASK23, 0.5), [(2, 3)]),
    Case("masked_fill", lambda x, v: ops.masked_fill(x, MASK3, v), [(2, 3), ()], tag="tensor"),
    # sorting
    Case("sort", lambda x: ops.sort(x, 1)[0], [(2, 4)], distinct=True),
    Case("sort", lambda x: ops.Sort(0, descending=True)(x)[0], [(3, 2)], distinct=True,
         tag="primitive"),
    Case("topk", lambda x: ops.topk(x, 2)[0], [(2, 4)], distinct=True),
    Case("topk", lambda x: ops.topk(x, 2, dim=0, largest=False)[0], [(3, 2)], distinct=True,
         tag="smallest"),
    Case("scatter_along_axis",
         lambda g: apply(SCATTER, (g,), {"shape": (2, 3), "idx": ALONG, "axis": 1}),
         [(2, 2)]),
    Case("take_along_axis", lambda x: apply(TAKE, (x,), {"idx": ALONG, "axis": 1}), [(2, 3)]),
    Case("take_along_axis", lambda x: ops.gather_elements(x, 0, ELEMENTS), [(3, 2)],
         tag="gather_elements"),
    # Tensor-method ops (ops/_tm_array.py)
    Case("tm_scatter", lambda x, s: ops.scatter(x, 1, ALONG_UNIQUE, s), [(2, 3), (2, 2)]),
    Case("tm_scatter", lambda x: ops.scatter(x, 0, ALONG_UNIQUE, 1.5), [(3, 2)], tag="value"),
    Case("tm_inverse", lambda a: ops.inverse(a + EYE3), [(2, 3, 3)], low=-1.0, high=1.0),
    # primitive classes with their own ops (the others: test_primitives_grad.py)
    Case("Erf", lambda x: ops.Erf()(x), [(2, 3)]),
    Case("Mod", lambda x, y: ops.Mod()(x, y), [(2, 3), (3,)], low=0.5, high=2.0),
    Case("SparseTensorDenseMatmul", lambda v, d: ops.SparseTensorDenseMatmul()(
        _i(0, 1, 2, 1, 1, 2).reshape(3, 2), v, (3, 4), d), [(3,), (4, 2)]),
    # cellgrad.numpy's own ops (cellgrad/numpy/_math_prims.py)
    Case("mnp_tan", mnp.tan, [(2, 3)], low=-1.2, high=1.2),
    Case("mnp_asinh", mnp.arcsinh, [(2, 3)]),
    Case("mnp_acosh", mnp.arccosh, [(2, 3)], low=1.2, high=3.0),
    Case("mnp_atanh", mnp.arctanh, [(2, 3)], low=-0.8, high=0.8),
    Case("mnp_cumprod", lambda x: mnp.cumprod(x, 1), [(2, 4)], low=0.5, high=2.0),
    # linear algebra (ops/_linalg_ops.py; the compositions: test_linalg2.py)
    Case("det", lambda a: ops.det(a + EYE3), [(2, 3, 3)], low=-1.0, high=1.0),
    Case("slogdet", lambda a: ops.slogdet(a + EYE3), [(2, 3, 3)], low=-1.0, high=1.0),
    Case("matrix_solve", lambda a, b: ops.matrix_solve(a + EYE3, b, True), [(3, 3), (3, 2)],
         low=-1.0, high=1.0),
    Case("matrix_exp", ops.matrix_exp, [(2, 3, 3)], low=-1.0, high=1.0),
    Case("svd", lambda a: tuple(t * t for t in ops.svd(a)), [(4, 3)]),
    Case("qr", ops.qr, [(4, 3)]),
    Case("cholesky", lambda a: ops.cholesky(ops.matmul(a, a.swapaxes(-1, -2)) + EYE3),
         [(2, 3, 3)], low=-1.0, high=1.0),
    # FFTs (ops/_fft.py): a real signal through complex spectra back to a real one
    Case("fft", lambda x: ops.hfft(ops.fft(x, 6), 4) + ops.irfft(ops.rfft(x, 5), 4), [(2, 4)]),
    Case("eig", lambda a: ops.real(ops.eigvals(a + EYE3)) ** 2, [(3, 3)], low=-1.0, high=1.0),
    # complex ops (ops/_complex.py): real inputs through complex values to real outputs
    Case("Complex", lambda a, b: ops.abs(_c(a, b) * _c(b, a)), [(2, 3), (2, 3)], low=0.3),
    Case("ComplexAbs", lambda a, b: ops.ComplexAbs()(_c(a, b)), [(2, 3), (2, 3)], low=0.3),
    Case("Real", lambda a, b: ops.real(_c(a, b) * _c(b, a)), [(2, 3), (2, 3)]),
    Case("Imag", lambda a, b: ops.imag(_c(a, b) * _c(b, a)), [(2, 3), (2, 3)]),
    Case("Conj", lambda a, b: ops.imag(ops.conj(_c(a, b)) * _c(b, a)), [(2, 3), (2, 3)]),
    Case("Angle", lambda a, b: ops.angle(_c(a, b)), [(2, 3), (2, 3)], low=0.3),
    Case("Polar", lambda r, t: ops.real(ops.polar(r, t) * _c(t, r)), [(2, 3), (2, 3)], low=0.3),
    Case("ViewAsReal", lambda a, b: ops.view_as_real(_c(a, b) * _c(b, a)), [(2, 3), (2, 3)]),
]

from math2_gradcheck_cases import MATH2_CASES  # noqa: E402  (tests/core is on sys.path)

CASES += [Case(**kw) for kw in MATH2_CASES]  # ops/_ew_math2.py, ops/_fn_special.py

from scatter_gradcheck_cases import SCATTER_CASES  # noqa: E402

CASES += [Case(**kw) for kw in SCATTER_CASES]  # ops/_fn_scatter.py

GRADCHECK_OPS = frozenset(c.op for c in CASES)


def _inputs(case, seed):
    rng = np.random.default_rng(seed)
    out = []
    for shape in case.shapes:
        n = int(np.prod(shape))
        if case.distinct:
            # values at least 0.1 apart and away from 0, +-0.5, 0.3: no ties, no kinks
            vals = rng.permutation(n) * 0.2 + 0.07 - 0.1 * n
            vals = vals.reshape(shape) + rng.uniform(-0.02, 0.02, shape)
        else:
            vals = rng.uniform(case.low, case.high, shape)
        out.append(ms.Tensor(np.asarray(vals, np.float64)))
    return out


def _recorded_ops(fn, args):
    """The op names recorded on the tape by one call of `fn` inside a gradient transform."""
    seen = set()

    def probe(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        stack = [o._node for o in outs if isinstance(o, ms.Tensor) and o._node is not None]
        while stack:
            node = stack.pop()
            if node.op is not None and node.name not in seen:
                seen.add(node.name)
                stack.extend(n for n in node.next_nodes if n is not None)
        floats = [o for o in outs if o.dtype.is_floating]
        return sum((o.sum() for o in floats[1:]), floats[0].sum())

    ms.grad(probe, tuple(range(len(args))))(*args)
    return seen


def _squared(fn):
    """`fn` followed by a square, so the first-order gradient depends on the inputs and the
    second order runs (and differentiates) the op's backward rule on Tensors."""

    def f(*xs):
        out = fn(*xs)
        outs = out if isinstance(out, tuple) else (out,)
        return tuple(o * o for o in outs if o.dtype.is_floating)

    f.__name__ = f"square∘{getattr(fn, '__name__', 'fn')}"
    return f


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    args = _inputs(case, 0)
    assert case.op in _recorded_ops(case.fn, args), f"{case.id} does not record '{case.op}'"
    assert gradcheck(case.fn, *args, eps=case.eps, atol=1e-5 + case.eps / 10)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradgradcheck(case):
    if OPS[case.op].first_order_only:
        pytest.skip(f"'{case.op}' is first-order only")
    args = _inputs(case, 1)
    assert gradgradcheck(_squared(case.fn), *args, eps=case.eps, atol=1e-4 + case.eps / 10)


def test_gradcheck_detects_a_wrong_rule():
    from cellgrad.ops._registry import Op

    wrong = Op("wrong_sin", lambda x: (np.sin(x), (x,)), lambda ctx, g: g * np.sin(ctx.saved[0]))
    x = ms.Tensor(np.linspace(0.1, 1.0, 4))
    with pytest.raises(GradcheckError, match="wrong_sin|argument 0"):
        gradcheck(lambda t: apply(wrong, (t,)), x)


def test_gradgradcheck_detects_a_wrong_second_order():
    from cellgrad.ops._registry import Op

    # right first derivative through numpy, wrong on Tensors: only the second order sees it
    def bwd(ctx, g):
        (x,) = ctx.saved
        return g * 2 * x if not ctx.xp.IS_TENSOR else g * 3 * x

    sq = Op("half_wrong_square", lambda x: (x * x, (x,)), bwd)
    x = ms.Tensor(np.linspace(0.1, 1.0, 3))
    assert gradcheck(lambda t: apply(sq, (t,)), x)
    with pytest.raises(GradcheckError):
        gradgradcheck(lambda t: apply(sq, (t,)), x)


def test_tensor_namespace_mirrors_the_numpy_namespace():
    from cellgrad.ops import _xp_numpy, _xp_tensor

    def defined_for_rules(v):  # numpy's own functions and those _xp_numpy defines
        module = getattr(v, "__module__", None) or ""
        return module.split(".")[0] == "numpy" or module == _xp_numpy.__name__

    rule_names = {n for n, v in vars(_xp_numpy).items()
                  if not n.startswith("_") and callable(v) and defined_for_rules(v)}
    assert {"where", "getitem", "index_add_zeros", "scatter_along_axis"} <= rule_names
    missing = sorted(n for n in rule_names if not callable(getattr(_xp_tensor, n, None)))
    assert not missing, f"_xp_tensor lacks {missing}: higher-order rules using them would fail"
    assert _xp_numpy.IS_TENSOR is False and _xp_tensor.IS_TENSOR is True


def test_gradcheck_rejects_what_it_cannot_check():
    x = ms.Tensor(np.ones(2))
    with pytest.raises(ValueError, match="no floating Tensor argument"):
        gradcheck(lambda i: i * 2, ms.Tensor(np.array([1, 2])))
    with pytest.raises(ValueError, match="returned no floating Tensor output"):
        gradcheck(lambda t: ops.argmax(t), x)
    with pytest.raises(ValueError, match="position 1"):
        gradcheck(lambda t, i: t * i, x, ms.Tensor(np.array([1, 2])), positions=(1,))


def test_second_order_through_an_op_that_saves_none():
    from cellgrad.ops._registry import Op

    def fwd(x, scale):
        return x * x, (x, scale)

    def bwd(ctx, g):
        x, scale = ctx.saved
        return g * 2 * x * (1 if scale is None else scale), None

    sq = Op("square_with_optional_scale", fwd, bwd)
    x = ms.Tensor(np.linspace(0.1, 1.0, 3))
    assert gradgradcheck(lambda t: apply(sq, (t, None)), x)
