"""Deterministic geometry: Resize, Crop, CenterCrop, Pad, PadToSize, flips, HWC2CHW, Rotate,
Affine, ResizedCrop, Perspective, FiveCrop, TenCrop, SlicePatches (OpenCV kernels on arrays,
Pillow on PIL images, as MindSpore)."""

import math
import numbers

import cv2
import numpy as np
from PIL import Image

from cellgrad_dataset.transforms.base import pipeline_error
from cellgrad_dataset.vision.image import (
    CV_INTER,
    PIL_INTER,
    ImageOperation,
    border,
    check_cv_dtype,
    check_image,
    check_inter,
    fill_tuple,
    hw,
    keep_channels,
    pair,
    resize_array,
    warp_affine,
)
from cellgrad_dataset.vision.utils import Border, Inter, SliceMode


def target_size(op, img_hw, size):
    """`size` as (h, w): an int sets the shorter side and keeps the aspect ratio."""
    if isinstance(size, (tuple, list)) and len(size) == 1:
        size = size[0]
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        pair(op, "size", size)
        h, w = img_hw
        if h <= w:
            return int(size), int(w * size / h)
        return int(h * size / w), int(size)
    return pair(op, "size", size)


class Resize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Resize`."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        if isinstance(size, (int, np.integer)):
            pair("Resize", "size", size)
        else:
            pair("Resize", "size", tuple(size) if isinstance(size, list) else size)
        self.size = size
        self.interpolation = check_inter("Resize", interpolation)

    def _apply(self, img):
        img = check_image("Resize", img)
        return resize_array("Resize", img, target_size("Resize", hw(img), self.size),
                            self.interpolation)

    def _pil(self, img):
        h, w = target_size("Resize", (img.size[1], img.size[0]), self.size)
        return img.resize((w, h), PIL_INTER[self.interpolation])


def crop_array(op, img, top, left, h, w):
    img = check_image(op, img)
    ih, iw = hw(img)
    if top < 0 or left < 0 or top + h > ih or left + w > iw:
        raise pipeline_error(op, f"the crop box (top={top}, left={left}, height={h}, width={w}) "
                                 f"is outside the image of size ({ih}, {iw}).")
    return img[top:top + h, left:left + w].copy()


class Crop(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Crop`: `coordinates` (top, left), `size` (h, w)."""

    def __init__(self, coordinates, size):
        if not isinstance(coordinates, (tuple, list)) or len(coordinates) != 2:
            raise TypeError(f"For 'Crop', coordinates must be a sequence of 2 ints, but got "
                            f"{coordinates!r}.")
        self.coordinates, self.size = tuple(coordinates), pair("Crop", "size", size)

    def _apply(self, img):
        return crop_array("Crop", img, *self.coordinates, *self.size)


class CenterCrop(ImageOperation):
    """Mirrors `mindspore.dataset.vision.CenterCrop`; a crop larger than the image pads it
    with zeros first (as MindSpore)."""

    def __init__(self, size):
        self.size = pair("CenterCrop", "size", size)

    def _apply(self, img):
        img = check_image("CenterCrop", img)
        (ih, iw), (h, w) = hw(img), self.size
        if h > ih or w > iw:
            dh, dw = max(h - ih, 0), max(w - iw, 0)
            img = border("CenterCrop", img, dh // 2, dh - dh // 2, dw // 2, dw - dw // 2)
            ih, iw = hw(img)
        top, left = (ih - h) // 2, (iw - w) // 2
        return img[top:top + h, left:left + w].copy()

    def _pil(self, img):
        # MindSpore's Python path for PIL images rounds the offsets (half to even)
        (h, w), (iw, ih) = self.size, img.size
        top, left = int(round((ih - h) / 2.0)), int(round((iw - w) / 2.0))
        return img.crop((left, top, left + w, top + h))


def parse_padding(op, padding):
    """MindSpore's padding forms as (left, top, right, bottom)."""
    if isinstance(padding, numbers.Number) and not isinstance(padding, bool):
        padding = [padding] * 4
    elif isinstance(padding, (tuple, list)) and len(padding) == 2:
        padding = [padding[0], padding[1], padding[0], padding[1]]
    if not isinstance(padding, (tuple, list)) or len(padding) != 4 or \
            not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in padding):
        raise TypeError(f"For '{op}', padding must be an int or a sequence of 2 or 4 "
                        f"non-negative ints, but got {padding!r}.")
    return tuple(padding)


