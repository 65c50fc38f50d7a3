"""Mirrors `mindspore.dataset.vision.utils`: the enums the vision transforms take."""

from enum import Enum, IntEnum


class Inter(IntEnum):
    """Interpolation modes. On numpy images NEAREST, BILINEAR, BICUBIC and AREA are OpenCV's
    kernels and PILCUBIC is Pillow's bicubic (as MindSpore's C++ ops); ANTIALIAS is Pillow's
    Lanczos and takes PIL images only."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes: CONSTANT, EDGE, REFLECT (without the edge), SYMMETRIC (with it)."""

    CONSTANT: str = "constant"
    EDGE: str = "edge"
    REFLECT: str = "reflect"
    SYMMETRIC: str = "symmetric"


class ConvertMode(IntEnum):
    """Colour conversions for `ConvertColor` (OpenCV's codes)."""

    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = COLOR_BGR2BGRA
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = COLOR_BGRA2BGR
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = COLOR_BGR2RGBA
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = COLOR_RGBA2BGR
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = COLOR_BGR2RGB
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = COLOR_BGRA2RGBA
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = COLOR_GRAY2BGR
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = COLOR_GRAY2BGRA
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


class ImageBatchFormat(IntEnum):
    """Layout of a batch of images: NHWC or NCHW."""

    NHWC = 0
    NCHW = 1


class ImageReadMode(IntEnum):
    """How `read_image` decodes: UNCHANGED, GRAYSCALE or COLOR."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


class SliceMode(IntEnum):
    """How `SlicePatches` treats a remainder: PAD it or DROP it."""

    PAD = 0
    DROP = 1


class AutoAugmentPolicy(str, Enum):
    """The policies of `AutoAugment`."""

    IMAGENET: str = "imagenet"
    CIFAR10: str = "cifar10"
    SVHN: str = "svhn"
