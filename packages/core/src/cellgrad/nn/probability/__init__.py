"""`cellgrad.nn.probability`, mirroring `mindspore.nn.probability`: the `distribution` and
`bijector` namespaces, whose names come from cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names
from cellgrad.nn.probability import bijector, distribution  # noqa: F401

__getattr__, __dir__ = _plugin_names(__name__)
