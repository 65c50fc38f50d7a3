"""`cellgrad.ops`, mirroring `mindspore.ops`: functional ops, primitive classes, autodiff."""

from cellgrad.autodiff import GradOperation, grad, value_and_grad
from cellgrad.func_transforms import jacfwd, jacrev, jvp, vjp, vmap
from cellgrad.ops import (
    _cpu_kernels,  # noqa: F401  (registers kernels run by name)
    composite,  # noqa: F401  (MindSpore's path: mindspore.ops.composite)
)
from cellgrad.ops._complex import *  # noqa: F403
from cellgrad.ops._complex import __all__ as _complex_names
from cellgrad.ops._composite2 import *  # noqa: F403
from cellgrad.ops._composite2 import __all__ as _composite2_names
from cellgrad.ops._dump import *  # noqa: F403
from cellgrad.ops._dump import __all__ as _dump_names
from cellgrad.ops._fft import *  # noqa: F403
from cellgrad.ops._fft import __all__ as _fft_names
from cellgrad.ops._fn_eig import *  # noqa: F403
from cellgrad.ops._fn_eig import __all__ as _eig_names
from cellgrad.ops._fn_gather_fill import *  # noqa: F403
from cellgrad.ops._fn_gather_fill import __all__ as _gather_fill_names
from cellgrad.ops._fn_leftovers import *  # noqa: F403
from cellgrad.ops._fn_leftovers import __all__ as _leftover_names
from cellgrad.ops._fn_linalg2 import *  # noqa: F403
from cellgrad.ops._fn_linalg2 import __all__ as _linalg2_names
from cellgrad.ops._fn_manip import *  # noqa: F403
from cellgrad.ops._fn_manip import __all__ as _manip_names
from cellgrad.ops._fn_math2 import *  # noqa: F403
from cellgrad.ops._fn_math2 import __all__ as _math2_names
from cellgrad.ops._fn_math_aliases import *  # noqa: F403
from cellgrad.ops._fn_math_aliases import __all__ as _math_alias_names
from cellgrad.ops._fn_matrix_diag import *  # noqa: F403
from cellgrad.ops._fn_matrix_diag import __all__ as _matrix_diag_names
from cellgrad.ops._fn_pyvalues import *  # noqa: F403
from cellgrad.ops._fn_pyvalues import __all__ as _pyvalue_names
from cellgrad.ops._fn_random2 import *  # noqa: F403
from cellgrad.ops._fn_random2 import __all__ as _random2_names
from cellgrad.ops._fn_reduce2 import *  # noqa: F403
from cellgrad.ops._fn_reduce2 import __all__ as _reduce2_names
from cellgrad.ops._fn_scatter import *  # noqa: F403
from cellgrad.ops._fn_scatter import __all__ as _scatter_names
from cellgrad.ops._fn_special import *  # noqa: F403
from cellgrad.ops._fn_special import __all__ as _special_names
from cellgrad.ops._jet import derivative, jet
from cellgrad.ops._prim_array2 import *  # noqa: F403
from cellgrad.ops._prim_array2 import __all__ as _array2_prim_names
from cellgrad.ops._prim_basic_lstm import BasicLSTMCell
from cellgrad.ops._prim_custom_views import *  # noqa: F403
from cellgrad.ops._prim_custom_views import __all__ as _custom_view_prim_names
from cellgrad.ops._prim_leftovers import *  # noqa: F403
from cellgrad.ops._prim_leftovers import __all__ as _leftover_prim_names
from cellgrad.ops._prim_linalg import *  # noqa: F403
from cellgrad.ops._prim_linalg import __all__ as _linalg_prim_names
from cellgrad.ops._prim_math2 import *  # noqa: F403
from cellgrad.ops._prim_math2 import __all__ as _math2_prim_names
from cellgrad.ops._prim_rnnt import RNNTLoss
from cellgrad.ops._prim_update import *  # noqa: F403
from cellgrad.ops._prim_update import __all__ as _update_prim_names
from cellgrad.ops._prim_update_fused import *  # noqa: F403
from cellgrad.ops._prim_update_fused import __all__ as _fused_update_prim_names
from cellgrad.ops._random import *  # noqa: F403
from cellgrad.ops._random import __all__ as _random_names
from cellgrad.ops._reduce_op import ReduceOp
from cellgrad.ops._sparse_functions import *  # noqa: F403
from cellgrad.ops._sparse_functions import __all__ as _sparse_names
from cellgrad.ops._sparse_prims import *  # noqa: F403
from cellgrad.ops._sparse_prims import __all__ as _sparse_prim_names
from cellgrad.ops._stft import *  # noqa: F403
from cellgrad.ops._stft import __all__ as _stft_names
from cellgrad.ops._tm_array import *  # noqa: F403  (functional's own spellings override these)
from cellgrad.ops._tm_array import __all__ as _tensor_method_names
from cellgrad.ops._windows import *  # noqa: F403
from cellgrad.ops._windows import __all__ as _window_names
from cellgrad.ops.composite import HyperMap, Map, MultitypeFuncGraph, add_flags
from cellgrad.ops.functional import *  # noqa: F403
from cellgrad.ops.functional import __all__ as _functional_names
from cellgrad.ops.primitives import *  # noqa: F403
from cellgrad.ops.primitives import __all__ as _primitive_names
from cellgrad.tensor_interop import get_grad

__all__ = ["jacfwd", "jacrev", "jvp", "vjp", "vmap", *_functional_names, *_primitive_names,
           *_random_names, *_tensor_method_names, *_sparse_names, *_sparse_prim_names,
           *_linalg2_names, *_window_names, *_matrix_diag_names,
           *_linalg_prim_names, *_fft_names, *_eig_names,
           *_stft_names,
           *_complex_names,
           *_scatter_names, *_manip_names, *_array2_prim_names,
           *_random2_names, *_update_prim_names, *_fused_update_prim_names,
           "BasicLSTMCell", "RNNTLoss", "get_grad", "jet", "derivative", *_composite2_names,
           *_gather_fill_names,
           *_math2_names, *_reduce2_names, *_special_names, *_math2_prim_names,
           *_math_alias_names,
           *_leftover_names, *_pyvalue_names, *_leftover_prim_names,
           *_custom_view_prim_names, *_dump_names,
           "GradOperation", "grad", "value_and_grad",
           "HyperMap", "Map", "MultitypeFuncGraph", "add_flags", "ReduceOp"]

# PEP 562: names that plugins provide (cellgrad.plugins); nothing loads until the first miss.
from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
