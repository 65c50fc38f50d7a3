"""Mirrors `mindspore.dataset.transforms.py_transforms_util`'s `Implementation`."""

from enum import IntEnum


class Implementation(IntEnum):
    """Mirrors `mindspore.dataset.Implementation`: whether MindSpore runs an operation in C++
    (C) or Python (PY). cellgrad-dataset runs every operation in Python with numpy; transforms
    that take it accept either value."""

    C = 0
    PY = 1
