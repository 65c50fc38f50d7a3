"""`cellgrad_nn._kernels.activation`: ReLU's backward as one masked pass, the same
values as `where(out > 0, g, 0)` (inf/nan gradients where the unit is off give 0), and its
forward, numpy's `maximum(x, 0)` bit for bit."""

import numpy as np
import pytest
from cellgrad_nn._kernels.activation import relu, relu_grad

import cellgrad as ms
from cellgrad import Tensor, ops


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_grad_is_the_select(dtype):
    rng = np.random.default_rng(0)
    out = np.maximum(rng.standard_normal((7, 33)), 0).astype(dtype)
    out[0, :4] = [np.nan, -0.0, np.inf, 0.0]
    g = rng.standard_normal((7, 33)).astype(dtype)
    g[1, :3] = [np.inf, np.nan, -np.inf]
    out[1, :3] = 0
    got = relu_grad(out, g)
    want = np.where(out > 0, g, 0)
    assert got.dtype == dtype and got.shape == out.shape
    np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{got.itemsize}"))
    assert np.all(got[1, :3] == 0)


def test_relu_grad_declines_what_it_does_not_take():
    a = np.ones((3, 4), np.float32)
    assert relu_grad(a, np.ones((3, 4))) is None            # dtypes differ
    assert relu_grad(a.T, np.ones((4, 3), np.float32)) is None  # not C-contiguous
    assert relu_grad(np.ones(3, np.float16), np.ones(3, np.float16)) is None
    assert relu_grad(a, np.ones((4, 3), np.float32)) is None  # shapes differ


@pytest.mark.parametrize("dtype", [ms.float32, ms.float64, ms.float16])
def test_relu_gradient_through_the_op(dtype):
    x = Tensor(np.array([[-1.0, 0.0, 2.0], [3.0, -0.5, 1e-3]]), dtype)
    grad = ms.grad(lambda t: (ops.relu(t) * Tensor(np.arange(6.0).reshape(2, 3), dtype)).sum())
    got = grad(x)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.asnumpy(), [[0, 0, 2], [3, 0, 5]])


def test_relu_second_order_still_records():
    x = Tensor(np.array([-1.0, 2.0, 3.0], np.float32))
    g2 = ms.grad(ms.grad(lambda t: (ops.relu(t) ** 3).sum()))(x)
    np.testing.assert_allclose(g2.asnumpy(), [0, 12, 18])


@pytest.mark.parametrize("dtype, bits", [(np.float32, np.uint32), (np.float64, np.uint64)])
def test_relu_forward_kernel_is_numpys_maximum_bit_for_bit(dtype, bits):
    special = np.array([-0.0, 0.0, np.nan, -np.nan, -1, 2, np.inf, -np.inf, 1e-45, -1e-45],
                       dtype)
    rng = np.random.default_rng(1)
    for x in (special, rng.standard_normal((64, 513)).astype(dtype), np.zeros((0, 3), dtype)):
        got = relu(x)
        assert got.shape == x.shape and got.dtype == x.dtype
        assert np.array_equal(got.view(bits), np.maximum(x, 0).view(bits))  # -0 -> +0, NaN kept
    # what it does not take, numpy does
    assert relu(rng.standard_normal((4, 6)).astype(dtype)[:, ::2]) is None
    assert relu(np.ones(3, np.int32)) is None and relu([1.0]) is None
    t = ms.Tensor(special)
    assert np.array_equal(ops.relu(t).asnumpy().view(bits), np.maximum(special, 0).view(bits))
