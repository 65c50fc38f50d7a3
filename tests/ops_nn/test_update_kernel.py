"""`cellgrad_nn._kernels.update.sgd_step`: numpy's `param -= grad * lr` in one pass, bit for bit,
and SGD without momentum through it."""

import numpy as np
import pytest
from cellgrad_nn._kernels.update import sgd_step

import cellgrad as ms
from cellgrad import nn


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("lr", [0.01, 0.1, 1e-7, 3.0])
def test_sgd_step_is_numpys_update_bit_for_bit(dtype, lr):
    rng = np.random.default_rng(0)
    param = (rng.standard_normal((33, 17)) * 10).astype(dtype)
    grad = (rng.standard_normal((33, 17)) * 1e3).astype(dtype)
    want = param.copy()
    want -= grad * (np.float32(lr) if dtype == np.float32 else lr)
    sgd_step(param, grad, lr)
    np.testing.assert_array_equal(param.view(f"u{param.itemsize}"),
                                  want.view(f"u{want.itemsize}"))


def test_sgd_step_reads_a_read_only_gradient():
    param = np.ones(4, np.float32)
    grad = np.broadcast_to(np.float32(2.0), (4,))
    sgd_step(param, np.ascontiguousarray(grad), 0.5)
    np.testing.assert_array_equal(param, [0, 0, 0, 0])
    frozen = np.full(4, 2.0, np.float32)
    frozen.flags.writeable = False
    sgd_step(param, frozen, 0.5)
    np.testing.assert_array_equal(param, [-1, -1, -1, -1])


def test_sgd_step_rejects_mismatched_arrays():
    with pytest.raises(TypeError, match="sgd_step: all arrays must share the dtype"):
        sgd_step(np.ones(3, np.float32), np.ones(3), 0.1)
    with pytest.raises(ValueError, match=r"sgd_step: 'grad' must have shape \(3,\)"):
        sgd_step(np.ones(3, np.float32), np.ones(4, np.float32), 0.1)
    with pytest.raises(TypeError, match="sgd_step: arrays must be float32 or float64"):
        sgd_step(np.ones(3, np.int32), np.ones(3, np.int32), 0.1)


def test_sgd_without_momentum_updates_contiguous_and_strided_arrays_alike():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    g = rng.standard_normal((4, 3)).astype(np.float32)
    opt = nn.SGD([ms.Parameter(ms.Tensor(w), name="w")], learning_rate=0.1)
    fast, strided = w.copy(), np.asfortranarray(w)
    opt._update(0, fast, g, 0.1)            # the one-pass kernel
    opt._update(0, strided, g, 0.1)         # numpy (not C-contiguous)
    np.testing.assert_array_equal(fast, strided)
    np.testing.assert_array_equal(fast, w - g * np.float32(0.1))


def test_sgd_step_through_a_network():
    rng = np.random.default_rng(2)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    x = ms.Tensor(rng.standard_normal((5, 3)).astype(np.float32))
    net = nn.Dense(3, 4, ms.Tensor(w.copy()), has_bias=False)
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    opt(ms.grad(lambda t: net(t).sum(), None, opt.parameters)(x))
    want = w - np.float32(0.1) * np.tile(x.asnumpy().sum(axis=0), (4, 1))
    np.testing.assert_allclose(net.weight.asnumpy(), want, rtol=1e-6)
