"""1-D and 3-D pooling: `ops.max_pool3d`, `ops.avg_pool1d`, `ops.avg_pool3d`,
`ops.adaptive_{avg,max}_pool{1,3}d` and the `ops.MaxPool3D`, `ops.MaxPool3DWithArgmax`,
`ops.AvgPool3D`, `ops.AdaptiveAvgPool3D`, `ops.AdaptiveMaxPool3D` primitives.

3-D runs on the same ops (and Cython kernels) as 2-D; 1-D runs as 2-D over (N, C, 1, L), as
MindSpore builds it, which is exact.
"""

import numpy as np

from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial import _window as W
from cellgrad_nn.spatial.pool import (
    adaptive_checked,
    avg_pool_checked,
    max_pool_checked,
    same_or_valid,
)


def pads_of(op, name, padding, rank):
    """(before, after) per axis from an int, one int per axis or a pair per axis."""
    if isinstance(padding, list):
        padding = tuple(padding)
    if isinstance(padding, tuple) and len(padding) == 1:
        padding = padding[0]
    if isinstance(padding, int) and not isinstance(padding, bool):
        padding = (padding,) * rank
    if isinstance(padding, tuple) and len(padding) == rank:
        padding = tuple(p for p in padding for _ in range(2))
    if not isinstance(padding, tuple) or len(padding) != 2 * rank or any(
            isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in padding):
        raise ValueError(f"For '{op}', '{name}' must be a non-negative int or a tuple of "
                         f"{rank} or {2 * rank} non-negative ints, got {padding!r}.")
    return padding


def _positive(op, name, value, rank):
    out = W.ints_of(op, name, value, rank)
    if any(v < 1 for v in out):
        raise ValueError(f"For '{op}', '{name}' must be positive, got {value!r}.")
    return out


def _n_of(op, name, value, rank):
    """An int, one int per axis, or (1, 1, ...) with N and C, as a `rank`-tuple."""
    if isinstance(value, (tuple, list)) and len(value) == rank + 2:
        value = tuple(value[2:])
    return _positive(op, name, value, rank)


def _padding_fits(op, pads, kernel, dilation):
    for a, k in enumerate(kernel):
        span = (k - 1) * dilation[a] + 1
        if max(pads[2 * a], pads[2 * a + 1]) > span // 2:
            raise ValueError(f"For '{op}', 'padding' must be at most half the (dilated) kernel "
                             f"{kernel}, got {pads}.")


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Mirrors `mindspore.ops.max_pool3d`: x (N, C, D, H, W); indices (with `return_indices`)
    are flat D*H*W positions in the input, Int64."""
    op = "max_pool3d"
    kernel = _positive(op, "kernel_size", kernel_size, 3)
    stride = kernel if stride is None else _positive(op, "stride", stride, 3)
    dilation = _positive(op, "dilation", dilation, 3)
    pads = pads_of(op, "padding", padding, 3)
    _padding_fits(op, pads, kernel, dilation)
    return max_pool_checked(op, x, kernel, stride, pads, dilation, ceil_mode, return_indices)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Mirrors `mindspore.ops.avg_pool3d`: `padding` an int, one per axis or (head, tail, top,
    bottom, left, right)."""
    op = "avg_pool3d"
    return avg_pool_checked(op, input_x, _positive(op, "kernel_size", kernel_size, 3),
                            _positive(op, "stride", stride, 3),
                            pads_of(op, "padding", padding, 3), ceil_mode, count_include_pad,
                            _divisor(op, divisor_override))


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Mirrors `mindspore.ops.avg_pool1d`: input_x (N, C, L)."""
    op = "avg_pool1d"
    _three_d(op, "input_x", input_x)
    kernel = _positive(op, "kernel_size", kernel_size, 1)
    stride = _positive(op, "stride", stride, 1)
    pads = pads_of(op, "padding", padding, 1)
    n, c, length = input_x.shape
    out = avg_pool_checked(op, input_x.reshape((n, c, 1, length)), (1,) + kernel, (1,) + stride,
                           (0, 0) + pads, ceil_mode, count_include_pad, 0)
    return out.reshape(tuple(out.shape[:2]) + (out.shape[3],))


def _three_d(op, name, x):
    _checks.floating(op, name, x)
    if x.ndim != 3:
        raise ValueError(f"For '{op}', '{name}' must be 3-D (N, C, L), got "
                         f"{_checks.describe(x)}.")


def _divisor(op, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{op}', 'divisor_override' must be a non-negative int, got "
                         f"{value!r}.")
    return value


def adaptive_1d(op, input, output_size, mode):
    """MindSpore's 1-D adaptive pooling: (N, C, L) float16/float32 with L a multiple of
    `output_size`, so every bin is one window of size and stride L / output_size."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For {op}, the input input must be tensor, got "
                        f"{type(input).__name__}.")
    if isinstance(output_size, bool) or not isinstance(output_size, int) or output_size < 1:
        raise ValueError(f"For {op}, 'output_size' must be a positive int, got "
                         f"{output_size!r}.")
    if input.ndim != 3:
        raise ValueError(f"For {op} input must have 3 dim, but got {input.ndim}.")
    length = input.shape[2]
    if length < output_size or length % output_size:
        raise ValueError(f"For {op} input's last dimension must be greater or equal to and "
                         f"divisible by output size {output_size}, but got {length}.")
    if input.asnumpy().dtype not in (np.float16, np.float32):
        raise TypeError(f"For {op}, the input dtype must be float16 or float32, but got "
                        f"{input.dtype}.")
    n, c = input.shape[:2]
    out = adaptive_checked(op, input.reshape((n, c, 1, length)), (1, output_size), mode, 2)
    return out.reshape((n, c, output_size))


