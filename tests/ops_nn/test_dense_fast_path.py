"""nn.Dense's call paths (issue 12): outside a gradient transform the usual float32/float64
layer runs its forward on the arrays; every path gives dense()'s values and dtypes."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn, ops


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


def test_dense_mixed_dtypes_promote_as_dense():
    cell = nn.Dense(2, 2, Tensor(np.eye(2, dtype=np.float32)), Tensor(np.ones(2, np.float32)))
    out = cell(Tensor(np.ones((1, 2), np.float64)))
    assert out.dtype == ms.float64
    np.testing.assert_array_equal(out.asnumpy(), [[2.0, 2.0]])


def test_dense_gradients_inside_grad_and_a_replaced_bias_still_checked():
    cell = nn.Dense(2, 1, Tensor(np.float32([[1.0, 2.0]])), Tensor(np.float32([0.5])))
    x = Tensor(np.float32([[3.0, 4.0]]))
    g = ms.grad(lambda t: cell(t).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [[1.0, 2.0]])
    cell.bias = Parameter(Tensor(np.zeros(3, np.float32)), name="bias")
    with pytest.raises(ValueError, match=r"For 'dense', 'bias' must have shape \(1,\)"):
        cell(x)
