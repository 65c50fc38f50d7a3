"""Deterministic pixel transforms: Normalize, NormalizePad, Rescale, ToTensor, ToPIL, ToNumpy,
ToType, Grayscale, ConvertColor, Invert, AutoContrast, Equalize, Posterize, Solarize, the
Adjust* family, GaussianBlur, RgbToHsv, HsvToRgb, LinearTransformation."""

import numbers

import cv2
import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from cellgrad_dataset.transforms.base import pipeline_error, to_nptype
from cellgrad_dataset.vision.image import ImageOperation, check_cv_dtype, check_image, is_pil
from cellgrad_dataset.vision.utils import ConvertMode


def _seq(op, name, values, low, high, low_open=False):
    if isinstance(values, numbers.Number):
        values = [values]
    values = [float(v) for v in values]
    for i, v in enumerate(values):
        if v < low or v > high or (low_open and v == low):
            left = "(" if low_open else "["
            raise ValueError(f"Input {name}[{i}] is not within the required interval of "
                             f"{left}{low:g}, {high:g}].")
    return values


_CV_SCALAR_DTYPES = {np.dtype(t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.float32,
                                            np.float64)}


def _channels_check(op, img, n, is_hwc=True):
    channels = 1 if img.ndim == 2 else (img.shape[2] if is_hwc else img.shape[0])
    if n != 1 and n != channels:
        raise pipeline_error(op, f"number of channels does not match the size of mean and std "
                                 f"vectors, got channels: {channels}, size of mean: {n}")
    return channels


