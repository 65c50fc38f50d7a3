"""Random geometry: RandomCrop, RandomResizedCrop, RandomCropDecodeResize, RandomResize, the
random flips, RandomRotation, RandomAffine, RandomPerspective. Each draws from its own seeded
Generator (see `transforms.randomness`)."""

import math
import numbers

import cv2
import numpy as np
from PIL import Image

from cellgrad_dataset.transforms.base import pipeline_error
from cellgrad_dataset.transforms.randomness import RandomDraws
from cellgrad_dataset.vision.decode import decode_array
from cellgrad_dataset.vision.geometry import (
    _shear_pair,
    affine_matrix,
    parse_padding,
    rotation_matrix,
    target_size,
)
from cellgrad_dataset.vision.image import (
    CV_INTER,
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
from cellgrad_dataset.vision.utils import Border, Inter


def _prob(prob):
    if not isinstance(prob, numbers.Number) or not 0.0 <= prob <= 1.0:
        raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], got "
                         f"{prob!r}.")
    return float(prob)


def _range(op, name, value, center=0.0, low=None):
    """A number v as (center - v, center + v); a 2-sequence as is (ordered)."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"For '{op}', {name} must be non-negative, but got {value}.")
        lo, hi = center - value, center + value
    else:
        lo, hi = value
    if lo > hi:
        raise ValueError(f"For '{op}', {name} must be (min, max) with min <= max, but got "
                         f"{value!r}.")
    return (max(lo, low) if low is not None else lo), hi


class RandomCrop(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomCrop`: pad (optionally), then crop `size` at a
    uniformly drawn position."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = pair("RandomCrop", "size", size)
        self.padding = (0, 0, 0, 0) if padding is None else parse_padding("RandomCrop", padding)
        self.pad_if_needed, self.fill_value = pad_if_needed, fill_tuple("RandomCrop", fill_value)
        self.padding_mode = Border(padding_mode)

    def _apply(self, img):
        img = check_image("RandomCrop", img)
        left, top, right, bottom = self.padding
        if any(self.padding):
            img = border("RandomCrop", img, top, bottom, left, right, self.padding_mode,
                         self.fill_value)
        (ih, iw), (h, w) = hw(img), self.size
        if self.pad_if_needed and (ih < h or iw < w):
            dh, dw = max(h - ih, 0), max(w - iw, 0)
            img = border("RandomCrop", img, dh // 2, dh - dh // 2, dw // 2, dw - dw // 2,
                         self.padding_mode, self.fill_value)
            ih, iw = hw(img)
        if ih < h or iw < w:
            raise pipeline_error("RandomCrop", f"crop size {self.size} is bigger than the image "
                                 f"({ih}, {iw}) after padding; set pad_if_needed=True or a "
                                 f"smaller size.")
        rng = self._rng()
        top, left = int(rng.integers(ih - h + 1)), int(rng.integers(iw - w + 1))
        return img[top:top + h, left:left + w].copy()


def crop_box(rng, img_hw, scale, ratio, max_attempts):
    """RandomResizedCrop's box: area fraction ~ U(scale), log aspect ~ U(log ratio); after
    `max_attempts` misses, the central crop with the ratio clamped into `ratio`."""
    h, w = img_hw
    area = h * w
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(max_attempts):
        target = area * rng.uniform(*scale)
        aspect = math.exp(rng.uniform(*log_ratio))
        cw, ch = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
        if 0 < cw <= w and 0 < ch <= h:
            return int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1)), ch, cw
    in_ratio = w / h
    if in_ratio < ratio[0]:
        cw, ch = w, int(round(w / ratio[0]))
    elif in_ratio > ratio[1]:
        ch, cw = h, int(round(h * ratio[1]))
    else:
        cw, ch = w, h
    return (h - ch) // 2, (w - cw) // 2, ch, cw


def _crop_args(op, scale, ratio, max_attempts):
    if not (0 <= scale[0] <= scale[1]):
        raise ValueError(f"For '{op}', scale must be (min, max) with 0 <= min <= max, but got "
                         f"{scale!r}.")
    if not (0 < ratio[0] <= ratio[1]):
        raise ValueError(f"For '{op}', ratio must be (min, max) with 0 < min <= max, but got "
                         f"{ratio!r}.")
    if max_attempts < 1:
        raise ValueError(f"For '{op}', max_attempts must be >= 1, but got {max_attempts}.")
    return tuple(scale), tuple(ratio), int(max_attempts)


class RandomResizedCrop(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomResizedCrop`."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = pair("RandomResizedCrop", "size", size)
        self.scale, self.ratio, self.max_attempts = _crop_args("RandomResizedCrop", scale,
                                                               ratio, max_attempts)
        self.interpolation = check_inter("RandomResizedCrop", interpolation)

    def _apply(self, img):
        img = check_image("RandomResizedCrop", img)
        top, left, h, w = crop_box(self._rng(), hw(img), self.scale, self.ratio,
                                   self.max_attempts)
        return resize_array("RandomResizedCrop", img[top:top + h, left:left + w], self.size,
                            self.interpolation)


class RandomCropDecodeResize(RandomResizedCrop):
    """Mirrors `mindspore.dataset.vision.RandomCropDecodeResize`: Decode, then
    RandomResizedCrop."""

    def _apply(self, data):
        return super()._apply(decode_array("RandomCropDecodeResize", data))


class RandomResize(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomResize`: Resize with a randomly chosen
    interpolation (NEAREST, BILINEAR, BICUBIC or AREA)."""

    _MODES = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = size
        target_size("RandomResize", (1, 1), size)

    def _apply(self, img):
        img = check_image("RandomResize", img)
        mode = self._MODES[int(self._rng().integers(len(self._MODES)))]
        return resize_array("RandomResize", img, target_size("RandomResize", hw(img), self.size),
                            mode)


