"""`cellgrad.mint.nn.functional`, mirroring `mindspore.mint.nn.functional` (exported there by
cellgrad-ops-nn): the table of `_table.FUNCTIONAL` plus the functions below."""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.mint._thin import make
from cellgrad_nn.mint._table import FUNCTIONAL

_NAMESPACE = "mint.nn.functional"

globals().update({name: make(name, getattr(ops, target), params, renames, _NAMESPACE,
                             f"ops.{target}")
                  for name, (target, params, renames) in FUNCTIONAL.items()})


def _implicit_dim(input):
    # torch's legacy choice when `dim` is None, which mint keeps
    return 0 if input.ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):
    """Mirrors `mindspore.mint.nn.functional.softmax`."""
    if dtype is not None:
        input = input.astype(dtype)
    return ops.softmax(input, _implicit_dim(input) if dim is None else dim)


def log_softmax(input, dim=None, *, dtype=None):
    """Mirrors `mindspore.mint.nn.functional.log_softmax`."""
    if dtype is not None:
        input = input.astype(dtype)
    return ops.log_softmax(input, _implicit_dim(input) if dim is None else dim)


def flatten(input, start_dim=0, end_dim=-1):
    """Mirrors `mindspore.mint.nn.functional.flatten`."""
    return ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def one_hot(tensor, num_classes=-1):
    """Mirrors `mindspore.mint.nn.functional.one_hot`: int64 rows of `num_classes` (the largest
    index + 1 when -1)."""
    if num_classes == -1:
        num_classes = int(tensor.max()) + 1
    return ops.one_hot(tensor, num_classes, 1, 0).astype(mstype.int64)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """Mirrors `mindspore.mint.nn.functional.normalize`: input / max(||input||_p, eps)."""
    norm = ops.norm(input, p, dim, keepdim=True)
    return input / ops.clamp(norm, min=eps)


