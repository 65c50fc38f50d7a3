"""The loss-scaled step's fused unscale and finite check (`lowp.unscale_finite`,
`wrap.cells.unscale_all_finite`): numpy's division bit for bit, every inf/nan seen."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor
from cellgrad_nn._kernels import lowp
from cellgrad_nn.wrap.cells import unscale_all_finite


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 33, 30721])
@pytest.mark.parametrize("factor", [1024.0, 3.0, 0.7, 1e-30])
def test_unscale_finite_divides_as_numpy(n, factor):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 1e3).astype(np.float32)
    a[: n // 3] *= 1e-40  # subnormals too
    want = a.copy()
    want /= np.float32(factor)
    finite = np.isfinite(want).all()
    assert lowp.unscale_finite([a], factor) is bool(finite)
    np.testing.assert_array_equal(a.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
@pytest.mark.parametrize("where", [0, 8, 19])
def test_unscale_finite_sees_every_non_finite(bad, where):
    a = np.ones(20, np.float32)
    a[where] = bad
    assert lowp.unscale_finite([np.ones(5, np.float32), a, np.ones(3, np.float32)], 2.0) is False


def test_unscale_finite_overflow_of_the_division():
    a = np.full(9, 3e38, np.float32)
    assert lowp.unscale_finite([a], 0.5) is False
    assert np.isinf(a).all()


@pytest.mark.parametrize("make", [
    lambda: np.ones(4, np.float64),
    lambda: np.ones(8, np.float32)[::2],
    lambda: np.ones(4, np.float16),
])
def test_unscale_finite_refuses_other_arrays_untouched(make):
    good, other = np.full(4, 2.0, np.float32), make()
    before = other.copy()
    assert lowp.unscale_finite([good, other], 2.0) is None
    np.testing.assert_array_equal(good, 2.0)  # nothing divided
    np.testing.assert_array_equal(other, before)


def test_unscale_finite_refuses_read_only():
    a = np.full(4, 2.0, np.float32)
    a.flags.writeable = False
    assert lowp.unscale_finite([a], 2.0) is None


def test_unscale_all_finite_float16_gradients_take_numpy():
    g16 = Tensor(np.array([4.0, 8.0], np.float16))
    g32 = Tensor(np.array([2.0, 6.0], np.float32))
    assert unscale_all_finite([g16, g32], 2.0) is True
    np.testing.assert_array_equal(g16.asnumpy(), np.array([2.0, 4.0], np.float16))
    np.testing.assert_array_equal(g32.asnumpy(), [1.0, 3.0])
    g16 = Tensor(np.array([60000.0], np.float16))
    assert unscale_all_finite([g16], 0.5) is False


def test_loss_scaled_step_skips_a_non_finite_gradient():
    net = ms.nn.Dense(2, 1)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    loss = ms.nn.WithLossCell(net, ms.nn.MSELoss())
    step = ms.nn.TrainOneStepWithLossScaleCell(
        loss, ms.nn.SGD(net.trainable_params(), 0.1),
        scale_sense=ms.nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 1000))
    x = Tensor(np.array([[1.0, np.inf]], np.float32))
    _, overflow, _ = step(x, Tensor(np.zeros((1, 1), np.float32)))
    assert overflow.asnumpy()
    assert step.scale_sense.asnumpy() == 2.0 ** 9  # halved
    for p, b in zip(net.trainable_params(), before):
        np.testing.assert_array_equal(p.asnumpy(), b)
    _, overflow, _ = step(Tensor(np.ones((1, 2), np.float32)),
                          Tensor(np.zeros((1, 1), np.float32)))
    assert not overflow.asnumpy()
    assert any(not np.array_equal(p.asnumpy(), b) for p, b in zip(net.trainable_params(), before))
