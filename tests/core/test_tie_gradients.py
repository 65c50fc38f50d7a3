"""Gradients at ties of maximum/minimum: MindSpore 2.10 (and PyTorch) give each input half of
a tie's gradient. Expected values were printed by MindSpore 2.10 for the same calls."""

import numpy as np
import pytest

import cellgrad as ms
import cellgrad.numpy as mnp
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck, gradgradcheck

f32 = np.float32


def grads(fn, *xs):
    out = ms.grad(fn, tuple(range(len(xs))))(*xs)
    return [np.asarray(g.asnumpy()) for g in (out if isinstance(out, tuple) else (out,))]


X = Tensor(np.array([1.0, 2.0, 3.0], f32))
Y = Tensor(np.array([1.0, 1.0, 3.0], f32))


@pytest.mark.parametrize("fn, gx, gy", [
    (ops.maximum, [0.5, 1.0, 0.5], [0.5, 0.0, 0.5]),
    (ops.minimum, [0.5, 0.0, 0.5], [0.5, 1.0, 0.5]),
    (mnp.maximum, [0.5, 1.0, 0.5], [0.5, 0.0, 0.5]),
    (mnp.minimum, [0.5, 0.0, 0.5], [0.5, 1.0, 0.5]),
])
def test_tie_splits_the_gradient_in_half(fn, gx, gy):
    got = grads(lambda a, b: fn(a, b).sum(), X, Y)
    np.testing.assert_array_equal(got[0], gx)
    np.testing.assert_array_equal(got[1], gy)
    assert got[0].dtype == got[1].dtype == f32


def test_tie_split_scales_the_incoming_gradient():
    w = Tensor(np.array([1.0, 10.0, 100.0], f32))
    gx, gy = grads(lambda a, b: (ops.maximum(a, b) * w).sum(), X, Y)
    np.testing.assert_array_equal(gx, [0.5, 10.0, 50.0])
    np.testing.assert_array_equal(gy, [0.5, 0.0, 50.0])


def test_broadcast_ties_sum_the_halves_into_the_smaller_input():
    x = Tensor(np.array([[1.0, 2.0], [2.0, 2.0]], f32))
    s = Tensor(np.array([2.0], f32))
    gx, gs = grads(lambda a, b: ops.maximum(a, b).sum(), x, s)
    np.testing.assert_array_equal(gx, [[0.0, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(gs, [2.5])
    gx, gs = grads(lambda a, b: ops.minimum(a, b).sum(), x, s)
    np.testing.assert_array_equal(gx, [[1.0, 0.5], [0.5, 0.5]])
    np.testing.assert_array_equal(gs, [1.5])
    (gx,) = grads(lambda a: ops.maximum(a, 2.0).sum(), X)
    np.testing.assert_array_equal(gx, [0.0, 0.5, 1.0])
    (gx,) = grads(lambda a: ops.Maximum()(a, Tensor(2.0)).sum(), x)
    np.testing.assert_array_equal(gx, [[0.0, 0.5], [0.5, 0.5]])


def test_float16_and_integer_ties():
    x16, y16 = Tensor(np.array([1, 2], np.float16)), Tensor(np.array([1, 1], np.float16))
    gx, gy = ms.grad(lambda a, b: ops.maximum(a, b).sum(), (0, 1))(x16, y16)
    assert gx.dtype == ms.float16
    np.testing.assert_array_equal(gx.asnumpy(), [0.5, 1.0])
    np.testing.assert_array_equal(gy.asnumpy(), [0.5, 0.0])
    xi, yi = Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1, 1], np.int32))
    gx, gy = ms.grad(lambda a, b: ops.maximum(a, b).sum(), (0, 1))(xi, yi)
    assert gx.dtype == ms.int32
    assert repr(gx) == "Tensor(shape=[2], dtype=Int32, value= [0, 1])"
    assert repr(gy) == "Tensor(shape=[2], dtype=Int32, value= [0, 0])"


def test_nan_gives_both_inputs_the_gradient_but_numpy_selects_none():
    nan = np.nan
    x = Tensor(np.array([nan, 1.0, nan, 2.0, 0.0], f32))
    y = Tensor(np.array([1.0, nan, nan, 2.0, 1.0], f32))
    gx, gy = grads(lambda a, b: ops.maximum(a, b).sum(), x, y)
    np.testing.assert_array_equal(gx, [1.0, 1.0, 1.0, 0.5, 0.0])
    np.testing.assert_array_equal(gy, [1.0, 1.0, 1.0, 0.5, 1.0])
    gx, gy = grads(lambda a, b: ops.minimum(a, b).sum(), x, y)
    np.testing.assert_array_equal(gx, [1.0, 1.0, 1.0, 0.5, 1.0])
    np.testing.assert_array_equal(gy, [1.0, 1.0, 1.0, 0.5, 0.0])
    # mindspore.numpy selects NaN where an input has one, so nothing flows back there
    out = mnp.maximum(x, y)
    np.testing.assert_array_equal(np.isnan(out.asnumpy()), [True, True, True, False, False])
    gx, gy = grads(lambda a, b: mnp.maximum(a, b).sum(), x, y)
    np.testing.assert_array_equal(gx, [0.0, 0.0, 0.0, 0.5, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0, 0.0, 0.5, 1.0])
    gx, gy = grads(lambda a, b: mnp.minimum(a, b).sum(), x, y)
    np.testing.assert_array_equal(gx, [0.0, 0.0, 0.0, 0.5, 1.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0, 0.0, 0.5, 0.0])


