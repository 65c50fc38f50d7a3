"""`cellgrad.experimental.optim`, mirroring `mindspore.experimental.optim`: the PyTorch-style
optimizers; their names (and `lr_scheduler`'s) come from cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
