"""Convolution layers: `nn.Conv1d`, `nn.Conv2d`, `nn.Conv3d`, `nn.Conv1dTranspose`,
`nn.Conv2dTranspose`, `nn.Conv3dTranspose` (on the spatial ops; 1-D runs as 2-D over
(N, C, 1, L) with MindSpore's (out, in, 1, k) weights)."""

import math

from cellgrad import Parameter, Tensor, ops
from cellgrad.common.initializer import HeUniform, Uniform, initializer
from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad.ops import operations as P
from cellgrad_nn.layers import _checks
from cellgrad_nn.spatial import transpose

PAD_MODES = ("same", "valid", "pad")


def _pair(layer, name, value, sizes=(2,), rank=2):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * rank
    if isinstance(value, tuple) and len(value) in sizes and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    lengths = " or ".join(map(str, sizes))
    raise TypeError(f"For '{layer}', '{name}' must be an int or a tuple of {lengths} ints, but "
                    f"got {value!r}.")


class _Conv(Cell):
    """What every convolution layer holds: sizes, padding rule and the two Parameters."""

    def __init__(self, name, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, weight_shape, dtype,
                 data_format="NCHW"):
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
        for arg, values in (("kernel_size", kernel_size), ("stride", stride),
                            ("dilation", dilation)):
            for v in values:
                if v < 1:
                    raise ValueError(f"For '{name}', the '{arg} item' must be int and must > 0, "
                                     f"but got '{v}' with type 'int'.")
        rank = len(kernel_size)
        padding_all = _pair(name, "padding", padding, (2, 4) if rank == 2 else (6,), rank)
        if any(p < 0 for p in padding_all):
            raise ValueError(f"For '{name}', 'padding' must be non-negative, but got "
                             f"{padding!r}.")
        if pad_mode != "pad" and any(padding_all):
            raise ValueError(f"For '{name}', 'padding' must be 0 when pad_mode is "
                             f"{pad_mode!r}, but got {padding!r}.")
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding = pad_mode, padding
        self.has_bias = bool(has_bias)
        self.data_format = data_format
        if isinstance(weight_init, Tensor) and weight_init.ndim == len(weight_shape) - 1 and \
                weight_shape[2] == 1:  # a 1-D layer given its weight as (out, in, k)
            weight_init = weight_init.reshape(tuple(weight_shape))
        self.weight_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = Parameter(initializer(self.weight_init, weight_shape, dtype),
                                name="weight")
        self.bias_init = bias_init  # MindSpore shows the given init even without a bias
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
                         bias_init,
                         [out_channels, in_channels // _group("Conv2d", group), *kernel],
                         dtype)
        # MindSpore's attributes: subclasses call `self.conv2d(x, w)` and `self.bias_add`
        # (mindcv's StdConv2d standardises its weight and calls them).
        self.conv2d = P.Conv2D(out_channels, self.kernel_size, mode=1, pad_mode=pad_mode,
                               pad=padding, stride=self.stride, dilation=self.dilation,
                               group=group, data_format=data_format)
        self.bias_add = P.BiasAdd(data_format=data_format)

    def construct(self, x):
        _checks.input_tensor("Conv2d", x, (4,), "(N, C, H, W)")
        _checks.channels("Conv2d", x, 1, self.in_channels)
        w = self.weight  # one read: under `to_float` each read is a cast
        _checks.same_dtype("Conv2d", x, w)
        return ops.conv2d(x, w, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv3d(_Conv):
    """Mirrors `mindspore.nn.Conv3d`: inputs (N, C, D, H, W), weight (out, in / group, kd, kh,
    kw); `padding` an int or (head, tail, top, bottom, left, right)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=float32):
        if data_format != "NCDHW":
            raise ValueError(f"For 'Conv3d', 'data_format' must be 'NCDHW', but got "
                             f"{data_format!r}.")
        kernel = _triple("Conv3d", "kernel_size", kernel_size)
        super().__init__("Conv3d", in_channels, out_channels, kernel,
                         _triple("Conv3d", "stride", stride), pad_mode, padding,
                         _triple("Conv3d", "dilation", dilation), group, has_bias, weight_init,
                         bias_init,
                         [out_channels, in_channels // _group("Conv3d", group), *kernel],
                         dtype,
                         data_format)

    def construct(self, x):
        _checks.input_tensor("Conv3d", x, (5,), "(N, C, D, H, W)")
        _checks.channels("Conv3d", x, 1, self.in_channels)
        _checks.same_dtype("Conv3d", x, self.weight)
        return ops.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv1d(_Conv):
    """Mirrors `mindspore.nn.Conv1d`: a Conv2d over (N, C, 1, L), weight (out, in, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=float32):
        _ints("Conv1d", kernel_size=kernel_size, stride=stride, padding=padding,
              dilation=dilation)
        super().__init__("Conv1d", in_channels, out_channels, (1, kernel_size), (1, stride),
                         pad_mode, (0, 0, padding, padding), (1, dilation), group, has_bias,
                         weight_init, bias_init,
                         [out_channels, in_channels // _group("Conv1d", group), 1, kernel_size],
                         dtype)

    def construct(self, x):
        _checks.input_tensor("Conv1d", x, (3,), "(N, C, L)")
        _checks.channels("Conv1d", x, 1, self.in_channels)
        _checks.same_dtype("Conv1d", x, self.weight)
        n, c, length = x.shape
        out = ops.conv2d(x.reshape((n, c, 1, length)), self.weight, self.bias, self.stride,
                         self.pad_mode, self.padding, self.dilation, self.group)
        return out.reshape((out.shape[0], out.shape[1], out.shape[3]))


class _ConvTranspose(_Conv):
    """A transposed convolution layer of `rank` 2 or 3 (1-D layers run as 2-D): weight
    (in, out / group, *kernel); 'same' gives outputs `stride` times the input, 'valid' the
    full transposed convolution (or `stride` times the input if longer), 'pad' crops
    `padding`."""

    def _transposed(self, x, output_padding=0):
        rank = len(self.kernel_size)
        pads = transpose.mode_pads(type(self).__name__, self.pad_mode, self.padding,
                                   x.shape[2:], self.kernel_size, self.stride, self.dilation)
        return transpose.transpose_checked(type(self).__name__, x, self.weight, self.bias,
                                           self.stride, pads, output_padding, self.group,
                                           self.dilation, rank)


class Conv1dTranspose(_ConvTranspose):
    """Mirrors `mindspore.nn.Conv1dTranspose`: weight (in, out / group, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=float32):
        _ints("Conv1dTranspose", kernel_size=kernel_size, stride=stride, padding=padding,
              dilation=dilation)
        super().__init__("Conv1dTranspose", in_channels, out_channels, (1, kernel_size),
                         (1, stride), pad_mode, (0, 0, padding, padding), (1, dilation), group,
                         has_bias, weight_init, bias_init,
                         [in_channels, out_channels // _group("Conv1dTranspose", group), 1,
                          kernel_size], dtype)

    def construct(self, x):
        _checks.input_tensor("Conv1dTranspose", x, (3,), "(N, C, L)")
        _checks.channels("Conv1dTranspose", x, 1, self.in_channels)
        _checks.same_dtype("Conv1dTranspose", x, self.weight)
        n, c, length = x.shape
        out = self._transposed(x.reshape((n, c, 1, length)))
        return out.reshape((out.shape[0], out.shape[1], out.shape[3]))


class Conv2dTranspose(_ConvTranspose):
    """Mirrors `mindspore.nn.Conv2dTranspose`: weight (in, out / group, kh, kw);
    `output_padding` (pad_mode 'pad' only) appends zero rows/columns, as MindSpore's does."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=float32):
        kernel = _pair("Conv2dTranspose", "kernel_size", kernel_size)
        super().__init__("Conv2dTranspose", in_channels, out_channels, kernel,
                         _pair("Conv2dTranspose", "stride", stride), pad_mode, padding,
                         _pair("Conv2dTranspose", "dilation", dilation), group, has_bias,
                         weight_init, bias_init,
                         [in_channels, out_channels // _group("Conv2dTranspose", group), *kernel],
                         dtype)
        self.output_padding = output_padding

    def construct(self, x):
        _checks.input_tensor("Conv2dTranspose", x, (4,), "(N, C, H, W)")
        _checks.channels("Conv2dTranspose", x, 1, self.in_channels)
        _checks.same_dtype("Conv2dTranspose", x, self.weight)
        extra = _pair("Conv2dTranspose", "output_padding", self.output_padding)
        for axis in (0, 1):
            limit = max(self.stride[axis], self.dilation[axis])
            if not 0 <= extra[axis] < limit:
                raise ValueError(f"For 'Conv2dTranspose', 'output_padding' must be in [0, "
                                 f"max(stride, dilation)) = [0, {limit}) on each axis, but got "
                                 f"{self.output_padding!r}.")
        if any(extra) and self.pad_mode != "pad":
            raise ValueError(f"For 'Conv2dTranspose', a non-zero 'output_padding' needs "
                             f"pad_mode 'pad', but got pad_mode {self.pad_mode!r}.")
        out = self._transposed(x)
        if any(extra):
            out = ops.pad(out, (0, extra[1], 0, extra[0]))
        return out


class Conv3dTranspose(_ConvTranspose):
    """Mirrors `mindspore.nn.Conv3dTranspose`: weight (in, out / group, kd, kh, kw);
    `output_padding` (pad_mode 'pad' only) extends the output with computed positions."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=float32):
        name = "Conv3dTranspose"
        if data_format != "NCDHW":
            raise ValueError(f"For '{name}', 'data_format' must be 'NCDHW', but got "
                             f"{data_format!r}.")
        kernel, stride = _triple(name, "kernel_size", kernel_size), _triple(name, "stride", stride)
        dilation = _triple(name, "dilation", dilation)
        self.output_padding = _triple(name, "output_padding", output_padding, least=0)
        for axis in range(3):
            limit = max(stride[axis], dilation[axis])
            if self.output_padding[axis] >= limit:
                raise ValueError(f"For '{name}', 'output_padding' must be in [0, max(stride, "
                                 f"dilation)) on each axis, but got {self.output_padding} with "
                                 f"stride {stride} and dilation {dilation}.")
        if any(self.output_padding) and pad_mode != "pad":
            raise ValueError(f"For '{name}', a non-zero 'output_padding' needs pad_mode 'pad', "
                             f"but got pad_mode {pad_mode!r}.")
        super().__init__(name, in_channels, out_channels, kernel, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init,
                         [in_channels, out_channels // _group(name, group), *kernel],
                         dtype, data_format)

    def construct(self, x):
        _checks.input_tensor("Conv3dTranspose", x, (5,), "(N, C, D, H, W)")
        _checks.channels("Conv3dTranspose", x, 1, self.in_channels)
        _checks.same_dtype("Conv3dTranspose", x, self.weight)
        return self._transposed(x, self.output_padding)


def _triple(layer, name, value, least=1):
    """An int or a 3-tuple of ints (each at least `least`) as (d, h, w)."""
    out = _pair(layer, name, value, (3,), 3)
    for v in out:
        if v < least:
            raise ValueError(f"For '{layer}', the '{name} item' must be int and must >= "
                             f"{least}, but got '{v}' with type 'int'.")
    return out


def _ints(layer, **values):
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"For '{layer}', '{name}' must be an int, but got {value!r}.")
        least = 0 if name == "padding" else 1
        if value < least:
            raise ValueError(f"For '{layer}', the '{name}' must be int and must >= {least}, but "
                             f"got '{value}' with type 'int'.")


def _group(layer, group):
    """`group` checked before it divides the channels (MindSpore's message)."""
    if isinstance(group, bool) or not isinstance(group, int) or group < 1:
        raise ValueError(f"For '{layer}', the 'group' must be int and must > 0, but got "
                         f"'{group}' with type '{type(group).__name__}'.")
    return group
