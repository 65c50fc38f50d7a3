"""Deterministic pixel adjustments: Invert, Posterize, Solarize, AutoContrast, Equalize, the
Adjust* family, GaussianBlur, RgbToHsv, HsvToRgb, LinearTransformation (MindSpore's C++
formulas on OpenCV)."""

import numbers

import cv2
import numpy as np
from PIL import Image, ImageOps

from cellgrad_dataset.transforms.base import pipeline_error
from cellgrad_dataset.vision.color import _uint8_rgb
from cellgrad_dataset.vision.image import ImageOperation, check_cv_dtype, check_image


class Invert(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Invert`: 255 - image."""

    def _apply(self, img):
        return 255 - _uint8_rgb("Invert", img, (2, 3))


class Posterize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Posterize`: keep the top `bits` bits."""

    def __init__(self, bits):
        if not 0 <= bits <= 8:
            raise ValueError("Input bits is not within the required interval of [0, 8].")
        self.bits = bits

    def _apply(self, img):
        img = _uint8_rgb("Posterize", img, (2, 3))
        return img & np.uint8((0xFF << (8 - self.bits)) & 0xFF)


class Solarize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Solarize`: invert the pixels >= threshold (or inside
    a (min, max) threshold range; equal bounds: >= them)."""

    def __init__(self, threshold):
        low, high = (threshold, 255) if isinstance(threshold, numbers.Number) else threshold
        if not 0 <= low <= high <= 255:
            raise ValueError(f"Input threshold is not within the required interval of [0, 255]: "
                             f"{threshold!r}.")
        self.threshold, self._range = threshold, (low, high)

    def _apply(self, img):
        img = _uint8_rgb("Solarize", img, (2, 3))
        low, high = self._range
        # as MindSpore's kernel: equal bounds invert everything at or above them
        hot = img >= low if low == high else (img >= low) & (img <= high)
        return np.where(hot, 255 - img, img).astype(np.uint8)


def _via_pil(op, img, fn):
    img = _uint8_rgb(op, img)
    return np.asarray(fn(Image.fromarray(img)))


class AutoContrast(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AutoContrast` (Pillow's autocontrast)."""

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise ValueError("Input cutoff is not within the required interval of [0, 50).")
        self.cutoff, self.ignore = cutoff, ignore

    def _apply(self, img):
        return _via_pil("AutoContrast", img,
                        lambda p: ImageOps.autocontrast(p, self.cutoff, self.ignore))


class Equalize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Equalize`: OpenCV's equalizeHist per channel."""

    def _apply(self, img):
        img = _uint8_rgb("Equalize", img, (2, 3))
        if img.ndim == 2:
            return cv2.equalizeHist(img)
        return np.stack([cv2.equalizeHist(np.ascontiguousarray(img[..., c]))
                         for c in range(img.shape[2])], -1)


def _blend(img, other, factor):
    out = other.astype(np.float32) + factor * (img.astype(np.float32) - other)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _gray(img):
    return cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_RGB2GRAY)


class AdjustBrightness(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustBrightness`: image * factor."""

    def __init__(self, brightness_factor):
        self.brightness_factor = float(brightness_factor)

    def _apply(self, img):
        img = _uint8_rgb("AdjustBrightness", img)
        return _blend(img, np.zeros_like(img), self.brightness_factor)


class AdjustContrast(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustContrast`: blend with the grey mean."""

    def __init__(self, contrast_factor):
        self.contrast_factor = float(contrast_factor)

    def _apply(self, img):
        img = _uint8_rgb("AdjustContrast", img)
        mean = np.full_like(img, int(_gray(img).mean() + 0.5))
        return _blend(img, mean, self.contrast_factor)


class AdjustSaturation(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustSaturation`: blend with the greyscale image."""

    def __init__(self, saturation_factor):
        self.saturation_factor = float(saturation_factor)

    def _apply(self, img):
        img = _uint8_rgb("AdjustSaturation", img)
        return _blend(img, np.repeat(_gray(img)[..., None], 3, -1), self.saturation_factor)


class AdjustHue(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustHue`: rotate the hue by `hue_factor` turns."""

    def __init__(self, hue_factor):
        if not -0.5 <= hue_factor <= 0.5:
            raise ValueError("Input hue_factor is not within the required interval of "
                             "[-0.5, 0.5].")
        self.hue_factor = float(hue_factor)

    def _apply(self, img):
        img = _uint8_rgb("AdjustHue", img)
        hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV_FULL)
        shift = np.uint8(int(self.hue_factor * 255) % 256)  # C++'s truncating cast
        hsv[..., 0] = hsv[..., 0] + shift
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB_FULL)


class AdjustGamma(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustGamma`: uint8 through MindSpore's table
    floor(min((i/255)**gamma * (256 - 1e-3) * gain, 255)); floats as
    clip((x * gain) ** gamma, 0, 1)."""

    def __init__(self, gamma, gain=1):
        if gamma < 0:
            raise ValueError("Input gamma is not within the required interval of [0, inf).")
        self.gamma, self.gain = float(gamma), float(gain)

    def _apply(self, img):
        img = check_image("AdjustGamma", img)
        if img.dtype != np.uint8 and img.dtype.kind != "f":
            raise pipeline_error("AdjustGamma", f"the image must be uint8 or float, got dtype "
                                                f"{img.dtype}.")
        channels = 1 if img.ndim == 2 else img.shape[2]
        if channels not in (1, 3):
            raise pipeline_error("AdjustGamma", f"channel of input image should be 1 or 3, but "
                                                f"got: {channels}")
        if img.dtype.kind == "f":
            return np.clip((img * np.float32(self.gain)) ** np.float32(self.gamma), 0, 1
                           ).astype(img.dtype)
        f = (np.arange(256, dtype=np.float32) / np.float32(255)) ** np.float32(self.gamma)
        table = np.floor(np.minimum(f * np.float32(256 - 1e-3) * np.float32(self.gain), 255))
        return table.astype(np.uint8)[img]


def _smooth(img):
    kernel = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / 13.0
    out = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    out[0], out[-1], out[:, 0], out[:, -1] = img[0], img[-1], img[:, 0], img[:, -1]
    return out


class AdjustSharpness(ImageOperation):
    """Mirrors `mindspore.dataset.vision.AdjustSharpness`: blend with a smoothed image."""

    def __init__(self, sharpness_factor):
        if sharpness_factor < 0:
            raise ValueError("Input sharpness_factor is not within the required interval of "
                             "[0, inf).")
        self.sharpness_factor = float(sharpness_factor)

    def _apply(self, img):
        img = _uint8_rgb("AdjustSharpness", img, (2, 3))
        return _blend(img, _smooth(img), self.sharpness_factor)


class GaussianBlur(ImageOperation):
    """Mirrors `mindspore.dataset.vision.GaussianBlur` (OpenCV's, sigma from the kernel size
    when not given)."""

    def __init__(self, kernel_size, sigma=None):
        ks = (kernel_size, kernel_size) if isinstance(kernel_size, int) else tuple(kernel_size)
        if any(k <= 0 or k % 2 == 0 for k in ks):
            raise ValueError(f"Input kernel_size is not an odd positive number: {kernel_size}.")
        if sigma is None:
            sigma = [0.3 * ((k - 1) * 0.5 - 1) + 0.8 for k in ks]
        elif isinstance(sigma, numbers.Number):
            sigma = (sigma, sigma)
        self.kernel_size, self.sigma = ks, tuple(float(s) for s in sigma)

    def _apply(self, img):
        img = check_cv_dtype("GaussianBlur", check_image("GaussianBlur", img))
        out = cv2.GaussianBlur(img, self.kernel_size, sigmaX=self.sigma[0],
                               sigmaY=self.sigma[1], borderType=cv2.BORDER_REFLECT_101)
        return out[..., None] if img.ndim == 3 and out.ndim == 2 else out


def _hsv_layout(op, img, is_hwc):
    img = np.asarray(img)
    if img.ndim not in (3, 4) or img.shape[-1 if is_hwc else -3] != 3:
        raise pipeline_error(op, f"expected <H,W,3> or <N,H,W,3> (<3,H,W> with is_hwc=False), "
                                 f"got shape {img.shape}.")
    return img if is_hwc else np.moveaxis(img, -3, -1)


class RgbToHsv(ImageOperation):
    """Mirrors `mindspore.dataset.vision.RgbToHsv`: float RGB in [0, 1] to HSV in [0, 1]
    (colorsys's convention)."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def _apply(self, img):
        rgb = _hsv_layout("RgbToHsv", img, self.is_hwc).astype(np.float64)
        r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        maxc, minc = rgb.max(-1), rgb.min(-1)
        delta = maxc - minc
        safe = np.where(delta == 0, 1, delta)
        h = np.where(maxc == r, (g - b) / safe, np.where(maxc == g, 2 + (b - r) / safe,
                                                         4 + (r - g) / safe))
        h = np.where(delta == 0, 0, (h / 6.0) % 1.0)
        s = np.where(maxc == 0, 0, delta / np.where(maxc == 0, 1, maxc))
        out = np.stack([h, s, maxc], -1).astype(img.dtype)
        return out if self.is_hwc else np.moveaxis(out, -1, -3)


class HsvToRgb(ImageOperation):
    """Mirrors `mindspore.dataset.vision.HsvToRgb`: the inverse of RgbToHsv."""

    def __init__(self, is_hwc=False):
        self.is_hwc = is_hwc

    def _apply(self, img):
        hsv = _hsv_layout("HsvToRgb", img, self.is_hwc).astype(np.float64)
        h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
        i = np.floor(h * 6.0)
        f = h * 6.0 - i
        p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
        i = i.astype(int) % 6
        choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
        out = np.stack([np.choose(i, [c[k] for c in choices]) for k in range(3)], -1)
        out = out.astype(img.dtype)
        return out if self.is_hwc else np.moveaxis(out, -1, -3)


class LinearTransformation(ImageOperation):
    """Mirrors `mindspore.dataset.vision.LinearTransformation`: (flat(image) - mean_vector)
    @ transformation_matrix, reshaped back (CHW float images)."""

    def __init__(self, transformation_matrix, mean_vector):
        self.transformation_matrix = np.asarray(transformation_matrix)
        self.mean_vector = np.asarray(mean_vector)

    def _apply(self, img):
        img = np.asarray(img)
        flat = img.reshape(1, -1)
        if flat.shape[1] != self.transformation_matrix.shape[0]:
            raise ValueError(f"LinearTransformation: the image has {flat.shape[1]} elements "
                             f"but transformation_matrix is "
                             f"{self.transformation_matrix.shape}.")
        return ((flat - self.mean_vector) @ self.transformation_matrix).reshape(img.shape)
