"""amp 'auto' promotes AddN's and Concat's float inputs to the widest dtype before their dtype
check, as MindSpore 2.10 (its tests/st/pynative/framework/test_amp.py); without amp mixed
dtypes stay a TypeError."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops


@pytest.mark.parametrize("fn", [ops.addn, ops.concat])
def test_auto_promotes_to_the_widest(fn):
    f = ms.amp.auto_mixed_precision(lambda a, b, c: fn([a, b, c]), "auto")
    h = Tensor([1, 2], ms.float16)
    assert f(h, h, h).dtype == ms.float16
    out = f(h, Tensor([3, 4], ms.float32), h)
    assert out.dtype == ms.float32
    expect = [5, 8] if fn is ops.addn else [1, 2, 3, 4, 1, 2]
    np.testing.assert_array_equal(out.asnumpy(), expect)


def test_mixed_dtypes_without_amp_raise():
    h, f = Tensor([1, 2], ms.float16), Tensor([3, 4], ms.float32)
    with pytest.raises(TypeError, match="For 'AddN', input dtypes must be the same, but got "
                                        "Float32 at input\\[1\\] and Float16 at input\\[0\\]"):
        ops.addn([h, f])
    with pytest.raises(TypeError, match="For 'concat', all tensors must have the same dtype"):
        ops.concat([h, f])
