"""`mindspore.dataset.transforms.c_transforms` (MindSpore 1.x), still imported by real code."""

from cellgrad_dataset.transforms.compose import (
    Compose,
    RandomApply,
    RandomChoice,
    RandomOrder,
)
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
    "Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply",
    "RandomChoice", "RandomOrder", "Relational", "Slice", "TypeCast", "Unique",
]
