"""Mirrors `mindspore.ops.operations` (`from mindspore.ops import operations as P`): every
Primitive class of `cellgrad.ops`, those plugins provide included, the same objects.

Names are looked up in `cellgrad.ops` on first use (see `cellgrad._paths`), so a primitive
added to `cellgrad.ops` appears here too.
"""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
