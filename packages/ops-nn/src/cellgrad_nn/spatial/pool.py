"""Pooling ops of 2 and 3 spatial axes (one op per family, registered once per rank) and the
2-D functional forms and primitives: `ops.max_pool2d`, `ops.avg_pool2d`,
`ops.adaptive_*_pool2d`, `ops.MaxPool`, `ops.AvgPool`, `ops.AdaptiveAvgPool2D`,
`ops.AdaptiveMaxPool2D` (1-D and 3-D forms: `pool_nd.py`).

Max and average pooling run in Cython kernels (`_kernels/pool.pyx`, one for 2-D and 3-D) that
read the padding without materialising it; max pooling keeps each window's argmax, so its
backward is one scatter-add."""

import functools
import itertools
import math

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn._kernels import pool as kernels
from cellgrad_nn.functional import _checks, _lowp
from cellgrad_nn.spatial import _buffers as B
from cellgrad_nn.spatial import _window as W


def _geometry(op, x, kernel, stride, pads, dilation, ceil_mode):
    """Output positions per spatial axis. ceil_mode keeps a last window that starts inside
    the input or its leading padding, not one that would start in the trailing padding; a
    kernel larger than the padded input then gives one partial window (PyTorch's rule)."""
    if min(kernel + stride + tuple(dilation)) < 1:
        raise ValueError(f"For '{op}', 'kernel_size', 'stride' and 'dilation' must be positive, "
                         f"but got {kernel}, {stride} and {tuple(dilation)}.")
    sizes = []
    for a in range(len(kernel)):
        size, pad = x.shape[2 + a], pads[2 * a] + pads[2 * a + 1]
        span = (kernel[a] - 1) * dilation[a] + 1
        room = size + pad - span + (stride[a] - 1 if ceil_mode else 0)
        out = room // stride[a] + 1
        if ceil_mode and out > 1 and (out - 1) * stride[a] >= size + pads[2 * a]:
            out -= 1
        if out < 1:
            raise ValueError(f"For '{op}', the kernel (extent {span} with dilation) is larger "
                             f"than the padded input ({size + pad}) along spatial axis {a}.")
        sizes.append(out)
    return tuple(sizes)


def _max_fwd(x, *, kernel, stride, pads, dilation, out_size, indices=None):
    """Any rank the kernel takes (2-D, 3-D); `pads` (before, after) per axis, flat."""
    dtype = x.dtype
    if dtype.char == "e" and indices is None:  # float16 2x2/2 tiles: on the 16-bit patterns
        res = _lowp.max_pool_2x2(x, kernel, stride, pads, dilation, out_size)
        if res is not None:
            return res[0], (res[1], x.shape, True)
    x = np.ascontiguousarray(W.kernel_dtype(x))
    n, c = x.shape[:2]
    out = B.empty((n, c) + out_size, x.dtype)
    argmax = B.empty((n, c) + out_size, np.int64)
    kernels.max_pool_forward(x, out, argmax, kernel, stride, dilation, pads[::2])
    if indices is not None:  # return_indices: flat positions, handed back by the caller
        indices.append(argmax)
    return _lowp.round_to(out, dtype), (argmax, x.shape)


def _max_bwd(ctx, g):
    argmax, x_shape = ctx.saved[:2]
    if len(ctx.saved) > 2 and g.dtype.char == "e":  # float16 2x2/2 tiles (see _max_fwd)
        return _lowp.scatter_2x2(g, argmax, x_shape)
    n, c = x_shape[:2]
    low = g.dtype
    g = np.ascontiguousarray(W.kernel_dtype(g))
    dx = B.zeros(x_shape, g.dtype)
    # explicit sizes, not -1: an empty batch is a valid input
    length, out_length = math.prod(x_shape[2:]), math.prod(g.shape[2:])
    kernels.max_pool_backward(g.reshape(n, c, out_length), argmax.reshape(n, c, out_length),
                              dx.reshape(n, c, length))
    return _lowp.round_to(dx, low)


MAX_POOL = Op("max_pool2d", _max_fwd, _max_bwd, PROMOTE_NONE, first_order_only=True)
MAX_POOL3D = Op("max_pool3d", _max_fwd, _max_bwd, PROMOTE_NONE, first_order_only=True)


def _avg_fwd(x, *, kernel, stride, pads, out_size, divisor):
    dtype = x.dtype
    x = np.ascontiguousarray(W.kernel_dtype(x))
    out = np.empty(x.shape[:2] + out_size, x.dtype)
    kernels.avg_pool_forward(x, out, divisor, kernel, stride, pads[::2])
    return out.astype(dtype, copy=False), (x.shape, pads, divisor, kernel, stride)


def _avg_bwd(ctx, g):
    x_shape, pads, divisor, kernel, stride = ctx.saved
    g = np.ascontiguousarray(W.kernel_dtype(g))
    dx = np.zeros(x_shape, g.dtype)
    kernels.avg_pool_backward(g, dx, divisor, kernel, stride, pads[::2])
    return dx


