"""`cellgrad.nn.probability.bijector.bijector`, mirroring MindSpore's module of that name
(`from mindspore.nn.probability.bijector.bijector import Bijector`): the base class, from
cellgrad-ops-nn."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
