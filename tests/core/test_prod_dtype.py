"""ops.prod / mint.prod / Tensor.prod with `dtype`: the result keeps that dtype (MindSpore 2.10)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, mint, ops


@pytest.mark.parametrize("axis", [-1, None])
@pytest.mark.parametrize("dtype", [ms.float32, ms.int8, ms.uint8])
def test_prod_dtype_is_result_dtype(axis, dtype):
    x = Tensor(np.random.default_rng(0).random((2, 3, 4)).astype(np.float16))
    assert mint.prod(x, axis, False, dtype=dtype).dtype == dtype
    assert ms.grad(lambda t: mint.prod(t, axis, False, dtype=dtype))(x).dtype == ms.float16


def test_prod_small_int_wraps_as_mindspore():
    x = Tensor(np.array([[100, 3, 2], [7, -5, 9]], np.int32))
    # MindSpore 2.10: [88, -59], 184, and int8 input without dtype widens to int64
    np.testing.assert_array_equal(ops.prod(x, 1, dtype=ms.int8).asnumpy(), [88, -59])
    assert mint.prod(x, dtype=ms.uint8).asnumpy() == 184
    np.testing.assert_array_equal(x.prod(1, dtype=ms.int8).asnumpy(), [88, -59])
    out = ops.prod(x.astype(ms.int8), 1)
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), [600, -315])