AVG_POOL = Op("avg_pool2d", _avg_fwd, _avg_bwd, PROMOTE_NONE, first_order_only=True)
AVG_POOL3D = Op("avg_pool3d", _avg_fwd, _avg_bwd, PROMOTE_NONE, first_order_only=True)


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


def _bin_slices(shape, out_size):
    """(output index, the input slices of its bin) for every output position."""
    bins = [_adaptive_bins(size, out) for size, out in zip(shape, out_size)]
    for index in itertools.product(*(range(o) for o in out_size)):
        yield index, tuple(slice(bins[a][0][i], bins[a][1][i]) for a, i in enumerate(index))


def _adaptive_fwd(x, *, out_size, mode, indices=None):
    """Adaptive pooling of any rank: one numpy reduction per output position (adaptive
    outputs are small, typically 1 to 7 per axis)."""
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    out = np.empty((n, c) + tuple(out_size), x.dtype)
    where = np.empty((n, c) + tuple(out_size), np.int64)
    every = (slice(None), slice(None))
    for index, box in _bin_slices(spatial, out_size):
        block = x[every + box]
        flat = block.reshape(n, c, math.prod(block.shape[2:]))  # n may be 0
        if mode == "avg":
            out[every + index] = flat.mean(axis=-1)
            continue
        k = flat.argmax(axis=-1)
        out[every + index] = np.take_along_axis(flat, k[..., None], -1)[..., 0]
        coords = np.unravel_index(k, block.shape[2:])
        where[every + index] = np.ravel_multi_index(
            tuple(coords[a] + box[a].start for a in range(len(box))), spatial)
    if indices is not None:
        indices.append(where)
    return out, (x.shape, tuple(out_size), mode, where)


def _adaptive_bwd(ctx, g):
    shape, out_size, mode, where = ctx.saved
    n, c = shape[:2]
    dx = np.zeros(shape, g.dtype)
    if mode == "max":
        flat = dx.reshape(n * c, math.prod(shape[2:]))
        np.add.at(flat, (np.arange(n * c)[:, None], where.reshape(n * c, math.prod(out_size))),
                  g.reshape(n * c, math.prod(out_size)))
        return dx
    every = (slice(None), slice(None))
    for index, box in _bin_slices(shape[2:], out_size):
        count = math.prod(s.stop - s.start for s in box)
        dx[every + box] += (g[every + index][(...,) + (None,) * len(box)] / count).astype(
            g.dtype, copy=False)
    return dx


ADAPTIVE_POOL = Op("adaptive_pool2d", _adaptive_fwd, _adaptive_bwd, PROMOTE_NONE,
                   first_order_only=True)
ADAPTIVE_POOL3D = Op("adaptive_pool3d", _adaptive_fwd, _adaptive_bwd, PROMOTE_NONE,
                     first_order_only=True)
OPS = (MAX_POOL, AVG_POOL, ADAPTIVE_POOL, MAX_POOL3D, AVG_POOL3D, ADAPTIVE_POOL3D)
_MAX, _AVG = {2: MAX_POOL, 3: MAX_POOL3D}, {2: AVG_POOL, 3: AVG_POOL3D}
_ADAPTIVE = {2: ADAPTIVE_POOL, 3: ADAPTIVE_POOL3D}


def _batched(op, x, rank=2, ints=False):
    """(x with a batch axis, whether an unbatched (C, *spatial) input was given)."""
    if not ints:
        _checks.floating(op, "input", x)
    if x.ndim == rank + 1:
        return x.reshape((1,) + tuple(x.shape)), True
    if x.ndim != rank + 2:
        layout = ("L", "H, W", "D, H, W")[rank - 1]
        raise ValueError(f"For '{op}', the input must be {rank + 1}-D (C, {layout}) or "
                         f"{rank + 2}-D (N, C, {layout}), got {_checks.describe(x)}.")
    return x, False


def _unbatch(out, squeeze):
    return out.reshape(tuple(out.shape[1:])) if squeeze else out


_SIZES: dict = {}  # max pooling's output sizes by (input shape, window arguments)


def max_pool_checked(op, x, kernel, stride, pads, dilation, ceil_mode, return_indices):
    """Max pooling of len(kernel) (2 or 3) spatial axes; `pads` (before, after) per axis."""
    rank = len(kernel)
    xb, squeeze = _batched(op, x, rank)
    key = (xb.shape, kernel, stride, pads, dilation, bool(ceil_mode))
    try:
        out_size = _SIZES.get(key)
    except TypeError:  # a list among the arguments: checked every time
        key = out_size = None
    if out_size is None:  # checked once per geometry; only valid ones are kept
        out_size = _geometry(op, xb, kernel, stride, pads, dilation, ceil_mode)
        if key is not None:
            if len(_SIZES) >= 512:
                _SIZES.clear()
            _SIZES[key] = out_size
    indices = [] if return_indices else None
    out = apply(_MAX[rank], (xb,), {"kernel": kernel, "stride": stride, "pads": pads,
                                    "dilation": dilation, "out_size": out_size,
                                    "indices": indices})
    if not return_indices:
        return _unbatch(out, squeeze)
    return _unbatch(out, squeeze), _unbatch(Tensor(indices[0]), squeeze)


