"""nn.LayerNorm and nn.Conv2d keep MindSpore's primitive attributes (`layer_norm`; `conv2d`,
`bias_add`): subclasses that call them (mindcv's ConvNextLayerNorm, StdConv2d) get the layer's
result."""

import numpy as np

import cellgrad as ms
from cellgrad import nn, ops


class ChannelsFirst(nn.LayerNorm):
    def construct(self, x):
        y, _, _ = self.layer_norm(ops.transpose(x, (0, 2, 3, 1)), self.gamma, self.beta)
        return ops.transpose(y, (0, 3, 1, 2))


def test_subclass_using_the_primitive_equals_the_layer():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype(np.float32))
    sub = ChannelsFirst((3,), epsilon=1e-6)
    plain = nn.LayerNorm((3,), epsilon=1e-6)
    want = plain(ops.transpose(x, (0, 2, 3, 1))).asnumpy().transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(sub(x).asnumpy(), want)
    assert (sub.layer_norm.begin_norm_axis, sub.layer_norm.epsilon) == (-1, 1e-6)


def test_the_primitive_is_not_a_parameter_or_cell():
    net = nn.LayerNorm((4,))
    assert [p.name for p in net.get_parameters()] == ["gamma", "beta"]
    assert not list(net.cells())


class StdConv(nn.Conv2d):
    """mindcv's StdConv2d: a standardised weight through the layer's own `conv2d` primitive."""

    def construct(self, x):
        w = self.weight
        w = (w - w.mean((1, 2, 3), keep_dims=True)) / ops.sqrt(w.var((1, 2, 3), keepdims=True)
                                                                + 1e-10)
        return self.bias_add(self.conv2d(x, w), self.bias)


def test_conv2d_keeps_mindspores_conv2d_and_bias_add_primitives():
    x = ms.Tensor(np.random.default_rng(1).standard_normal((2, 3, 9, 9)).astype(np.float32))
    for kw in ({}, {"pad_mode": "pad", "padding": 1, "stride": 2},
               {"pad_mode": "valid", "dilation": 2}):
        net = nn.Conv2d(3, 4, 3, has_bias=True, **kw)
        np.testing.assert_array_equal(net.bias_add(net.conv2d(x, net.weight), net.bias).asnumpy(),
                                      net(x).asnumpy())
    std = StdConv(3, 4, 3, has_bias=True)
    w = std.weight.asnumpy().astype(np.float64)
    w = (w - w.mean((1, 2, 3), keepdims=True)) / np.sqrt(w.var((1, 2, 3), keepdims=True) + 1e-10)
    plain = nn.Conv2d(3, 4, 3, has_bias=True, weight_init=ms.Tensor(w.astype(np.float32)),
                      bias_init=ms.Tensor(std.bias.asnumpy()))
    np.testing.assert_allclose(std(x).asnumpy(), plain(x).asnumpy(), rtol=1e-5, atol=1e-5)
