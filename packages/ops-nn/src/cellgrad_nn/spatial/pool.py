"""Pooling: `ops.max_pool2d`, `ops.avg_pool2d`, `ops.adaptive_*_pool2d` and the `ops.MaxPool`,
`ops.AvgPool`, `ops.AdaptiveAvgPool2D`, `ops.AdaptiveMaxPool2D` primitives.

Max pooling keeps the argmax of each window, so its backward is one scatter-add."""

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad.tensor import Tensor
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W


def _geometry(op, x, kernel, stride, pads, dilation, ceil_mode):
    h, w = x.shape[2:]
    oh = W.output_size(op, h, pads[0] + pads[1], kernel[0], stride[0], dilation[0], ceil_mode)
    ow = W.output_size(op, w, pads[2] + pads[3], kernel[1], stride[1], dilation[1], ceil_mode)
    # ceil_mode may need windows that start inside but run past the padded input.
    extra_h = max((oh - 1) * stride[0] + (kernel[0] - 1) * dilation[0] + 1 - (h + pads[0] +
                                                                            pads[1]), 0)
    extra_w = max((ow - 1) * stride[1] + (kernel[1] - 1) * dilation[1] + 1 - (w + pads[2] +
                                                                            pads[3]), 0)
    return (oh, ow), (pads[0], pads[1] + extra_h, pads[2], pads[3] + extra_w)


def _max_fwd(x, *, kernel, stride, pads, dilation, out_hw):
    n, c, h, w = x.shape
    xp = W.pad_array(x, pads, -np.inf)
    view = W.windows(xp, out_hw, kernel, stride, dilation)
    flat = view.reshape(n, c, out_hw[0], out_hw[1], -1)
    arg = flat.argmax(axis=-1)
    out = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0]
    # Index of each max in the padded input, for the backward and for return_indices.
    ki, kj = np.divmod(arg, kernel[1])
    rows = np.arange(out_hw[0])[:, None] * stride[0] + ki * dilation[0]
    cols = np.arange(out_hw[1])[None, :] * stride[1] + kj * dilation[1]
    return out, (rows, cols, xp.shape, pads)


def _max_bwd(ctx, g):
    rows, cols, xp_shape, pads = ctx.saved
    n, c = g.shape[:2]
    dxp = np.zeros((n * c, xp_shape[2] * xp_shape[3]), g.dtype)
    idx = (rows * xp_shape[3] + cols).reshape(n * c, -1)
    np.add.at(dxp, (np.arange(n * c)[:, None], idx), g.reshape(n * c, -1))
    dxp = dxp.reshape(xp_shape)
    top, bottom, left, right = pads
    return dxp[:, :, top:xp_shape[2] - bottom, left:xp_shape[3] - right]


MAX_POOL = Op("max_pool2d", _max_fwd, _max_bwd, PROMOTE_NONE, first_order_only=True)


def _avg_fwd(x, *, kernel, stride, pads, dilation, out_hw, divisor):
    n, c = x.shape[:2]
    xp = W.pad_array(x, pads)
    view = W.windows(xp, out_hw, kernel, stride, dilation)
    out = view.sum(axis=(-2, -1)) / divisor
    return out.astype(x.dtype, copy=False), (xp.shape, pads, divisor, kernel, stride)