_max_pool = max_pool_checked


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """Mirrors `mindspore.ops.max_pool2d`; indices (with `return_indices`) are flat H*W
    positions in the input, Int64."""
    op = "max_pool2d"
    kernel = W.positive_ints(op, "kernel_size", kernel_size, 2)
    stride = kernel if stride is None else W.positive_ints(op, "stride", stride, 2)
    ph, pw = W.pair(op, "padding", padding)
    if ph > kernel[0] // 2 or pw > kernel[1] // 2:
        raise ValueError(f"For '{op}', 'padding' must be at most half the kernel size "
                         f"{kernel}, got {padding!r}.")
    return _max_pool(op, x, kernel, stride, (ph, ph, pw, pw),
                     W.positive_ints(op, "dilation", dilation, 2), ceil_mode, return_indices)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Mirrors `mindspore.ops.avg_pool2d`."""
    op = "avg_pool2d"
    kernel = W.positive_ints(op, "kernel_size", kernel_size, 2)
    stride = W.positive_ints(op, "stride", stride, 2)
    ph, pw = W.pair(op, "padding", padding)
    return _avg_pool(op, input_x, kernel, stride, (ph, ph, pw, pw), ceil_mode,
                     count_include_pad, divisor_override)


def avg_pool_checked(op, x, kernel, stride, pads, ceil_mode, count_include_pad,
                     divisor_override):
    """Average pooling of len(kernel) (2 or 3) spatial axes; `pads` (before, after) per
    axis; the divisor counts the padding with `count_include_pad`, or is `divisor_override`."""
    rank = len(kernel)
    xb, squeeze = _batched(op, x, rank)
    out_size = _geometry(op, xb, kernel, stride, pads, (1,) * rank, ceil_mode)
    if divisor_override:
        divisor = np.full(out_size, float(divisor_override))
    else:
        taps = [_taps_inside(xb.shape[2 + a], pads[2 * a], pads[2 * a + 1], kernel[a],
                             stride[a], out_size[a], count_include_pad) for a in range(rank)]
        divisor = np.maximum(functools.reduce(np.multiply.outer, taps), 1).astype(np.float64)
    attrs = {"kernel": kernel, "stride": stride, "pads": pads, "out_size": out_size,
             "divisor": np.ascontiguousarray(divisor)}
    return _unbatch(apply(_AVG[rank], (xb,), attrs), squeeze)


_avg_pool = avg_pool_checked


def adaptive_output_size(op, output_size, x, rank):
    """`output_size` (an int, or one int or None per axis: None keeps the input's size)."""
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * rank
    if not isinstance(output_size, (tuple, list)) or len(output_size) != rank or any(
            s is not None and (isinstance(s, bool) or not isinstance(s, int) or s < 1)
            for s in output_size):
        raise TypeError(f"For '{op}', 'output_size' must be a positive int or a tuple of "
                        f"{rank} positive ints or None, got {output_size!r}.")
    return tuple(x.shape[x.ndim - rank + i] if s is None else s
                 for i, s in enumerate(output_size))


_output_size = functools.partial(adaptive_output_size, rank=2)


def adaptive_checked(op, input, output_size, mode, rank, return_indices=False, ints=False):
    """Adaptive pooling of `rank` (2 or 3) spatial axes; indices as flat positions, Int64.
    `ints`: integer inputs are taken too (the caller checked the dtype)."""
    xb, squeeze = _batched(op, input, rank, ints)
    out_size = adaptive_output_size(op, output_size, xb, rank)
    indices = [] if return_indices else None
    out = apply(_ADAPTIVE[rank], (xb,), {"out_size": out_size, "mode": mode,
                                         "indices": indices})
    if not return_indices:
        return _unbatch(out, squeeze)
    return _unbatch(out, squeeze), _unbatch(Tensor(indices[0]), squeeze)


def adaptive_avg_pool2d(input, output_size):
    """Mirrors `mindspore.ops.adaptive_avg_pool2d`."""
    return adaptive_checked("adaptive_avg_pool2d", input, output_size, "avg", 2)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Mirrors `mindspore.ops.adaptive_max_pool2d`."""
    return adaptive_checked("adaptive_max_pool2d", input, output_size, "max", 2,
                            return_indices)


def same_or_valid(op, pad_mode, x, kernel, stride):
    """(before, after) per axis of the trailing len(kernel) axes of `x` for 'valid'/'same'."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    rank = len(kernel)
    if mode == "valid":
        return (0, 0) * rank
    if mode == "same":
        sizes = x.shape[x.ndim - rank:]
        return sum((W.same_padding(sizes[a], kernel[a], stride[a], 1) for a in range(rank)), ())
    raise ValueError(f"For '{op}', 'pad_mode' must be 'valid' or 'same', got {pad_mode!r}.")


_same_or_valid = same_or_valid


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