class Normalize(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Normalize`: (image - mean) / std in float32."""

    def __init__(self, mean, std, is_hwc=True):
        self.mean = _seq("Normalize", "mean", mean, 0, 255)
        self.std = _seq("Normalize", "std", std, 0, 255, low_open=True)
        if len(self.mean) != len(self.std):
            raise ValueError("Length of mean and std must be equal.")
        self.is_hwc = is_hwc

    def _apply(self, img):
        img = check_image("Normalize", img)
        _channels_check("Normalize", img, len(self.mean), self.is_hwc)
        channels = 1 if img.ndim == 2 else img.shape[2]
        if self.is_hwc and channels <= 4 and img.dtype in _CV_SCALAR_DTYPES:
            # OpenCV's per-channel scalar arithmetic: the same float32 values, 4x faster
            n = len(self.mean)
            mean = [float(np.float32(v)) for v in (self.mean if n > 1 else self.mean * channels)]
            std = [float(np.float32(v)) for v in (self.std if n > 1 else self.std * channels)]
            mean, std = tuple(mean) + (0.0,) * (4 - channels), tuple(std) + (1.0,) * (4 - channels)
            out = cv2.divide(cv2.subtract(np.ascontiguousarray(img), mean, dtype=cv2.CV_32F),
                             std)
            return out.reshape(img.shape)
        shape = (-1,) if self.is_hwc or img.ndim == 2 else (-1, 1, 1)
        mean = np.asarray(self.mean, np.float32).reshape(shape)
        std = np.asarray(self.std, np.float32).reshape(shape)
        out = img.astype(np.float32)
        out -= mean
        out /= std
        return out

    def _apply_batch(self, imgs):
        """The pipeline's block path: rows stacked on axis 0 (one shape, so one row's checks
        hold for all), normalized as `_apply` does each row."""
        first = check_image("Normalize", imgs[0])
        _channels_check("Normalize", first, len(self.mean), self.is_hwc)
        shape = (-1,) if self.is_hwc or first.ndim == 2 else (-1, 1, 1)
        mean = np.asarray(self.mean, np.float32).reshape(shape)
        std = np.asarray(self.std, np.float32).reshape(shape)
        return (imgs.astype(np.float32) - mean) / std


class NormalizePad(ImageOperation):
    """Mirrors `mindspore.dataset.vision.NormalizePad`: Normalize, then a zero channel."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        self._norm = Normalize(mean, std, is_hwc)
        self.mean, self.std, self.is_hwc = self._norm.mean, self._norm.std, is_hwc
        if dtype not in ("float32", "float16"):
            raise ValueError(f"For 'NormalizePad', dtype must be 'float32' or 'float16', but got "
                             f"{dtype!r}.")
        self.dtype = dtype

    def _apply(self, img):
        out = self._norm(check_image("NormalizePad", img, (3,)))
        axis = -1 if self.is_hwc else 0
        zero = np.zeros_like(np.take(out, [0], axis=axis))
        return np.concatenate([out, zero], axis=axis).astype(self.dtype)


class Rescale(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Rescale`: image * rescale + shift in float32."""

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def _apply(self, img):
        img = check_image("Rescale", img, range(0, 33))
        return img.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)

    _apply_batch = _apply  # elementwise: a block of rows is rescaled as each row


class ToTensor(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ToTensor`: an HWC image (PIL or array) to CHW
    `output_type`, uint8 scaled to [0, 1]."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type
        self._np = to_nptype("ToTensor", "output_type", output_type)

    def _apply(self, img):
        img = check_image("ToTensor", img)
        img = img[..., None] if img.ndim == 2 else img
        out = img.transpose(2, 0, 1)
        out = out * np.float32(1 / 255) if img.dtype == np.uint8 else out
        return np.ascontiguousarray(out.astype(self._np))

    def _pil(self, img):
        return self._apply(np.asarray(img))


class ToPIL(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ToPIL`: an <H,W> or <H,W,C> array to a PIL image."""

    def _apply(self, img):
        img = check_image("ToPIL", img)
        if img.ndim == 3 and img.shape[2] == 1:
            img = img[..., 0]
        try:
            return Image.fromarray(img)
        except TypeError as exc:
            raise TypeError(f"ToPIL: cannot make a PIL image of dtype {img.dtype} and shape "
                            f"{img.shape}.") from exc

    def _pil(self, img):
        return img


class ToNumpy(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ToNumpy`."""

    def _apply(self, img):
        return np.asarray(img)


class ToType(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ToType`: cast to `data_type`."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = to_nptype("ToType", "data_type", data_type)

    def _apply(self, img):
        return check_image("ToType", img, range(0, 33)).astype(self._np)


class Grayscale(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Grayscale` (Pillow's 'L' conversion; MindSpore takes
    PIL images only, arrays work here too and give arrays)."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError(f"Number of channels of the output grayscale images must be 1 or "
                             f"3, but got {num_output_channels}.")
        self.num_output_channels = num_output_channels

    def _pil(self, img):
        gray = img.convert("L")
        if self.num_output_channels == 3:
            return Image.merge("RGB", [gray] * 3)
        return gray

    def _apply(self, img):
        return np.asarray(self._pil(Image.fromarray(_uint8_rgb("Grayscale", img, (2, 3)))))


# Each canonical ConvertMode name is OpenCV's code of the same name.
_CV_CONVERT = {mode: getattr(cv2, mode.name) for mode in ConvertMode}


class ConvertColor(ImageOperation):
    """Mirrors `mindspore.dataset.vision.ConvertColor` (OpenCV's cvtColor)."""

    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"Argument convert_mode with value {convert_mode!r} is not of type "
                            f"[<enum 'ConvertMode'>], but got {type(convert_mode)}.")
        self.convert_mode = convert_mode

    def _apply(self, img):
        img = check_cv_dtype("ConvertColor", check_image("ConvertColor", img))
        try:
            return cv2.cvtColor(img, _CV_CONVERT[self.convert_mode])
        except cv2.error:
            raise pipeline_error("ConvertColor", f"{self.convert_mode.name} cannot convert an "
                                 f"image of shape {img.shape}.") from None


def _uint8_rgb(op, img, ranks=(3,)):
    img = check_image(op, img, ranks)
    if img.dtype != np.uint8 or (img.ndim == 3 and img.shape[2] != 3):
        raise pipeline_error(op, f"the image must be uint8 <H,W,3>, got dtype {img.dtype} and "
                                 f"shape {img.shape}.")
    return img


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


def pil_enhance(img, kind, factor):
    """Pillow's ImageEnhance (the Python path of RandomColor/RandomSharpness)."""
    pil = img if is_pil(img) else Image.fromarray(np.asarray(img))
    out = getattr(ImageEnhance, kind)(pil).enhance(factor)
    return out if is_pil(img) else np.asarray(out)
