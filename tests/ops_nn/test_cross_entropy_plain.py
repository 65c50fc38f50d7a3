"""The plain softmax cross-entropy (class indices, no weight, smoothing or ignored index) takes a
shorter path; its loss and gradient are the general rule's bit for bit (NaN signs aside)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad_nn.functional import cross_entropy as ce


class _Ctx:
    needs_input_grad = (True, False)

    class xp:
        IS_TENSOR = False

    def __init__(self, saved):
        self.saved = saved


def _rule(x, y, reduction, ignore_index, general=False):
    plain = ce._plain
    if general:  # the general rule, for the comparison
        ce._plain = lambda *a: False
    try:
        return ce._loss_fwd(x, y, cd=1, weight=None, ignore_index=ignore_index, eps=0.0,
                            reduction=reduction, probs=False, log_input=False)
    finally:
        ce._plain = plain


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_plain_path_equals_general_rule(dtype, reduction):
    rng = np.random.default_rng(3)
    for trial in range(12):
        n, c = int(rng.integers(1, 70)), int(rng.integers(1, 30))
        x = (rng.standard_normal((n, c)) * (1, 10, 100)[trial % 3]).astype(dtype)
        if trial == 4:
            x[0, 0] = 1e30  # a row whose softmax underflows
        y = rng.integers(0, c, n).astype(np.int32)
        fast_out, fast = _rule(x, y, reduction, (None, -100)[trial % 2])
        slow_out, slow = _rule(x, y, reduction, -100, general=True)
        assert fast[3] is None and slow[3] is not None  # which path each took
        assert fast_out.dtype == slow_out.dtype and fast_out.shape == slow_out.shape
        assert fast_out.tobytes() == slow_out.tobytes()
        g = rng.standard_normal(fast_out.shape) if trial % 5 else np.zeros(fast_out.shape)
        g = np.asarray(g, dtype)
        d_fast, gt_fast = ce._loss_bwd(_Ctx(fast), g)
        d_slow, _ = ce._loss_bwd(_Ctx(slow), g)
        assert gt_fast is None and d_fast.dtype == d_slow.dtype
        assert d_fast.tobytes() == d_slow.tobytes()


def test_plain_path_empty_batch_is_nan_mean():
    x = np.zeros((0, 4), np.float32)
    out, _ = _rule(x, np.zeros(0, np.int32), "mean", None)
    assert out.dtype == np.float32 and np.isnan(out)


def test_softmax_cross_entropy_cell_values_and_grad():
    x = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], np.float32)
    y = np.array([1, 2], np.int32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    xt = Tensor(x)
    value, grad = ms.value_and_grad(lambda a: loss(a, Tensor(y)))(xt)
    e = np.exp(x - x.max(1, keepdims=True))
    p = e / e.sum(1, keepdims=True)
    np.testing.assert_allclose(value.asnumpy(), -np.log(p[[0, 1], y]).mean(), rtol=1e-6)
    expect = p.copy()
    expect[[0, 1], y] -= 1
    np.testing.assert_allclose(grad.asnumpy(), expect / 2, rtol=1e-5, atol=1e-7)
    assert grad.dtype == ms.float32


def test_out_of_range_target_still_refused():
    with pytest.raises(ValueError, match=r"class indices in \[0, 3\).*got 3"):
        ops.cross_entropy(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.array([0, 3])))
    with pytest.raises(ValueError, match=r"got -1"):
        ops.cross_entropy(Tensor(np.zeros((2, 3), np.float32)), Tensor(np.array([-1, 0])),
                          ignore_index=-100)


def test_second_order_through_plain_path():
    x = Tensor(np.array([[0.3, -0.2, 1.0], [2.0, 0.1, -0.5]], np.float64))
    y = Tensor(np.array([2, 0], np.int32))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")

    def first(a):
        return (ms.grad(lambda b: loss(b, y))(a) ** 2).sum()

    gg = ms.grad(first)(x).asnumpy()
    h = 1e-6
    num = np.zeros((2, 3))
    for i in range(2):
        for j in range(3):
            xp_, xm = x.asnumpy().copy(), x.asnumpy().copy()
            xp_[i, j] += h
            xm[i, j] -= h
            num[i, j] = (first(Tensor(xp_)).asnumpy() - first(Tensor(xm)).asnumpy()) / (2 * h)
    np.testing.assert_allclose(gg, num, rtol=1e-5, atol=1e-7)


def test_an_ignored_target_takes_the_general_rule():
    x = np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0], [0.0, 0.3, 0.2]], np.float32)
    y = np.array([1, -100, 2], np.int32)
    _, saved = _rule(x, y, "mean", -100)
    assert saved[3] is not None  # per-target factors: the general rule
    _, saved = _rule(x, np.array([1, 0, 2], np.int32), "mean", 0)  # 0 is a class: general
    assert saved[3] is not None
    loss = ops.cross_entropy(Tensor(x), Tensor(y))
    e = np.exp(x - x.max(1, keepdims=True))
    logp = np.log(e / e.sum(1, keepdims=True))
    np.testing.assert_allclose(loss.asnumpy(), -(logp[0, 1] + logp[2, 2]) / 2, rtol=1e-6)
    grad = ms.grad(lambda a: ops.cross_entropy(a, Tensor(y)))(Tensor(x)).asnumpy()
    assert np.array_equal(grad[1], np.zeros(3, np.float32)) and not np.signbit(grad[1]).any()
