"""Resizing primitives as one separable scheme: each spatial axis is multiplied by an
(out, in) interpolation matrix built in numpy, so the forward is a few GEMMs and the gradient
their transposes. `ResizeNearestNeighborV2`, `ResizeLinear1D`, `ResizeBicubic`,
`UpsampleNearest3D`, `UpsampleTrilinear3D`; plus `Im2Col` / `Col2Im` / `col2im` over fold and
unfold, `CTCGreedyDecoder` / `ctc_greedy_decoder`, `AdjustHue` / `AdjustSaturation`."""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional.image_extra import HSVToRGB, RGBToHSV


def _apply(x, matrices):
    """x with its last len(matrices) axes each multiplied by its (out, in) matrix."""
    dims = len(matrices)
    for k, w in enumerate(matrices):
        axis = x.ndim - dims + k
        moved = ops.swapaxes(x, axis, -1)
        moved = ops.matmul(moved, Tensor(w.T.astype(x.asnumpy().dtype)))
        x = ops.swapaxes(moved, axis, -1)
    return x


def _one_hot(src, n_in):
    w = np.zeros((len(src), n_in))
    w[np.arange(len(src)), np.clip(src, 0, n_in - 1)] = 1.0
    return w


def _linear(src, n_in):
    src = np.clip(src, 0, None)
    low = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    high = np.minimum(low + 1, n_in - 1)
    frac = src - low
    w = np.zeros((len(src), n_in))
    np.add.at(w, (np.arange(len(src)), low), 1 - frac)
    np.add.at(w, (np.arange(len(src)), high), frac)
    return w


def _cubic(src, n_in, a, drop_outside):
    """Keys' cubic convolution weights; taps outside [0, n_in) clamp to the edge, or (TF's
    half-pixel kernel) are dropped and the rest renormalized."""
    w = np.zeros((len(src), n_in))
    base = np.floor(src).astype(np.int64)
    # TensorFlow reads the weights from a table of 1024 steps: t rounded to 1/1024
    t = np.floor((src - base) * 1024 + 0.5) / 1024
    for k in (-1, 0, 1, 2):
        d = np.abs(t - k)
        weight = np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                          np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a, 0.0))
        idx = base + k
        inside = (idx >= 0) & (idx < n_in)
        if drop_outside:
            weight = np.where(inside, weight, 0.0)
        np.add.at(w, (np.arange(len(src)), np.clip(idx, 0, n_in - 1)), weight)
    if drop_outside:
        w /= w.sum(1, keepdims=True)
    return w


def _size_tensor(op, size, count):
    values = size.asnumpy().tolist() if isinstance(size, Tensor) else list(size)
    if len(values) != count or any(int(v) <= 0 for v in values):
        raise ValueError(f"For '{op}', the size must hold {count} positive values, but got "
                         f"{values}.")
    return [int(v) for v in values]


def _float_input(op, x, ranks):
    if not isinstance(x, Tensor) or x.asnumpy().dtype.kind != "f":
        raise TypeError(f"For '{op}', the input must be a float Tensor, but got "
                        f"{_checks.describe(x)}.")
    if x.ndim not in ranks:
        raise ValueError(f"For '{op}', the input must have {' or '.join(map(str, ranks))} "
                         f"dimensions, but got {x.ndim}.")


class ResizeNearestNeighborV2(Primitive):
    """Mirrors `mindspore.ops.ResizeNearestNeighborV2`: (N, C, H, W) -> (N, C, *size) by
    TensorFlow's nearest rule (floor of the scaled index; rounded with `align_corners`)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeNearestNeighborV2")
        if align_corners and half_pixel_centers:
            raise ValueError("For 'ResizeNearestNeighborV2', 'align_corners' and "
                             "'half_pixel_centers' can not both be True.")
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        _float_input(self.name, x, (4,))
        mats = []
        for n_in, n_out in zip(x.shape[2:], _size_tensor(self.name, size, 2)):
            i = np.arange(n_out)
            if self.align_corners:
                scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
                src = np.floor(i * scale + 0.5).astype(np.int64)
            else:
                scale = n_in / n_out
                src = np.floor((i + 0.5) * scale if self.half_pixel_centers else i * scale)
            mats.append(_one_hot(src.astype(np.int64), n_in))
        return _apply(x, mats)


class ResizeLinear1D(Primitive):
    """Mirrors `mindspore.ops.ResizeLinear1D`: (N, C, W) -> (N, C, size) linearly, corners
    aligned or half-pixel."""

    def __init__(self, coordinate_transformation_mode="align_corners"):
        super().__init__("ResizeLinear1D")
        if coordinate_transformation_mode not in ("align_corners", "half_pixel", "asymmetric"):
            raise ValueError("For 'ResizeLinear1D', 'coordinate_transformation_mode' must be "
                             "'align_corners', 'half_pixel' or 'asymmetric', but got "
                             f"{coordinate_transformation_mode!r}.")
        self.coordinate_transformation_mode = coordinate_transformation_mode

    def __call__(self, x, size):
        _float_input(self.name, x, (3,))
        (n_out,), n_in = _size_tensor(self.name, size, 1), x.shape[-1]
        i = np.arange(n_out, dtype=np.float64)
        mode = self.coordinate_transformation_mode
        if mode == "align_corners":
            src = i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
        elif mode == "half_pixel":
            src = (i + 0.5) * n_in / n_out - 0.5
        else:
            src = i * n_in / n_out
        return _apply(x, [_linear(src, n_in)])


class ResizeBicubic(Primitive):
    """Mirrors `mindspore.ops.ResizeBicubic`: TensorFlow's bicubic resize of (N, C, H, W)
    (a = -0.75, edge taps clamped; with `half_pixel_centers`, a = -0.5 and outside taps
    dropped)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeBicubic")
        if align_corners and half_pixel_centers:
            raise ValueError("For 'ResizeBicubic', 'align_corners' and 'half_pixel_centers' can "
                             "not both be True.")
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, images, size):
        _float_input(self.name, images, (4,))
        mats = []
        for n_in, n_out in zip(images.shape[2:], _size_tensor(self.name, size, 2)):
            i = np.arange(n_out, dtype=np.float64)
            if self.align_corners:
                src = i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
            elif self.half_pixel_centers:
                src = (i + 0.5) * n_in / n_out - 0.5
            else:
                src = i * n_in / n_out
            mats.append(_cubic(src, n_in, -0.5 if self.half_pixel_centers else -0.75,
                               self.half_pixel_centers))
        return _apply(images, mats)


