"""Patch, glimpse and slice Primitives of `mindspore.ops` that MindSpore 2.10's CPU build runs:
ExtractVolumePatches, ExtractGlimpse and SparseSlice.

Index bookkeeping is numpy; the values move by `gather` on the tape, so the gradients are
gather's (MindSpore differentiates both ops' values).
"""

import numbers

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import int64
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ExtractVolumePatches", "ExtractGlimpse", "SampleDistortedBoundingBoxV2",
           "ScaleAndTranslate", "SparseSlice"]


def _five(name, value, what):
    op = "ExtractVolumePatches"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (value,) * 3
    ok = isinstance(value, (tuple, list)) and len(value) in (3, 5) and all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0 for v in value)
    if not ok:
        raise ValueError(f"For '{op}', the parameter '{name}' must be an positive integer or a "
                         f"tuple of three or five positive integer, but got {value}")
    value = tuple(int(v) for v in value)
    if len(value) == 3:
        value = (1, 1) + value
    for i in (0, 1):
        if value[i] != 1:
            raise ValueError(f"For '{op}', the '{name}[{i}]' must be int and must = 1, but got "
                             f"'{value[i]}' with type 'int'.")
    return value


class ExtractVolumePatches(Primitive):
    """Mirrors `mindspore.ops.ExtractVolumePatches`: (N, C, D, H, W) to
    (N, kd*kh*kw*C, oD, oH, oW), patch elements ordered (kd, kh, kw, C) as TensorFlow's."""

    @prim_attr_register
    def __init__(self, kernel_size, strides, padding):
        self.kernel_size = _five("kernel_size", kernel_size, "kernel")
        self.strides = _five("strides", strides, "strides")
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', the 'padding' must be str and must be in "
                             f"'['VALID', 'SAME']', but got '{padding}'.")
        self.padding = padding.upper()

    def __call__(self, input_x):
        C.tensor(self.name, "input_x", input_x)
        if input_x.ndim != 5:
            raise ValueError(f"For '{self.name}', the dimension of 'input_x' must be 5, but got "
                             f"{input_x.ndim}.")
        n, c, *size = input_x.shape
        ks, st = self.kernel_size[2:], self.strides[2:]
        outs, before = [], []
        for dim, k, s in zip(size, ks, st):
            if self.padding == "VALID":
                if dim < k:
                    raise ValueError(f"For '{self.name}', the input's spatial size {tuple(size)} "
                                     f"must be at least 'kernel_size' {ks} with 'VALID'.")
                outs.append((dim - k) // s + 1)
                before.append(0)
            else:  # TensorFlow's SAME: the extra padding goes after
                out = -(-dim // s)
                outs.append(out)
                before.append(max(0, (out - 1) * s + k - dim) // 2)
        # position of each output element in the flattened input; -1 reads the zero pad
        grids = [np.arange(o)[:, None] * s + np.arange(k)[None, :] - b
                 for o, s, k, b in zip(outs, st, ks, before)]  # (out, k) per axis
        (gd, gh, gw), (dd, hh, ww) = grids, size
        d = gd.T[:, None, None, None, :, None, None]  # (kd, 1, 1, 1, oD, 1, 1)
        h = gh.T[None, :, None, None, None, :, None]
        w = gw.T[None, None, :, None, None, None, :]
        ch = np.arange(c)[None, None, None, :, None, None, None]
        inside = (d >= 0) & (d < dd) & (h >= 0) & (h < hh) & (w >= 0) & (w < ww)
        flat = ((ch * dd + d) * hh + h) * ww + w
        flat = np.where(inside, flat, c * dd * hh * ww).reshape(-1)
        x = F.reshape(input_x, (n, c * dd * hh * ww))
        x = F.concat((x, F.zeros((n, 1), input_x.dtype)), 1)
        out = F.gather(x, flat.astype(np.int64), 1)
        return F.reshape(out, (n, int(np.prod(ks)) * c, *outs))


class SparseSlice(Primitive):
    """Mirrors `mindspore.ops.SparseSlice`: the entries of a COO tensor inside the box
    [start, start + size), their indices shifted by `start`, and the box's shape clipped to the
    tensor's."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, indices, values, shape, start, size):
        op = self.name
        for name, t in (("indices", indices), ("shape", shape), ("start", start),
                        ("size", size)):
            C.dtype_in(op, name, t, "i", "{Tensor[Int64]}")
        C.tensor(op, "values", values)
        idx = indices._data.astype(np.int64)
        dims = shape._data.astype(np.int64).reshape(-1)
        lo = start._data.astype(np.int64).reshape(-1)
        ext = size._data.astype(np.int64).reshape(-1)
        if idx.ndim != 2 or values.ndim != 1 or idx.shape[0] != values.shape[0]:
            raise ValueError(f"For '{op}', 'indices' must be 2-D (N, R) and 'values' 1-D (N,), "
                             f"but got shapes {tuple(indices.shape)} and {tuple(values.shape)}.")
        if not idx.shape[1] == dims.size == lo.size == ext.size:
            raise ValueError(f"For '{op}', 'shape', 'start' and 'size' must have rank "
                             f"{idx.shape[1]} elements, but got {dims.size}, {lo.size} and "
                             f"{ext.size}.")
        if np.any(lo < 0) or np.any(ext < 0):
            raise ValueError(f"For '{op}', 'start' and 'size' must be non-negative, but got "
                             f"{lo.tolist()} and {ext.tolist()}.")
        hi = np.minimum(lo + ext, dims)
        keep = np.flatnonzero(np.all((idx >= lo) & (idx < hi), axis=1))
        out_shape = np.maximum(hi - lo, 0)
        return (make_tensor(np.ascontiguousarray(idx[keep] - lo), None, 0, int64),
                F.gather(values, keep.astype(np.int64), 0),
                make_tensor(out_shape, None, 0, int64))


class ExtractGlimpse(Primitive):
    """Mirrors `mindspore.ops.ExtractGlimpse`: a (size[0], size[1]) window of each NHWC image
    at offsets[i] = (row, column), as MindSpore's CPU kernel places it (normalized: times the
    image size; centered: halved and moved by half the image; then minus half the window,
    truncated). Pixels outside the image are noise: uniform in [-1, 1] ('uniform' or
    uniform_noise), max(0, N(10, 0.5)) ('gaussian') or 0 ('zero'); the noise is drawn from
    cellgrad's seeded generator (MindSpore's is unseeded). Not differentiable, as MindSpore's."""

    @prim_attr_register
    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        for name, value in (("centered", centered), ("normalized", normalized),
                            ("uniform_noise", uniform_noise)):
            C.boolean(self.name, name, value)
        if noise not in ("uniform", "gaussian", "zero"):
            raise ValueError(f"For '{self.name}', the 'noise' must be str and must be in "
                             f"'['uniform', 'gaussian', 'zero']', but got '{noise}'.")
        if uniform_noise and noise != "uniform":
            raise ValueError(f"For '{self.name}', the value of 'noise' must be uniform when "
                             f"uniform_noise is True, but got {noise}.")

    def __call__(self, x, size, offsets):
        op = self.name
        C.dtype_in(op, "x", x, "f", "{Tensor[Float32]}")
        win = C.indices(op, "size", size).reshape(-1)
        C.dtype_in(op, "offsets", offsets, "f", "{Tensor[Float32]}")
        if x.ndim != 4:
            raise ValueError(f"For '{op}', the dimension of 'x' must be 4 (NHWC), but got "
                             f"{x.ndim}.")
        if win.size != 2 or np.any(win <= 0):
            raise ValueError(f"For '{op}', 'size' must hold 2 positive ints (height, width), "
                             f"but got {win.tolist()}.")
        n, hgt, wid, ch = x.shape
        off = offsets._data.astype(np.float32)
        if off.shape != (n, 2):
            raise ValueError(f"For '{op}', the shape of 'offsets' must be ({n}, 2), but got "
                             f"{tuple(off.shape)}.")
        gh, gw = int(win[0]), int(win[1])
        rows, cols = off[:, 0].copy(), off[:, 1].copy()
        if self.normalized:
            rows, cols = rows * np.float32(hgt), cols * np.float32(wid)
        if self.centered:
            rows, cols = rows / 2 + np.float32(hgt / 2), cols / 2 + np.float32(wid / 2)
        top = np.trunc(rows - np.float32(gh / 2)).astype(np.int64)[:, None, None]
        left = np.trunc(cols - np.float32(gw / 2)).astype(np.int64)[:, None, None]
        r = top + np.arange(gh)[None, :, None]
        c = left + np.arange(gw)[None, None, :]
        inside = (r >= 0) & (r < hgt) & (c >= 0) & (c < wid)
        b = np.arange(n)[:, None, None]
        out = np.empty((n, gh, gw, ch), x._data.dtype)
        out[inside] = x._data[b, np.clip(r, 0, hgt - 1), np.clip(c, 0, wid - 1)][inside]
        outside = ~inside
        count = int(outside.sum()) * ch
        if count:
            if self.uniform_noise or self.noise == "uniform":
                fill = seeding.generator("ExtractGlimpse").uniform(-1, 1, count)
            elif self.noise == "gaussian":
                fill = np.maximum(0, seeding.generator("ExtractGlimpse").normal(10, 0.5, count))
            else:
                fill = np.zeros(count)
            out[outside] = fill.reshape(-1, ch)
        return make_tensor(out, None, 0, x.dtype)


def _lanczos(radius):
    def k(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            v = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi * np.pi * x * x)
        return np.where(x > radius, 0.0, np.where(x < 1e-6, 1.0, v))
    return k, float(radius)


# TensorFlow's sampling kernels (MindSpore's CPU kernel uses the same): function, radius
_KERNELS = {
    "lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
    "gaussian": (lambda x: np.where(x >= 1.5, 0.0, np.exp(-2.0 * x * x)), 1.5),  # sigma 0.5
    "box": (lambda x: np.where(x < 0.5, 1.0, np.where(x == 0.5, 0.5, 0.0)), 1.0),
    "triangle": (lambda x: np.where(x < 1.0, 1.0 - x, 0.0), 1.0),
    "keyscubic": (lambda x: np.where(x >= 2.0, 0.0, np.where(
        x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, (1.5 * x - 2.5) * x * x + 1.0)), 2.0),
    "mitchellcubic": (lambda x: np.where(x >= 2.0, 0.0, np.where(
        x >= 1.0, (((-7.0 / 18.0) * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0,
        (((7.0 / 6.0) * x - 2.0) * x) * x + 8.0 / 9.0)), 2.0),
}


def _resample_matrix(kernel, out_size, in_size, scale, translate, antialias):
    """(out_size, in_size) weights of one axis, as TensorFlow's ComputeSpansCore (in float32
    like it: a box kernel's 0.5 edge depends on the rounding)."""
    fn, radius = _KERNELS[kernel]
    f32 = np.float32
    inv_scale = f32(1) / f32(scale)
    inv_translate = -inv_scale * f32(translate)
    kernel_scale = max(inv_scale, f32(1)) if antialias else f32(1)
    reach = f32(radius) * kernel_scale
    mat = np.zeros((out_size, in_size))
    for x in range(out_size):
        sample = (f32(x) + f32(0.5)) * inv_scale + inv_translate
        if sample < 0 or sample > in_size:
            continue
        lo = min(max(int(np.ceil(sample - reach - 0.5)), 0), in_size - 1)
        hi = min(max(int(np.floor(sample + reach - 0.5)), 0), in_size - 1) + 1
        src = np.arange(lo, hi).astype(f32)
        w = fn(np.abs((src + f32(0.5) - sample) * (f32(1) / kernel_scale)))
        total = w.sum()
        if abs(total) >= 1000 * np.finfo(np.float32).eps:
            w = w / total
        mat[x, lo:hi] = w
    return mat


class ScaleAndTranslate(Primitive):
    """Mirrors `mindspore.ops.ScaleAndTranslate`: each NHWC image resampled to `size` with a
    separable sampling kernel at scale `scale` and offset `translation` (TensorFlow's
    scale_and_translate, as MindSpore's CPU kernel). Differentiable in `images`."""

    @prim_attr_register
    def __init__(self, kernel_type="lanczos3", antialias=True):
        if not isinstance(kernel_type, str):
            raise TypeError(f"For '{self.name}', the type of 'kernel_type' should be 'str', "
                            f"but got type '{type(kernel_type).__name__}'.")
        if kernel_type not in _KERNELS:
            raise ValueError(f"For '{self.name}', the 'kernel_type' must be str and must be in "
                             f"'{list(_KERNELS)}', but got '{kernel_type}'.")
        if not isinstance(antialias, bool):
            raise TypeError(f"For '{self.name}', the type of 'antialias' should be 'bool', but "
                            f"got type '{type(antialias).__name__}'.")

    def __call__(self, images, size, scale, translation):
        op = self.name
        C.dtype_in(op, "images", images, "iuf", "number")
        out_hw = C.indices(op, "size", size).reshape(-1)
        C.dtype_in(op, "scale", scale, "f", "{Tensor[Float32]}")
        C.dtype_in(op, "translation", translation, "f", "{Tensor[Float32]}")
        if images.ndim != 4:
            raise ValueError(f"For '{op}', the rank of 'images' must be 4, but got "
                             f"{images.ndim}.")
        for name, t in (("size", out_hw), ("scale", scale._data), ("translation",
                                                                     translation._data)):
            if t.shape != (2,):
                raise ValueError(f"For '{op}', the shape of '{name}' must be (2,), but got "
                                 f"{t.shape}.")
        sc = scale._data.astype(np.float64)
        if np.any(out_hw <= 0) or np.any(sc <= 0):
            raise ValueError(f"For '{op}', 'size' and 'scale' must be positive, but got "
                             f"{out_hw.tolist()} and {sc.tolist()}.")
        tr = translation._data.astype(np.float64)
        _, hgt, wid, _ = images.shape
        rows = _resample_matrix(self.kernel_type, int(out_hw[0]), hgt, sc[0], tr[0],
                                self.antialias)
        cols = _resample_matrix(self.kernel_type, int(out_hw[1]), wid, sc[1], tr[1],
                                self.antialias)
        x = images if images._data.dtype.kind == "f" else F.cast(images, "float32")
        dt = x._data.dtype
        if dt == np.float16:
            x, dt = F.cast(x, "float32"), np.dtype(np.float32)
        rows_t = make_tensor(rows.astype(dt), None, 0, x.dtype)
        cols_t = make_tensor(np.ascontiguousarray(cols.T.astype(dt)), None, 0, x.dtype)
        x = F.transpose(x, (0, 3, 1, 2))  # (N, C, H, W)
        x = F.matmul(F.matmul(rows_t, x), cols_t)
        return F.transpose(x, (0, 2, 3, 1))


def _rint(v):
    return int(np.rint(np.float32(v)))


class SampleDistortedBoundingBoxV2(Primitive):
    """Mirrors `mindspore.ops.SampleDistortedBoundingBoxV2`: MindSpore's CPU kernel's search for
    a random crop (aspect ratio, area and object coverage constraints, up to `max_attempts`,
    else the whole image). Draws come from cellgrad's generator: nonzero seed/seed2 give the
    same box on every call, as MindSpore's; the boxes themselves differ from MindSpore's
    (its Philox stream is not reproduced)."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0),
                 max_attempts=100, use_image_if_no_bounding_boxes=False):
        op = self.name
        C.integer(op, "seed", seed)
        C.integer(op, "seed2", seed2)
        C.integer(op, "max_attempts", max_attempts)
        C.boolean(op, "use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes)
        for name, rng in (("aspect_ratio_range", aspect_ratio_range),
                          ("area_range", area_range)):
            if not isinstance(rng, (tuple, list)) or len(rng) != 2 or not all(
                    isinstance(v, numbers.Real) and not isinstance(v, bool) for v in rng):
                raise TypeError(f"For '{op}', '{name}' must be a tuple or list of 2 floats, but "
                                f"got {rng!r}.")
        if max_attempts <= 0:
            raise ValueError(f"For '{op}', 'max_attempts' must be positive, but got "
                             f"{max_attempts}.")
        if min(aspect_ratio_range) <= 0:
            raise ValueError(f"For '{op}', 'aspect_ratio_range' must be positive, but got "
                             f"{tuple(aspect_ratio_range)}.")
        if min(area_range) <= 0 or max(area_range) > 1:
            raise ValueError(f"For '{op}', 'area_range' must be in (0.0, 1.0], but got "
                             f"{tuple(area_range)}.")

    def _crop(self, rng, width, height, ratio):
        """One attempt: (x, y, w, h) or None (the kernel's GenerateRandomCrop)."""
        lo_area = np.float32(self.area_range[0]) * width * height
        hi_area = np.float32(self.area_range[1]) * width * height
        h = _rint(np.sqrt(lo_area / ratio))
        max_h = _rint(np.sqrt(hi_area / ratio))
        if _rint(max_h * ratio) > width:
            max_h = int((width + 0.5 - 1e-7) / ratio)
            if _rint(max_h * ratio) > width:
                max_h -= 1
        max_h = min(max_h, height)
        h = min(h, max_h)
        if h < max_h:
            h += int(rng.integers(0, max_h - h + 1))
        w = _rint(h * ratio)
        if w * h < lo_area:
            h += 1
            w = _rint(h * ratio)
        if w * h > hi_area:
            h -= 1
            w = _rint(h * ratio)
        if not (lo_area <= w * h <= hi_area) or w > width or h > height or w <= 0 or h <= 0:
            return None
        y = int(rng.integers(0, height - h)) if h < height else 0
        x = int(rng.integers(0, width - w)) if w < width else 0
        return x, y, w, h

    def __call__(self, image_size, bounding_boxes, min_object_covered):
        op = self.name
        C.dtype_in(op, "image_size", image_size, "iu", "{Tensor[UInt8], Tensor[Int8], "
                   "Tensor[Int16], Tensor[Int32], Tensor[Int64]}")
        C.dtype_in(op, "bounding_boxes", bounding_boxes, "f", "{Tensor[Float32]}")
        C.dtype_in(op, "min_object_covered", min_object_covered, "f", "{Tensor[Float32]}")
        dims = image_size._data.reshape(-1)
        boxes = bounding_boxes._data.astype(np.float32)
        if image_size.ndim != 1 or dims.size != 3:
            raise ValueError(f"For '{op}', 'image_size' must be 1-D with 3 elements, but got "
                             f"shape {tuple(image_size.shape)}.")
        if boxes.ndim != 3 or boxes.shape[-1] != 4:
            raise ValueError(f"For '{op}', 'bounding_boxes' must be 3-D [batch, num_boxes, 4], "
                             f"but got shape {tuple(boxes.shape)}.")
        if min_object_covered.ndim != 1 or min_object_covered._data.size != 1:
            raise ValueError(f"For primitive[{op}], the min_object_covered dimension must be "
                             f"equal to 1, but got {min_object_covered.ndim}.")
        covered = float(min_object_covered._data.reshape(-1)[0])
        height, width = int(dims[0]), int(dims[1])
        if height <= 0 or width <= 0:
            raise ValueError(f"For '{op}', image height and width must be positive, but got "
                             f"{height} and {width}.")
        if not 0.0 <= covered <= 1.0:
            raise ValueError(f"For '{op}', min_object_covered must be in [0.0, 1.0], but got "
                             f"{covered}.")
        boxes = boxes.reshape(-1, 4)
        if np.any((boxes < 0) | (boxes > 1)):
            raise ValueError(f"For '{op}', all bounding box coordinates must be in [0.0, 1.0].")
        if np.any(boxes[:, 1] >= boxes[:, 3]) or np.any(boxes[:, 0] >= boxes[:, 2]):
            raise ValueError(f"For '{op}', each bounding box's min must be less than its max.")
        regions = [(int(np.float32(b[1]) * width), int(np.float32(b[0]) * height),
                    int(np.float32(b[3]) * width), int(np.float32(b[2]) * height))
                   for b in boxes]
        if not regions:
            if not self.use_image_if_no_bounding_boxes:
                raise ValueError(f"For '{op}', no bounding boxes provided as input. One must "
                                 f"enable use_image_if_no_bounding_boxes if you wish to not "
                                 f"provide any bounding boxes.")
            regions = [(0, 0, width, height)]
        rng = (seeding.fixed_generator(self.seed, self.seed2) if self.seed or self.seed2
               else seeding.generator(op))
        lo_r, hi_r = (np.float32(v) for v in self.aspect_ratio_range)
        crop = (0, 0, width, height)
        for _ in range(self.max_attempts):
            ratio = np.float32(rng.random()) * (hi_r - lo_r) + lo_r
            found = self._crop(rng, width, height, ratio)
            if found and _covers(found, regions, covered):
                crop = found
                break
        x, y, w, h = crop
        dt = image_size._data.dtype
        begin = np.array([y, x, 0], dt)
        size = np.array([h, w, -1], dt)
        bbox = np.array([[[y / height, x / width, (y + h) / height, (x + w) / width]]],
                        np.float32)
        return (make_tensor(begin, None, 0, image_size.dtype),
                make_tensor(size, None, 0, image_size.dtype),
                make_tensor(bbox, None, 0, bounding_boxes.dtype))


def _covers(crop, regions, minimum):
    """The kernel's SatisfiesOverlapConstraints: crop area >= 1 and some box (area >= 1) at
    least `minimum` covered."""
    x, y, w, h = crop
    if w * h < 1:
        return False
    for x0, y0, x1, y1 in regions:
        area = (x1 - x0) * (y1 - y0)
        if area < 1:
            continue
        iw = max(0, min(x + w, x1) - max(x, x0))
        ih = max(0, min(y + h, y1) - max(y, y0))
        if iw * ih / area >= minimum:
            return True
    return False
