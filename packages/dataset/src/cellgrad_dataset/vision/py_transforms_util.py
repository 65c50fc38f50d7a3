"""`mindspore.dataset.vision.py_transforms_util`: the PIL-image helpers MindSpore's Python
transforms are built from, which real code calls for its own augmentations."""

import random

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from cellgrad_dataset.vision.image import PIL_INTER, is_pil
from cellgrad_dataset.vision.utils import Inter

augment_error_message = ("img should be PIL image. Got {}. Use Decode() for encoded data or "
                         "ToPIL() for decoded data.")


def _pil(img):
    if not is_pil(img):
        raise TypeError(augment_error_message.format(type(img)))
    return img


def is_numpy(img):
    """Whether `img` is a numpy array."""
    return isinstance(img, np.ndarray)


def crop(img, top, left, height, width):
    """Crop a PIL image (a box outside the image is zero-filled, as Pillow)."""
    return _pil(img).crop((left, top, left + width, top + height))


def resize(img, size, interpolation=Inter.BILINEAR):
    """Resize a PIL image; an int size sets the shorter side."""
    img = _pil(img)
    if isinstance(size, int):
        w, h = img.size
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        size = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    return img.resize(size[::-1], PIL_INTER[Inter(interpolation)])


def center_crop(img, size):
    """The central crop of a PIL image (offsets rounded half to even, as MindSpore's)."""
    img = _pil(img)
    h, w = (size, size) if isinstance(size, int) else size
    top, left = int(round((img.size[1] - h) / 2.0)), int(round((img.size[0] - w) / 2.0))
    return crop(img, top, left, h, w)


def horizontal_flip(img):
    """Mirror a PIL image left to right."""
    return _pil(img).transpose(Image.FLIP_LEFT_RIGHT)


def vertical_flip(img):
    """Flip a PIL image top to bottom."""
    return _pil(img).transpose(Image.FLIP_TOP_BOTTOM)


def pad(img, padding, fill_value, padding_mode):
    """Pad a PIL image: padding int, (left/right, top/bottom) or (left, top, right, bottom);
    padding_mode 'constant', 'edge', 'reflect' or 'symmetric'."""
    img = _pil(img)
    if isinstance(padding, int):
        padding = (padding,) * 4
    elif len(padding) == 2:
        padding = (padding[0], padding[1], padding[0], padding[1])
    left, top, right, bottom = padding
    if padding_mode == "constant":
        fill = tuple(fill_value) if isinstance(fill_value, (list, tuple)) else fill_value
        return ImageOps.expand(img, border=(left, top, right, bottom), fill=fill)
    arr = np.asarray(img)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (arr.ndim - 2)
    return Image.fromarray(np.pad(arr, widths, mode=padding_mode))


def random_crop(img, size, padding, pad_if_needed, fill_value, padding_mode):
    """A crop of `size` at a position drawn with Python's `random` (as MindSpore's)."""
    img = _pil(img)
    if isinstance(size, int):
        size = (size, size)
    elif not (isinstance(size, (tuple, list)) and len(size) == 2):
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    if padding is not None:
        img = pad(img, padding, fill_value, padding_mode)
    if pad_if_needed and img.size[0] < size[1]:
        img = pad(img, (size[1] - img.size[0], 0), fill_value, padding_mode)
    if pad_if_needed and img.size[1] < size[0]:
        img = pad(img, (0, size[0] - img.size[1]), fill_value, padding_mode)
    width, height = img.size
    if height < size[0] or width < size[1]:
        raise ValueError(f"Crop size {tuple(size)} is larger than input image size "
                         f"{(height, width)}.")
    top, left = random.randint(0, height - size[0]), random.randint(0, width - size[1])
    return crop(img, top, left, size[0], size[1])


def adjust_brightness(img, brightness_factor):
    """Pillow's ImageEnhance.Brightness."""
    return ImageEnhance.Brightness(_pil(img)).enhance(brightness_factor)


def adjust_contrast(img, contrast_factor):
    """Pillow's ImageEnhance.Contrast."""
    return ImageEnhance.Contrast(_pil(img)).enhance(contrast_factor)


def adjust_saturation(img, saturation_factor):
    """Pillow's ImageEnhance.Color."""
    return ImageEnhance.Color(_pil(img)).enhance(saturation_factor)


def rotate(img, angle, resample, expand, center, fill_value):
    """Pillow's rotate (counter-clockwise degrees)."""
    img = _pil(img)
    if isinstance(fill_value, (int, list)):
        fill_value = tuple([fill_value] * 3) if isinstance(fill_value, int) else tuple(fill_value)
    return img.rotate(angle % 360.0, PIL_INTER[Inter(resample)], expand, center,
                      fillcolor=fill_value)


def hwc_to_chw(img):
    """An HWC array (or PIL image) as CHW."""
    arr = np.asarray(img)
    return arr if arr.ndim == 2 else arr.transpose(2, 0, 1).copy()


def to_tensor(img, output_type):
    """An HWC image as a CHW array of `output_type`, uint8 scaled to [0, 1]."""
    arr = np.asarray(img)
    arr = arr[..., None] if arr.ndim == 2 else arr
    out = arr.transpose(2, 0, 1)
    out = out * np.float32(1 / 255) if arr.dtype == np.uint8 else out
    return np.ascontiguousarray(out.astype(output_type))


def normalize(img, mean, std, pad_channel=False, dtype="float32"):
    """(img - mean) / std on a CHW array, with an optional zero channel appended."""
    arr = np.asarray(img)
    out = (arr - np.asarray(mean, np.float32).reshape(-1, 1, 1)) / np.asarray(
        std, np.float32).reshape(-1, 1, 1)
    if pad_channel:
        out = np.concatenate([out, np.zeros((1,) + out.shape[1:], out.dtype)])
    return out.astype(dtype)
