"""`cellgrad.mint.optim`, mirroring `mindspore.mint.optim` (`Adam`, `AdamW`, `SGD`,
`FusedAdamW`: MindSpore's `experimental.optim` optimizers): filled by the package that
provides `experimental.optim`."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