def _conv(name, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'mint.nn.functional.{name}', 'padding' must be 'same', 'valid' "
                             f"or ints, but got {padding!r}.")
        return getattr(ops, name)(input, weight, bias, stride, padding, 0, dilation, groups)
    return getattr(ops, name)(input, weight, bias, stride, "pad", padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Mirrors `mindspore.mint.nn.functional.conv1d` (padding: ints, 'same' or 'valid')."""
    return _conv("conv1d", input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Mirrors `mindspore.mint.nn.functional.conv2d` (padding: ints, 'same' or 'valid')."""
    return _conv("conv2d", input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Mirrors `mindspore.mint.nn.functional.conv3d` (padding: ints, 'same' or 'valid')."""
    return _conv("conv3d", input, weight, bias, stride, padding, dilation, groups)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Mirrors `mindspore.mint.nn.functional.avg_pool1d` (stride defaults to kernel_size)."""
    return ops.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding,
                          ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mirrors `mindspore.mint.nn.functional.avg_pool2d` (stride defaults to kernel_size)."""
    return ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding,
                          ceil_mode, count_include_pad, divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """Mirrors `mindspore.mint.nn.functional.avg_pool3d` (stride defaults to kernel_size)."""
    return ops.avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, padding,
                          ceil_mode, count_include_pad, divisor_override or 0)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Mirrors `mindspore.mint.nn.functional.batch_norm` (weight and bias default to 1 and 0)."""
    channels = input.shape[1]
    if weight is None:
        weight = ops.ones((channels,), input.dtype)
    if bias is None:
        bias = ops.zeros((channels,), input.dtype)
    return ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Mirrors `mindspore.mint.nn.functional.interpolate`: `scale_factor` works in every mode
    (the output size is floor(size * scale_factor), sampled as for that size)."""
    if scale_factor is not None:
        scale_factor = (tuple(float(s) for s in scale_factor)
                        if isinstance(scale_factor, (tuple, list)) else float(scale_factor))
        if recompute_scale_factor is None:
            recompute_scale_factor = True
    return ops.interpolate(input, size, scale_factor, mode, align_corners,
                           recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Mirrors `mindspore.mint.nn.functional.upsample`."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def kl_div(input, target, reduction="mean", log_target=False):
    """Mirrors `mindspore.mint.nn.functional.kl_div`: target * (log(target) - input) summed as
    `reduction` says ('mean', 'batchmean', 'sum', 'none'); `input` holds log-probabilities."""
    if reduction not in ("mean", "batchmean", "sum", "none"):
        raise ValueError(f"For 'mint.nn.functional.kl_div', 'reduction' must be 'mean', "
                         f"'batchmean', 'sum' or 'none', but got {reduction!r}.")
    if log_target:
        pointwise = ops.exp(target) * (target - input)
    else:
        positive = target > 0
        safe = ops.where(positive, target, ops.ones_like(target))
        pointwise = ops.where(positive, target * (ops.log(safe) - input),
                              ops.zeros_like(input * target))
    if reduction == "none":
        return pointwise
    total = ops.sum(pointwise)
    if reduction == "mean":
        return total / pointwise.size
    return total / pointwise.shape[0] if reduction == "batchmean" else total


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Mirrors `mindspore.mint.nn.functional.adaptive_max_pool1d` (indices int64)."""
    out = ops.adaptive_max_pool2d(ops.unsqueeze(input, -2), (1, output_size), return_indices)
    if not return_indices:
        return ops.squeeze(out, -2)
    values, indices = out
    return ops.squeeze(values, -2), ops.squeeze(indices, -2).astype(mstype.int64)


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


def _patch_kernel(kernel_size, dtype):
    """One (kh*kw, 1, kh, kw) filter per patch position, each picking one pixel."""
    kh, kw = kernel_size
    return Tensor(np.eye(kh * kw).reshape(kh * kw, 1, kh, kw), dtype)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `mindspore.mint.nn.functional.unfold` (torch's im2col): (N, C*kh*kw, L)."""
    if input.ndim != 4:
        raise ValueError(f"For 'mint.nn.functional.unfold', 'input' must be 4-D, but got shape "
                         f"{input.shape}.")
    n, c, h, w = input.shape
    kernel_size = _pair(kernel_size)
    cols = ops.conv2d(input.reshape(n * c, 1, h, w), _patch_kernel(kernel_size, input.dtype),
                      None, _pair(stride), "pad", _pair(padding), _pair(dilation))
    return cols.reshape(n, c * kernel_size[0] * kernel_size[1], -1)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `mindspore.mint.nn.functional.fold` (torch's col2im): sums the patches of
    (N, C*kh*kw, L) into (N, C, *output_size)."""
    kernel_size, output_size = _pair(kernel_size), _pair(output_size)
    dilation, padding, stride = _pair(dilation), _pair(padding), _pair(stride)
    blocks = [(size + 2 * p - d * (k - 1) - 1) // s + 1 for size, p, d, k, s in
              zip(output_size, padding, dilation, kernel_size, stride)]
    n, ckk, length = input.shape
    patch = kernel_size[0] * kernel_size[1]
    if ckk % patch or length != blocks[0] * blocks[1]:
        raise ValueError(f"For 'mint.nn.functional.fold', 'input' of shape {input.shape} does not "
                         f"match kernel_size={kernel_size} and output_size={output_size} "
                         f"({blocks[0] * blocks[1]} blocks).")
    c = ckk // patch
    cols = input.reshape(n * c, patch, *blocks)
    extra = tuple(size + 2 * p - ((b - 1) * s - 0 + d * (k - 1) + 1) for size, p, d, k, s, b in
                  zip(output_size, padding, dilation, kernel_size, stride, blocks))
    out = ops.conv_transpose2d(cols, _patch_kernel(kernel_size, input.dtype), None, stride,
                               padding, extra, 1, dilation)
    return out.reshape(n, c, *output_size)


def conv_tbc(input, weight, bias, pad=0):
    """Mirrors `mindspore.mint.conv_tbc`: a 1-D convolution of (time, batch, channels) input with
    a (kernel, in, out) weight."""
    out = ops.conv1d(ops.permute(input, (1, 2, 0)), ops.permute(weight, (2, 1, 0)), bias, 1,
                     "pad", pad)
    return ops.permute(out, (2, 0, 1))


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Mirrors `mindspore.mint.nn.functional.max_unpool2d`: each value goes to its index in a
    zero (N, C, H, W) output; H, W default to (size - 1) * stride - 2 * padding + kernel."""
    kernel_size = _pair(kernel_size)
    stride = kernel_size if stride is None else _pair(stride)
    padding = _pair(padding)
    if output_size is None:
        output_size = tuple((size - 1) * s - 2 * p + k for size, s, p, k in
                            zip(input.shape[-2:], stride, padding, kernel_size))
    else:
        output_size = tuple(output_size)[-2:]
    lead = input.shape[:-2]
    flat = input.reshape(*lead, -1)
    zeros = ops.zeros((*lead, output_size[0] * output_size[1]), input.dtype)
    out = ops.tensor_scatter_elements(zeros, indices.reshape(*lead, -1).astype(mstype.int64),
                                      flat, -1, "add")
    return out.reshape(*lead, *output_size)