def test_numpy_extremes_keep_dtype_rules():
    out = mnp.maximum(Tensor(np.array([1.0, np.nan], np.float16)), 1.5)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(np.isnan(out.asnumpy()), [False, True])
    out = mnp.minimum(Tensor(np.array([1, 3], np.int32)), 2)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [1, 2])


def test_second_order_through_a_tie():
    gx, gy = grads(lambda a, b: ms.grad(lambda p, q: (ops.maximum(p, q) * p).sum(), 0)(a, b)
                   .sum(), X, Y)
    np.testing.assert_array_equal(gx, [1.0, 2.0, 1.0])
    np.testing.assert_array_equal(gy, [0.5, 0.0, 0.5])


@pytest.mark.parametrize("fn", [ops.maximum, ops.minimum, mnp.maximum, mnp.minimum])
def test_gradcheck_at_ties(fn):
    # central differences at x == y give each input exactly half: only a split rule passes
    x = Tensor(np.array([[0.5, -1.0, 2.0], [0.25, 3.0, -2.0]]))
    y = Tensor(np.array([[0.5, 1.0, 2.0], [0.75, 3.0, -2.5]]))
    assert gradcheck(lambda a, b: fn(a, b) * a, x, y)
    assert gradcheck(fn, x, Tensor(np.array([2.0, 3.0, -2.0])))
    assert gradgradcheck(lambda a, b: fn(a, b) * a * b, x, y)


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_against_pytorch(name):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.integers(-2, 3, (4, 5)).astype(np.float64)
    y = rng.integers(-2, 3, (5,)).astype(np.float64)
    w = rng.standard_normal((4, 5))
    tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    (getattr(torch, name)(tx, ty) * torch.tensor(w)).sum().backward()
    gx, gy = grads(lambda a, b: (getattr(ops, name)(a, b) * Tensor(w)).sum(), Tensor(x),
                   Tensor(y))
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gy, ty.grad.numpy(), rtol=1e-12)


# ---- reductions and clipping (MindSpore's rules: ms_programs/tie_gradients.py) ----
T = Tensor(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], f32))


@pytest.mark.parametrize("fn, expected", [
    (lambda a: ops.amax(a, 1).sum(), [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]]),
    (lambda a: ops.max(a)[0], [[0, 0.5, 0.5], [0, 0, 0]]),
    (lambda a: a.max(), [[0, 0.5, 0.5], [0, 0, 0]]),
    (lambda a: ops.amax(a, 1, initial=3.0).sum(), [[0, 1 / 6, 1 / 6], [0, 0, 0]]),
    (lambda a: ops.amin(a, 1, initial=2.0).sum(), [[1, 0, 0], [1 / 6, 1 / 6, 1 / 6]]),
    (lambda a: a.max(axis=(0,), initial=3.0).sum(), [[0, 0.25, 0.25], [0, 0, 0]]),
    (lambda a: mnp.amax(a, 1, initial=3.0).sum(), [[0, 1 / 6, 1 / 6], [0, 0, 0]]),
    # along one axis ops.max/min (ArgMaxWithValue) give all to the first extreme
    (lambda a: ops.max(a, 1)[0].sum(), [[0, 1, 0], [1, 0, 0]]),
    (lambda a: ops.min(a, -1, True)[0].sum(), [[1, 0, 0], [1, 0, 0]]),
    (lambda a: ops.max(a, 1, initial=2.5)[0].sum(), [[0, 1, 0], [0, 0, 0]]),
    (lambda a: a.max(axis=1).sum(), [[0, 1, 0], [1, 0, 0]]),
    (lambda a: a.min(axis=1, return_indices=True)[0].sum(), [[1, 0, 0], [1, 0, 0]]),
    # clamp passes the gradient on a bound; clip_by_value is minimum(maximum(x, lo), hi)
    (lambda a: ops.clamp(a, 2.0, 3.0).sum(), [[0, 1, 1], [1, 1, 1]]),
    (lambda a: ops.clip_by_value(a, 2.0, 3.0).sum(), [[0, 0.5, 0.5], [0.5, 0.5, 0.5]]),
    (lambda a: ops.clip_by_value(a, None, 2.0).sum(), [[1, 0, 0], [0.5, 0.5, 0.5]]),
    (lambda a: ops.clip_by_value(a, 3.0, 2.0).sum(), [[0, 0, 0], [0, 0, 0]]),
])
def test_reduction_and_clip_ties_match_mindspore(fn, expected):
    (g,) = grads(fn, T)
    np.testing.assert_allclose(g, expected, rtol=1e-6)


