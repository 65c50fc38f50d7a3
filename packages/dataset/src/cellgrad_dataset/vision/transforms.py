"""`mindspore.dataset.vision.transforms`: the module 2.10 defines the vision transforms in."""

from cellgrad_dataset.transforms.base import PyTensorOperation, TensorOperation
from cellgrad_dataset.vision.adjust import (
    AdjustBrightness,
    AdjustContrast,
    AdjustGamma,
    AdjustHue,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    GaussianBlur,
    HsvToRgb,
    Invert,
    LinearTransformation,
    Posterize,
    RgbToHsv,
    Solarize,
)
from cellgrad_dataset.vision.augment import (
    AutoAugment,
    RandAugment,
    RandomSelectSubpolicy,
    TrivialAugmentWide,
    UniformAugment,
)
from cellgrad_dataset.vision.color import (
    ConvertColor,
    Grayscale,
    Normalize,
    NormalizePad,
    Rescale,
    ToNumpy,
    ToPIL,
    ToTensor,
    ToType,
)
from cellgrad_dataset.vision.decode import Decode
from cellgrad_dataset.vision.erasing import (
    CutMixBatch,
    CutOut,
    Erase,
    MixUp,
    MixUpBatch,
    RandomErasing,
)
from cellgrad_dataset.vision.geometry import (
    HWC2CHW,
    Affine,
    CenterCrop,
    Crop,
    FiveCrop,
    HorizontalFlip,
    Pad,
    PadToSize,
    Perspective,
    Resize,
    ResizedCrop,
    Rotate,
    SlicePatches,
    TenCrop,
    VerticalFlip,
)
from cellgrad_dataset.vision.image import ImageOperation as ImageTensorOperation
from cellgrad_dataset.vision.image import is_pil  # noqa: F401 - real code imports it here
from cellgrad_dataset.vision.random_color import (
    RandomAdjustSharpness,
    RandomAutoContrast,
    RandomColor,
    RandomColorAdjust,
    RandomEqualize,
    RandomGrayscale,
    RandomInvert,
    RandomLighting,
    RandomPosterize,
    RandomSharpness,
    RandomSolarize,
)
from cellgrad_dataset.vision.random_geometry import (
    RandomAffine,
    RandomCrop,
    RandomCropDecodeResize,
    RandomHorizontalFlip,
    RandomPerspective,
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
    "AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation",
    "AdjustSharpness", "Affine", "AutoAugment", "AutoAugmentPolicy", "AutoContrast", "Border",
    "CenterCrop", "ConvertColor", "ConvertMode", "Crop", "CutMixBatch", "CutOut", "Decode",
    "Equalize", "Erase", "FiveCrop", "GaussianBlur", "Grayscale", "HWC2CHW", "HorizontalFlip",
    "HsvToRgb", "ImageBatchFormat", "ImageTensorOperation", "Inter", "Invert",
    "LinearTransformation", "MixUp", "MixUpBatch", "Normalize", "NormalizePad", "Pad",
    "PadToSize", "Perspective", "Posterize", "PyTensorOperation", "RandAugment",
    "RandomAdjustSharpness", "RandomAffine", "RandomAutoContrast", "RandomColor",
    "RandomColorAdjust", "RandomCrop", "RandomCropDecodeResize", "RandomEqualize",
    "RandomErasing", "RandomGrayscale", "RandomHorizontalFlip", "RandomInvert",
    "RandomLighting", "RandomPerspective", "RandomPosterize", "RandomResize",
    "RandomResizedCrop", "RandomRotation", "RandomSelectSubpolicy", "RandomSharpness",
    "RandomSolarize", "RandomVerticalFlip", "Rescale", "Resize", "ResizedCrop", "RgbToHsv",
    "Rotate", "SliceMode", "SlicePatches", "Solarize", "TenCrop", "TensorOperation", "ToNumpy",
    "ToPIL", "ToTensor", "ToType", "TrivialAugmentWide", "UniformAugment", "VerticalFlip",
]
