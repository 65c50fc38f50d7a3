"""`ops.conv2d`, `ops.conv1d` and `ops.Conv2D`: im2col (Cython) and one matmul per group, the
bias added in the same pass; the backward's column gradient goes back through col2im."""

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn._kernels.im2col import col2im, im2col
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _buffers as B
from cellgrad_nn.spatial import _window as W


def grouped_matmul(a, b, out=None):
    """(G, M, K) @ (G, K, N): one GEMM, or one per group."""
    if a.shape[0] != 1:
        return np.matmul(a, b, out=out)
    if out is None:
        return (a[0] @ b[0])[None]
    np.matmul(a[0], b[0], out=out[0])
    return out


def _conv_fwd(x, w, b=None, *, pads, stride, dilation, groups, out_hw):
    dtype = x.dtype
    x, w, b = W.kernel_dtype(x), W.kernel_dtype(w), W.kernel_dtype(b)
    n, c = x.shape[:2]
    o, _, kh, kw = w.shape
    oh, ow = out_hw
    # Columns (C*KH*KW, N, OH*OW): weight (O, C*KH*KW) @ columns is the output channel-major.
    cols = B.empty((c * kh * kw, n, oh * ow), x.dtype)
    im2col(np.ascontiguousarray(x), cols, (kh, kw), stride, dilation, (pads[0], pads[2]),
           out_hw)
    res = grouped_matmul(w.reshape(groups, o // groups, -1),
                         cols.reshape(groups, -1, n * oh * ow),
                         B.empty((groups, o // groups, n * oh * ow), x.dtype))
    by_sample = res.reshape(o, n, oh * ow).transpose(1, 0, 2)
    out = B.empty((n, o, oh, ow), x.dtype)
    if b is None:
        np.copyto(out.reshape(n, o, oh * ow), by_sample)
    else:
        np.add(by_sample, b[:, None], out=out.reshape(n, o, oh * ow))
    del res, by_sample
    saved = (cols, w, x.shape, pads, stride, dilation, groups, b is not None)
    return out.astype(dtype, copy=False), saved


def _conv_bwd(ctx, g):
    cols, w, x_shape, pads, stride, dilation, groups, has_bias = ctx.saved
    g = W.kernel_dtype(g)
    n, o, oh, ow = g.shape
    # Channel-major (G, O/G, N*OH*OW), as the columns.
    g2 = B.empty((groups, o // groups, n * oh * ow), g.dtype)
    np.copyto(g2.reshape(o, n, oh * ow), g.reshape(n, o, oh * ow).transpose(1, 0, 2))
    needs = ctx.needs_input_grad
    dx = dw = db = None
    if needs[1]:
        cols_t = cols.reshape(groups, -1, n * oh * ow).transpose(0, 2, 1)
        dw = grouped_matmul(g2, cols_t).reshape(w.shape)
    if has_bias and needs[2]:
        db = g2.reshape(o, -1).sum(axis=1)
    if needs[0]:
        dcols = grouped_matmul(w.reshape(groups, o // groups, -1).transpose(0, 2, 1), g2,
                               B.empty((groups, cols.shape[0] // groups, n * oh * ow), g.dtype))
        dx = B.zeros(x_shape, g.dtype)
        col2im(dcols.reshape(-1, n, oh * ow), dx, w.shape[2:], stride, dilation,
               (pads[0], pads[2]), (oh, ow))
    return (dx, dw, db) if has_bias else (dx, dw)


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
    out_hw = tuple(W.output_size(op, input.shape[2 + axis], pads[2 * axis] + pads[2 * axis + 1],
                                 kernel[axis], stride[axis], dilation[axis]) for axis in (0, 1))
    attrs = {"pads": pads, "stride": stride, "dilation": dilation, "groups": groups,
             "out_hw": out_hw}
    if bias is None:
        return apply(CONV2D, (input, weight), attrs)
    _checks.tensor(op, "bias", bias)
    if tuple(bias.shape) != (o,):
        raise ValueError(f"For '{op}', 'bias' must have shape ({o},), got "
                         f"{_checks.describe(bias)}.")
    return apply(CONV2D, (input, weight, bias), attrs)


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
        super().__init__(type(self).__name__)
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
