"""Conv2DBackpropInput / _grad_ops.Conv2DBackpropFilter take the kernel size and output channels
from the filter (or `w_size`), whatever `out_channel`/`kernel_size` say, as MindSpore 2.10's CPU
kernels (MindSpore's own test passes out_channel=4, kernel_size=1 with a 1x1x3x3 filter)."""

import numpy as np
import pytest

from cellgrad import Tensor, ops
from cellgrad.ops.operations import _grad_ops as G

RNG = np.random.default_rng(0)
W = RNG.normal(size=(2, 3, 3, 3))
X = RNG.normal(size=(1, 3, 7, 7))


@pytest.mark.parametrize("pad_mode, out", [("valid", 5), ("same", 7)])
@pytest.mark.parametrize("out_channel, kernel_size", [(2, 3), (4, 1), (7, (5, 5))])
def test_attributes_do_not_override_the_filter(pad_mode, out, out_channel, kernel_size):
    dout = Tensor(RNG.normal(size=(1, 2, out, out)))
    w, x = Tensor(W), Tensor(X)
    conv = ops.Conv2D(2, 3, pad_mode=pad_mode)
    _, back = ops.vjp(lambda a, b: conv(a, b), x, w)
    dx, dw = back(dout)
    got_x = ops.Conv2DBackpropInput(out_channel, kernel_size, pad_mode=pad_mode)(
        dout, w, (1, 3, 7, 7))
    got_w = G.Conv2DBackpropFilter(out_channel, kernel_size, pad_mode=pad_mode)(
        dout, x, (2, 3, 3, 3))
    np.testing.assert_allclose(got_x.asnumpy(), dx.asnumpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got_w.asnumpy(), dw.asnumpy(), rtol=1e-12, atol=1e-12)


def test_mindspores_example():
    w = Tensor(np.array([[[[1, 0, -1]] * 3]], np.float32))
    dout = Tensor(np.array([[[[-5, -4, 0, 8], [-10, -2, 2, 3], [0, -2, -4, -7],
                              [-3, -2, -3, -16]]]], np.float32))
    out = ops.Conv2DBackpropInput(4, 1, pad_mode="valid")(dout, w, (1, 1, 6, 6))
    assert out.asnumpy()[0, 0, 0].tolist() == [-5, -4, 5, 12, 0, -8]