class Pad(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Pad`."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = parse_padding("Pad", padding)
        self.fill_value = fill_tuple("Pad", fill_value)
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = check_image("Pad", img)
        left, top, right, bottom = self.padding
        return border("Pad", img, top, bottom, left, right, self.padding_mode, self.fill_value)


class PadToSize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.PadToSize`: pad to (h, w), the image at `offset`
    (top, left), centred when None."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = pair("PadToSize", "size", size)
        if isinstance(offset, int):
            offset = (offset, offset)
        self.offset = offset
        self.fill_value = fill_tuple("PadToSize", fill_value)
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = check_image("PadToSize", img)
        (ih, iw), (h, w) = hw(img), self.size
        if h < ih or w < iw:
            raise pipeline_error("PadToSize", f"the target size ({h}, {w}) must not be smaller "
                                              f"than the image size ({ih}, {iw}).")
        top, left = ((h - ih) // 2, (w - iw) // 2) if self.offset is None else self.offset
        if top + ih > h or left + iw > w:
            raise pipeline_error("PadToSize", f"offset {self.offset} puts the ({ih}, {iw}) "
                                              f"image outside the ({h}, {w}) target.")
        return border("PadToSize", img, top, h - ih - top, left, w - iw - left,
                      self.padding_mode, self.fill_value)


class HorizontalFlip(ImageOperation):
    """Mirrors `mindspore.dataset.vision.HorizontalFlip`."""

    def _apply(self, img):
        return check_image("HorizontalFlip", img)[:, ::-1].copy()


class VerticalFlip(ImageOperation):
    """Mirrors `mindspore.dataset.vision.VerticalFlip`."""

    def _apply(self, img):
        return check_image("VerticalFlip", img)[::-1].copy()


class HWC2CHW(ImageOperation):
    """Mirrors `mindspore.dataset.vision.HWC2CHW` (an <H,W> image is returned as is)."""

    def _apply(self, img):
        img = check_image("HWC2CHW", img)
        return img if img.ndim == 2 else np.ascontiguousarray(img.transpose(2, 0, 1))


def rotation_matrix(img_hw, degrees, center, expand):
    """OpenCV's forward rotation about `center` (counter-clockwise degrees) and the canvas;
    `expand` grows the canvas to the rotated bounding box (MindSpore's arithmetic)."""
    h, w = img_hw
    if center is None:
        center = ((w - 1) / 2.0, (h - 1) / 2.0)
    m = cv2.getRotationMatrix2D(tuple(map(float, center)), float(degrees), 1.0)
    if not expand:
        return m, (h, w)
    rad = math.radians(degrees)
    cos, sin = abs(math.cos(rad)), abs(math.sin(rad))
    bw, bh = w * cos + h * sin, w * sin + h * cos
    m[0, 2] += bw / 2.0 - w / 2.0
    m[1, 2] += bh / 2.0 - h / 2.0
    return m, (int(round(bh)), int(round(bw)))


class Rotate(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Rotate`: counter-clockwise by `degrees`."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        if not isinstance(degrees, numbers.Number) or isinstance(degrees, bool):
            raise TypeError(f"For 'Rotate', degrees must be a number, but got {degrees!r}.")
        self.degrees, self.resample = degrees, check_inter("Rotate", resample)
        self.expand, self.center = expand, center
        self.fill_value = fill_tuple("Rotate", fill_value)

    def _apply(self, img):
        img = check_image("Rotate", img)
        m, size = rotation_matrix(hw(img), self.degrees, self.center, self.expand)
        return warp_affine("Rotate", img, m, size, self.resample, self.fill_value)


def affine_matrix(img_hw, degrees, translate, scale, shear):
    """The forward affine about the image centre ((w-1)/2, (h-1)/2), as MindSpore's C++
    Affine builds it: T * C * R(degrees) * S(scale) * SHy * SHx * C^-1 with `translate` in
    pixels and the shears (sx, sy) in degrees; float32 entries, as there."""
    h, w = img_hw
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    rot, sx, sy = math.radians(degrees), math.radians(shear[0]), math.radians(-shear[1])
    a = scale * math.cos(rot + sy) / math.cos(sy)
    b = scale * (-math.cos(rot + sy) * math.tan(sx) / math.cos(sy) - math.sin(rot))
    c = scale * math.sin(rot + sy) / math.cos(sy)
    d = scale * (-math.sin(rot + sy) * math.tan(sx) / math.cos(sy) + math.cos(rot))
    m = np.array([[a, b, (1 - a) * cx - b * cy + translate[0]],
                  [c, d, (1 - d) * cy - c * cx + translate[1]]], np.float32)
    return m.astype(np.float64)


def _shear_pair(shear):
    if isinstance(shear, numbers.Number):
        return float(shear), 0.0
    return float(shear[0]), float(shear[1]) if len(shear) > 1 else 0.0


class Affine(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Affine`: clockwise `degrees`, `translate` as
    fractions of the width and height, `shear` in degrees (x, then y)."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        self.degrees, self.translate, self.scale = degrees, list(translate), scale
        if scale <= 0:
            raise ValueError(f"For 'Affine', scale must be positive, but got {scale}.")
        self.shear = shear
        self.resample = check_inter("Affine", resample)
        self.fill_value = fill_tuple("Affine", fill_value)

    def _apply(self, img):
        img = check_image("Affine", img)
        h, w = hw(img)
        m = affine_matrix((h, w), self.degrees, (self.translate[0] * w, self.translate[1] * h),
                          self.scale, _shear_pair(self.shear))
        return warp_affine("Affine", img, m, hw(img), self.resample, self.fill_value)


class ResizedCrop(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ResizedCrop`: crop, then resize to `size`."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.top, self.left, self.height, self.width = top, left, height, width
        self.size = pair("ResizedCrop", "size", size)
        self.interpolation = check_inter("ResizedCrop", interpolation)

    def _apply(self, img):
        crop = crop_array("ResizedCrop", img, self.top, self.left, self.height, self.width)
        return resize_array("ResizedCrop", crop, self.size, self.interpolation)


class Perspective(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Perspective`: map `start_points` to `end_points`
    (four [x, y] corners each)."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = check_inter("Perspective", interpolation)

    def _apply(self, img):
        img = check_cv_dtype("Perspective", check_image("Perspective", img))
        m = cv2.getPerspectiveTransform(np.float32(self.start_points),
                                        np.float32(self.end_points))
        h, w = hw(img)
        out = cv2.warpPerspective(img, m, (w, h), flags=CV_INTER[self.interpolation],
                                  borderMode=cv2.BORDER_CONSTANT)
        return keep_channels(out, img)


class FiveCrop(ImageOperation):
    """Mirrors `mindspore.dataset.vision.FiveCrop`: the four corners and the centre."""

    def __init__(self, size):
        self.size = pair("FiveCrop", "size", size)

    def _apply(self, img):
        img = check_image("FiveCrop", img)
        (ih, iw), (h, w) = hw(img), self.size
        if h > ih or w > iw:
            raise pipeline_error("FiveCrop", f"crop size {self.size} is bigger than the image "
                                             f"({ih}, {iw}).")
        return (img[:h, :w], img[:h, iw - w:], img[ih - h:, :w], img[ih - h:, iw - w:],
                CenterCrop(self.size)(img))

    def _pil(self, img):
        return tuple(Image.fromarray(c) for c in self._apply(np.asarray(img)))


class TenCrop(ImageOperation):
    """Mirrors `mindspore.dataset.vision.TenCrop`: FiveCrop of the image and of its flip."""

    def __init__(self, size, use_vertical_flip=False):
        self.size, self.use_vertical_flip = pair("TenCrop", "size", size), use_vertical_flip

    def _apply(self, img):
        img = check_image("TenCrop", img)
        flipped = img[::-1] if self.use_vertical_flip else img[:, ::-1]
        return FiveCrop(self.size)(img) + FiveCrop(self.size)(np.ascontiguousarray(flipped))

    def _pil(self, img):
        return tuple(Image.fromarray(c) for c in self._apply(np.asarray(img)))


class SlicePatches(ImageOperation):
    """Mirrors `mindspore.dataset.vision.SlicePatches`: a num_height x num_width grid of
    patches (row-major); a remainder is padded with `fill_value` or dropped."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        self.num_height, self.num_width = num_height, num_width
        self.slice_mode, self.fill_value = SliceMode(slice_mode), fill_value

    def _apply(self, img):
        img = check_image("SlicePatches", img)
        ih, iw = hw(img)
        if self.slice_mode == SliceMode.PAD:
            ph, pw = -(-ih // self.num_height), -(-iw // self.num_width)
            pad = [(0, ph * self.num_height - ih), (0, pw * self.num_width - iw)]
            img = np.pad(img, pad + [(0, 0)] * (img.ndim - 2), constant_values=self.fill_value)
        else:
            ph, pw = ih // self.num_height, iw // self.num_width
        return tuple(img[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw].copy()
                     for i in range(self.num_height) for j in range(self.num_width))
