"""`mindspore.dataset.vision.py_transforms` (MindSpore 1.x), still imported by real code: the
Pillow-backed vision transforms under their 1.x names (`Cutout` was `CutOut`'s name there).
They take PIL images (ToPIL first) and ToTensor makes CHW float arrays, as in 1.x."""

from cellgrad_dataset.transforms.base import PyTensorOperation
from cellgrad_dataset.vision.adjust import (
    AutoContrast,
    Equalize,
    HsvToRgb,
    Invert,
    LinearTransformation,
    RgbToHsv,
)
from cellgrad_dataset.vision.augment import UniformAugment
from cellgrad_dataset.vision.color import Grayscale, ToPIL, ToTensor, ToType
from cellgrad_dataset.vision.color import Normalize as _Normalize
from cellgrad_dataset.vision.color import NormalizePad as _NormalizePad
from cellgrad_dataset.vision.decode import Decode as _Decode
from cellgrad_dataset.vision.erasing import CutOut as _CutOut
from cellgrad_dataset.vision.erasing import MixUp, RandomErasing
from cellgrad_dataset.vision.geometry import HWC2CHW, CenterCrop, FiveCrop, Pad, Resize, TenCrop
from cellgrad_dataset.vision.random_color import (
    RandomColor,
    RandomColorAdjust,
    RandomGrayscale,
    RandomLighting,
    RandomSharpness,
)
from cellgrad_dataset.vision.random_geometry import RandomAffine as _RandomAffine
from cellgrad_dataset.vision.random_geometry import (
    RandomCrop,
    RandomHorizontalFlip,
    RandomPerspective,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
)
from cellgrad_dataset.vision.utils import Border, Inter


class RandomAffine(_RandomAffine):
    """Mirrors 1.x `py_transforms.RandomAffine`, whose `translate` was (tx, ty): shifts ~
    U(-tx, tx) * width and U(-ty, ty) * height."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        if translate is not None:
            tx, ty = translate
            translate = (-tx, tx, -ty, ty)
        super().__init__(degrees, translate, scale, shear, resample, fill_value)


class Cutout(_CutOut):
    """Mirrors 1.x `py_transforms.Cutout`: CutOut on a CHW image (after ToTensor)."""

    def __init__(self, length, num_patches=1):
        super().__init__(length, num_patches, is_hwc=False)


class Decode(_Decode):
    """Mirrors 1.x `py_transforms.Decode`: encoded bytes to a PIL RGB image."""

    def __init__(self):
        super().__init__(to_pil=True)


class Normalize(_Normalize):
    """Mirrors 1.x `py_transforms.Normalize`: on CHW images (after ToTensor)."""

    def __init__(self, mean, std):
        super().__init__(mean, std, is_hwc=False)


class NormalizePad(_NormalizePad):
    """Mirrors 1.x `py_transforms.NormalizePad`: on CHW images (after ToTensor)."""

    def __init__(self, mean, std, dtype="float32"):
        super().__init__(mean, std, dtype, is_hwc=False)


__all__ = [
    "AutoContrast", "Border", "CenterCrop", "Cutout", "Decode", "Equalize", "FiveCrop",
    "Grayscale", "HWC2CHW", "HsvToRgb", "Inter", "Invert", "LinearTransformation", "MixUp",
    "Normalize", "NormalizePad", "Pad", "PyTensorOperation", "RandomAffine", "RandomColor",
    "RandomColorAdjust", "RandomCrop", "RandomErasing", "RandomGrayscale",
    "RandomHorizontalFlip", "RandomLighting", "RandomPerspective", "RandomResizedCrop",
    "RandomRotation", "RandomSharpness", "RandomVerticalFlip", "Resize", "RgbToHsv", "TenCrop",
    "ToPIL", "ToTensor", "ToType", "UniformAugment",
]