def _upsample_sizes(op, x, output_size, scales):
    if (output_size is None) == (scales is None):
        raise ValueError(f"For '{op}', exactly one of 'output_size' and 'scales' must be given, "
                         f"but got {output_size} and {scales}.")
    if output_size is not None:
        return [int(s) for s in output_size], [None] * 3
    scales = [float(s) for s in scales]
    return [int(math.floor(n * s)) for n, s in zip(x.shape[2:], scales)], scales


class UpsampleNearest3D(Primitive):
    """Mirrors `mindspore.ops.UpsampleNearest3D`: (N, C, D, H, W) resized to `output_size` (or
    by `scales`) with the nearest (floor) source index."""

    def __init__(self):
        super().__init__("UpsampleNearest3D")

    def __call__(self, x, output_size=None, scales=None):
        _float_input(self.name, x, (5,))
        sizes, scales = _upsample_sizes(self.name, x, output_size, scales)
        mats = []
        for n_in, n_out, s in zip(x.shape[2:], sizes, scales):
            step = 1.0 / s if s else n_in / n_out
            mats.append(_one_hot(np.floor(np.arange(n_out) * step).astype(np.int64), n_in))
        return _apply(x, mats)


class UpsampleTrilinear3D(Primitive):
    """Mirrors `mindspore.ops.UpsampleTrilinear3D`: (N, C, D, H, W) resized trilinearly."""

    def __init__(self, align_corners=False):
        super().__init__("UpsampleTrilinear3D")
        self.align_corners = align_corners

    def __call__(self, x, output_size=None, scales=None):
        _float_input(self.name, x, (5,))
        sizes, scales = _upsample_sizes(self.name, x, output_size, scales)
        mats = []
        for n_in, n_out, s in zip(x.shape[2:], sizes, scales):
            i = np.arange(n_out, dtype=np.float64)
            if self.align_corners:
                src = i * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
            else:
                src = (i + 0.5) * (1.0 / s if s else n_in / n_out) - 0.5
            mats.append(_linear(src, n_in))
        return _apply(x, mats)


def _pair(value):
    return (value, value) if isinstance(value, int) else tuple(value)


class Im2Col(Primitive):
    """Mirrors `mindspore.ops.Im2Col`: (N, C, H, W) -> (N, C, kh * kw, L) sliding patches."""

    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        super().__init__("Im2Col")
        self.ksizes, self.strides, self.dilations, self.pads = ksizes, strides, dilations, pads

    def __call__(self, x):
        from cellgrad_nn.mint import functional as MF

        _float_input(self.name, x, (4,))
        pads = _pair(self.pads)
        cols = MF.unfold(x, _pair(self.ksizes), _pair(self.dilations), pads[:2],
                         _pair(self.strides))
        n, c = x.shape[:2]
        return cols.reshape(n, c, -1, cols.shape[-1])


def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """Mirrors `mindspore.ops.col2im`: (N, C, kh * kw, L) patches summed back into (N, C,
    *output_size)."""
    from cellgrad_nn.mint import functional as MF

    if not isinstance(input_x, Tensor) or input_x.ndim != 4:
        raise ValueError(f"For 'col2im', 'input_x' must be a 4-D Tensor (N, C, kh * kw, L), but "
                         f"got {_checks.describe(input_x)}.")
    size = _size_tensor("col2im", output_size, 2)
    n, c, k, length = input_x.shape
    kernel = _pair(kernel_size)
    if kernel[0] * kernel[1] != k:
        raise ValueError(f"For 'col2im', the third dimension of 'input_x' ({k}) must equal "
                         f"kernel_size[0] * kernel_size[1] ({kernel[0] * kernel[1]}).")
    return MF.fold(input_x.reshape(n, c * k, length), tuple(size), kernel, _pair(dilation),
                   _pair(padding_value), _pair(stride))


