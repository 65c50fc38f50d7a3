"""Convolution layers: `nn.Conv1d`, `nn.Conv2d`, `nn.Conv2dTranspose` (on `ops.conv2d` and
`ops.conv_transpose2d`)."""

import math

from cellgrad import Parameter, ops
from cellgrad.common.initializer import HeUniform, Uniform, initializer
from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad_nn.layers import _checks

PAD_MODES = ("same", "valid", "pad")


def _pair(layer, name, value, sizes=(2,)):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, tuple) and len(value) in sizes and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    lengths = " or ".join(map(str, sizes))
    raise TypeError(f"For '{layer}', '{name}' must be an int or a tuple of {lengths} ints, but "
                    f"got {value!r}.")


class _Conv(Cell):
    """What every convolution layer holds: sizes, padding rule and the two Parameters."""

    def __init__(self, name, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, weight_shape, dtype):
        super().__init__()
        self.in_channels = _checks.positive_int(name, "in_channels", in_channels)
        self.out_channels = _checks.positive_int(name, "out_channels", out_channels)
        self.group = _checks.positive_int(name, "group", group)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{name}', in_channels={in_channels} and out_channels="
                             f"{out_channels} must be divisible by group={group}.")
        if pad_mode not in PAD_MODES:
            raise ValueError(f"For '{name}', 'pad_mode' must be one of {list(PAD_MODES)}, but "
                             f"got {pad_mode!r}.")
        padding_pair = _pair(name, "padding", padding, (2, 4))
        if pad_mode != "pad" and any(padding_pair):
            raise ValueError(f"For '{name}', 'padding' must be 0 when pad_mode is "
                             f"{pad_mode!r}, but got {padding!r}.")
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding = pad_mode, padding
        self.has_bias = bool(has_bias)
        self.data_format = "NCHW"
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, weight_shape, dtype),
                                name="weight")
        self.bias_init = None
        self.bias = None
        if self.has_bias:
            fan_in = weight_shape[1] * math.prod(weight_shape[2:])
            self.bias_init = Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype),
                                  name="bias")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.data_format}")


class Conv2d(_Conv):
    """Mirrors `mindspore.nn.Conv2d` (pads 'same' by default, no bias by default)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=float32):
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2d', cellgrad supports data_format 'NCHW', but got "
                             f"{data_format!r}.")
        kernel = _pair("Conv2d", "kernel_size", kernel_size)
        super().__init__("Conv2d", in_channels, out_channels, kernel,
                         _pair("Conv2d", "stride", stride), pad_mode, padding,
                         _pair("Conv2d", "dilation", dilation), group, has_bias, weight_init,
                         bias_init, [out_channels, in_channels // group, *kernel], dtype)

    def construct(self, x):
        _checks.input_tensor("Conv2d", x, (4,), "(N, C, H, W)")
        _checks.channels("Conv2d", x, 1, self.in_channels)
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv1d(_Conv):
    """Mirrors `mindspore.nn.Conv1d`: a Conv2d over (N, C, 1, L), weight (out, in, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=float32):
        for name, value in (("kernel_size", kernel_size), ("stride", stride),
                            ("padding", padding), ("dilation", dilation)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Conv1d', '{name}' must be an int, but got {value!r}.")
        super().__init__("Conv1d", in_channels, out_channels, (1, kernel_size), (1, stride),
                         pad_mode, (0, 0, padding, padding), (1, dilation), group, has_bias,
                         weight_init, bias_init,
                         [out_channels, in_channels // group, 1, kernel_size], dtype)

    def construct(self, x):
        _checks.input_tensor("Conv1d", x, (3,), "(N, C, L)")
        _checks.channels("Conv1d", x, 1, self.in_channels)
        n, c, length = x.shape
        out = ops.conv2d(x.reshape((n, c, 1, length)), self.weight, self.bias, self.stride,
                         self.pad_mode, self.padding, self.dilation, self.group)
        return out.reshape((out.shape[0], out.shape[1], out.shape[3]))


class Conv2dTranspose(_Conv):
    """Mirrors `mindspore.nn.Conv2dTranspose`: weight (in, out / group, kh, kw).

    'same' gives outputs `stride` times the input, 'valid' the full transposed convolution,
    'pad' crops `padding` from each side (`output_padding` adds rows/columns at the end).
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=float32):
        kernel = _pair("Conv2dTranspose", "kernel_size", kernel_size)
        super().__init__("Conv2dTranspose", in_channels, out_channels, kernel,
                         _pair("Conv2dTranspose", "stride", stride), pad_mode, padding,
                         _pair("Conv2dTranspose", "dilation", dilation), group, has_bias,
                         weight_init, bias_init,
                         [in_channels, out_channels // group, *kernel], dtype)
        self.output_padding = output_padding

    def construct(self, x):
        _checks.input_tensor("Conv2dTranspose", x, (4,), "(N, C, H, W)")
        _checks.channels("Conv2dTranspose", x, 1, self.in_channels)
        if self.pad_mode == "pad":
            return ops.conv_transpose2d(x, self.weight, self.bias, self.stride, self.padding,
                                        self.output_padding, self.group, self.dilation)
        full = ops.conv_transpose2d(x, self.weight, self.bias, self.stride, 0,
                                    self.output_padding, self.group, self.dilation)
        if self.pad_mode == "valid":
            return full
        # 'same': crop the full output to input * stride, the extra split as MindSpore does.
        h, w = x.shape[2] * self.stride[0], x.shape[3] * self.stride[1]
        top = max(full.shape[2] - h, 0) // 2
        left = max(full.shape[3] - w, 0) // 2
        return full[:, :, top:top + h, left:left + w]

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.data_format}")
