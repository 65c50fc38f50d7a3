"""`cellgrad.dataset.vision`, mirroring `mindspore.dataset.vision` (2.10).

Numpy images go through OpenCV's kernels (as MindSpore's C++ ops: Resize, Decode, Pad,
crops, flips, colour conversions match MindSpore 2.10 exactly), PIL images through Pillow
(as MindSpore's Python path). Random transforms draw from generators seeded by
`dataset.config.set_seed` / `ms.set_seed`.
"""

from cellgrad_dataset.vision import (  # noqa: F401
    c_transforms,
    py_transforms,
    py_transforms_util,
    transforms,
    utils,
)
from cellgrad_dataset.vision.decode import (
    encode_jpeg,
    encode_png,
    get_image_num_channels,
    get_image_size,
    read_file,
    read_image,
    write_file,
    write_jpeg,
    write_png,
)
from cellgrad_dataset.vision.image import not_random
from cellgrad_dataset.vision.transforms import *  # noqa: F403 - the 2.10 namespace, whole
from cellgrad_dataset.vision.transforms import __all__ as _transforms_all
from cellgrad_dataset.vision.utils import ImageReadMode

__all__ = sorted(set(_transforms_all) - {"ImageTensorOperation", "PyTensorOperation",
                                         "TensorOperation"}) + [
    "ImageReadMode", "encode_jpeg", "encode_png", "get_image_num_channels", "get_image_size",
    "not_random", "read_file", "read_image", "write_file", "write_jpeg", "write_png",
]
