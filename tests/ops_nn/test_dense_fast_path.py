"""nn.Dense's call paths (issue 12): outside a gradient transform the usual float32/float64
layer runs its forward on the arrays; every path gives dense()'s values and dtypes."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops
from cellgrad.plugins import apply
from cellgrad_nn.functional.linear import DENSE


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("has_bias", [True, False])
def test_dense_call_equals_functional_dense(dtype, has_bias):
    rng = np.random.default_rng(0)
    cell = nn.Dense(5, 3, Tensor(rng.standard_normal((3, 5)).astype(dtype)),
                    Tensor(rng.standard_normal(3).astype(dtype)), has_bias=has_bias,
                    dtype=ms.float16 if dtype == np.float16 else ms.float32)
    x = Tensor(rng.standard_normal((4, 5)).astype(dtype))
    got = cell(x)
    want = ops.dense(x, cell.weight, cell.bias)
    assert got.dtype == want.dtype and got.shape == (4, 3)
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


def test_dense_mixed_dtypes_refused_as_mindspore():
    cell = nn.Dense(2, 2, Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match=r"'x1' with type Tensor\[Float64\] and 'x2' with "
                                        r"type Tensor\[Float32\]"):
        cell(Tensor(np.ones((1, 2), np.float64)))


def test_dense_gradients_inside_grad_and_a_replaced_bias_still_checked():
    cell = nn.Dense(2, 1, Tensor(np.float32([[1.0, 2.0]])), Tensor(np.float32([0.5])))
    x = Tensor(np.float32([[3.0, 4.0]]))
    g = ms.grad(lambda t: cell(t).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [[1.0, 2.0]])
    cell.bias = Parameter(Tensor(np.zeros(3, np.float32)), name="bias")
    with pytest.raises(ValueError, match=r"For 'dense', 'bias' must have shape \(1,\)"):
        cell(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("x_shape", [(7, 5), (2, 3, 5)])
def test_dense_writes_weight_and_bias_gradients_into_offered_buffers(dtype, x_shape):
    """With a leaf's grad_buffer (the distributed package's bucket slots), dense's rule
    computes the gradient there: the same bits as the gradient it allocates otherwise."""
    rng = np.random.default_rng(1)
    cell = nn.Dense(5, 3, Tensor(rng.standard_normal((3, 5)).astype(dtype)),
                    Tensor(rng.standard_normal(3).astype(dtype)))
    x = Tensor(rng.standard_normal(x_shape).astype(dtype))
    params = [cell.weight, cell.bias]
    fn = ms.grad(lambda x: (cell(x) ** 2).sum(), None, params)
    plain = [g.asnumpy().copy() for g in fn(x)]
    buffers = [np.full(p.shape, np.nan, dtype) for p in params]
    for p, b in zip(params, buffers):
        p._node.grad_buffer = b
    try:
        got = fn(x)
    finally:
        for p in params:
            p._node.grad_buffer = None
    for g, b, want in zip(got, buffers, plain):
        assert np.shares_memory(g.asnumpy(), b)
        np.testing.assert_array_equal(b, want)


def test_dense_ignores_a_buffer_of_another_dtype():
    cell = nn.Dense(2, 2, Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones(2, np.float32)))
    x = Tensor(np.ones((3, 2), np.float64))  # promotes to float64: the gradient is float64
    buffer = np.full((2, 2), np.nan, np.float32)
    cell.weight._node.grad_buffer = buffer
    # ops.dense refuses mixed dtypes as MindSpore does; the op itself (as a plugin may apply
    # it) still promotes, and its float64 gradient must not land in the float32 buffer
    try:
        g = ms.grad(lambda x: apply(DENSE, (x, cell.weight, cell.bias)).sum(), None,
                    cell.weight)(x)
    finally:
        cell.weight._node.grad_buffer = None
    assert np.isnan(buffer).all()
    assert g.dtype == ms.float32
    np.testing.assert_array_equal(g.asnumpy(), np.full((2, 2), 3.0))