def _avg_bwd(ctx, g):
    xp_shape, pads, divisor, kernel, stride = ctx.saved
    out_hw = g.shape[2:]
    share = (g / divisor).astype(g.dtype, copy=False)
    dxp = np.zeros(xp_shape, g.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            dxp[:, :, i:i + stride[0] * out_hw[0]:stride[0],
                j:j + stride[1] * out_hw[1]:stride[1]] += share
    top, bottom, left, right = pads
    return dxp[:, :, top:xp_shape[2] - bottom, left:xp_shape[3] - right]


AVG_POOL = Op("avg_pool2d", _avg_fwd, _avg_bwd, PROMOTE_NONE, first_order_only=True)


def _adaptive_bins(size, out):
    starts = (np.arange(out) * size) // out
    ends = -((-(np.arange(out) + 1) * size) // out)
    return starts, ends


def _adaptive_fwd(x, *, out_hw, mode):
    n, c, h, w = x.shape
    hs, he = _adaptive_bins(h, out_hw[0])
    ws, we = _adaptive_bins(w, out_hw[1])
    out = np.empty((n, c) + tuple(out_hw), x.dtype)
    where = np.empty((n, c) + tuple(out_hw), np.int64)
    for i in range(out_hw[0]):
        for j in range(out_hw[1]):
            block = x[:, :, hs[i]:he[i], ws[j]:we[j]].reshape(n, c, -1)
            if mode == "avg":
                out[:, :, i, j] = block.mean(axis=-1)
            else:
                k = block.argmax(axis=-1)
                out[:, :, i, j] = np.take_along_axis(block, k[..., None], -1)[..., 0]
                bw = we[j] - ws[j]
                where[:, :, i, j] = (hs[i] + k // bw) * w + ws[j] + k % bw
    return out, (x.shape, hs, he, ws, we, mode, where)


def _adaptive_bwd(ctx, g):
    shape, hs, he, ws, we, mode, where = ctx.saved
    n, c, h, w = shape
    dx = np.zeros(shape, g.dtype)
    if mode == "max":
        flat = dx.reshape(n * c, h * w)
        np.add.at(flat, (np.arange(n * c)[:, None], where.reshape(n * c, -1)),
                  g.reshape(n * c, -1))
        return dx
    for i in range(len(hs)):
        for j in range(len(ws)):
            count = (he[i] - hs[i]) * (we[j] - ws[j])
            dx[:, :, hs[i]:he[i], ws[j]:we[j]] += (g[:, :, i:i + 1, j:j + 1] / count).astype(
                g.dtype, copy=False)
    return dx


ADAPTIVE_POOL = Op("adaptive_pool2d", _adaptive_fwd, _adaptive_bwd, PROMOTE_NONE,
                   first_order_only=True)
OPS = (MAX_POOL, AVG_POOL, ADAPTIVE_POOL)


def _batched(op, x):
    """(x as 4-D, whether a 3-D (C, H, W) input was given)."""
    _checks.floating(op, "input", x)
    if x.ndim == 3:
        return x.reshape((1,) + tuple(x.shape)), True
    if x.ndim != 4:
        raise ValueError(f"For '{op}', the input must be 3-D (C, H, W) or 4-D (N, C, H, W), "
                         f"got {_checks.describe(x)}.")
    return x, False


def _unbatch(out, squeeze):
    return out.reshape(tuple(out.shape[1:])) if squeeze else out


def _max_pool(op, x, kernel, stride, pads, dilation, ceil_mode, return_indices):
    x4, squeeze = _batched(op, x)
    out_hw, pads = _geometry(op, x4, kernel, stride, pads, dilation, ceil_mode)
    attrs = {"kernel": kernel, "stride": stride, "pads": pads, "dilation": dilation,
             "out_hw": out_hw}
    out = apply(MAX_POOL, (x4,), attrs)
    if not return_indices:
        return _unbatch(out, squeeze)
    rows, cols, _, _ = _max_fwd(x4.asnumpy(), **attrs)[1]
    index = (rows - pads[0]) * x4.shape[3] + (cols - pads[2])
    return _unbatch(out, squeeze), _unbatch(Tensor(index.astype(np.int64)), squeeze)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """Mirrors `mindspore.ops.max_pool2d`; indices (with `return_indices`) are flat H*W
    positions in the input, Int64."""
    op = "max_pool2d"
    kernel = W.pair(op, "kernel_size", kernel_size)
    stride = kernel if stride is None or stride == 0 else W.pair(op, "stride", stride)
    ph, pw = W.pair(op, "padding", padding)
    if ph > kernel[0] // 2 or pw > kernel[1] // 2:
        raise ValueError(f"For '{op}', 'padding' must be at most half the kernel size "
                         f"{kernel}, got {padding!r}.")
    return _max_pool(op, x, kernel, stride, (ph, ph, pw, pw), W.pair(op, "dilation", dilation),
                     ceil_mode, return_indices)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Mirrors `mindspore.ops.avg_pool2d`."""
    op = "avg_pool2d"
    kernel = W.pair(op, "kernel_size", kernel_size)
    stride = W.pair(op, "stride", stride)
    ph, pw = W.pair(op, "padding", padding)
    return _avg_pool(op, input_x, kernel, stride, (ph, ph, pw, pw), ceil_mode,
                     count_include_pad, divisor_override)


def _avg_pool(op, x, kernel, stride, pads, ceil_mode, count_include_pad, divisor_override):
    x4, squeeze = _batched(op, x)
    out_hw, full_pads = _geometry(op, x4, kernel, stride, pads, (1, 1), ceil_mode)
    if divisor_override:
        divisor = np.float64(divisor_override)
    else:
        # Windows count the padding (count_include_pad) but never the ceil_mode overhang.
        ones = np.ones((1, 1) + tuple(x4.shape[2:]))
        inside = W.pad_array(ones, pads, 1.0 if count_include_pad else 0.0)
        inside = W.pad_array(inside, (0, full_pads[1] - pads[1], 0, full_pads[3] - pads[3]))
        divisor = W.windows(inside, out_hw, kernel, stride, (1, 1)).sum(axis=(-2, -1))
        divisor = np.maximum(divisor, 1)
    attrs = {"kernel": kernel, "stride": stride, "pads": full_pads, "dilation": (1, 1),
             "out_hw": out_hw, "divisor": divisor}
    return _unbatch(apply(AVG_POOL, (x4,), attrs), squeeze)


def _output_size(op, output_size, x):
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    if not isinstance(output_size, (tuple, list)) or len(output_size) != 2:
        raise TypeError(f"For '{op}', 'output_size' must be an int or a tuple of 2, got "
                        f"{output_size!r}.")
    return tuple(x.shape[-2 + i] if s is None else s for i, s in enumerate(output_size))


def adaptive_avg_pool2d(input, output_size):
    """Mirrors `mindspore.ops.adaptive_avg_pool2d`."""
    x4, squeeze = _batched("adaptive_avg_pool2d", input)
    out_hw = _output_size("adaptive_avg_pool2d", output_size, x4)
    return _unbatch(apply(ADAPTIVE_POOL, (x4,), {"out_hw": out_hw, "mode": "avg"}), squeeze)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Mirrors `mindspore.ops.adaptive_max_pool2d`."""
    x4, squeeze = _batched("adaptive_max_pool2d", input)
    out_hw = _output_size("adaptive_max_pool2d", output_size, x4)
    out = apply(ADAPTIVE_POOL, (x4,), {"out_hw": out_hw, "mode": "max"})
    if not return_indices:
        return _unbatch(out, squeeze)
    where = ADAPTIVE_POOL.forward(x4.asnumpy(), out_hw=out_hw, mode="max")[1][-1]
    return _unbatch(out, squeeze), _unbatch(Tensor(where), squeeze)


def _same_or_valid(op, pad_mode, x, kernel, stride):
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode == "valid":
        return (0, 0, 0, 0)
    if mode == "same":
        h, w = x.shape[-2:]
        return W.same_padding(h, kernel[0], stride[0], 1) + \
            W.same_padding(w, kernel[1], stride[1], 1)
    raise ValueError(f"For '{op}', 'pad_mode' must be 'valid' or 'same', got {pad_mode!r}.")


class MaxPool(Primitive):
    """Mirrors `mindspore.ops.MaxPool(kernel_size, strides, pad_mode)`."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        super().__init__()
        self.kernel_size = _two_of("MaxPool", "kernel_size", kernel_size)
        self.strides = _two_of("MaxPool", "strides", strides)
        self.pad_mode = pad_mode
        _same_or_valid("MaxPool", pad_mode, np.zeros((1, 1)), (1, 1), (1, 1))

    def __call__(self, x):
        pads = _same_or_valid("MaxPool", self.pad_mode, x, self.kernel_size, self.strides)
        return _max_pool("MaxPool", x, self.kernel_size, self.strides, pads, (1, 1), False,
                         False)


class AvgPool(Primitive):
    """Mirrors `mindspore.ops.AvgPool(kernel_size, strides, pad_mode)`; 'same' windows
    average only the input elements they cover."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        super().__init__()
        self.kernel_size = _two_of("AvgPool", "kernel_size", kernel_size)
        self.strides = _two_of("AvgPool", "strides", strides)
        self.pad_mode = pad_mode
        _same_or_valid("AvgPool", pad_mode, np.zeros((1, 1)), (1, 1), (1, 1))

    def __call__(self, x):
        pads = _same_or_valid("AvgPool", self.pad_mode, x, self.kernel_size, self.strides)
        return _avg_pool("AvgPool", x, self.kernel_size, self.strides, pads, False, False, 0)


class AdaptiveAvgPool2D(Primitive):
    """Mirrors `mindspore.ops.AdaptiveAvgPool2D(output_size)`."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def __call__(self, input_x):
        return adaptive_avg_pool2d(input_x, self.output_size)


class AdaptiveMaxPool2D(Primitive):
    """Mirrors `mindspore.ops.AdaptiveMaxPool2D(output_size)`: returns (output, argmax)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def __call__(self, input_x):
        return adaptive_max_pool2d(input_x, self.output_size, True)


def _two_of(op, name, value):
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return tuple(value[2:])
    return W.pair(op, name, value)
