"""Resizing: `ops.interpolate` / `ops.upsample` (nearest, nearest-exact, linear, bilinear,
bicubic, area), as MindSpore 2.10 computes them on the CPU.

Each resized axis is a gather: nearest modes read one input position per output position,
(bi)linear modes two, blended with a weight. The op resizes the axes one after the other; its
backward adds each gradient back to the positions it was read from, with `ctx.xp` only, so
gradients of any order flow through it. 'area' is the adaptive average pool. 'bicubic' is a
(out, in) weight matrix per axis applied by matmul: with align_corners, Keys' cubic with
a = -0.75 on clamped taps (as PyTorch); without, MindSpore's half-pixel kernel: a = -0.5, the
fraction rounded to a 1/1024 table, taps outside the input dropped and the rest renormalised.
"""

import math

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.dtype import float16, float32
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks

# mode -> {input rank: the options MindSpore 2.10 accepts for it}
SUPPORTED = {
    "nearest": {3: (), 4: (), 5: ("scale_factor",)},
    "linear": {3: ("align_corners",)},
    "bilinear": {4: ("align_corners",)},
    "bicubic": {4: ("align_corners",)},
    "area": {3: ("scale_factor",), 4: ("scale_factor",), 5: ("scale_factor",)},
    "nearest-exact": {3: (), 4: ()},
    "trilinear": {5: ("align_corners", "scale_factor")},
}
_CUBIC_TABLE = 1024  # MindSpore's (TensorFlow's) bicubic kernel looks weights up in a table


def axis_plan(mode, in_size, out_size, align_corners, dtype, scale_factor=None):
    """(lower, upper, weight of upper) for one axis; nearest modes have no upper/weight.

    Coordinates are computed in float32 for float32/float16 inputs, as MindSpore's kernels
    do, so nearest picks the same positions at exact-looking boundaries. A `scale_factor`
    given (5-D nearest and trilinear) sets the ratio instead of the sizes.
    """
    ct = np.float64 if dtype == np.float64 else np.float32
    dst = np.arange(out_size, dtype=ct)
    ratio = ct(in_size) / ct(out_size) if scale_factor is None else ct(1.0 / scale_factor)
    if mode in ("nearest", "nearest-exact"):
        scale = ratio
        src = np.floor((dst + ct(0.5)) * scale if mode == "nearest-exact" else dst * scale)
        return np.minimum(src.astype(np.int64), in_size - 1), None, None
    if align_corners:
        scale = ct(in_size - 1) / ct(out_size - 1) if out_size > 1 else ct(0)
        src = dst * scale
    else:  # half-pixel centres, clamped at the first element
        src = np.maximum((dst + ct(0.5)) * ratio - ct(0.5), ct(0))
    lower = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    upper = np.minimum(lower + 1, in_size - 1)
    return lower, upper, (src - lower).astype(dtype)


def _along(axis, ndim, index):
    return (slice(None),) * axis + (index,)


def _weight(w, axis, ndim):
    return w.reshape((-1,) + (1,) * (ndim - axis - 1))


def _interp_fwd(x, *, plans):
    steps, weights = [], []
    for axis, (lower, upper, w) in plans:
        steps.append((x.shape, axis, lower, upper))
        low = x[_along(axis, x.ndim, lower)]
        if w is None:
            x = low
            weights.append(None)
        else:
            wb = _weight(w.astype(x.dtype, copy=False), axis, x.ndim)
            x = low * (1 - wb) + x[_along(axis, x.ndim, upper)] * wb
            weights.append(wb)
    # The weights are saved at the top level, so higher orders see them as constant Tensors.
    return x, (tuple(steps), *weights)