def test_max_min_values_indices_initial_and_where():
    v, i = ops.max(T, None, True)  # MindSpore ignores keepdims (and initial) without an axis
    assert v.shape == () and float(v.asnumpy()) == 3.0
    assert i.dtype == ms.int64 and int(i.asnumpy()) == 0
    v, i = ops.max(T, 1, True, initial=2.5)
    np.testing.assert_array_equal(v.asnumpy(), [[3.0], [2.5]])
    np.testing.assert_array_equal(i.asnumpy(), [[1], [0]])
    v, i = ops.min(T, 0, initial=1.5, where=Tensor([[True, False, True], [True, True, False]]))
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 1.5, 1.5])
    np.testing.assert_array_equal(i.asnumpy(), [0, 0, 0])
    ti = Tensor(np.array([[1, 3], [2, 2]], np.int32))
    v, i = ops.max(ti, 1, initial=2.7)  # initial takes the input's dtype
    assert v.dtype == ms.int32 and i.dtype == ms.int64
    np.testing.assert_array_equal(v.asnumpy(), [3, 2])
    assert ops.amax(ti, 1, initial=2.7).dtype == ms.int32
    v, i = T.max(return_indices=True)
    assert float(v.asnumpy()) == 3.0 and int(i.asnumpy()) == 0
    np.testing.assert_array_equal(T.max(axis=1, keepdims=True, initial=3.5).asnumpy(),
                                  [[3.5], [3.5]])


def test_max_errors_as_mindspore():
    with pytest.raises(TypeError, match="For 'max', 'axis' must be int"):
        ops.max(T, (0, 1))
    with pytest.raises(TypeError, match="For 'max', 'initial' must be a scalar"):
        ops.max(T, 1, initial=Tensor(1.0))
    with pytest.raises(ValueError, match="For 'min', 'where' needs 'initial'"):
        ops.min(T, 1, where=Tensor([True, False, True]))
    with pytest.raises(ValueError, match="For 'max', the input is empty along axis 1"):
        ops.max(Tensor(np.zeros((2, 0), f32)), 1)
    with pytest.raises(ValueError, match="For 'min', 'axis' 2 is out of range"):
        ops.min(T, 2)


def test_clip_by_value_casts_bounds_and_clips_sequences():
    lo, hi = Tensor(np.array([2.0], f32)), Tensor(np.array([3.0], f32))
    gx, glo, ghi = grads(lambda a, b, c: ops.clip_by_value(a, b, c).sum(), T, lo, hi)
    np.testing.assert_array_equal(gx, [[0, 0.5, 0.5], [0.5, 0.5, 0.5]])
    np.testing.assert_array_equal(glo, [2.5])
    np.testing.assert_array_equal(ghi, [1.0])
    assert ops.clip_by_value(Tensor(np.ones(2)), lo, hi).dtype == ms.float64
    out = ops.clip_by_value(Tensor(np.array([1, 5], np.int32)), 2.5, 3.7)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [2, 3])
    outs = ops.clip_by_value([T, Tensor([0.5, 9.0])], 1.5, 2.5)
    assert isinstance(outs, tuple) and len(outs) == 2
    np.testing.assert_array_equal(outs[1].asnumpy(), [1.5, 2.5])
    with pytest.raises(ValueError, match="clip_by_value"):
        ops.clip_by_value(T)
    with pytest.raises(TypeError, match="clip_value_min"):
        ops.clip_by_value(T, "1")


def test_reduction_and_clip_gradcheck_at_two_way_ties():
    # a tie of two: central differences give each half, as the split rules do
    x = Tensor(np.array([[0.5, 0.5, -1.0], [2.0, -3.0, -1.0]]))
    assert gradcheck(lambda a: ops.amax(a, 1), x)
    assert gradcheck(lambda a: ops.amin(a, 0), x)
    assert gradcheck(lambda a: ops.clip_by_value(a, -1.0, 2.0), x)
    assert gradcheck(lambda a, b: ops.clip_by_value(a, b, 2.0), x, Tensor(np.array([0.5])))


def test_amax_and_clamp_against_pytorch():
    torch = pytest.importorskip("torch")
    x = np.array([[1.0, 3.0, 3.0, -1.0], [2.0, 2.0, 2.0, 2.0]])
    w = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    for ours, theirs in [
        (lambda a: ops.amax(a, 1), lambda a: torch.amax(a, 1)),
        (lambda a: ops.amin(a, (0, 1)), lambda a: torch.amin(a, (0, 1))),
        (lambda a: ops.clamp(a, 2.0, 3.0) * Tensor(w),
         lambda a: a.clamp(2.0, 3.0) * torch.tensor(w)),
    ]:
        tx = torch.tensor(x, requires_grad=True)
        theirs(tx).sum().backward()
        (g,) = grads(lambda a, ours=ours: ours(a).sum(), Tensor(x))
        np.testing.assert_allclose(g, tx.grad.numpy(), rtol=1e-12)
