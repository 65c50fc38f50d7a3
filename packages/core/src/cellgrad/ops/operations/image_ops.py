"""Mirrors `mindspore.ops.operations.image_ops`: every Primitive class of `cellgrad.ops`
(cellgrad does not keep the split of `ops.operations` into modules; see `cellgrad._paths`),
and `CombinedNonMaxSuppression` (also `ops.CombinedNonMaxSuppression`)."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops._prim_nms import CombinedNonMaxSuppression

__all__ = ["CombinedNonMaxSuppression"]

__getattr__, __dir__ = _plugin_names(__name__)
