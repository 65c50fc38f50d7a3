"""The pooling ops the main pooling family lacks: power-average (`lp_pool1d/2d`), unpooling
(`max_unpool1d/2d/3d`, `MaxUnpool2D/3D`), fractional max pooling
(`fractional_max_pool2d/3d`, `FractionalMaxPoolWithFixedKsize`,
`FractionalMaxPool3DWithFixedKsize`), local response normalization (`lrn`, `LRN`) and
`image_gradients`.

Unpooling is a scatter and fractional pooling a gather of indices computed in numpy, so both
differentiate through the core's scatter/gather ops; lp pooling and LRN are compositions, as in
MindSpore."""

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional import _checks


def _floating(op, name, x):
    if not isinstance(x, Tensor) or x.asnumpy().dtype.type not in (np.float16, np.float32,
                                                                   np.float64):
        raise TypeError(f"For '{op}', the '{name}' must be a Tensor of float16, float32 or "
                        f"float64, but got {_checks.describe(x)}.")


def _rank(op, name, x, ranks):
    if x.ndim not in ranks:
        raise ValueError(f"For '{op}', the dimension of '{name}' must be "
                         f"{' or '.join(map(str, ranks))}, but got {x.ndim} (shape {x.shape}).")


def _tuple(op, name, value, dims, least=1):
    values = (value,) * dims if isinstance(value, int) and not isinstance(value, bool) \
        else tuple(value) if isinstance(value, (tuple, list)) else None
    if values is None or len(values) != dims or \
            not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of {dims} ints, but got "
                        f"{value!r}.")
    if any(v < least for v in values):
        raise ValueError(f"For '{op}', every value of '{name}' must be at least {least}, but got "
                         f"{value!r}.")
    return values


def _norm_type(op, norm_type):
    if isinstance(norm_type, bool) or not isinstance(norm_type, (float, int)):
        raise TypeError(f"For {op}, the type of 'norm_type' must be float or int, but got "
                        f"{type(norm_type)}")
    if norm_type == 0:
        raise ValueError(f"For {op}, the value of 'norm_type' can not be 0.")
    return float(norm_type)


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Mirrors `mindspore.ops.lp_pool1d`: (sum over each window of x**p)**(1/p) for (N, C, L)
    or (C, L) input."""
    p = _norm_type("lp_pool1d", norm_type)
    _floating("lp_pool1d", "x", x)
    _rank("lp_pool1d", "x", x, (2, 3))
    if not isinstance(kernel_size, int) or (stride is not None and not isinstance(stride, int)):
        raise TypeError("For 'lp_pool1d', 'kernel_size' and 'stride' must be int, but got "
                        f"{kernel_size!r} and {stride!r}.")
    stride = kernel_size if stride is None else stride
    squeeze = x.ndim == 2
    pooled = ops.avg_pool1d(ops.pow(x, p).expand_dims(0) if squeeze else ops.pow(x, p),
                            kernel_size, stride, 0, ceil_mode)
    out = pooled.squeeze(0) if squeeze else pooled
    return ops.pow(ops.sign(out) * ops.relu(ops.abs(out)) * kernel_size, 1.0 / p)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Mirrors `mindspore.ops.lp_pool2d`: (sum over each window of x**p)**(1/p) for (N, C, H, W)
    input."""
    p = _norm_type("lp_pool2d", norm_type)
    _floating("lp_pool2d", "x", x)
    _rank("lp_pool2d", "x", x, (4,))
    kernel = _tuple("lp_pool2d", "kernel_size", kernel_size, 2)
    stride = kernel if stride is None else _tuple("lp_pool2d", "stride", stride, 2)
    out = ops.avg_pool2d(ops.pow(x, p), kernel, stride, 0, ceil_mode)
    return ops.pow(ops.sign(out) * ops.relu(ops.abs(out)) * (kernel[0] * kernel[1]), 1.0 / p)


