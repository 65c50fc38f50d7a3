"""Mirrors `mindspore.ops.function.math_func`: its functional ops are `cellgrad.ops`'s
(`cellgrad._paths.WHOLE_OPS`). MindSpore's module holds its package as `F` (`from
mindspore.ops import function as F`), which its tests import from here."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops import function as F  # noqa: F401

__getattr__, __dir__ = _plugin_names(__name__)