class RandomHorizontalFlip(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomHorizontalFlip`."""

    def __init__(self, prob=0.5):
        self.prob = _prob(prob)

    def _apply(self, img):
        img = check_image("RandomHorizontalFlip", img)
        return img[:, ::-1].copy() if self._rng().random() < self.prob else img

    def _pil(self, img):
        return img.transpose(Image.FLIP_LEFT_RIGHT) if self._rng().random() < self.prob else img


class RandomVerticalFlip(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomVerticalFlip`."""

    def __init__(self, prob=0.5):
        self.prob = _prob(prob)

    def _apply(self, img):
        img = check_image("RandomVerticalFlip", img)
        return img[::-1].copy() if self._rng().random() < self.prob else img

    def _pil(self, img):
        return img.transpose(Image.FLIP_TOP_BOTTOM) if self._rng().random() < self.prob else img


class RandomRotation(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomRotation`: degrees d means U(-d, d)."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        self.degrees = _range("RandomRotation", "degrees", degrees)
        self.resample, self.expand, self.center = check_inter("RandomRotation", resample), \
            expand, center
        self.fill_value = fill_tuple("RandomRotation", fill_value)

    def _apply(self, img):
        img = check_image("RandomRotation", img)
        angle = self._rng().uniform(*self.degrees)
        m, size = rotation_matrix(hw(img), angle, self.center, self.expand)
        return warp_affine("RandomRotation", img, m, size, self.resample, self.fill_value)


class RandomAffine(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomAffine`: rotation ~ U(degrees); translation ~
    U(translate) times the image size, `translate` (x_min, x_max) or (x_min, x_max, y_min,
    y_max); scale ~ U(scale); shear ~ U(shear) degrees (x, then y)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        self.degrees = _range("RandomAffine", "degrees", degrees)
        t = (0.0, 0.0, 0.0, 0.0) if translate is None else tuple(translate)
        # MindSpore 2.x: two values are (min, max) of the horizontal shift (checked)
        self.translate = (t[0], t[1], 0.0, 0.0) if len(t) == 2 else t
        if not (self.translate[0] <= self.translate[1] and self.translate[2] <= self.translate[3]):
            raise ValueError(f"For 'RandomAffine', translate must be (min, max) pairs, but got "
                             f"{translate!r}.")
        self.scale_ = (1.0, 1.0) if scale is None else tuple(scale)
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Number):
            shear = (-shear, shear, 0.0, 0.0)
        elif len(shear) == 2:
            shear = (shear[0], shear[1], 0.0, 0.0)
        self.shear = tuple(shear)
        self.resample = check_inter("RandomAffine", resample)
        self.fill_value = fill_tuple("RandomAffine", fill_value)

    def _apply(self, img):
        img = check_image("RandomAffine", img)
        rng, (h, w) = self._rng(), hw(img)
        angle = rng.uniform(*self.degrees)
        tx = rng.uniform(self.translate[0], self.translate[1]) * w
        ty = rng.uniform(self.translate[2], self.translate[3]) * h
        scale = rng.uniform(*self.scale_)
        shear = (rng.uniform(*self.shear[:2]), rng.uniform(*self.shear[2:]))
        m = affine_matrix((h, w), angle, (tx, ty), scale, _shear_pair(shear))
        return warp_affine("RandomAffine", img, m, (h, w), self.resample, self.fill_value)


class RandomPerspective(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomPerspective`: with probability `prob`, move
    each corner inwards by up to distortion_scale * half the image size."""

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        if not 0.0 <= distortion_scale <= 1.0:
            raise ValueError("Input distortion_scale is not within the required interval of "
                             "[0.0, 1.0].")
        self.distortion_scale, self.prob = distortion_scale, _prob(prob)
        self.interpolation = check_inter("RandomPerspective", interpolation)

    def _apply(self, img):
        img = check_cv_dtype("RandomPerspective", check_image("RandomPerspective", img))
        rng = self._rng()
        if rng.random() >= self.prob:
            return img
        h, w = hw(img)
        dx, dy = int(self.distortion_scale * w / 2), int(self.distortion_scale * h / 2)
        start = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        sign = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
        end = start + sign * rng.integers(0, [dx + 1, dy + 1], size=(4, 2))
        m = cv2.getPerspectiveTransform(start, np.float32(end))
        out = cv2.warpPerspective(img, m, (w, h), flags=CV_INTER.get(self.interpolation,
                                                                      cv2.INTER_CUBIC))
        return keep_channels(out, img)
