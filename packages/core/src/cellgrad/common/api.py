"""Mirrors `mindspore.common.api`: `jit` (defined in `cellgrad.context`); MindSpore 1.x's
`ms_function` resolves to it with a DeprecationWarning (`cellgrad._paths.MOVED`)."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.context import jit

__all__ = ["jit"]

__getattr__, __dir__ = _plugin_names(__name__)
