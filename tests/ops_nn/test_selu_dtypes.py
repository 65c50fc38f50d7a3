"""ops.selu / ops.SeLU / nn.SeLU on MindSpore 2.10's integer kernel and its dtype check."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops


@pytest.mark.parametrize("fn", [ops.selu, ops.SeLU(), nn.SeLU()])
def test_int8_int32_inputs(fn):
    x = np.array([-128, -100, -20, -18, -17, -5, -1, 0, 1, 2, 10, 100, 127])
    # MindSpore 2.10 CPU: constants truncated to 1, expm1 in float32 truncated
    want = [-1, -1, -1, -1, 0, 0, 0, 0, 1, 2, 10, 100, 127]
    for dtype, mstype in ((np.int8, ms.int8), (np.int32, ms.int32)):
        out = fn(Tensor(x.astype(dtype)))
        assert out.dtype == mstype
        np.testing.assert_array_equal(out.asnumpy(), want)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.uint8, np.bool_])
def test_other_dtypes_rejected(dtype):
    with pytest.raises(TypeError, match=r"For primitive\[SeLU\], the input argument\[input_x\] "
                                        r"must be a type of \{Tensor\[Float16\], Tensor\[Float32\]"
                                        r", Tensor\[Float64\], Tensor\[Int32\], Tensor\[Int8\]\}, "
                                        r"but got Tensor\["):
        ops.selu(Tensor(np.array([1, 0]).astype(dtype)))


def test_float_unchanged():
    out = ops.selu(Tensor(np.array([-3.0, -1.0, 0.0, 1.0, 5.0])))
    np.testing.assert_allclose(out.asnumpy(), [-1.67056876, -1.11133071, 0.0, 1.05070098,
                                               5.2535049], rtol=1e-7)
