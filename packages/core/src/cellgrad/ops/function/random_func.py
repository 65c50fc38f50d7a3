"""Mirrors `mindspore.ops.function.random_func`: its functional ops are `cellgrad.ops`'s
(`cellgrad._paths.WHOLE_OPS`)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
