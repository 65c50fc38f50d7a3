"""Padding and window arithmetic shared by convolution and pooling."""

import math

from cellgrad_nn.functional import _checks, _lowp


def pair(op, name, value):
    """An int or a 2-tuple of ints as (h, w)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of 2 ints, got {value!r}.")


def ints_of(op, name, value, rank):
    """An int or a tuple of `rank` ints as a `rank`-tuple."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * rank
    if isinstance(value, (tuple, list)) and len(value) == rank and \
            all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of {rank} ints, got "
                    f"{value!r}.")


def positive_ints(op, name, value, rank):
    """`ints_of`, each at least 1 (MindSpore checks window sizes at entry)."""
    out = ints_of(op, name, value, rank)
    for v in out:
        if v < 1:
            raise ValueError(f"For '{op}', the '{name}' must be int and must >= 1, but got "
                             f"'{v}' with type 'int'.")
    return out


def explicit_padding(op, padding, rank=2):
    """MindSpore's `padding` as (before, after) per axis: an int, one int per axis, or a pair
    per axis ((top, bottom, left, right) in 2-D, (head, tail, top, bottom, left, right) in
    3-D)."""
    if rank != 2:
        if isinstance(padding, (tuple, list)) and len(padding) == rank:
            padding = tuple(p for p in padding for _ in range(2))
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * rank)
        if not isinstance(padding, (tuple, list)) or len(padding) != 2 * rank or \
                any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in padding):
            raise ValueError(f"For '{op}', 'padding' must be a non-negative int or a tuple of "
                             f"{rank} or {2 * rank} non-negative ints, got {padding!r}.")
        return tuple(padding)
    """MindSpore's `padding`: an int, (h, w) or (top, bottom, left, right) -> 4-tuple."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        pads = (padding,) * 4
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        pads = (padding[0], padding[0], padding[1], padding[1])
    elif isinstance(padding, (tuple, list)) and len(padding) == 4:
        pads = tuple(padding)
    else:
        raise TypeError(f"For '{op}', 'padding' must be an int or a tuple of 2 or 4 ints, got "
                        f"{padding!r}.")
    if any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in pads):
        raise ValueError(f"For '{op}', 'padding' must be non-negative ints, got {padding!r}.")
    return pads


def same_padding(size, kernel, stride, dilation):
    """(before, after) so the output has ceil(size / stride) positions (extra goes after)."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def pads_for(op, pad_mode, padding, hw, kernel, stride, dilation):
    """(before, after) per spatial axis, flat, for MindSpore's pad modes."""
    rank = len(kernel)
    if pad_mode in ("valid", "same"):
        if padding != 0 and (not isinstance(padding, (tuple, list)) or any(padding)):
            raise ValueError(f"For '{op}', 'padding' must be 0 when pad_mode is {pad_mode!r}, "
                             f"got {padding!r}.")
        if pad_mode == "valid":
            return (0, 0) * rank
        return sum((same_padding(hw[a], kernel[a], stride[a], dilation[a])
                    for a in range(rank)), ())
    if pad_mode == "pad":
        return explicit_padding(op, padding, rank)
    raise ValueError(f"For '{op}', 'pad_mode' must be one of 'same', 'valid', 'pad', got "
                     f"{pad_mode!r}.")


def output_size(op, size, pad, kernel, stride, dilation, ceil_mode=False, what="input"):
    span = (kernel - 1) * dilation + 1
    padded = size + pad
    if padded < span:
        raise ValueError(f"For '{op}', the kernel (extent {span} with dilation) is larger than "
                         f"the padded {what} ({padded}).")
    n = (padded - span) / stride + 1
    return math.ceil(n) if ceil_mode else math.floor(n)


def kernel_dtype(a):
    """`a` in a dtype the Cython kernels take: float16 computes in float32 (None stays)."""
    return _lowp.f32(a)  # F16C conversions (numpy's float16 casts are ~30x slower)


def check_rank(op, name, x, rank):
    """`x` a floating Tensor of `rank` spatial dimensions after (N, C)."""
    _checks.floating(op, name, x)
    if x.ndim != rank + 2:
        layout = ("(N, C, L)", "(N, C, H, W)", "(N, C, D, H, W)")[rank - 1]
        raise ValueError(f"For '{op}', '{name}' must be {rank + 2}-D {layout}, got "
                         f"{_checks.describe(x)}.")


def check_4d(op, name, x):
    _checks.floating(op, name, x)
    if x.ndim != 4:
        raise ValueError(f"For '{op}', '{name}' must be 4-D (N, C, H, W), got "
                         f"{_checks.describe(x)}.")
