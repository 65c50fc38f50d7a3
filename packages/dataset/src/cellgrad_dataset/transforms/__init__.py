"""`cellgrad.dataset.transforms`, mirroring `mindspore.dataset.transforms` (2.10)."""

from cellgrad_dataset.transforms import c_transforms, py_transforms, transforms  # noqa: F401
from cellgrad_dataset.transforms.base import PyTensorOperation, TensorOperation
from cellgrad_dataset.transforms.compose import (
    Compose,
    RandomApply,
    RandomChoice,
    RandomOrder,
    not_random,
)
from cellgrad_dataset.transforms.plugin_op import Plugin
from cellgrad_dataset.transforms.tensor_ops import (
    Concatenate,
    Duplicate,
    Fill,
    Mask,
    OneHot,
    PadEnd,
    Relational,
    Slice,
    TypeCast,
    Unique,
)

__all__ = [
    "Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "Plugin",
    "PyTensorOperation", "RandomApply", "RandomChoice", "RandomOrder", "Relational", "Slice",
    "TensorOperation", "TypeCast", "Unique", "not_random",
]
