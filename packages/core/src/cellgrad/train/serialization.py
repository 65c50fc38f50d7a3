"""Mirrors `mindspore.train.serialization`: names of `cellgrad.train`, `cellgrad`,
`cellgrad.common.initializer`, `cellgrad.communication` and `cellgrad.ops`, the same objects (see
`cellgrad._paths`)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
