"""Transposed convolution (`ops.conv_transpose2d`, `ops.conv3d_transpose`, `ops.Conv3DTranspose`,
`ops.Conv2DBackpropInput`, `ops.Conv2DTranspose`): the gradient of a convolution with respect
to its input, as an op, in 2-D and 3-D (1-D runs as 2-D over (N, C, 1, L)).

The forward multiplies each input position into its kernel-sized column and adds the columns
onto the output (col2im, which also crops the leading padding and leaves positions past the
full output at zero); the backward reads the output gradient through the same windows
(im2col)."""

import math

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn._kernels.im2col import col2im, im2col
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W
from cellgrad_nn.spatial.conv import _n_of, grouped_matmul


def _tconv_fwd(x, w, *, stride, pads, dilation, groups, out_size):
    """`pads`: the leading positions of the full output each axis drops."""
    dtype = x.dtype
    x, w = W.kernel_dtype(x), W.kernel_dtype(w)
    n, cin = x.shape[:2]
    in_size, kernel, og = x.shape[2:], w.shape[2:], w.shape[1]
    length, taps = math.prod(in_size), math.prod(kernel)
    # Input channel-major (G, Cin/G, N*L), so the columns come out (Cout*K, N, L).
    xt = np.ascontiguousarray(x.reshape(n, cin, length).transpose(1, 0, 2))
    xt = xt.reshape(groups, cin // groups, n * length)
    wt = w.reshape(groups, cin // groups, og * taps).transpose(0, 2, 1)
    cols = grouped_matmul(wt, xt).reshape(groups * og * taps, n, length)
    out = np.zeros((n, groups * og) + tuple(out_size), x.dtype)
    col2im(cols, out, kernel, stride, dilation, pads, in_size)
    return out.astype(dtype, copy=False), (xt, w, x.shape, stride, pads, dilation, groups)


def _tconv_bwd(ctx, g):
    xt, w, x_shape, stride, pads, dilation, groups = ctx.saved
    g = np.ascontiguousarray(W.kernel_dtype(g))
    n, cin = x_shape[:2]
    in_size, kernel, og = x_shape[2:], w.shape[2:], w.shape[1]
    length, taps = math.prod(in_size), math.prod(kernel)
    gcols = np.empty((g.shape[1] * taps, n, length), g.dtype)
    im2col(g, gcols, kernel, stride, dilation, pads, in_size)
    gcols = gcols.reshape(groups, og * taps, n * length)
    wg = w.reshape(groups, cin // groups, og * taps)
    dx = dw = None
    if ctx.needs_input_grad[0]:
        dxt = grouped_matmul(wg, gcols).reshape(cin, n, length)
        dx = np.ascontiguousarray(dxt.transpose(1, 0, 2)).reshape(x_shape)
    if ctx.needs_input_grad[1]:
        dw = grouped_matmul(xt, gcols.transpose(0, 2, 1)).reshape(w.shape)
    return dx, dw


CONV_TRANSPOSE2D = Op("conv_transpose2d", _tconv_fwd, _tconv_bwd, PROMOTE_ARITH,
                      first_order_only=True)
CONV_TRANSPOSE3D = Op("conv_transpose3d", _tconv_fwd, _tconv_bwd, PROMOTE_ARITH,
                      first_order_only=True)
OPS = (CONV_TRANSPOSE2D, CONV_TRANSPOSE3D)
_BY_RANK = {2: CONV_TRANSPOSE2D, 3: CONV_TRANSPOSE3D}


def transpose_checked(op, input, weight, bias, stride, pads, output_padding, groups, dilation,
                      rank, out_size=None):
    """Checked transposed convolution: `pads` (before, after) per axis, flat, cropped from the
    full output (an `after` below zero extends it with zeros); `output_padding` adds computed
    positions at the end. `out_size`, when given, must be the size that follows."""
    W.check_rank(op, "input", input, rank)
    W.check_rank(op, "weight", weight, rank)
    if input.dtype != weight.dtype:  # MindSpore's Conv2DTranspose refuses; no promotion
        raise TypeError(f"For '{op}', the type of 'input' should be same as 'weight', but got "
                        f"'input' with type Tensor[{input.dtype}] and 'weight' with type "
                        f"Tensor[{weight.dtype}].")
    stride = W.ints_of(op, "stride", stride, rank)
    dilation = W.ints_of(op, "dilation", dilation, rank)
    output_padding = W.ints_of(op, "output_padding", output_padding, rank)
    if any(v < 1 for v in stride + dilation):
        raise ValueError(f"For '{op}', 'stride' and 'dilation' must be positive, got stride "
                         f"{stride}, dilation {dilation}.")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1 or \
            input.shape[1] != weight.shape[0] or weight.shape[0] % groups:
        raise ValueError(f"For '{op}', the input's channels must equal weight.shape[0] and be "
                         f"divisible by groups={groups!r}; got input "
                         f"{_checks.describe(input)}, weight {_checks.describe(weight)}.")
    sizes = []
    for a in range(rank):
        if not 0 <= output_padding[a] < max(stride[a], dilation[a]):
            raise ValueError(f"For '{op}', 'output_padding' must be in [0, max(stride, "
                             f"dilation)) on each axis, got output_padding {output_padding} "
                             f"with stride {stride}, dilation {dilation}.")
        size = (input.shape[2 + a] - 1) * stride[a] - pads[2 * a] - pads[2 * a + 1] + \
            dilation[a] * (weight.shape[2 + a] - 1) + output_padding[a] + 1
        if size < 1:
            raise ValueError(f"For '{op}', the padding {pads} leaves an empty output for input "
                             f"{_checks.describe(input)} and weight "
                             f"{_checks.describe(weight)}.")
        sizes.append(size)
    if out_size is not None and tuple(out_size) != tuple(sizes):
        raise ValueError(f"For '{op}', the requested output size {tuple(out_size)} does not "
                         f"follow from input {_checks.describe(input)}, weight "
                         f"{_checks.describe(weight)}, stride {stride} and padding {pads}: "
                         f"expected {tuple(sizes)}.")
    out = apply(_BY_RANK[rank], (input, weight),
                {"stride": stride, "pads": tuple(pads[::2]), "dilation": dilation,
                 "groups": groups, "out_size": tuple(sizes)})
    if bias is None:
        return out
    c = out.shape[1]
    _checks.tensor(op, "bias", bias)
    if tuple(bias.shape) != (c,):
        raise ValueError(f"For '{op}', 'bias' must have shape ({c},), got "
                         f"{_checks.describe(bias)}.")
    return out + bias.reshape((1, c) + (1,) * rank)


def mode_pads(op, pad_mode, padding, in_size, kernel, stride, dilation):
    """(before, after) per axis, flat, of MindSpore's transposed pad modes: 'pad' crops
    `padding`, 'same' gives `input * stride` positions (the crop split as in the forward 'same'
    convolution), 'valid' the full output or `input * stride` if that is longer."""
    rank = len(kernel)
    if pad_mode == "pad":
        return W.explicit_padding(op, padding, rank)
    if pad_mode not in ("same", "valid"):
        raise ValueError(f"For '{op}', 'pad_mode' must be one of 'same', 'valid', 'pad', got "
                         f"{pad_mode!r}.")
    if padding != 0 and (not isinstance(padding, (tuple, list)) or any(padding)):
        raise ValueError(f"For '{op}', 'padding' must be 0 when pad_mode is {pad_mode!r}, got "
                         f"{padding!r}.")
    pads = ()
    for a in range(rank):
        extra = dilation[a] * (kernel[a] - 1) + 1 - stride[a]  # full output - input * stride
        if pad_mode == "valid" or extra <= 0:
            pads += (0, min(extra, 0))
        else:
            pads += (extra // 2, extra - extra // 2)
    return pads


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """Mirrors `mindspore.ops.conv_transpose2d`: input (N, C_in, H, W), weight
    (C_in, C_out / groups, KH, KW); output size (H - 1) * stride - 2 * padding +
    dilation * (KH - 1) + output_padding + 1."""
    op = "conv_transpose2d"
    ph, pw = W.pair(op, "padding", padding)
    if ph < 0 or pw < 0:
        raise ValueError(f"For '{op}', 'padding' must be non-negative, got {padding!r}.")
    return transpose_checked(op, input, weight, bias, stride, (ph, ph, pw, pw), output_padding,
                             groups, dilation, 2)


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                     output_padding=0):
    """Mirrors `mindspore.ops.conv3d_transpose`: inputs (N, C_in, D, H, W), weight
    (C_in, C_out / group, KD, KH, KW)."""
    op = "conv3d_transpose"
    W.check_rank(op, "inputs", inputs, 3)
    W.check_rank(op, "weight", weight, 3)
    prim = Conv3DTranspose(inputs.shape[1], weight.shape[1] * group, tuple(weight.shape[2:]), 1,
                           pad_mode, padding, stride, dilation, group, output_padding)
    return prim(inputs, weight)


class Conv3DTranspose(Primitive):
    """Mirrors `mindspore.ops.Conv3DTranspose`: `(x, weight)`, weight (in_channel,
    out_channel / group, KD, KH, KW); `pad` an int or (head, tail, top, bottom, left, right);
    `output_padding` only with pad_mode 'pad'."""

    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0,
                 stride=1, dilation=1, group=1, output_padding=0, data_format="NCDHW"):
        super().__init__("Conv3DTranspose")
        op = "Conv3DTranspose"
        if data_format != "NCDHW":
            raise ValueError(f"For '{op}', 'data_format' must be 'NCDHW', got {data_format!r}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{op}', 'pad_mode' must be one of 'valid', 'same', 'pad', "
                             f"got {pad_mode!r}.")
        self.in_channel = _checks_positive(op, "in_channel", in_channel)
        self.out_channel = _checks_positive(op, "out_channel", out_channel)
        self.kernel_size = W.ints_of(op, "kernel_size", kernel_size, 3)
        self.mode, self.pad_mode, self.group = mode, pad_mode.lower(), group
        self.pad_list = W.explicit_padding(op, pad, 3)
        if self.pad_mode != "pad" and any(self.pad_list):
            raise ValueError(f"For '{op}', 'pad' must be 0 when pad_mode is not 'pad', got "
                             f"{pad!r}.")
        self.stride = _n_of(op, "stride", stride, 3)
        self.dilation = _n_of(op, "dilation", dilation, 3)
        self.output_padding = _n_of(op, "output_padding", output_padding, 3)
        if self.pad_mode != "pad" and any(self.output_padding):
            raise ValueError(f"For '{op}', 'output_padding' must be 0 when pad_mode is not "
                             f"'pad', got {output_padding!r}.")
        if isinstance(group, bool) or not isinstance(group, int) or group < 1 or \
                out_channel % group or in_channel % group:
            raise ValueError(f"For '{op}', 'group' must be a positive int dividing in_channel "
                             f"{in_channel} and out_channel {out_channel}, got {group!r}.")
        self.data_format = data_format

    def __call__(self, x, weight):
        op = "Conv3DTranspose"
        W.check_rank(op, "x", x, 3)
        expected = (self.in_channel, self.out_channel // self.group) + self.kernel_size
        if tuple(weight.shape) != expected:
            raise ValueError(f"For '{op}', 'weight' must have shape {expected} (in_channel, "
                             f"out_channel / group, *kernel_size), got "
                             f"{_checks.describe(weight)}.")
        pads = mode_pads(op, self.pad_mode, self.pad_list if self.pad_mode == "pad" else 0,
                         x.shape[2:], self.kernel_size, self.stride, self.dilation)
        return transpose_checked(op, x, weight, None, self.stride, pads, self.output_padding,
                                 self.group, self.dilation, 3)


class Conv2DBackpropInput(Primitive):
    """Mirrors `mindspore.ops.Conv2DBackpropInput`: `(out_backprop, filter, input_sizes)`, the
    gradient of `Conv2D(out_channel, kernel_size, ...)` with respect to an input of shape
    `input_sizes`."""

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1,
                 stride=1, dilation=1, group=1, data_format="NCHW"):
        super().__init__(type(self).__name__)
        op = type(self).__name__
        if data_format != "NCHW":
            raise ValueError(f"For '{op}', cellgrad supports data_format 'NCHW', got "
                             f"{data_format!r}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{op}', 'pad_mode' must be one of 'valid', 'same', 'pad', "
                             f"got {pad_mode!r}.")
        self.out_channel = _checks_positive(op, "out_channel", out_channel)
        self.kernel_size = W.ints_of(op, "kernel_size", kernel_size, 2)
        self.pad_mode, self.mode, self.group = pad_mode.lower(), mode, group
        self.pad = W.explicit_padding(op, pad)
        if self.pad_mode != "pad" and any(self.pad):
            raise ValueError(f"For '{op}', 'pad' must be 0 when pad_mode is not 'pad', got "
                             f"{pad!r}.")
        self.pad_list = pad_list
        self.stride = _n_of(op, "stride", stride, 2)
        self.dilation = _n_of(op, "dilation", dilation, 2)
        self.data_format = data_format

    def __call__(self, out_backprop, filter, input_sizes):
        op = type(self).__name__
        W.check_rank(op, "filter", filter, 2)
        sizes = tuple(int(s) for s in (input_sizes.asnumpy() if hasattr(input_sizes, "asnumpy")
                                       else input_sizes))
        if len(sizes) != 4:
            raise ValueError(f"For '{op}', 'input_sizes' must hold 4 ints (N, C, H, W), got "
                             f"{input_sizes!r}.")
        # MindSpore's kernel takes the kernel size from the filter, whatever the attributes say
        kernel = tuple(filter.shape[2:])
        pads = W.pads_for(op, self.pad_mode, self.pad if self.pad_mode == "pad" else 0,
                          sizes[2:], kernel, self.stride, self.dilation)
        if self.pad_list and all(p >= 0 for p in self.pad_list):
            pads = tuple(self.pad_list)
        forward = tuple(W.output_size(op, sizes[2 + a], pads[2 * a] + pads[2 * a + 1],
                                      kernel[a], self.stride[a], self.dilation[a])
                        for a in range(2))
        if sizes[:2] != (out_backprop.shape[0], filter.shape[1] * self.group) or \
                forward != tuple(out_backprop.shape[2:]):
            raise ValueError(f"For '{op}', 'input_sizes' {sizes} does not match out_backprop "
                             f"{_checks.describe(out_backprop)}: this convolution of an input "
                             f"of that size gives spatial size {forward} and "
                             f"{filter.shape[1] * self.group} input channels.")
        # A convolution may skip the last input rows a stride steps over: those come back as
        # extra positions at the end, zero.
        out = transpose_checked(op, out_backprop, filter, None, self.stride,
                                _reach(out_backprop.shape[2:], sizes[2:], pads, kernel,
                                       self.stride, self.dilation),
                                0, self.group, self.dilation, 2)
        return out


class Conv2DTranspose(Conv2DBackpropInput):
    """Mirrors `mindspore.ops.Conv2DTranspose` (the same as `Conv2DBackpropInput`)."""


def _reach(out_size, in_size, pads, kernel, stride, dilation):
    """Transposed pads whose output has `in_size` positions: the forward's leading padding,
    and a trailing one that also covers the rows the forward's last window did not reach."""
    result = ()
    for a in range(len(kernel)):
        full = (out_size[a] - 1) * stride[a] + dilation[a] * (kernel[a] - 1) + 1
        result += (pads[2 * a], full - pads[2 * a] - in_size[a])
    return result


def _checks_positive(op, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"For '{op}', '{name}' must be a positive int, got {value!r}.")
    return value