def _max_unpool(op, dims, x, indices, kernel_size, stride, padding, output_size):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', 'x' must be a Tensor, but got {_checks.describe(x)}.")
    _rank(op, "x", x, (dims + 1, dims + 2))
    if not isinstance(indices, Tensor) or indices.asnumpy().dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'indices' must be a Tensor of int32 or int64, but got "
                        f"{_checks.describe(indices)}.")
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"For '{op}', 'indices' must have the shape of 'x' {x.shape}, but got "
                         f"{indices.shape}.")
    kernel = _tuple(op, "kernel_size", kernel_size, dims)
    stride = kernel if stride is None else _tuple(op, "stride", stride, dims)
    padding = _tuple(op, "padding", padding, dims, least=0)
    default = tuple((size - 1) * s - 2 * p + k for size, s, p, k in
                    zip(x.shape[-dims:], stride, padding, kernel))
    if output_size is None or len(output_size) == 0:
        size = default
    else:
        size = tuple(output_size)[-dims:]
        if len(output_size) not in (dims, x.ndim) or any(
                not (d - s < o < d + s) for o, d, s in zip(size, default, stride)):
            raise ValueError(f"For '{op}', 'output_size' must hold {dims} (or {x.ndim}) sizes, "
                             f"each within one stride of {default}, but got {output_size}.")
    lead = tuple(x.shape[:-dims])
    plane = int(np.prod(size))
    flat_idx = indices.asnumpy().reshape(*lead, -1).astype(np.int64)
    if flat_idx.size and (flat_idx.min() < 0 or flat_idx.max() >= plane):
        raise ValueError(f"For '{op}', every value of 'indices' must be in [0, {plane}) for an "
                         f"output of size {size}, but got values in [{flat_idx.min()}, "
                         f"{flat_idx.max()}].")
    zeros = ops.zeros(lead + (plane,), x.dtype)
    out = ops.tensor_scatter_elements(zeros, Tensor(flat_idx), x.reshape(*lead, -1), -1,
                                      "add")
    return out.reshape(*lead, *size)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Mirrors `mindspore.ops.max_unpool1d`: each value of (N, C, L) or (C, L) `x` written at
    its `indices` in a zero output of length (L - 1) * stride - 2 * padding + kernel_size."""
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Mirrors `mindspore.ops.max_unpool2d`: the inverse of `max_pool2d` with indices."""
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Mirrors `mindspore.ops.max_unpool3d`: the inverse of `max_pool3d` with indices."""
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)


class _MaxUnpoolND(Primitive):
    _dims = 2

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        super().__init__(type(self).__name__)
        self.ksize, self.strides, self.pads = ksize, strides, pads
        self.output_shape, self.data_format = tuple(output_shape), data_format
        if not data_format.startswith("NC"):
            raise ValueError(f"For '{self.name}', only the channels-first 'data_format' "
                             f"('NCHW'/'NCDHW') is supported, but got '{data_format}'.")

    def __call__(self, x, argmax):
        strides = self.strides if self.strides not in (0, (0,) * self._dims) else self.ksize
        return _max_unpool(self.name, self._dims, x, argmax, self.ksize, strides, self.pads,
                           self.output_shape or None)


class MaxUnpool2D(_MaxUnpoolND):
    """Mirrors `mindspore.ops.MaxUnpool2D`."""

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        super().__init__(ksize, strides, pads, output_shape, data_format)


class MaxUnpool3D(_MaxUnpoolND):
    """Mirrors `mindspore.ops.MaxUnpool3D`."""

    _dims = 3

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
        super().__init__(ksize, strides, pads, output_shape, data_format)


def _intervals(sample, in_size, out_size, pool, dtype):
    """Window starts of fractional pooling (Graham's pseudo-random sequence, as torch and
    MindSpore compute it, in the input's precision)."""
    if out_size == 1:
        return np.full(sample.shape + (1,), in_size - pool, np.int64)
    alpha = dtype((in_size - pool) / (out_size - 1)) if dtype is not np.float64 \
        else (in_size - pool) / (out_size - 1)
    sample = sample.astype(dtype)
    i = np.arange(out_size - 1, dtype=dtype)
    starts = ((i + sample[..., None]) * alpha).astype(np.int64) \
        - (sample[..., None] * alpha).astype(np.int64)
    last = np.full(sample.shape + (1,), in_size - pool, np.int64)
    return np.concatenate([starts, last], -1)


_FRACTIONAL_TYPES = (np.float16, np.float32, np.float64, np.int32, np.int64)


def _fractional(op, dims, x, kernel_size, output_size, output_ratio, return_indices,
                random_samples, prim_arg=None):
    # MindSpore takes float16/32/64 and int32/int64 inputs (the output keeps the dtype)
    if not isinstance(x, Tensor) or x.asnumpy().dtype.type not in _FRACTIONAL_TYPES:
        if prim_arg is None or not isinstance(x, Tensor):
            _floating(op, "input", x)
        raise TypeError(f"For primitive[{op}], the input argument[{prim_arg}] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], "
                        f"Tensor[Int64]}}, but got Tensor[{x.dtype}].")
    _rank(op, "input", x, (dims + 1, dims + 2))
    squeeze = x.ndim == dims + 1
    if squeeze:
        x = x.expand_dims(0)
    spatial = tuple(x.shape[2:])
    kernel = _tuple(op, "kernel_size", kernel_size, dims)
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {op}, 'output_size' and 'output_ratio' can not be None at the "
                         "same time.")
    if output_size is not None:
        out = _tuple(op, "output_size", output_size, dims)
    else:
        ratio = (output_ratio,) * dims if isinstance(output_ratio, (int, float)) \
            else tuple(output_ratio)
        if len(ratio) != dims or not all(0 < r < 1 for r in ratio):
            raise ValueError(f"For {op}, 'output_ratio' must be {dims} values in (0, 1), but "
                             f"got {output_ratio}.")
        out = tuple(int(s * r) for s, r in zip(spatial, ratio))
    for o, k, s in zip(out, kernel, spatial):
        if o + k - 1 > s:
            raise ValueError(f"For {op}, output_size {out} plus kernel_size {kernel} minus 1 "
                             f"must not exceed the input size {spatial}.")
    n, c = x.shape[:2]
    if random_samples is None:
        samples = np.random.random_sample((n, c, dims))
    else:
        samples = random_samples.asnumpy() if isinstance(random_samples, Tensor) \
            else np.asarray(random_samples)
        if samples.shape != (n, c, dims):
            raise ValueError(f"For {op}, '_random_samples' must have shape {(n, c, dims)}, but "
                             f"got {samples.shape}.")
    np_dtype = x.asnumpy().dtype.type
    if np_dtype in (np.int32, np.int64):  # the windows are placed in the samples' precision
        np_dtype = samples.dtype.type if samples.dtype.kind == "f" else np.float32
    # torch's and MindSpore's order: the last spatial axis takes sample 0 in 2-D, the first in 3-D
    order = (1, 0) if dims == 2 else (0, 1, 2)
    starts = [_intervals(samples[..., order[d]], spatial[d], out[d], kernel[d], np_dtype)
              for d in range(dims)]
    strides = np.cumprod((1,) + spatial[::-1])[:-1][::-1]
    flat = np.zeros((n, c) + out, np.int64)
    for d in range(dims):
        shape = [n, c] + [1] * dims
        shape[2 + d] = out[d]
        flat = flat + starts[d].reshape(shape) * strides[d]
    offsets = np.zeros(1, np.int64)
    for d in range(dims):
        offsets = (offsets[:, None] + np.arange(kernel[d]) * strides[d]).reshape(-1)
    candidates = flat[..., None] + offsets
    values = np.take_along_axis(x.asnumpy().reshape(n, c, -1),
                                candidates.reshape(n, c, -1), 2).reshape(candidates.shape)
    best = np.take_along_axis(candidates, np.argmax(values, -1)[..., None], -1)[..., 0]
    index = Tensor(best.reshape(n, c, -1))
    result = ops.gather_elements(x.reshape(n, c, -1), 2, index).reshape((n, c) + out)
    argmax = Tensor(best)
    if squeeze:
        result, argmax = result.squeeze(0), argmax.squeeze(0)
    return (result, argmax) if return_indices else result


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Mirrors `mindspore.ops.fractional_max_pool2d`: max pooling over pseudo-random windows
    of a fixed size; the argmax indices index each (H, W) plane."""
    return _fractional("fractional_max_pool2d", 2, input, kernel_size, output_size,
                       output_ratio, return_indices, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,
                          return_indices=False, _random_samples=None):
    """Mirrors `mindspore.ops.fractional_max_pool3d`: the 3-D form over (D, H, W)."""
    return _fractional("fractional_max_pool3d", 3, input, kernel_size, output_size,
                       output_ratio, return_indices, _random_samples)


class FractionalMaxPoolWithFixedKsize(Primitive):
    """Mirrors `mindspore.ops.FractionalMaxPoolWithFixedKsize`: (y, argmax) for
    (input_x, random_samples)."""

    def __init__(self, ksize, output_shape, data_format="NCHW"):
        super().__init__("FractionalMaxPoolWithFixedKsize")
        self.ksize, self.output_shape, self.data_format = ksize, output_shape, data_format

    def __call__(self, input_x, random_samples):
        return _fractional(self.name, 2, input_x, self.ksize, self.output_shape, None, True,
                           random_samples, "input_x dtype")


class FractionalMaxPool3DWithFixedKsize(Primitive):
    """Mirrors `mindspore.ops.FractionalMaxPool3DWithFixedKsize`: (y, argmax) for
    (x, random_samples)."""

    def __init__(self, ksize, output_shape, data_format="NCDHW"):
        super().__init__("FractionalMaxPool3DWithFixedKsize")
        self.ksize, self.output_shape, self.data_format = ksize, output_shape, data_format

    def __call__(self, x, random_samples):
        return _fractional(self.name, 3, x, self.ksize, self.output_shape, None, True,
                           random_samples, "x")


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """Local response normalization across channels of (N, C, H, W) `x`:
    x / (bias + alpha * sum of x**2 over channels c - r..c + r) ** beta."""
    _floating("LRN", "x", x)
    _rank("LRN", "x", x, (4,))
    if not isinstance(depth_radius, int) or isinstance(depth_radius, bool) or depth_radius < 0:
        raise ValueError(f"For 'LRN', 'depth_radius' must be a non-negative int, but got "
                         f"{depth_radius!r}.")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"For 'LRN', 'norm_region' must be 'ACROSS_CHANNELS', but got "
                         f"'{norm_region}'.")
    channels = x.shape[1]
    padded = ops.pad(x * x, (0, 0, 0, 0, depth_radius, depth_radius))
    total = padded[:, 0:channels]
    for k in range(1, 2 * depth_radius + 1):
        total = total + padded[:, k:k + channels]
    return x / ops.pow(bias + alpha * total, beta)


class LRN(Primitive):
    """Mirrors `mindspore.ops.LRN`."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region="ACROSS_CHANNELS"):
        super().__init__("LRN")
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(value, float):
                raise TypeError(f"For 'LRN', the type of '{name}' must be float, but got "
                                f"{type(value).__name__}.")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region
        lrn(Tensor(np.zeros((1, 1, 1, 1), np.float32)), depth_radius, bias, alpha, beta,
            norm_region)  # the arguments' checks, at construction as MindSpore's

    def __call__(self, x):
        return lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


def image_gradients(images):
    """(dy, dx) of (N, C, H, W) images: forward differences, zero in the last row / column."""
    if not isinstance(images, Tensor):
        raise TypeError(f"For 'ImageGradients', the 'images' must be a Tensor, but got "
                        f"{type(images).__name__}.")
    if images.ndim != 4:
        raise ValueError(f"For 'ImageGradients', the dimension of 'images' must be 4 (N, C, H, "
                         f"W), but got {images.ndim}.")
    n, c, h, w = images.shape
    dy = images[:, :, 1:, :] - images[:, :, :-1, :]
    dx = images[:, :, :, 1:] - images[:, :, :, :-1]
    dy = ops.concat((dy, ops.zeros((n, c, 1, w), images.dtype)), 2)
    dx = ops.concat((dx, ops.zeros((n, c, h, 1), images.dtype)), 3)
    return dy, dx

