"""`nn.Conv2dBnAct` and `nn.DenseBnAct`: a convolution or dense layer, optional batch
normalization and an optional activation, as MindSpore composes them (child names `conv` /
`dense`, `batchnorm`, `activation`)."""

from cellgrad.nn import Cell
from cellgrad_nn.layers.activation import LeakyReLU, get_activation
from cellgrad_nn.layers.conv import Conv2d
from cellgrad_nn.layers.linear import Dense
from cellgrad_nn.layers.norm import BatchNorm1d, BatchNorm2d


def _activation(owner, activation, alpha):
    if activation is None:
        return None
    if isinstance(activation, str):
        if activation == "leakyrelu":
            return LeakyReLU(alpha)
        return get_activation(activation)
    if isinstance(activation, Cell):
        return activation
    raise TypeError(f"For '{owner}', the 'activation' must be str or Cell, but got "
                    f"{type(activation).__name__}.")


class Conv2dBnAct(Cell):
    """Mirrors `mindspore.nn.Conv2dBnAct`. `after_fake` (quantization-aware training) is
    accepted and has no effect."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self.has_bn = bool(has_bn)
        if self.has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation("Conv2dBnAct", activation, alpha)
        self.has_act = self.activation is not None
        self.after_fake = after_fake

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class DenseBnAct(Cell):
    """Mirrors `mindspore.nn.DenseBnAct`. `after_fake` (quantization-aware training) is
    accepted and has no effect."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = bool(has_bn)
        if self.has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation("DenseBnAct", activation, alpha)
        self.has_act = self.activation is not None
        self.after_fake = after_fake

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x
