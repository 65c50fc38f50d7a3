"""Dense's float16 bias add in one pass (`lowp.bias_round16`): numpy's float16 add of the
rounded product and the bias, bit for bit, in the F16C and the portable loop."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn
from cellgrad_nn._kernels import lowp


@pytest.mark.parametrize("shape", [(32, 120), (3, 7), (5, 16), (1, 1), (0, 4), (2, 3, 9)])
@pytest.mark.parametrize("scalar", [False, True])
def test_equals_numpys_float16_add(shape, scalar):
    rng = np.random.default_rng(shape[-1])
    a = (rng.standard_normal(shape) * rng.choice([1, 1e-5, 300, 7e4], shape)).astype(np.float32)
    b = (rng.standard_normal(shape[-1]) * 100).astype(np.float16)
    with np.errstate(over="ignore"):
        want = a.astype(np.float16) + b
    got = lowp.bias_round16(a, b, scalar=scalar)
    assert got.dtype == np.float16 and got.shape == shape
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_refuses_other_dtypes_and_shapes():
    with pytest.raises(TypeError, match="lowp.bias_round16: 'a' must be float32"):
        lowp.bias_round16(np.ones((2, 3), np.float16), np.ones(3, np.float16))
    with pytest.raises(TypeError, match="lowp.bias_round16"):
        lowp.bias_round16(np.ones((2, 3), np.float32), np.ones(4, np.float16))


def test_float16_dense_output_unchanged():
    # products exact in float32 (small multiples of 1/8): any summation order gives them
    rng = np.random.default_rng(0)
    net = nn.Dense(20, 9)
    net.weight.set_data(Tensor((rng.integers(-40, 40, (9, 20)) / 8).astype(np.float32)))
    net.bias.set_data(Tensor(rng.standard_normal(9).astype(np.float32) * 50))
    net.to_float(ms.float16)
    x = (rng.integers(-300, 300, (4, 20)) / 8).astype(np.float32)
    prod = (x @ net.weight.asnumpy().T).astype(np.float16)
    want = prod + net.bias.asnumpy().astype(np.float16)
    out = net(Tensor(x))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy().view(np.uint16), want.view(np.uint16))
