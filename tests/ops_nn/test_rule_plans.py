"""Convolution and batch normalisation check their arguments once per (types, shapes, dtypes,
arguments): later calls reuse the checked plan, yet every bad call still raises as before;
batch normalisation's weight and bias enter its op as (C,) (no recorded reshapes), with the
same values and first and second order gradients as before."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.spatial import conv


def t(*shape, seed=0, dtype=np.float32):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def test_a_conv_plan_is_reused_and_bad_calls_still_raise():
    x, w, b = t(2, 3, 8, 8), t(4, 3, 3, 3, seed=1), t(4, seed=2)
    conv._PLANS.clear()
    first = ops.conv2d(x, w, b, stride=2, pad_mode="pad", padding=1)
    assert len(conv._PLANS) == 1
    again = ops.conv2d(x, w, b, stride=2, pad_mode="pad", padding=1)
    assert len(conv._PLANS) == 1
    np.testing.assert_array_equal(first.asnumpy(), again.asnumpy())
    with pytest.raises(TypeError, match="'stride' must be an int"):
        ops.conv2d(x, w, b, stride=2.0, pad_mode="pad", padding=1)
    with pytest.raises(TypeError, match="'groups' must be a positive int"):
        ops.conv2d(x, w, b, stride=2, pad_mode="pad", padding=1, groups=True)
    with pytest.raises(ValueError, match="'bias' must have shape"):
        ops.conv2d(x, w, t(5), stride=2, pad_mode="pad", padding=1)
    with pytest.raises(TypeError, match="the type of 'input' should be same as 'weight'"):
        ops.conv2d(t(2, 3, 8, 8, dtype=np.float64), w, b, stride=2, pad_mode="pad", padding=1)
    assert len(conv._PLANS) == 1  # failed checks are never kept
    # a list argument (unhashable) is checked every time, with the same result
    listed = ops.conv2d(x, w, b, stride=[2, 2], pad_mode="pad", padding=1)
    np.testing.assert_array_equal(listed.asnumpy(), first.asnumpy())


def test_conv_plans_stay_bounded():
    conv._PLANS.clear()
    w = t(2, 1, 3, 3)
    for size in range(4, 4 + conv._PLANS_MAX + 3):
        conv._PLANS[("fake", size)] = {}
    ops.conv2d(t(1, 1, 5, 5), w)
    assert len(conv._PLANS) <= conv._PLANS_MAX


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4, 5)])
def test_batch_norm_matches_the_formula_with_gradients(training, shape):
    x = t(*shape, dtype=np.float64)
    c = shape[1]
    w, b = t(c, seed=1, dtype=np.float64), t(c, seed=2, dtype=np.float64)
    rm, rv = Tensor(np.zeros(c)), Tensor(np.ones(c) * 2)
    axes = (0,) + tuple(range(2, len(shape)))
    bshape = (1, c) + (1,) * (len(shape) - 2)

    def f(x, w, b):
        return ops.batch_norm(x, Tensor(rm.asnumpy().copy()), Tensor(rv.asnumpy().copy()), w,
                              b, training)

    xa = x.asnumpy()
    mean = xa.mean(axis=axes, keepdims=True) if training else np.zeros(bshape)
    var = xa.var(axis=axes, keepdims=True) if training else np.full(bshape, 2.0)
    want = (xa - mean) / np.sqrt(var + 1e-5) * w.asnumpy().reshape(bshape) + \
        b.asnumpy().reshape(bshape)
    np.testing.assert_allclose(f(x, w, b).asnumpy(), want, rtol=1e-12, atol=1e-12)
    gradcheck(f, x, w, b)
    cot = t(*shape, seed=5, dtype=np.float64)

    def first(x, w, b):  # d/dw of <f, cot> depends on x and w: its gradient is second order
        gw = ms.grad(lambda w_: (f(x, w_, b) * cot).sum())(w)
        return (gw * gw).sum()

    gradcheck(first, x, w, b)


def test_batch_norm_records_no_reshape_of_its_parameters(monkeypatch):
    net = nn.BatchNorm2d(3)
    x = t(2, 3, 4, 4)
    reshaped = []
    real = Tensor.reshape

    def spy(self, *shape):
        reshaped.append(tuple(self.shape))
        return real(self, *shape)

    monkeypatch.setattr(Tensor, "reshape", spy)
    grad = ms.grad(lambda x: net(x).sum(), grad_position=None, weights=net.trainable_params())
    gw, gb = grad(x)
    assert reshaped == []
    assert gw.shape == (3,) and gb.shape == (3,)
    np.testing.assert_allclose(gb.asnumpy(), [32, 32, 32])
    xhat = x.asnumpy() / np.sqrt(1 + 1e-5)  # not training: the running statistics (0, 1)
    np.testing.assert_allclose(gw.asnumpy(), xhat.sum(axis=(0, 2, 3)), rtol=1e-5)


def test_max_pool_sizes_are_kept_per_geometry_and_bad_ones_still_raise():
    from cellgrad_nn.spatial import pool

    pool._SIZES.clear()
    x = t(1, 2, 8, 8)
    a = ops.max_pool2d(x, 3, 2)
    b = ops.max_pool2d(x, 3, 2, ceil_mode=True)
    assert a.shape == (1, 2, 3, 3) and b.shape == (1, 2, 4, 4)
    assert ops.max_pool2d(x, 3, 2).shape == (1, 2, 3, 3)
    assert len(pool._SIZES) == 2
    with pytest.raises(ValueError, match="larger than the padded input"):
        ops.max_pool2d(t(1, 2, 2, 2), 3, 2)
    assert len(pool._SIZES) == 2
