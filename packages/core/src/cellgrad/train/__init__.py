"""`cellgrad.train`, mirroring `mindspore.train`: its names come from plugins.

`cellgrad-checkpoint` exports `save_checkpoint`, `load_checkpoint` and `load_param_into_net`
here (and at the top level); without it they raise an error naming the package to install.
"""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names
from cellgrad.parallel.checkpoint_transform import merge_sliced_parameter  # noqa: F401

__getattr__, __dir__ = _plugin_names(__name__)