def _interp_bwd(ctx, g):
    steps, *weights = ctx.saved
    xp = ctx.xp
    for (shape, axis, lower, upper), wb in zip(reversed(steps), reversed(weights)):
        if wb is None:
            g = xp.index_add_zeros(shape, _along(axis, len(shape), lower), g)
        else:
            g = xp.index_add_zeros(shape, _along(axis, len(shape), lower), g * (1 - wb)) + \
                xp.index_add_zeros(shape, _along(axis, len(shape), upper), g * wb)
    return g


INTERPOLATE = Op("interpolate", _interp_fwd, _interp_bwd, PROMOTE_NONE)
OPS = (INTERPOLATE,)


def _positive_ints(size, spatial):
    size = tuple(size) if isinstance(size, (tuple, list)) else (size,) * spatial
    for i, s in enumerate(size):
        if isinstance(s, bool) or not isinstance(s, int):
            raise TypeError(f"For 'interpolate', the 'size[{i}]' must be int, but got "
                            f"'{type(s).__name__}'.")
        if s <= 0:
            raise ValueError(f"For 'interpolate', the 'size[{i}]' must be int and must > 0, "
                             f"but got '{s}' with type 'int'.")
    return size


def _positive_floats(scale, spatial):
    scale = tuple(scale) if isinstance(scale, (tuple, list)) else (scale,) * spatial
    for s in scale:
        if not isinstance(s, float):
            raise TypeError(f"For 'interpolate', the 'scale_factor' must be float, but got "
                            f"'{type(s).__name__}'.")
        if not s > 0:
            raise ValueError(f"For 'interpolate', the 'scale_factor' must be float and must > "
                             f"0, but got '{s}' with type 'float'.")
    return scale


def _same_rank(name, values, rank):
    if isinstance(values, tuple) and len(values) != rank - 2:
        raise ValueError(f"For 'interpolate', 'input' and '{name}' must have the same spatial "
                         f"dimensions, but got 'input' is {rank - 2}D, '{name}' is "
                         f"{len(values)}D")


def _target_size(x, size, scale_factor, mode, recompute_scale_factor):
    """The output's spatial size and the scale factors the kernel maps positions by (None:
    the sizes' ratio), with MindSpore's checks in MindSpore's order."""
    rank = x.ndim
    if size is not None and scale_factor is not None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be set "
                         "simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("For 'interpolate', 'size' and 'scale_factor' cannot be both empty")
    if size is not None:
        _same_rank("size", tuple(size) if isinstance(size, list) else size, rank)
        size = _positive_ints(size, rank - 2)
    else:
        _same_rank("scale_factor",
                   tuple(scale_factor) if isinstance(scale_factor, list) else scale_factor, rank)
        scale_factor = _positive_floats(scale_factor, rank - 2)
    if not isinstance(mode, str) or mode not in SUPPORTED:
        raise ValueError(f"For 'interpolate', 'mode' must be in '{list(SUPPORTED)}', but got "
                         f"{mode}.")
    if rank not in SUPPORTED[mode]:
        raise ValueError(f"For 'interpolate', {mode} only support '{list(SUPPORTED[mode])}'D, "
                         f"but got {rank}D: {_checks.describe(x)}.")
    if mode == "area" and size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        if not isinstance(recompute_scale_factor, bool):
            raise TypeError(f"For 'interpolate', the 'recompute_scale_factor' must be a bool, "
                            f"but got {type(recompute_scale_factor).__name__}.")
        if size is not None:
            raise ValueError("For 'interpolate', it is incorrect to set 'recompute_scale_factor' "
                             "to True after specifying an explicit 'size'.")
        size = tuple(math.floor(n * s) for n, s in zip(x.shape[2:], scale_factor))
        if min(size) <= 0:
            raise ValueError(f"For 'interpolate', 'scale_factor' {scale_factor} leaves an "
                             f"empty output {size} for {_checks.describe(x)}.")
    elif scale_factor is not None:
        if "scale_factor" not in SUPPORTED[mode][rank]:
            raise ValueError(f"For 'interpolate', 'scale_factor' option cannot currently be set "
                             f"with the mode = {mode} and dim = {rank}D (give 'size', or "
                             f"recompute_scale_factor=True).")
        # the kernel maps positions by the factor itself, not by the sizes' ratio
        return tuple(math.floor(n * s) for n, s in zip(x.shape[2:], scale_factor)), scale_factor
    return size, None


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Mirrors `mindspore.ops.interpolate` (every mode and rank MindSpore 2.10 accepts)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'interpolate', 'input' must be a tensor, but got {type(input)}")
    size, scales = _target_size(input, size, scale_factor, mode, recompute_scale_factor)
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'interpolate', the 'align_corners' must be a bool, but got "
                            f"{type(align_corners).__name__}.")
        if "align_corners" not in SUPPORTED[mode][input.ndim]:
            raise ValueError(f"For 'interpolate', 'align_corners' option cannot currently be "
                             f"set with the mode = {mode}, and dim = {input.ndim}D.")
    _checks.floating("interpolate", "input", input)
    if mode == "area":
        return _area(input, size)
    if mode == "bicubic":
        return _bicubic(input, size, bool(align_corners))
    dtype = input.asnumpy().dtype
    plans = tuple((2 + i, axis_plan(mode, input.shape[2 + i], s, bool(align_corners), dtype,
                                    None if scales is None else scales[i]))
                  for i, s in enumerate(size))
    return apply(INTERPOLATE, (input,), {"plans": plans})


