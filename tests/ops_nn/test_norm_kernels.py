"""The batch-norm kernels (`cellgrad_nn._kernels.norm`) against numpy's formulas, the layer
path through them against the numpy path, and their entry checks."""

import numpy as np
import pytest
from cellgrad_nn._kernels.norm import batch_norm_backward, batch_norm_forward, batch_norm_stats

import cellgrad as ms
from cellgrad import nn, ops


def _data(dtype, shape=(5, 3, 7), seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    w, b = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
    return x, g, w, b


@pytest.mark.parametrize("dtype, tol", [(np.float32, 2e-6), (np.float64, 1e-13)])
@pytest.mark.parametrize("training", [True, False])
def test_kernels_match_the_numpy_formulas(dtype, tol, training):
    x, g, w, b = _data(dtype)
    c = x.shape[1]
    mean, var = np.empty(c, dtype), np.empty(c, dtype)
    batch_norm_stats(x, mean, var)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(mean, x64.mean(axis=(0, 2)), rtol=tol, atol=tol)
    np.testing.assert_allclose(var, x64.var(axis=(0, 2)), rtol=tol * 4)

    invstd = (1.0 / np.sqrt(var + 1e-5)).astype(dtype)
    y = np.empty_like(x)
    batch_norm_forward(x, mean, invstd, w, b, y)
    m3, s3, w3, b3 = (a.reshape(1, c, 1) for a in (mean, invstd, w, b))
    xhat = (x - m3) * s3
    np.testing.assert_array_equal(y, xhat * w3 + b3)    # numpy's order of operations

    dx, dw, db = np.empty_like(x), np.empty(c, dtype), np.empty(c, dtype)
    batch_norm_backward(g, x, mean, invstd, w, training, dx, dw, db)
    g64, xh64 = g.astype(np.float64), xhat.astype(np.float64)
    np.testing.assert_allclose(db, g64.sum(axis=(0, 2)), rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(dw, (g64 * xh64).sum(axis=(0, 2)), rtol=tol * 10,
                               atol=tol * 10)
    gxhat = g64 * w3
    want = gxhat * s3
    if training:
        want = (gxhat - gxhat.mean(axis=(0, 2), keepdims=True)
                - xh64 * (gxhat * xh64).mean(axis=(0, 2), keepdims=True)) * s3
    np.testing.assert_allclose(dx, want, rtol=tol * 50, atol=tol * 50)


def test_batch_norm_layer_gives_the_numpy_path_results():
    """A contiguous 4-D input runs the kernels, the same values transposed (not contiguous)
    runs numpy: outputs, gradients and running statistics agree to float32 rounding."""
    rng = np.random.default_rng(4)
    xa = rng.standard_normal((4, 3, 5, 6)).astype(np.float32)
    outs = []
    for contiguous in (True, False):
        bn = nn.BatchNorm2d(3)
        x = ms.Tensor(xa if contiguous else
                      np.ascontiguousarray(xa.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2))
        assert x.asnumpy().flags.c_contiguous == contiguous
        loss = ms.value_and_grad(lambda t, bn=bn: (bn(t) ** 2).sum(), 0, bn.trainable_params())
        y, grads = loss(x)
        outs.append((y.asnumpy(), grads[0].asnumpy(), *[p.asnumpy() for p in grads[1]],
                     bn.moving_mean.asnumpy().copy(), bn.moving_variance.asnumpy().copy()))
    for got, want in zip(*outs):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_batch_norm_eval_through_the_kernels_matches_numpy():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    rm, rv = (rng.random(3).astype(np.float32) for _ in range(2))
    w, b = (rng.standard_normal(3).astype(np.float32) for _ in range(2))
    y = ops.batch_norm(ms.Tensor(x), ms.Tensor(rm), ms.Tensor(rv), ms.Tensor(w), ms.Tensor(b),
                       training=False).asnumpy()
    shape = (1, 3, 1)
    want = (x - rm.reshape(shape)) * (1.0 / np.sqrt(rv.reshape(shape) + np.float32(1e-5))) \
        * w.reshape(shape) + b.reshape(shape)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6)


def test_kernel_entries_reject_bad_arrays():
    x, g, w, b = _data(np.float32)
    mean = np.empty(3, np.float32)
    with pytest.raises(TypeError, match=r"batch_norm_stats: arrays must be float32 or float64"):
        batch_norm_stats(x.astype(np.int32), mean, mean)
    with pytest.raises(TypeError, match=r"batch_norm_forward: all arrays must share the dtype"):
        batch_norm_forward(x, mean, mean, w.astype(np.float64), b, np.empty_like(x))
    with pytest.raises(ValueError, match=r"batch_norm_forward: 'channel array' must have shape "
                                         r"\(3,\), got shape=\(4,\)"):
        batch_norm_forward(x, mean, mean, np.ones(4, np.float32), b, np.empty_like(x))
    with pytest.raises(ValueError, match=r"batch_norm_backward: 'array' must have shape "
                                         r"\(5, 3, 7\)"):
        batch_norm_backward(g[:2], x, mean, mean, w, True, np.empty_like(x), mean, mean)
    with pytest.raises(ValueError, match=r"batch_norm_stats: 'x' must be 3-D"):
        batch_norm_stats(x[0], mean, mean)
