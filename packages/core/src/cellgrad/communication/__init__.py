"""`cellgrad.communication`, mirroring `mindspore.communication`: its names come from plugins.

`cellgrad-distributed` exports `init`, `release`, `get_rank`, `get_group_size`,
`create_group`, `GlobalComm`, ... here (on MPI, through mpi4py); without it they raise an error
naming the package to install. `cellgrad.communication.comm_func` holds the functional
collectives.
"""

from cellgrad._namespace import plugin_names as _plugin_names  # PEP 562: plugin names

__getattr__, __dir__ = _plugin_names(__name__)
