"""Reductions and scans of the math2 family (ops/_fn_reduce2.py) and the in-place Tensor
methods (common/_tm_math.py): values, MindSpore's index dtypes and tie rules, gradients
(gradcheck, torch), errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck, gradgradcheck

B = np.array([[1.0, 3.0, 2.0, 3.0], [4.0, 6.0, 0.0, -1.0], [2.0, 2.0, 5.0, 1.0]])


def _t(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def test_cummax_ties_take_the_later_index_and_nan_sticks():
    v, i = ops.cummax(_t([[1.0, 3.0, 2.0, 3.0], [4.0, np.nan, 0.0, 5.0]], np.float32), 1)
    assert i.dtype == ms.int64 and i.asnumpy().tolist() == [[0, 1, 1, 3], [0, 1, 1, 1]]
    assert np.isnan(v.asnumpy()[1, 1:]).all()
    v, i = ops.Cummin(1)(_t(B, np.float32))
    assert i.dtype == ms.int32 and i.asnumpy().tolist()[1] == [0, 0, 2, 3]


def test_cumprod_dtypes_and_primitive_flags():
    assert ops.cumprod(_t(B, np.int32), 0).dtype == ms.int64
    assert ops.cumprod(_t(B, np.float32), 1).dtype == ms.float32
    out = ops.CumProd(True, True)(_t(B, np.int32), 1)
    assert out.dtype == ms.int32 and out.asnumpy().tolist()[0] == [18, 6, 3, 1]
    np.testing.assert_array_equal(ops.CumProd()(_t(B), 0).asnumpy(), np.cumprod(B, 0))


def test_logcumsumexp_is_stable_and_matches_numpy():
    x = _t([[1000.0, 1000.0, -1000.0]])
    np.testing.assert_allclose(ops.logcumsumexp(x, 1).asnumpy(),
                               [[1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2)]])
    np.testing.assert_allclose(ops.logcumsumexp(_t(B), 1).asnumpy(),
                               np.log(np.cumsum(np.exp(B), 1)))
    ex = ops.CumulativeLogsumexp(True, False)(_t(B, np.float32), ms.Tensor(0))
    assert ex.asnumpy()[0].tolist() == [np.finfo(np.float32).min] * 4
    with pytest.raises(TypeError, match="must be Tensor"):
        ops.CumulativeLogsumexp()(_t(B), 0)
    with pytest.raises(TypeError, match="CumulativeLogsumexp"):
        ops.logcumsumexp(_t(B, np.int32), 0)


def test_median_family():
    v, i = ops.median(_t(B))
    assert v.asnumpy().tolist() == [2.0, 0.0, 2.0] and i.asnumpy().tolist() == [2, 2, 0]
    nan = _t([[4.0, np.nan, 0.0, 1.0]])
    v, i = ops.median(nan)
    assert np.isnan(v.asnumpy()[0]) and i.asnumpy().tolist() == [1]
    v, i = ops.nanmedian(nan)
    assert v.asnumpy().tolist() == [1.0] and i.asnumpy().tolist() == [3]
    v, i = ops.Median(True)(_t(B))
    assert float(v) == 2.0 and int(i) == 0
    v, i = ops.Median(axis=1, keep_dims=True)(_t(B))
    assert v.shape == (3, 1)
    assert _t(B).kthvalue(2, 1)[0].asnumpy().tolist() == [2.0, 0.0, 2.0]
    assert ops.msort(_t(B)).asnumpy().tolist() == np.sort(B, 0).tolist()


def test_quantile_matches_numpy_and_torch_layout():
    x = _t(B)
    np.testing.assert_allclose(ops.quantile(x, 0.3).asnumpy(), np.quantile(B, 0.3))
    q = _t([0.25, 0.5, 0.9])
    np.testing.assert_allclose(ops.quantile(x, q, 1, True).asnumpy(),
                               np.quantile(B, [0.25, 0.5, 0.9], axis=1, keepdims=True))
    withnan = B.copy()
    withnan[1, 1] = np.nan
    np.testing.assert_allclose(ops.nanquantile(_t(withnan), 0.4, 1).asnumpy(),
                               np.nanquantile(withnan, 0.4, axis=1))
    assert np.isnan(ops.quantile(_t(withnan), 0.4, 1).asnumpy()[1])
    np.testing.assert_allclose(ops.Quantile(dim=0)(x, _t([0.5])).asnumpy(),
                               np.quantile(B, [0.5], axis=0))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        ops.quantile(x, 1.5)
    with pytest.raises(TypeError, match="Quantile"):
        ops.quantile(_t(B, np.int32), 0.5)


def test_nan_reductions_and_pairs():
    m = B.copy()
    m[1, 1] = np.nan
    np.testing.assert_allclose(ops.nanmean(_t(m), 1).asnumpy(), np.nanmean(m, 1))
    np.testing.assert_allclose(ops.nansum(_t(m), 0).asnumpy(), np.nansum(m, 0))
    assert ops.nansum(_t(B, np.int32), 1).dtype == ms.int32
    with pytest.raises(TypeError, match="floating point"):
        ops.nanmean(_t(B, np.int32))
    lo, hi = ops.aminmax(_t(m), axis=1)
    assert lo.asnumpy().tolist() == [1, -1, 1] and hi.asnumpy().tolist() == [3, 4, 5]
    v, i = _t(B).argmax_with_value(1)
    assert v.asnumpy().tolist() == [3, 6, 5] and i.dtype == ms.int64
    assert _t(B).ptp(1).asnumpy().tolist() == [2, 7, 4]
    std, mean = ops.ReduceStd(axis=1)(_t(B))
    np.testing.assert_allclose(std.asnumpy(), B.std(1, ddof=1))
    np.testing.assert_allclose(mean.asnumpy(), B.mean(1))
    assert ops.CountNonZero(dims=[1])(_t(B)).asnumpy().tolist() == [4, 3, 4]


def test_histograms_and_bincount():
    h = ops.histc(_t(B, np.float32), 4, 0.0, 4.0)
    assert h.dtype == ms.float32 and h.asnumpy().tolist() == [1, 2, 3, 3]
    assert ops.histc(_t(B, np.int32), 3).dtype == ms.int32
    assert ops.Histogram(5, -1.0, 6.0)(_t(B)).asnumpy().tolist() == [2, 2, 5, 1, 2]
    hf = ops.HistogramFixedWidth(3)(_t([-5.0, 0.1, 2.0, 9.0]), _t([0.0, 3.0]))
    assert hf.dtype == ms.int32 and hf.asnumpy().tolist() == [2, 0, 2]
    b = ops.bincount(_t([1, 3, 3, 0, -2], np.int32))
    assert b.dtype == ms.float32 and b.asnumpy().tolist() == [1, 1, 0, 2]
    bw = ops.bincount(_t([1, 3], np.int32), _t([0.5, 2.0]), 5)
    assert bw.asnumpy().tolist() == [0, 0.5, 0, 2, 0]
    bp = ops.Bincount()(_t([1, 3, 3, 9], np.int32), ms.Tensor(np.int32(4)),
                        _t([0.5, 1, 1, 3], np.float32))
    assert bp.dtype == ms.float32 and bp.asnumpy().tolist() == [0, 0.5, 0, 2]


@pytest.mark.parametrize("fn", [
    lambda x: ops.cummax(x, 1)[0], lambda x: ops.cumprod(x + 3, 1),
    lambda x: ops.logcumsumexp(x, 0), lambda x: ops.median(x, 1)[0],
    lambda x: ops.nanmedian(x, 0)[0], lambda x: ops.quantile(x, 0.3, 1),
    lambda x: ops.nanquantile(x, _t([0.2, 0.7]), 0), lambda x: ops.nanmean(x, 1),
    lambda x: ops.nansum(x), lambda x: ops.aminmax(x, axis=1)[1],
    lambda x: ops.ReduceStd(axis=0)(x)[0], lambda x: ops.CumProd(True, True)(x + 3, 1),
    lambda x: ops.CumulativeLogsumexp(False, True)(x, ms.Tensor(1)),
    lambda x: x.kthvalue(2, 0)[0], lambda x: x.argmin_with_value(1)[0],
])
def test_gradients(fn):
    x = _t(B + np.arange(12).reshape(3, 4) * 0.01)  # no ties
    assert gradcheck(fn, x)
    assert gradgradcheck(lambda t: fn(t) ** 2, x)


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    x = B + np.arange(12).reshape(3, 4) * 0.01
    for ours, theirs in [
            (lambda t: ops.cummax(t, 1)[0], lambda t: torch.cummax(t, 1)[0]),
            (lambda t: ops.logcumsumexp(t, 1), lambda t: torch.logcumsumexp(t, 1)),
            (lambda t: ops.quantile(t, 0.3, 0), lambda t: torch.quantile(t, 0.3, 0)),
            (lambda t: ops.median(t, 1)[0], lambda t: torch.median(t, 1)[0]),
            (lambda t: ops.cumprod(t, 0), lambda t: torch.cumprod(t, 0))]:
        tx = torch.tensor(x, requires_grad=True)
        theirs(tx).sum().backward()
        g = ms.grad(lambda t, f=ours: f(t).sum())(_t(x))
        np.testing.assert_allclose(g.asnumpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)


# ---- in-place methods ----
def test_inplace_methods_write_into_self_in_its_dtype():
    x = _t([0.5, -1.5, 2.0], np.float32)
    assert x.add_(1) is x and x.asnumpy().tolist() == [1.5, -0.5, 3.0]
    x.sub_(_t([1, 1, 1], np.float32), alpha=2)
    assert x.asnumpy().tolist() == [-0.5, -2.5, 1.0]
    x.mul_(2).div_(4)
    assert x.asnumpy().tolist() == [-0.25, -1.25, 0.5]
    i = _t([1, -2, 3], np.int32)
    i.add_(1.5)
    assert i.dtype == ms.int32 and i.asnumpy().tolist() == [2, 0, 4]
    i.floor_divide_(2)
    assert i.asnumpy().tolist() == [1, 0, 2]
    i.remainder_(2)
    assert i.asnumpy().tolist() == [1, 0, 0]
    y = _t([0.2, 0.7], np.float32)
    for name, ref in [("exp_", np.exp), ("log_", np.log),
                      ("sigmoid_", lambda v: 1 / (1 + np.exp(-v))), ("tanh_", np.tanh),
                      ("floor_", np.floor), ("sign_", np.sign)]:
        before = y.asnumpy().copy()
        assert getattr(y, name)() is y
        np.testing.assert_allclose(y.asnumpy(), ref(before), rtol=1e-6, err_msg=name)
    z = _t([0.1, 0.5], np.float32)
    z.erfinv_()
    np.testing.assert_allclose(z.asnumpy(), [0.0888559, 0.4769363], rtol=1e-5)
    assert ops.tanh_(z) is z and ops.clamp_(z, 0.0, 0.3) is z
    assert z.asnumpy().max() <= np.float32(0.3)  # float32 0.3 > Python 0.3 under numpy 1.x
    with pytest.raises(RuntimeError, match="cannot be written"):
        _t([1.0]).add_(_t([1.0, 2.0]))
    x = _t([1.0, 2.0, 3.0])
    x.div_(2, rounding_mode="floor")
    assert x.asnumpy().tolist() == [0.0, 1.0, 1.0]


def test_inplace_methods_are_differentiable():
    def f(x):
        y = x * 2
        y.mul_(y)
        y.add_(x, alpha=3)
        y.tanh_()
        return y.sum()

    x = _t([0.1, -0.2, 0.3])
    g = ms.grad(f)(x).asnumpy()
    v = x.asnumpy()
    np.testing.assert_allclose(g, (1 - np.tanh(4 * v * v + 3 * v) ** 2) * (8 * v + 3))
    assert gradcheck(lambda t: (t * 1).exp_().sigmoid_(), x)
