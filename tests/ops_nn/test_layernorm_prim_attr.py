"""nn.LayerNorm keeps MindSpore's `layer_norm` primitive attribute: subclasses that call
`self.layer_norm(x, self.gamma, self.beta)` (mindcv's ConvNextLayerNorm) get the layer's result."""

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
