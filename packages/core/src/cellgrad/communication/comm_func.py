"""`cellgrad.communication.comm_func`, mirroring `mindspore.communication.comm_func`: the
functional collectives (`all_reduce`, `all_gather_into_tensor`, `reduce_scatter_tensor`,
`broadcast`, `barrier`), exported here by `cellgrad-distributed`."""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
