"""MindSpore's image primitives on (N, C, H, W) tensors: `ResizeBilinearV2`, the 1.x
`ResizeBilinear`, `ResizeNearestNeighbor` and `DepthToSpace`, as MindSpore 2.10 computes them
on the CPU.

The resizes are the interpolation op of `cellgrad_nn.spatial.interpolate` (a gather per axis,
its backward the matching scatter) with TensorFlow's coordinate rules: the legacy one
(source = destination * in / out), `align_corners` and `half_pixel_centers`.
"""

import warnings

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._prim_attrs import of_type, size_pair
from cellgrad_nn.spatial.interpolate import INTERPOLATE


def _plan(bilinear, in_size, out_size, align_corners, half_pixel, dtype):
    """(lower, upper, weight of upper) for one axis; nearest has no upper/weight.

    Coordinates are float32 for float16/float32 inputs, as MindSpore's kernels compute them.
    MindSpore 2.10's CPU nearest-neighbour kernel ignores `half_pixel_centers`.
    """
    ct = np.float64 if dtype == np.float64 else np.float32
    dst = np.arange(out_size, dtype=ct)
    if align_corners and out_size > 1:
        scale = ct(in_size - 1) / ct(out_size - 1)
    else:
        scale = ct(0) if align_corners else ct(in_size) / ct(out_size)
    if not bilinear:
        src = np.floor(dst * scale + ct(0.5)) if align_corners else np.floor(dst * scale)
        return np.minimum(src.astype(np.int64), in_size - 1), None, None
    src = (dst + ct(0.5)) * scale - ct(0.5) if half_pixel else dst * scale
    src = np.maximum(src, ct(0))  # a negative source reads the first element only
    lower = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    upper = np.minimum(lower + 1, in_size - 1)
    return lower, upper, (src - lower).astype(dtype)


def _size(op, size):
    if isinstance(size, Tensor):
        size = tuple(int(s) for s in size.asnumpy().reshape(-1))
    if not isinstance(size, (tuple, list)) or len(size) != 2 or any(
            isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s <= 0 for s in size):
        raise ValueError(f"For '{op}', 'size' must be a tuple or list of two positive ints "
                         f"(height, width), got {size!r}.")
    return tuple(int(s) for s in size)


def resize(op, x, size, bilinear, align_corners, half_pixel_centers):
    """Resize the last two axes of an (N, C, H, W) tensor to `size`."""
    _checks.tensor(op, "x", x)
    if x.ndim != 4:
        raise ValueError(f"For primitive[{op}], the image rank must be equal to 4, but got "
                         f"{x.ndim}.")
    align_corners, half_pixel_centers = bool(align_corners), bool(half_pixel_centers)
    if align_corners and half_pixel_centers:
        raise ValueError(f"For {op}, the half_pixel_centers must be false when align_corners "
                         f"is true, but half_pixel_centers got True.")
    if bilinear:
        _checks.floating(op, "x", x)
    size = _size(op, size)
    dtype = x.asnumpy().dtype
    plans = tuple((2 + i, _plan(bilinear, x.shape[2 + i], s, align_corners, half_pixel_centers,
                                dtype)) for i, s in enumerate(size))
    return apply(INTERPOLATE, (x,), {"plans": plans})


class ResizeBilinearV2(Primitive):
    """Mirrors `mindspore.ops.ResizeBilinearV2(align_corners=False, half_pixel_centers=False)
    (x, size)`."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        pass  # MindSpore records the flags as given (an int included)

    def __call__(self, x, size):
        return resize(self.name, x, size, True, self.align_corners, self.half_pixel_centers)


class ResizeBilinear(Primitive):
    """MindSpore 1.x's `ops.ResizeBilinear(size, align_corners=False,
    half_pixel_centers=False)(x)`, which MindSpore 2.10 no longer has: deprecated, use
    `ops.ResizeBilinearV2` (the size moves to the call)."""

    @prim_attr_register
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        warnings.warn("ops.ResizeBilinear is MindSpore 1.x's name (removed in MindSpore 2.x): "
                      "use ops.ResizeBilinearV2(align_corners, half_pixel_centers)(x, size).",
                      DeprecationWarning, stacklevel=3)
        self.add_prim_attr("size", size_pair(self.name, size))

    def __call__(self, x):
        return resize(self.name, x, self.size, True, self.align_corners,
                      self.half_pixel_centers)


class ResizeNearestNeighbor(Primitive):
    """Mirrors `mindspore.ops.ResizeNearestNeighbor(size, align_corners=False,
    half_pixel_centers=False)(input_x)`; MindSpore 2.10's CPU kernel (and so cellgrad)
    ignores `half_pixel_centers`."""

    @prim_attr_register
    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        self.add_prim_attr("size", size_pair(self.name, size))

    def __call__(self, input_x):
        return resize(self.name, input_x, self.size, False, self.align_corners,
                      self.half_pixel_centers)


class DepthToSpace(Primitive):
    """Mirrors `mindspore.ops.DepthToSpace(block_size)`: (N, C*b*b, H, W) -> (N, C, H*b, W*b),
    TensorFlow's depth-column-row order."""

    @prim_attr_register
    def __init__(self, block_size):
        of_type(self.name, "block_size", block_size, int)
        if block_size < 2:
            raise ValueError(f"For 'DepthToSpace', the 'block_size' should be >= : 2, but got "
                             f"{block_size}.")
        self.add_prim_attr("data_format", "NCHW")

    def __call__(self, x):
        b = self.block_size
        _checks.tensor(self.name, "x", x)
        if x.ndim != 4:
            raise ValueError(f"For 'DepthToSpace', the 'x' must be 4-D (N, C, H, W), got "
                             f"{_checks.describe(x)}.")
        n, c, h, w = x.shape
        if c < b * b or c % (b * b):
            raise ValueError(f"For DepthToSpace, the input channel must be a multiple of the "
                             f"square of block_size, but got the block_size is {b}, and the "
                             f"input channel is {c}.")
        y = F.reshape(x, (n, b, b, c // (b * b), h, w))
        y = F.transpose(y, (0, 3, 4, 1, 5, 2))
        return F.reshape(y, (n, c // (b * b), h * b, w * b))
