"""`mindspore.ops.DepthwiseConv2dNative` (deprecated in MindSpore; its CPU build has no kernel):
a depthwise convolution, computed by `ops.conv2d` with one group per input channel."""

import numbers

from cellgrad import dtype as mstype
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.spatial.conv import conv2d

__all__ = ["DepthwiseConv2dNative"]


def _pair(op, name, value):
    ok = isinstance(value, int) and not isinstance(value, bool) or (
        isinstance(value, tuple) and len(value) == 2)
    pair = (value, value) if isinstance(value, int) else tuple(value) if ok else ()
    if not ok or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                         for v in pair):
        raise ValueError(f"For '{op}' attr '{name}' must be an positive int number or a tuple "
                         f"of two positive int numbers, but got {value}")
    return pair


class DepthwiseConv2dNative(Primitive):
    """Mirrors `mindspore.ops.DepthwiseConv2dNative` (deprecated: use nn.Conv2d or ops.conv2d
    with group = channels): x (N, C, H, W), weight (1, C, KH, KW), one filter per channel."""

    @prim_attr_register
    def __init__(self, channel_multiplier, kernel_size, mode=3, pad_mode="valid", pad=0,
                 stride=1, dilation=1, group=1):
        op = self.name
        self.kernel_size = _pair(op, "kernel_size", kernel_size)
        self.stride = _pair(op, "stride", stride)
        self.dilation = _pair(op, "dilation", dilation)
        for name, pair in (("stride", self.stride), ("dilation", self.dilation)):
            if pair[0] != pair[1]:
                raise ValueError(f"The height and width of '{name}' must be equal,but got "
                                 f"height:{pair[0]},  width:{pair[1]}")
        if isinstance(pad, bool) or not isinstance(pad, (int, tuple)):
            raise TypeError(f"For '{op}', the type of 'pad' should be one of ['int', 'tuple'], "
                            f"but got '{type(pad).__name__}'.")
        pad = (pad,) * 4 if isinstance(pad, int) else pad
        if len(pad) != 4 or not all(isinstance(p, numbers.Integral) and p >= 0 for p in pad):
            raise ValueError(f"For '{op}', 'pad' must be 4 non-negative ints, but got {pad}.")
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{op}', the 'pad_mode' must be str and must be in "
                             f"['valid', 'same', 'pad'], but got '{pad_mode}'.")
        if pad_mode.lower() != "pad" and pad != (0, 0, 0, 0):
            raise ValueError(f"For '{op}', the 'pad' must be zero or (0, 0, 0, 0) when "
                             f"'pad_mode' is not \"pad\", but got 'pad' is {pad} and "
                             f"'pad_mode' is {pad_mode}.")
        self.pad_mode, self.padding = pad_mode.lower(), tuple(int(p) for p in pad)
        if C.integer(op, "mode", mode) != 3:
            raise ValueError(f"For '{op}', 'mode' must be 3, but got {mode}.")
        for name, value in (("channel_multiplier", channel_multiplier), ("group", group)):
            if C.integer(op, name, value) <= 0:
                raise ValueError(f"For '{op}', '{name}' must be a positive int, but got "
                                 f"{value}.")
        self.channel_multiplier = channel_multiplier

    def __call__(self, x, w):
        op = self.name
        C.tensor(op, "x", x)
        C.tensor(op, "w", w)
        for name, t in (("x", x), ("w", w)):  # MindSpore checks dtypes before shapes
            if t.dtype == mstype.bool_:
                raise TypeError(f"For '{op}', the type of '{name}' must be a number Tensor, "
                                f"but got {t.dtype}.")
        if x.dtype != w.dtype:
            raise TypeError(f"For '{op}', 'x' and 'w' must have the same dtype, but got "
                            f"{x.dtype} and {w.dtype}.")
        if x.ndim != 4 or w.ndim != 4:
            raise ValueError(f"For '{op}', 'x' and 'w' must be 4-D, but got shapes "
                             f"{tuple(x.shape)} and {tuple(w.shape)}.")
        if w.shape[0] != 1:
            raise ValueError(f"For '{op}', the batch of 'weight' must be 1, but got "
                             f"{w.shape[0]}")
        if w.shape[1] != x.shape[1] or tuple(w.shape[2:]) != self.kernel_size:
            raise ValueError(f"For '{op}', 'w' must be (1, {x.shape[1]}, *{self.kernel_size}), "
                             f"but got {tuple(w.shape)}.")
        if self.channel_multiplier != 1:  # MindSpore's constructor takes it; only 1 computes
            raise ValueError(f"For '{op}', the weight (1, C, KH, KW) holds one filter per "
                             f"channel, so 'channel_multiplier' must be 1 here, but got "
                             f"{self.channel_multiplier}; for more output channels use "
                             f"ops.conv2d with group=C and a weight (C * multiplier, 1, KH, KW).")
        channels = x.shape[1]
        weight = F.reshape(w, (channels, 1, *self.kernel_size))
        return conv2d(x, weight, None, self.stride, self.pad_mode,
                      self.padding if self.pad_mode == "pad" else 0, self.dilation, channels)