class Col2Im(Primitive):
    """Mirrors `mindspore.ops.Col2Im`."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__("Col2Im")
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def __call__(self, x, output_size):
        return col2im(x, output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Mirrors `mindspore.ops.ctc_greedy_decoder`: the best path of (T, N, C) logits (blank
    is class C - 1) as a sparse (indices, values, dense_shape) and -(sum of the chosen
    logits) per sequence."""
    if not isinstance(inputs, Tensor) or inputs.ndim != 3:
        raise ValueError(f"For 'CTCGreedyDecoder', 'inputs' must be a 3-D Tensor (T, N, C), but "
                         f"got {_checks.describe(inputs)}.")
    logits = inputs.asnumpy()
    steps, batch, classes = logits.shape
    lengths = np.asarray(sequence_length.asnumpy() if isinstance(sequence_length, Tensor)
                         else sequence_length).reshape(-1)
    if lengths.shape != (batch,) or np.any(lengths > steps) or np.any(lengths < 0):
        raise ValueError(f"For 'CTCGreedyDecoder', 'sequence_length' must hold {batch} values "
                         f"in [0, {steps}], but got {lengths.tolist()}.")
    indices, values, log_prob, longest = [], [], [], 0
    for b in range(batch):
        best = logits[:lengths[b], b].argmax(-1)
        log_prob.append(-logits[np.arange(lengths[b]), b, best].sum())
        decoded, prev = [], None
        for label in best:
            if label != classes - 1 and not (merge_repeated and label == prev):
                decoded.append(label)
            prev = label
        indices += [[b, j] for j in range(len(decoded))]
        values += decoded
        longest = max(longest, len(decoded))
    return (Tensor(np.array(indices, np.int64).reshape(-1, 2)),
            Tensor(np.array(values, np.int64)), Tensor(np.array([batch, longest], np.int64)),
            Tensor(np.array(log_prob, logits.dtype).reshape(batch, 1)))


class CTCGreedyDecoder(Primitive):
    """Mirrors `mindspore.ops.CTCGreedyDecoder`."""

    def __init__(self, merge_repeated=True):
        super().__init__("CTCGreedyDecoder")
        self.merge_repeated = merge_repeated

    def __call__(self, inputs, sequence_length):
        return ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


def _scalar(x):
    return float(x.asnumpy()) if isinstance(x, Tensor) else float(x)


class AdjustHue(Primitive):
    """Mirrors `mindspore.ops.AdjustHue`: (..., 3) RGB images with the hue turned by `delta`
    (a fraction of the circle)."""

    def __init__(self):
        super().__init__("AdjustHue")

    def __call__(self, image, delta):
        hsv = RGBToHSV()(image).asnumpy().copy()
        hsv[..., 0] = (hsv[..., 0] + _scalar(delta)) % 1.0
        return _from_hsv(hsv)


class AdjustSaturation(Primitive):
    """Mirrors `mindspore.ops.AdjustSaturation`: (..., 3) RGB images with the saturation scaled
    by `scale` (clipped to [0, 1])."""

    def __init__(self):
        super().__init__("AdjustSaturation")

    def __call__(self, image, scale):
        hsv = RGBToHSV()(image).asnumpy().copy()
        hsv[..., 1] = np.clip(hsv[..., 1] * _scalar(scale), 0.0, 1.0)
        return _from_hsv(hsv)


def _from_hsv(hsv):
    shape = hsv.shape
    out = HSVToRGB()(Tensor(hsv.reshape(1, 1, -1, 3)))
    return Tensor(out.asnumpy().reshape(shape))



def _area(n_in, n_out, align_corners):
    scale = (n_in - 1) / (n_out - 1) if align_corners and n_out > 1 else n_in / n_out
    w = np.zeros((n_out, n_in))
    for i in range(n_out):
        start, end = i * scale, (i + 1) * scale
        for j in range(int(np.floor(start)), min(int(np.ceil(end)), n_in)):
            w[i, j] = max(0.0, min(end, j + 1) - max(start, j))
        # TensorFlow clamps the window to the image and divides by the window's full size
        w[i] /= scale
    return w


class ResizeArea(Primitive):
    """Mirrors `mindspore.ops.ResizeArea`: (N, H, W, C) images -> (N, *size, C), each output
    pixel the area-weighted mean of the input pixels its footprint covers (TensorFlow's
    rule)."""

    def __init__(self, align_corners=False):
        super().__init__("ResizeArea")
        self.align_corners = align_corners

    def __call__(self, images, size):
        _float_input(self.name, images, (4,))
        mats = [_area(n_in, n_out, self.align_corners)
                for n_in, n_out in zip(images.shape[1:3], _size_tensor(self.name, size, 2))]
        moved = ops.transpose(images, (0, 3, 1, 2))
        return ops.transpose(_apply(moved, mats), (0, 2, 3, 1))
