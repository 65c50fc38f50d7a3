"""`ops.conv_transpose2d`: the gradient of conv2d with respect to its input, as an op.

The forward multiplies each input pixel into its kernel-sized column and adds the columns onto
the output (col2im, which also crops the padding); the backward reads the output gradient
through the same windows (im2col)."""

import numpy as np

from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn._kernels.im2col import col2im, im2col
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W
from cellgrad_nn.spatial.conv import grouped_matmul


def _tconv_fwd(x, w, *, stride, padding, output_padding, dilation, groups, out_hw):
    dtype = x.dtype
    x, w = W.kernel_dtype(x), W.kernel_dtype(w)
    n, cin, h, wd = x.shape
    _, og, kh, kw = w.shape
    # Input channel-major (G, Cin/G, N*H*W), so the columns come out (Cout*KH*KW, N, H*W).
    xt = np.ascontiguousarray(x.reshape(n, cin, h * wd).transpose(1, 0, 2))
    xt = xt.reshape(groups, cin // groups, n * h * wd)
    wt = w.reshape(groups, cin // groups, og * kh * kw).transpose(0, 2, 1)
    cols = grouped_matmul(wt, xt).reshape(groups * og * kh * kw, n, h * wd)
    out = np.zeros((n, groups * og) + out_hw, x.dtype)
    col2im(cols, out, (kh, kw), stride, dilation, padding, (h, wd))
    return out.astype(dtype, copy=False), (xt, w, x.shape, stride, padding, dilation, groups)


def _tconv_bwd(ctx, g):
    xt, w, x_shape, stride, padding, dilation, groups = ctx.saved
    g = np.ascontiguousarray(W.kernel_dtype(g))
    n, cin, h, wd = x_shape
    _, og, kh, kw = w.shape
    gcols = np.empty((g.shape[1] * kh * kw, n, h * wd), g.dtype)
    im2col(g, gcols, (kh, kw), stride, dilation, padding, (h, wd))
    gcols = gcols.reshape(groups, og * kh * kw, n * h * wd)
    wg = w.reshape(groups, cin // groups, og * kh * kw)
    dx = dw = None
    if ctx.needs_input_grad[0]:
        dxt = grouped_matmul(wg, gcols).reshape(cin, n, h * wd)
        dx = np.ascontiguousarray(dxt.transpose(1, 0, 2)).reshape(x_shape)
    if ctx.needs_input_grad[1]:
        dw = grouped_matmul(xt, gcols.transpose(0, 2, 1)).reshape(w.shape)
    return dx, dw


CONV_TRANSPOSE2D = Op("conv_transpose2d", _tconv_fwd, _tconv_bwd, PROMOTE_ARITH,
                      first_order_only=True)
OPS = (CONV_TRANSPOSE2D,)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """Mirrors `mindspore.ops.conv_transpose2d`: input (N, C_in, H, W), weight
    (C_in, C_out / groups, KH, KW); output size (H - 1) * stride - 2 * padding +
    dilation * (KH - 1) + output_padding + 1."""
    op = "conv_transpose2d"
    W.check_4d(op, "input", input)
    W.check_4d(op, "weight", weight)
    stride, dilation = W.pair(op, "stride", stride), W.pair(op, "dilation", dilation)
    padding, output_padding = W.pair(op, "padding", padding), \
        W.pair(op, "output_padding", output_padding)
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1 or \
            input.shape[1] != weight.shape[0] or weight.shape[0] % groups:
        raise ValueError(f"For '{op}', the input's channels must equal weight.shape[0] and be "
                         f"divisible by groups={groups!r}; got input "
                         f"{_checks.describe(input)}, weight {_checks.describe(weight)}.")
    out_hw = []
    for axis in (0, 1):
        if output_padding[axis] >= max(stride[axis], dilation[axis]):
            raise ValueError(f"For '{op}', 'output_padding' must be smaller than stride or "
                             f"dilation, got {output_padding}.")
        size = (input.shape[2 + axis] - 1) * stride[axis] - 2 * padding[axis] + \
            dilation[axis] * (weight.shape[2 + axis] - 1) + output_padding[axis] + 1
        if size < 1:
            raise ValueError(f"For '{op}', 'padding' {padding} leaves an empty output for "
                             f"input {_checks.describe(input)}.")
        out_hw.append(size)
    out = apply(CONV_TRANSPOSE2D, (input, weight),
                {"stride": stride, "padding": padding, "output_padding": output_padding,
                 "dilation": dilation, "groups": groups, "out_hw": tuple(out_hw)})
    if bias is not None:
        c = out.shape[1]
        if tuple(bias.shape) != (c,):
            raise ValueError(f"For '{op}', 'bias' must have shape ({c},), got "
                             f"{_checks.describe(bias)}.")
        out = out + bias.reshape((1, c, 1, 1))
    return out
