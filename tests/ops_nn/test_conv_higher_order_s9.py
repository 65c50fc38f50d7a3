"""Higher-order gradients through conv (grad of grad, as MindSpore's Conv2DBackpropInput /
Conv2DBackpropFilter are differentiable): gradchecked in float64 to the third order, the
second order compared with PyTorch, and _grad_ops.Conv2DBackpropFilter differentiated."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

CASES = [  # stride, pad_mode, padding, dilation, groups, bias
    (1, "valid", 0, 1, 1, False),
    (2, "pad", 1, 1, 1, True),
    (1, "pad", (1, 2, 0, 1), 2, 2, True),
    (1, "same", 0, 1, 1, False),
]


def _setup(case, rng):
    stride, pad_mode, padding, dilation, groups, bias = case
    x = Tensor(rng.normal(size=(2, 4, 6, 7)))
    w = Tensor(rng.normal(size=(4, 4 // groups, 3, 2)))
    b = Tensor(rng.normal(size=(4,))) if bias else None

    def conv(a, c):
        return ops.conv2d(a, c, b, stride=stride, pad_mode=pad_mode, padding=padding,
                          dilation=dilation, groups=groups)

    def first(a, c):
        ga, gc = ms.grad(lambda u, v: (conv(u, v) ** 2).sum(), (0, 1))(a, c)
        return (ga * ga).sum() + (gc * ops.sin(gc)).sum()

    return x, w, first


@pytest.mark.parametrize("case", CASES)
def test_conv2d_second_and_third_order_gradcheck(case):
    x, w, first = _setup(case, np.random.default_rng(0))
    assert gradcheck(first, x, w)

    def second(a, c):
        ga, gc = ms.grad(first, (0, 1))(a, c)
        return (ga * ga).sum() + (gc * gc).sum()

    assert gradcheck(second, x, w, atol=1e-4)


@pytest.mark.parametrize("case", CASES[:3])
def test_conv2d_second_order_matches_torch(case):
    torch = pytest.importorskip("torch")
    stride, pad_mode, padding, dilation, groups, _ = case
    x, w, first = _setup(case[:5] + (False,), np.random.default_rng(1))
    gx, gw = ms.grad(first, (0, 1))(x, w)
    pads = padding if isinstance(padding, tuple) else (padding,) * 4
    tx = torch.tensor(x.asnumpy(), requires_grad=True)
    tw = torch.tensor(w.asnumpy(), requires_grad=True)

    def tconv(a, c):
        a = torch.nn.functional.pad(a, (pads[2], pads[3], pads[0], pads[1]))
        return torch.nn.functional.conv2d(a, c, stride=stride, dilation=dilation, groups=groups)

    ga, gc = torch.autograd.grad((tconv(tx, tw) ** 2).sum(), (tx, tw), create_graph=True)
    torch_gx, torch_gw = torch.autograd.grad((ga * ga).sum() + (gc * torch.sin(gc)).sum(),
                                             (tx, tw))
    np.testing.assert_allclose(gx.asnumpy(), torch_gx.numpy(), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(gw.asnumpy(), torch_gw.numpy(), rtol=1e-9, atol=1e-9)


def test_conv2d_backprop_filter_is_differentiable():
    from cellgrad.ops.operations import _grad_ops as G

    op = G.Conv2DBackpropFilter(1, 3, pad_mode="valid", pad=0, mode=1, stride=(1, 1),
                                dilation=(1, 1, 1, 1), group=1)
    rng = np.random.default_rng(1)
    dout = Tensor(rng.normal(0, 1, (1, 1, 4, 4)).astype(np.float32))
    x = Tensor(rng.normal(0, 2, (1, 1, 6, 6)).astype(np.float32))
    gd, gx = ms.grad(lambda d, a: op(d, a, (1, 1, 3, 3)), (0, 1))(dout, x)
    # d/d dout of sum(dW) = sum of each output position's 3x3 input window; d/dx likewise
    windows = np.array([[x.asnumpy()[0, 0, i:i + 3, j:j + 3].sum() for j in range(4)]
                        for i in range(4)])
    np.testing.assert_allclose(gd.asnumpy()[0, 0], windows, rtol=1e-5)
    counts = np.zeros((6, 6))
    for i in range(4):
        for j in range(4):
            counts[i:i + 3, j:j + 3] += dout.asnumpy()[0, 0, i, j]
    np.testing.assert_allclose(gx.asnumpy()[0, 0], counts, rtol=1e-5, atol=1e-6)
    assert gradcheck(lambda d, a: op(d, a, (1, 1, 3, 3)) ** 2, dout, x)
