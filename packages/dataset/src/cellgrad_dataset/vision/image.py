"""What every vision transform shares: the image checks, the PIL/numpy dispatch and the
OpenCV kernels the interpolation and border modes map to."""

import cv2
import numpy as np
from PIL import Image

from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error
from cellgrad_dataset.vision.utils import Border, Inter

CV_INTER = {Inter.NEAREST: cv2.INTER_NEAREST, Inter.BILINEAR: cv2.INTER_LINEAR,
            Inter.BICUBIC: cv2.INTER_CUBIC, Inter.AREA: cv2.INTER_AREA}
PIL_INTER = {Inter.NEAREST: Image.NEAREST, Inter.BILINEAR: Image.BILINEAR,
             Inter.BICUBIC: Image.BICUBIC, Inter.ANTIALIAS: Image.LANCZOS,
             Inter.AREA: Image.BOX, Inter.PILCUBIC: Image.BICUBIC}
CV_BORDER = {Border.CONSTANT: cv2.BORDER_CONSTANT, Border.EDGE: cv2.BORDER_REPLICATE,
             Border.REFLECT: cv2.BORDER_REFLECT_101, Border.SYMMETRIC: cv2.BORDER_REFLECT}
_CV_DTYPES = {np.dtype(t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.float32,
                                    np.float64)}


def is_pil(img):
    return isinstance(img, Image.Image)


class ImageOperation(TensorOperation):
    """A vision transform: numpy images go to `_apply` (OpenCV/numpy, as MindSpore's C++
    ops), PIL images to `_pil` where MindSpore has a Python path for them (else they are
    converted to arrays)."""

    def __call__(self, *input_tensor_list):
        for value in input_tensor_list:
            if not isinstance(value, (np.ndarray, Image.Image)):
                raise TypeError(f"{type(self).__name__}: input should be NumPy or PIL image, "
                                f"got {type(value)}.")
        try:
            if len(input_tensor_list) == 1 and is_pil(input_tensor_list[0]):
                if hasattr(self, "_pil"):
                    return self._pil(input_tensor_list[0])
                if type(self).__name__ in PIL_RESULT:
                    return _to_pil(self._apply(np.asarray(input_tensor_list[0])))
            return self._apply(*(np.asarray(v) for v in input_tensor_list))
        except RuntimeError as exc:
            name = type(self).__name__
            if str(exc).startswith(name):
                raise
            # a transform built from others (RandomColor, UniformAugment, ...) names itself
            raise RuntimeError(f"{name}: {exc}") from exc


# The transforms that MindSpore 2.10 runs in Python on a PIL image, returning PIL images
# (checked); the others return arrays, as there.
PIL_RESULT = frozenset({
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation",
    "AutoContrast", "CenterCrop", "Equalize", "FiveCrop", "Grayscale", "Invert", "Pad",
    "Perspective", "RandomAffine", "RandomColor", "RandomColorAdjust", "RandomCrop",
    "RandomErasing", "RandomGrayscale", "RandomHorizontalFlip", "RandomLighting",
    "RandomPerspective", "RandomResizedCrop", "RandomRotation", "RandomSharpness",
    "RandomVerticalFlip", "Resize", "TenCrop", "UniformAugment",
})


def _to_pil(out):
    if isinstance(out, tuple):
        return tuple(_to_pil(o) for o in out)
    return Image.fromarray(out[..., 0] if out.ndim == 3 and out.shape[2] == 1 else out)


def check_image(op, img, ranks=(2, 3)):
    """`img` as an <H,W> or <H,W,C> array, or the RuntimeError MindSpore raises."""
    img = np.asarray(img)
    if img.dtype.kind not in "biuf":
        raise pipeline_error(op, f"the image must hold numbers, got dtype {img.dtype} and shape "
                                 f"{img.shape}.")
    if img.ndim not in ranks:
        want = " or ".join({2: "<H,W>", 3: "<H,W,C>"}.get(r, f"rank {r}") for r in ranks)
        raise pipeline_error(op, f"image shape should be {want}, but got rank: {img.ndim} "
                                 f"(shape {img.shape}); you may need to perform Decode first.")
    return img


