"""Mirrors `mindspore.ops._utils`: the shape helpers MindSpore's Python infer functions use
(its tests' own primitives call `get_broadcast_shape` in their `infer_shape`)."""

from cellgrad.ops._utils.utils import get_broadcast_shape

__all__ = ["get_broadcast_shape"]
