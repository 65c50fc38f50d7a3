"""ops.DepthwiseConv2dNative (deprecated in MindSpore, no CPU kernel there): one filter per
channel, against a plain-loop reference, torch's grouped conv2d and float64 gradchecks."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(11)


def ref_depthwise(x, w, stride, pads, dilation):
    n, c, hgt, wid = x.shape
    kh, kw = w.shape[2:]
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[1]), (pads[2], pads[3])))
    oh = (xp.shape[2] - dilation * (kh - 1) - 1) // stride + 1
    ow = (xp.shape[3] - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, c, oh, ow))
    for ch in range(c):
        for i in range(oh):
            for j in range(ow):
                for a in range(kh):
                    for b in range(kw):
                        out[:, ch, i, j] += (w[0, ch, a, b] * xp[:, ch, i * stride + a * dilation,
                                                                 j * stride + b * dilation])
    return out


@pytest.mark.parametrize("kwargs,pads", [
    ({}, (0, 0, 0, 0)),
    ({"pad_mode": "pad", "pad": (1, 0, 2, 1), "stride": 2}, (1, 0, 2, 1)),
    ({"pad_mode": "same", "dilation": 2}, (2, 2, 2, 2)),
])
def test_depthwise_matches_reference_and_gradcheck(kwargs, pads):
    x = RNG.standard_normal((2, 3, 7, 6))
    w = RNG.standard_normal((1, 3, 3, 3))
    prim = ops.DepthwiseConv2dNative(1, 3, **kwargs)
    out = prim(ms.Tensor(x.astype(np.float32)), ms.Tensor(w.astype(np.float32)))
    want = ref_depthwise(x, w, kwargs.get("stride", 1), pads, kwargs.get("dilation", 1))
    assert out.dtype == ms.float32 and out.shape == want.shape
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-4, atol=1e-4)
    assert gradcheck(prim, ms.Tensor(x[:1]), ms.Tensor(w))


def test_depthwise_matches_torch():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((2, 4, 9, 8))
    w = RNG.standard_normal((1, 4, 3, 2))
    prim = ops.DepthwiseConv2dNative(1, (3, 2), pad_mode="pad", pad=1, stride=2)
    xt, wt = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    want = torch.nn.functional.conv2d(xt, wt.reshape(4, 1, 3, 2), stride=2, padding=1, groups=4)
    want.pow(2).sum().backward()
    got = prim(ms.Tensor(x), ms.Tensor(w))
    np.testing.assert_allclose(got.asnumpy(), want.detach().numpy(), rtol=1e-10)
    gx, gw = ms.grad(lambda a, b: (prim(a, b) ** 2).sum(), (0, 1))(ms.Tensor(x), ms.Tensor(w))
    np.testing.assert_allclose(gx.asnumpy(), xt.grad.numpy(), rtol=1e-9)
    np.testing.assert_allclose(gw.asnumpy(), wt.grad.numpy(), rtol=1e-9)


def test_depthwise_errors():
    x = ms.Tensor(np.ones((1, 2, 5, 5), np.float32))
    with pytest.raises(ValueError, match="batch of 'weight' must be 1"):
        ops.DepthwiseConv2dNative(1, 3)(x, ms.Tensor(np.ones((2, 2, 3, 3), np.float32)))
    wide = ops.DepthwiseConv2dNative(2, 3)  # MindSpore's constructor takes it; a call refuses
    assert wide.channel_multiplier == 2
    with pytest.raises(ValueError, match="channel_multiplier' must be 1"):
        wide(x, ms.Tensor(np.ones((1, 2, 3, 3), np.float32)))
    with pytest.raises(TypeError, match="DepthwiseConv2dNative"):
        wide(ms.Tensor(np.ones(5, np.bool_)), ms.Tensor(np.ones(5, np.bool_)))
    with pytest.raises(TypeError, match="same dtype"):
        wide(x, ms.Tensor(np.ones((1, 2, 3, 3), np.float16)))
    with pytest.raises(ValueError, match="'pad' must be zero"):
        ops.DepthwiseConv2dNative(1, 3, pad=1)
    with pytest.raises(ValueError, match="height and width of 'stride' must be equal"):
        ops.DepthwiseConv2dNative(1, 3, stride=(1, 2))
    with pytest.raises(ValueError, match="'mode' must be 3"):
        ops.DepthwiseConv2dNative(1, 3, mode=1)
    with pytest.raises(ValueError, match=r"'w' must be \(1, 2"):
        ops.DepthwiseConv2dNative(1, 3)(x, ms.Tensor(np.ones((1, 3, 3, 3), np.float32)))
    from cellgrad.ops import operations as P
    assert P.DepthwiseConv2dNative is ops.DepthwiseConv2dNative
