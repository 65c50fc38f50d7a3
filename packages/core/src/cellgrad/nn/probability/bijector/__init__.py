"""`cellgrad.nn.probability.bijector`, mirroring `mindspore.nn.probability.bijector`: Exp,
PowerTransform, ScalarAffine, Softplus, GumbelCDF, Invert (their names come from
cellgrad-ops-nn)."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
