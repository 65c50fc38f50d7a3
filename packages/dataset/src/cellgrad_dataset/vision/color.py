"""Conversions: Normalize, NormalizePad, Rescale, ToTensor, ToPIL, ToNumpy, ToType, Grayscale,
ConvertColor."""

import numbers

import cv2
import numpy as np
from PIL import Image

from cellgrad_dataset.transforms.base import pipeline_error, to_nptype
from cellgrad_dataset.vision.image import ImageOperation, check_cv_dtype, check_image
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
        hold for all; checked once per row shape), normalized as `_apply` does each row."""
        key = (imgs.shape[1:], imgs.dtype)
        consts = getattr(self, "_batch_consts", None)
        if consts is None or consts[0] != key:
            first = check_image("Normalize", imgs[0])
            _channels_check("Normalize", first, len(self.mean), self.is_hwc)
            shape = (-1,) if self.is_hwc or first.ndim == 2 else (-1, 1, 1)
            consts = self._batch_consts = (key, np.asarray(self.mean, np.float32).reshape(shape),
                                           np.asarray(self.std, np.float32).reshape(shape))
        out = imgs.astype(np.float32)  # in place from here: no block-sized temporaries
        out -= consts[1]
        out /= consts[2]
        return out


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
