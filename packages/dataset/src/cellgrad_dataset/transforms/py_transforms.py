"""`mindspore.dataset.transforms.py_transforms` (MindSpore 1.x), still imported by real code.
In 1.x its `OneHotOp` one-hot encoded a label (with `smoothing_rate`)."""

from cellgrad_dataset.transforms.compose import (
    Compose,
    RandomApply,
    RandomChoice,
    RandomOrder,
)
from cellgrad_dataset.transforms.tensor_ops import OneHot

OneHotOp = OneHot

__all__ = ["Compose", "OneHotOp", "RandomApply", "RandomChoice", "RandomOrder"]
