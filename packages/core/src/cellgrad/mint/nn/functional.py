"""`cellgrad.mint.nn.functional`, mirroring `mindspore.mint.nn.functional`: filled by
cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