def adaptive_avg_pool1d(input, output_size):
    """Mirrors `mindspore.ops.adaptive_avg_pool1d` (float16/float32, L divisible by
    `output_size`)."""
    return adaptive_1d("adaptive_avg_pool1d", input, output_size, "avg")


def adaptive_max_pool1d(input, output_size):
    """Mirrors `mindspore.ops.adaptive_max_pool1d` (float16/float32, L divisible by
    `output_size`)."""
    return adaptive_1d("adaptive_max_pool1d", input, output_size, "max")


def adaptive_avg_pool3d(input, output_size):
    """Mirrors `mindspore.ops.adaptive_avg_pool3d`: (N, C, D, H, W) or (C, D, H, W);
    `output_size` an int or three ints or None (None keeps that axis)."""
    return adaptive_checked("adaptive_avg_pool3d", input, output_size, "avg", 3)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Mirrors `mindspore.ops.adaptive_max_pool3d`; indices are flat D*H*W positions, Int32 as
    MindSpore's; integer inputs keep their dtype."""
    op = "adaptive_max_pool3d"
    if isinstance(input, Tensor) and (input.dtype == mstype.bool_ or input.asnumpy().dtype.kind
                                      not in "fiu"):
        raise TypeError(f"For primitive[AdaptiveMaxPool3D], the input argument[x] must be a type "
                        f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], "
                        f"Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16], "
                        f"Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}}, but got "
                        f"Tensor[{input.dtype}].")
    out = adaptive_checked(op, input, output_size, "max", 3, return_indices, ints=True)
    if not return_indices:
        return out
    return out[0], Tensor(out[1].asnumpy().astype(np.int32))


