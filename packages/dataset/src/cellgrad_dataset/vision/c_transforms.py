"""`mindspore.dataset.vision.c_transforms` (MindSpore 1.x), still imported by real code: the
C++-backed vision transforms under their 1.x names."""

from cellgrad_dataset.vision.adjust import AdjustGamma, AutoContrast, Equalize, GaussianBlur, Invert
from cellgrad_dataset.vision.augment import (
    AutoAugment,
    RandomSelectSubpolicy,
    UniformAugment,
)
from cellgrad_dataset.vision.color import ConvertColor, Normalize, NormalizePad, Rescale
from cellgrad_dataset.vision.decode import Decode
from cellgrad_dataset.vision.erasing import CutMixBatch, CutOut, MixUpBatch
from cellgrad_dataset.vision.geometry import (
    HWC2CHW,
    CenterCrop,
    Crop,
    HorizontalFlip,
    Pad,
    Resize,
    Rotate,
    SlicePatches,
    VerticalFlip,
)
from cellgrad_dataset.vision.random_color import (
    RandomAdjustSharpness,
    RandomAutoContrast,
    RandomColor,
    RandomColorAdjust,
    RandomEqualize,
    RandomInvert,
    RandomPosterize,
    RandomSharpness,
    RandomSolarize,
)
from cellgrad_dataset.vision.random_geometry import (
    RandomAffine,
    RandomCrop,
    RandomCropDecodeResize,
    RandomHorizontalFlip,
    RandomResize,
    RandomResizedCrop,
    RandomRotation,
    RandomVerticalFlip,
)
from cellgrad_dataset.vision.utils import (
    AutoAugmentPolicy,
    Border,
    ConvertMode,
    ImageBatchFormat,
    Inter,
    SliceMode,
)

__all__ = [
    "AdjustGamma", "AutoAugment", "AutoAugmentPolicy", "AutoContrast", "Border", "CenterCrop",
    "ConvertColor", "ConvertMode", "Crop", "CutMixBatch", "CutOut", "Decode", "Equalize",
    "GaussianBlur", "HWC2CHW", "HorizontalFlip", "ImageBatchFormat", "Inter", "Invert",
    "MixUpBatch", "Normalize", "NormalizePad", "Pad", "RandomAdjustSharpness", "RandomAffine",
    "RandomAutoContrast", "RandomColor", "RandomColorAdjust", "RandomCrop",
    "RandomCropDecodeResize", "RandomEqualize", "RandomHorizontalFlip", "RandomInvert",
    "RandomPosterize", "RandomResize", "RandomResizedCrop", "RandomRotation",
    "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize", "RandomVerticalFlip",
    "Rescale", "Resize", "Rotate", "SliceMode", "SlicePatches", "UniformAugment", "VerticalFlip",
]
