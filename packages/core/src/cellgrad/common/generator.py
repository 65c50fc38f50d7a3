"""Mirrors `mindspore.common.generator`: the random-state names of `cellgrad` (see
`cellgrad._paths`) and `default_generator`, the Generator they act on."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops._fn_random2 import default_generator  # noqa: F401 (a name of this path)

__getattr__, __dir__ = _plugin_names(__name__)