def _keys(t, a):
    t = np.abs(t)
    near = ((a + 2) * t - (a + 3)) * t * t + 1
    far = ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    return np.where(t <= 1, near, np.where(t < 2, far, 0.0))


def cubic_matrix(in_size, out_size, align_corners):
    """The (out_size, in_size) bicubic weights of one axis, as MindSpore's kernel."""
    dst = np.arange(out_size, dtype=np.float64)
    if align_corners:
        a, src = -0.75, dst * ((in_size - 1) / (out_size - 1) if out_size > 1 else 0.0)
    else:
        a, src = -0.5, (dst + 0.5) * (in_size / out_size) - 0.5
    start = np.floor(src)
    t = src - start
    if not align_corners:
        t = np.round(t * _CUBIC_TABLE) / _CUBIC_TABLE
    taps = start.astype(np.int64)[:, None] + np.arange(-1, 3)
    weights = _keys(np.stack([t + 1, t, 1 - t, 2 - t], axis=1), a)
    if not align_corners:
        weights = np.where((taps >= 0) & (taps < in_size), weights, 0.0)
        weights /= weights.sum(axis=1, keepdims=True)
    matrix = np.zeros((out_size, in_size))
    rows = np.repeat(np.arange(out_size), 4)
    np.add.at(matrix, (rows, np.clip(taps, 0, in_size - 1).reshape(-1)), weights.reshape(-1))
    return matrix


def _bicubic(x, size, align_corners):
    from cellgrad.ops import functional as F

    # float16 is computed in float32 and rounded once, as MindSpore's kernel
    dtype = x.dtype
    low = dtype == float16
    if low:
        x = F.cast(x, float32)
    rows, cols = (Tensor(cubic_matrix(n, s, align_corners), x.dtype)
                  for n, s in zip(x.shape[2:], size))
    out = F.matmul(rows, F.matmul(x, F.swapaxes(cols, 0, 1)))
    return F.cast(out, dtype) if low else out


def _area(x, size):
    from cellgrad_nn.spatial.pool import adaptive_avg_pool2d

    if x.ndim == 5:
        from cellgrad_nn.spatial.pool_nd import adaptive_avg_pool3d

        return adaptive_avg_pool3d(x, tuple(size))
    if x.ndim == 4:
        return adaptive_avg_pool2d(x, tuple(size))
    n, c, length = x.shape
    out = adaptive_avg_pool2d(x.reshape((n, c, 1, length)), (1, size[0]))
    return out.reshape((n, c, size[0]))


upsample = interpolate
