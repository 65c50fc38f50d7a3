"""`cellgrad.nn`, mirroring `mindspore.nn`: `Cell` and the cell containers.

Layers, losses and optimizers come from the cellgrad-ops-nn plugin.
"""

from cellgrad.nn.bprop import BpropParameterWarning
from cellgrad.nn.cell import Cell
from cellgrad.nn.container import CellDict, CellList, SequentialCell
from cellgrad.nn.sparse import SparseTensorDenseMatmul, SparseToDense
from cellgrad.nn.utils import no_init_parameters

__all__ = ["BpropParameterWarning", "Cell", "CellDict", "CellList", "SequentialCell",
           "SparseTensorDenseMatmul", "SparseToDense", "no_init_parameters"]

# PEP 562: names that plugins provide (cellgrad.plugins); nothing loads until the first miss.
from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
