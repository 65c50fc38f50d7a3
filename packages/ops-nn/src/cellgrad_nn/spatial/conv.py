"""`ops.conv2d`, `ops.conv1d`, `ops.conv_transpose2d` and `ops.Conv2D`: im2col and one matmul
per group; the backward scatters the column gradient back (col2im)."""

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W


def _conv_fwd(x, w, *, pads, stride, dilation, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = W.pad_array(x, pads)
    oh = (xp.shape[2] - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (xp.shape[3] - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    view = W.windows(xp, (oh, ow), (kh, kw), stride, dilation)  # N, C, OH, OW, KH, KW
    # Columns (G, N*OH*OW, Cg*KH*KW): one GEMM per group.
    cols = view.reshape(n, groups, cg, oh, ow, kh, kw).transpose(1, 0, 3, 4, 2, 5, 6)
    cols = np.ascontiguousarray(cols).reshape(groups, n * oh * ow, cg * kh * kw)
    wg = w.reshape(groups, o // groups, cg * kh * kw)
    out = np.matmul(cols, wg.transpose(0, 2, 1))  # G, N*OH*OW, Og
    out = out.reshape(groups, n, oh, ow, o // groups).transpose(1, 0, 4, 2, 3)
    out = np.ascontiguousarray(out).reshape(n, o, oh, ow)
    return out, (cols, w, x.shape, xp.shape, pads, stride, dilation, groups)


def _conv_bwd(ctx, g):
    cols, w, x_shape, xp_shape, pads, stride, dilation, groups = ctx.saved
    n, o, oh, ow = g.shape
    _, cg, kh, kw = w.shape
    og = o // groups
    gg = g.reshape(n, groups, og, oh, ow).transpose(1, 0, 3, 4, 2).reshape(groups, -1, og)
    dx = dw = None
    if ctx.needs_input_grad[1]:
        dw = np.matmul(gg.transpose(0, 2, 1), cols).reshape(w.shape)
    if ctx.needs_input_grad[0]:
        dcols = np.matmul(gg, w.reshape(groups, og, cg * kh * kw))  # G, N*OH*OW, Cg*KH*KW
        dcols = dcols.reshape(groups, n, oh, ow, cg, kh, kw)
        dxp = np.zeros(xp_shape, g.dtype)
        for i in range(kh):
            hi = i * dilation[0]
            for j in range(kw):
                wj = j * dilation[1]
                part = dcols[:, :, :, :, :, i, j].transpose(1, 0, 4, 2, 3)
                dxp[:, :, hi:hi + stride[0] * oh:stride[0], wj:wj + stride[1] * ow:stride[1]] += \
                    part.reshape(n, groups * cg, oh, ow)
        top, bottom, left, right = pads
        dx = dxp[:, :, top:xp_shape[2] - bottom, left:xp_shape[3] - right]
    return dx, dw


CONV2D = Op("conv2d", _conv_fwd, _conv_bwd, PROMOTE_ARITH, first_order_only=True)
OPS = (CONV2D,)


def conv2d_checked(op, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    W.check_4d(op, "input", input)
    W.check_4d(op, "weight", weight)
    stride, dilation = W.pair(op, "stride", stride), W.pair(op, "dilation", dilation)
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise TypeError(f"For '{op}', 'groups' must be a positive int, got {groups!r}.")
    c, o = input.shape[1], weight.shape[0]
    if c % groups or o % groups or weight.shape[1] * groups != c:
        raise ValueError(f"For '{op}', the input's channels ({c}) must equal weight.shape[1] * "
                         f"groups ({weight.shape[1]} * {groups}) and out channels ({o}) must be "
                         f"divisible by groups; got input {_checks.describe(input)}, weight "
                         f"{_checks.describe(weight)}.")
    kernel = weight.shape[2:]
    pads = W.pads_for(op, pad_mode, padding, input.shape[2:], kernel, stride, dilation)
    for axis in (0, 1):
        W.output_size(op, input.shape[2 + axis], pads[2 * axis] + pads[2 * axis + 1],
                      kernel[axis], stride[axis], dilation[axis])
    out = apply(CONV2D, (input, weight), {"pads": pads, "stride": stride, "dilation": dilation,
                                          "groups": groups})
    if bias is not None:
        _checks.tensor(op, "bias", bias)
        if tuple(bias.shape) != (o,):
            raise ValueError(f"For '{op}', 'bias' must have shape ({o},), got "
                             f"{_checks.describe(bias)}.")
        out = out + bias.reshape((1, o, 1, 1))
    return out


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """Mirrors `mindspore.ops.conv2d`: input (N, C, H, W), weight (O, C / groups, KH, KW)."""
    return conv2d_checked("conv2d", input, weight, bias, stride, pad_mode, padding, dilation,
                          groups)


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """Mirrors `mindspore.ops.conv1d`: input (N, C, L), weight (O, C / groups, K)."""
    _checks.tensor("conv1d", "input", input)
    _checks.tensor("conv1d", "weight", weight)
    if input.ndim != 3 or weight.ndim != 3:
        raise ValueError(f"For 'conv1d', 'input' and 'weight' must be 3-D, got "
                         f"{_checks.describe(input)} and {_checks.describe(weight)}.")
    for name, value in (("stride", stride), ("dilation", dilation)):
        if not isinstance(value, int) and not (isinstance(value, tuple) and len(value) == 1):
            raise TypeError(f"For 'conv1d', '{name}' must be an int, got {value!r}.")
    one = lambda v: v[0] if isinstance(v, tuple) else v  # noqa: E731
    pad = padding[0] if isinstance(padding, tuple) and len(padding) == 1 else padding
    pads = (0, 0, pad, pad) if isinstance(pad, int) else (0, 0) + tuple(pad)
    n, c, length = input.shape
    out = conv2d_checked("conv1d", input.reshape((n, c, 1, length)),
                         weight.reshape(weight.shape[:2] + (1, weight.shape[2])), bias,
                         (1, one(stride)), pad_mode, pads if pad_mode == "pad" else 0,
                         (1, one(dilation)), groups)
    return out.reshape((out.shape[0], out.shape[1], out.shape[3]))


class Conv2D(Primitive):
    """Mirrors `mindspore.ops.Conv2D(out_channel, kernel_size, ...)`: `(x, weight)`."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For 'Conv2D', cellgrad supports data_format 'NCHW', got "
                             f"{data_format!r}.")
        self.out_channel = out_channel
        self.kernel_size = W.pair("Conv2D", "kernel_size", kernel_size)
        self.mode, self.group = mode, group
        self.pad_mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        self.pad = pad
        self.stride = _two_of("Conv2D", "stride", stride)
        self.dilation = _two_of("Conv2D", "dilation", dilation)

    def __call__(self, x, weight):
        if weight.shape[0] != self.out_channel or tuple(weight.shape[2:]) != self.kernel_size:
            raise ValueError(f"For 'Conv2D', 'weight' must have out_channel={self.out_channel} "
                             f"and kernel_size={self.kernel_size}, got "
                             f"{_checks.describe(weight)}.")
        return conv2d_checked("Conv2D", x, weight, None, self.stride, self.pad_mode, self.pad,
                              self.dilation, self.group)


def _two_of(op, name, value):
    """MindSpore primitives take an int, (h, w) or (1, 1, h, w)."""
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return tuple(value[2:])
    return W.pair(op, name, value)
