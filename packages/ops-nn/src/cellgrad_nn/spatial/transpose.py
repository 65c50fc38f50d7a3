"""`ops.conv_transpose2d`: the gradient of conv2d with respect to its input, as an op.

The forward scatters each input pixel's weighted kernel into the output (col2im); the backward
reads the output gradient through the same windows (im2col)."""

import numpy as np

from cellgrad.plugins import PROMOTE_ARITH, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W


def _tconv_fwd(x, w, *, stride, padding, output_padding, dilation, groups):
    n, cin, h, wd = x.shape
    _, og, kh, kw = w.shape
    full_h = (h - 1) * stride[0] + (kh - 1) * dilation[0] + 1 + output_padding[0]
    full_w = (wd - 1) * stride[1] + (kw - 1) * dilation[1] + 1 + output_padding[1]
    xg = x.reshape(n, groups, cin // groups, h, wd)
    wg = w.reshape(groups, cin // groups, og, kh, kw)
    cols = np.einsum("ngchw,gcokl->ngohwkl", xg, wg, optimize=True)
    full = np.zeros((n, groups, og, full_h, full_w), x.dtype)
    for i in range(kh):
        for j in range(kw):
            hi, wj = i * dilation[0], j * dilation[1]
            full[:, :, :, hi:hi + stride[0] * h:stride[0], wj:wj + stride[1] * wd:stride[1]] += \
                cols[..., i, j]
    full = full.reshape(n, groups * og, full_h, full_w)
    out = full[:, :, padding[0]:full_h - padding[0], padding[1]:full_w - padding[1]]
    return np.ascontiguousarray(out), (x, w, full.shape, stride, padding, dilation, groups)


def _tconv_bwd(ctx, g):
    x, w, full_shape, stride, padding, dilation, groups = ctx.saved
    n, cin, h, wd = x.shape
    _, og, kh, kw = w.shape
    gfull = np.zeros(full_shape, g.dtype)
    gfull[:, :, padding[0]:full_shape[2] - padding[0],
          padding[1]:full_shape[3] - padding[1]] = g
    view = W.windows(gfull, (h, wd), (kh, kw), stride, dilation)  # N, Cout, H, W, KH, KW
    view = view.reshape(n, groups, og, h, wd, kh, kw)
    wg = w.reshape(groups, cin // groups, og, kh, kw)
    dx = dw = None
    if ctx.needs_input_grad[0]:
        dx = np.einsum("ngohwkl,gcokl->ngchw", view, wg, optimize=True).reshape(x.shape)
    if ctx.needs_input_grad[1]:
        xg = x.reshape(n, groups, cin // groups, h, wd)
        dw = np.einsum("ngchw,ngohwkl->gcokl", xg, view, optimize=True).reshape(w.shape)
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
    for axis in (0, 1):
        if output_padding[axis] >= max(stride[axis], dilation[axis]):
            raise ValueError(f"For '{op}', 'output_padding' must be smaller than stride or "
                             f"dilation, got {output_padding}.")
        size = (input.shape[2 + axis] - 1) * stride[axis] - 2 * padding[axis] + \
            dilation[axis] * (weight.shape[2 + axis] - 1) + output_padding[axis] + 1
        if size < 1:
            raise ValueError(f"For '{op}', 'padding' {padding} leaves an empty output for "
                             f"input {_checks.describe(input)}.")
    out = apply(CONV_TRANSPOSE2D, (input, weight),
                {"stride": stride, "padding": padding, "output_padding": output_padding,
                 "dilation": dilation, "groups": groups})
    if bias is not None:
        c = out.shape[1]
        if tuple(bias.shape) != (c,):
            raise ValueError(f"For '{op}', 'bias' must have shape ({c},), got "
                             f"{_checks.describe(bias)}.")
        out = out + bias.reshape((1, c, 1, 1))
    return out
