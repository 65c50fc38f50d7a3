"""Pooling: `ops.max_pool2d`, `ops.avg_pool2d`, `ops.adaptive_*_pool2d` and the `ops.MaxPool`,
`ops.AvgPool`, `ops.AdaptiveAvgPool2D`, `ops.AdaptiveMaxPool2D` primitives.

Max and average pooling run in Cython kernels (`_kernels/pool.pyx`) that read the padding
without materialising it; max pooling keeps each window's argmax, so its backward is one
scatter-add."""

import numpy as np

from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad.common.tensor import Tensor
from cellgrad_nn._kernels import pool as kernels
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _buffers as B
from cellgrad_nn.spatial import _window as W


def _geometry(op, x, kernel, stride, pads, dilation, ceil_mode):
    """(OH, OW): ceil_mode keeps a last window that starts inside but runs past the input."""
    h, w = x.shape[2:]
    oh = W.output_size(op, h, pads[0] + pads[1], kernel[0], stride[0], dilation[0], ceil_mode)
    ow = W.output_size(op, w, pads[2] + pads[3], kernel[1], stride[1], dilation[1], ceil_mode)
    return oh, ow


def _max_fwd(x, *, kernel, stride, pads, dilation, out_hw, indices=None):
    dtype = x.dtype
    x = np.ascontiguousarray(W.kernel_dtype(x))
    n, c = x.shape[:2]
    out = B.empty((n, c) + out_hw, x.dtype)
    argmax = B.empty((n, c) + out_hw, np.int64)
    kernels.max_pool_forward(x, out, argmax, kernel, stride, dilation, (pads[0], pads[2]))
    if indices is not None:  # return_indices: flat H * W positions, handed back by the caller
        indices.append(argmax)
    return out.astype(dtype, copy=False), (argmax, x.shape)


def _max_bwd(ctx, g):
    argmax, x_shape = ctx.saved
    n, c = x_shape[:2]
    g = np.ascontiguousarray(W.kernel_dtype(g))
    dx = B.zeros(x_shape, g.dtype)
    kernels.max_pool_backward(g.reshape(n, c, -1), argmax.reshape(n, c, -1),
                              dx.reshape(n, c, -1))
    return dx


MAX_POOL = Op("max_pool2d", _max_fwd, _max_bwd, PROMOTE_NONE, first_order_only=True)


def _avg_fwd(x, *, kernel, stride, pads, out_hw, divisor):
    dtype = x.dtype
    x = np.ascontiguousarray(W.kernel_dtype(x))
    out = np.empty(x.shape[:2] + out_hw, x.dtype)
    kernels.avg_pool_forward(x, out, divisor, kernel, stride, (pads[0], pads[2]))
    return out.astype(dtype, copy=False), (x.shape, pads, divisor, kernel, stride)


def _avg_bwd(ctx, g):
    x_shape, pads, divisor, kernel, stride = ctx.saved
    g = np.ascontiguousarray(W.kernel_dtype(g))
    dx = np.zeros(x_shape, g.dtype)
    kernels.avg_pool_backward(g, dx, divisor, kernel, stride, (pads[0], pads[2]))
    return dx


AVG_POOL = Op("avg_pool2d", _avg_fwd, _avg_bwd, PROMOTE_NONE, first_order_only=True)


def _taps_inside(size, pad_before, pad_after, kernel, stride, count, include_pad):
    """How many taps of each of `count` windows along one axis the divisor counts: those in
    the padded input (count_include_pad) or in the input, never the ceil_mode overhang."""
    starts = np.arange(count) * stride - pad_before
    lo, hi = (-pad_before, size + pad_after) if include_pad else (0, size)
    return np.clip(np.minimum(starts + kernel, hi) - np.maximum(starts, lo), 0, None)


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
    out_hw = _geometry(op, x4, kernel, stride, pads, dilation, ceil_mode)
    indices = [] if return_indices else None
    out = apply(MAX_POOL, (x4,), {"kernel": kernel, "stride": stride, "pads": pads,
                                  "dilation": dilation, "out_hw": out_hw, "indices": indices})
    if not return_indices:
        return _unbatch(out, squeeze)
    return _unbatch(out, squeeze), _unbatch(Tensor(indices[0]), squeeze)


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
    out_hw = _geometry(op, x4, kernel, stride, pads, (1, 1), ceil_mode)
    if divisor_override:
        divisor = np.full(out_hw, float(divisor_override))
    else:
        rows = _taps_inside(x4.shape[2], pads[0], pads[1], kernel[0], stride[0], out_hw[0],
                            count_include_pad)
        cols = _taps_inside(x4.shape[3], pads[2], pads[3], kernel[1], stride[1], out_hw[1],
                            count_include_pad)
        divisor = np.maximum(np.outer(rows, cols), 1).astype(np.float64)
    attrs = {"kernel": kernel, "stride": stride, "pads": pads, "out_hw": out_hw,
             "divisor": divisor}
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
        super().__init__(type(self).__name__)
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
        super().__init__(type(self).__name__)
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
        super().__init__(type(self).__name__)
        self.output_size = output_size

    def __call__(self, input_x):
        return adaptive_avg_pool2d(input_x, self.output_size)


class AdaptiveMaxPool2D(Primitive):
    """Mirrors `mindspore.ops.AdaptiveMaxPool2D(output_size)`: returns (output, argmax)."""

    def __init__(self, output_size):
        super().__init__(type(self).__name__)
        self.output_size = output_size

    def __call__(self, input_x):
        return adaptive_max_pool2d(input_x, self.output_size, True)


def _two_of(op, name, value):
    if isinstance(value, (tuple, list)) and len(value) == 4:
        return tuple(value[2:])
    return W.pair(op, name, value)