def check_cv_dtype(op, img):
    if img.dtype not in _CV_DTYPES:
        raise pipeline_error(op, f"the image dtype {img.dtype} is not supported; expected "
                                 f"uint8, int8, uint16, int16, float32 or float64.")
    return np.ascontiguousarray(img)


def hw(img):
    return img.shape[0], img.shape[1]


def keep_channels(out, like):
    """OpenCV drops a trailing channel of 1; put it back."""
    return out[..., None] if like.ndim == 3 and out.ndim == 2 else out


def fill_tuple(op, fill_value):
    if isinstance(fill_value, (int, float)) and not isinstance(fill_value, bool):
        return (fill_value,) * 3
    if isinstance(fill_value, (tuple, list)) and len(fill_value) == 3:
        return tuple(fill_value)
    raise TypeError(f"For '{op}', fill_value must be a number or a 3-tuple, but got "
                    f"{fill_value!r}.")


def cv_fill(fill, img):
    """The border value OpenCV wants for this image's channel count."""
    channels = img.shape[2] if img.ndim == 3 else 1
    vals = list(fill) + [0] * 4
    return tuple(vals[:4]) if channels > 1 else (vals[0],) * 4


def pair(op, name, size):
    """An int or (h, w) size as (h, w) of positive ints."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        size = (int(size), int(size))
    if not isinstance(size, (tuple, list)) or len(size) != 2 or \
            not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in size):
        raise TypeError(f"For '{op}', {name} must be an int or a sequence of 2 ints, but got "
                        f"{size!r}.")
    if min(size) <= 0 or max(size) > 16777216:
        raise ValueError(f"Input is not within the required interval of [1, 16777216]: "
                         f"{op} {name}={size!r}.")
    return int(size[0]), int(size[1])


def check_inter(op, interpolation):
    if not isinstance(interpolation, Inter):
        raise TypeError(f"For '{op}', interpolation must be of type Inter, but got "
                        f"{interpolation!r}.")
    return interpolation


def resize_array(op, img, size, interpolation):
    """`img` resized to (h, w) the way MindSpore's C++ Resize does."""
    h, w = size
    if interpolation == Inter.ANTIALIAS:
        raise TypeError(f"{op}: the ANTIALIAS interpolation mode is not supported with NumPy "
                        f"input; convert the image with ToPIL() first.")
    if interpolation == Inter.PILCUBIC:
        if img.dtype != np.uint8 or (img.ndim == 3 and img.shape[2] not in (1, 3)):
            raise pipeline_error(op, f"PILCUBIC supports uint8 images with 1 or 3 channels, "
                                     f"got dtype {img.dtype} and shape {img.shape}.")
        pil = Image.fromarray(img[..., 0] if img.ndim == 3 and img.shape[2] == 1 else img)
        return keep_channels(np.asarray(pil.resize((w, h), Image.BICUBIC)), img)
    img = check_cv_dtype(op, img)
    return keep_channels(cv2.resize(img, (w, h), interpolation=CV_INTER[interpolation]), img)


def border(op, img, top, bottom, left, right, mode=Border.CONSTANT, fill=(0, 0, 0)):
    img = check_cv_dtype(op, img)
    out = cv2.copyMakeBorder(img, top, bottom, left, right, CV_BORDER[Border(mode)],
                             value=cv_fill(fill, img))
    return keep_channels(out, img)


def warp_affine(op, img, matrix, out_size, interpolation, fill):
    """`img` through the forward affine `matrix` (2x3) onto an (h, w) canvas."""
    img = check_cv_dtype(op, img)
    if interpolation not in CV_INTER:
        raise pipeline_error(op, f"interpolation {interpolation!r} is not supported; expected "
                                 f"NEAREST, BILINEAR, BICUBIC or AREA.")
    h, w = out_size
    out = cv2.warpAffine(img, np.asarray(matrix, np.float64), (w, h),
                         flags=CV_INTER[interpolation], borderMode=cv2.BORDER_CONSTANT,
                         borderValue=cv_fill(fill, img))
    return keep_channels(out, img)


def not_random(func):
    """Mirrors `mindspore.dataset.vision.not_random`: marks a Python function as
    deterministic (MindSpore uses the mark for caching)."""
    func.random = False
    return func
