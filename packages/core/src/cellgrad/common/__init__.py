"""`cellgrad.common`, mirroring `mindspore.common`: dtypes, initializers, Tensor, Parameter."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.common import dtype, initializer, parameter  # noqa: F401
from cellgrad.common.sparse_tensor import (
                                           COOTensor,
                                           CSRTensor,
                                           RowTensor,
                                           RowTensorInner,
                                           SparseTensor,
)
from cellgrad.common.tensor import Tensor
from cellgrad.context import get_seed, jit, set_seed
from cellgrad.graph_knobs import mutable
from cellgrad.parameter import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple", "Tensor", "dtype", "get_seed", "initializer",
           "set_seed", "COOTensor", "CSRTensor", "RowTensor", "RowTensorInner", "SparseTensor",
           "jit", "mutable"]

__getattr__, __dir__ = _plugin_names(__name__)