class MaxPool3D(Primitive):
    """Mirrors `mindspore.ops.MaxPool3D`: 'VALID', 'SAME' or 'PAD' with `pad_list` (an int,
    one per axis or six); `ceil_mode` (True/False) only with 'PAD'."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        super().__init__("MaxPool3D")
        op = "MaxPool3D"
        self.pad_mode = _pool_mode(op, pad_mode)
        if data_format != "NCDHW":
            raise ValueError(f"For '{op}', 'data_format' must be 'NCDHW', got {data_format!r}.")
        self.kernel_size = _n_of(op, "kernel_size", kernel_size, 3)
        self.strides = _n_of(op, "strides", strides, 3)
        self.pad_list = pads_of(op, "pad_list", pad_list, 3)
        if self.pad_mode != "PAD" and (any(self.pad_list) or ceil_mode is not None):
            raise ValueError(f"For '{op}', 'pad_list' must be 0 and 'ceil_mode' None when "
                             f"'pad_mode' is not 'pad', got pad_list {pad_list!r}, ceil_mode "
                             f"{ceil_mode!r}.")
        self.ceil_mode = bool(ceil_mode)
        self.data_format = data_format

    def __call__(self, x):
        pads = self.pad_list if self.pad_mode == "PAD" else \
            same_or_valid("MaxPool3D", self.pad_mode, x, self.kernel_size, self.strides)
        return max_pool_checked("MaxPool3D", x, self.kernel_size, self.strides, pads, (1, 1, 1),
                                self.ceil_mode, False)


class MaxPool3DWithArgmax(Primitive):
    """Mirrors `mindspore.ops.MaxPool3DWithArgmax`: returns (output, argmax), the argmax flat
    D*H*W positions (Int64, or Int32 with `argmax_type`)."""

    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
                 data_format="NCDHW", argmax_type=mstype.int64):
        super().__init__("MaxPool3DWithArgmax")
        op = "MaxPool3DWithArgmax"
        if data_format != "NCDHW":
            raise ValueError(f"For '{op}', 'data_format' must be 'NCDHW', got {data_format!r}.")
        self.ksize = _n_of(op, "ksize", ksize, 3)
        self.strides = _n_of(op, "strides", strides, 3)
        self.pads = pads_of(op, "pads", pads, 3)
        self.dilation = _n_of(op, "dilation", dilation, 3)
        self.ceil_mode = bool(ceil_mode)
        self.argmax_type = argmax_type
        self.data_format = data_format

    def __call__(self, x):
        out, argmax = max_pool_checked("MaxPool3DWithArgmax", x, self.ksize, self.strides,
                                       self.pads, self.dilation, self.ceil_mode, True)
        if self.argmax_type == mstype.int32:
            argmax = Tensor(argmax.asnumpy().astype(np.int32))
        return out, argmax


class AvgPool3D(Primitive):
    """Mirrors `mindspore.ops.AvgPool3D`: 'valid', 'same' or 'pad' with `pad` (an int or six);
    the divisor counts padding with `count_include_pad` (also under 'same', as MindSpore's)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format="NCDHW"):
        super().__init__("AvgPool3D")
        op = "AvgPool3D"
        self.pad_mode = _pool_mode(op, pad_mode)
        if data_format != "NCDHW":
            raise ValueError(f"For '{op}', 'data_format' must be 'NCDHW', got {data_format!r}.")
        self.kernel_size = _n_of(op, "kernel_size", kernel_size, 3)
        self.strides = _n_of(op, "strides", strides, 3)
        self.pad_list = pads_of(op, "pad", pad, 3)
        if self.pad_mode != "PAD" and any(self.pad_list):
            raise ValueError(f"For '{op}', 'pad' must be 0 when 'pad_mode' is not 'pad', got "
                             f"{pad!r}.")
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self.divisor_override = _divisor(op, divisor_override)
        self.data_format = data_format

    def __call__(self, x):
        pads = self.pad_list if self.pad_mode == "PAD" else \
            same_or_valid("AvgPool3D", self.pad_mode, x, self.kernel_size, self.strides)
        return avg_pool_checked("AvgPool3D", x, self.kernel_size, self.strides, pads,
                                self.ceil_mode, self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3D(Primitive):
    """Mirrors `mindspore.ops.AdaptiveAvgPool3D(output_size)`."""

    def __init__(self, output_size):
        super().__init__("AdaptiveAvgPool3D")
        self.output_size = output_size

    def __call__(self, x):
        return adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool3D(Primitive):
    """Mirrors `mindspore.ops.AdaptiveMaxPool3D()`: `(x, output_size)` -> (y, argmax Int32)."""

    def __init__(self):
        super().__init__("AdaptiveMaxPool3D")

    def __call__(self, x, output_size):
        if isinstance(output_size, Tensor):
            output_size = tuple(int(v) for v in output_size.asnumpy().reshape(-1))
        return adaptive_max_pool3d(x, output_size, True)


def _pool_mode(op, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
        raise ValueError(f"For '{op}', 'pad_mode' must be one of 'VALID', 'SAME', 'PAD', got "
                         f"{pad_mode!r}.")
    return pad_mode.upper()
