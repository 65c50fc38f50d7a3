"""ops.Dropout2D / Dropout3D: MindSpore 2.10's dtypes, keep_prob range and checks."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor
from cellgrad.ops import operations as P


def _shape(prim):
    return (4, 6, 2, 3) if prim is P.Dropout2D else (4, 6, 2, 3, 2)


@pytest.mark.parametrize("prim", [P.Dropout2D, P.Dropout3D])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.float16,
                                   np.float32, np.float64])
def test_keep_prob_zero_drops_every_channel(prim, dtype):
    out, mask = prim(0.0)(Tensor(np.ones(_shape(prim), dtype)))
    assert out.asnumpy().dtype == dtype
    assert mask.dtype == ms.bool_
    assert not out.asnumpy().any() and not mask.asnumpy().any()


@pytest.mark.parametrize("prim", [P.Dropout2D, P.Dropout3D])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_integer_inputs_scale_truncating(prim, dtype):
    x = (np.arange(np.prod(_shape(prim))).reshape(_shape(prim)) % 9 - 4).astype(dtype)
    out, mask = prim(0.3)(Tensor(x))
    out, mask = out.asnumpy(), mask.asnumpy()
    assert out.dtype == dtype and mask.shape == x.shape
    chan = mask.reshape(24, -1)
    assert (chan.all(1) | ~chan.any(1)).all()  # whole channels kept or dropped
    want = np.trunc(x.astype(np.float32) / np.float32(0.3)).astype(dtype) * mask
    np.testing.assert_array_equal(out, want)


def test_keep_prob_one_is_identity():
    x = np.arange(24).reshape(1, 2, 3, 4).astype(np.int16)
    out, mask = P.Dropout2D(1.0)(Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), x)
    assert mask.asnumpy().all()


def test_errors():
    with pytest.raises(TypeError, match="For 'Dropout2D', the type of 'keep_prob' should be "
                                        "'float', but got type 'int'."):
        P.Dropout2D(1)
    with pytest.raises(ValueError, match=r"For 'Dropout3D', the 'keep_prob' must be in range "
                                         r"of \[0.0, 1.0\], but got 1.1 with type 'float'."):
        P.Dropout3D(1.1)
    with pytest.raises(TypeError, match=r"For primitive\[Dropout2D\], the input argument\[x\] "
                                        r"must be a type of \{Tensor\[BFloat16\].*but got "
                                        r"Tensor\[Bool\]"):
        P.Dropout2D(0.5)(Tensor(np.ones((1, 1, 1, 1), bool)))
    with pytest.raises(ValueError, match=r"For primitive\[Dropout3D\], the rank of input  must "
                                         r"be equal to 5 , but got 4."):
        P.Dropout3D(0.5)(Tensor(np.ones((1, 1, 1, 1), np.float32)))
