"""`cellgrad.experimental`, mirroring `mindspore.experimental`: `optim` and its
`lr_scheduler`, whose names come from cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
