"""`cellgrad.experimental.optim.lr_scheduler`, mirroring
`mindspore.experimental.optim.lr_scheduler`: its names come from cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
