"""cellgrad: MindSpore's PyNative programming model on numpy, with a Cython core.

`import cellgrad as ms` gives MindSpore's top level: `Tensor`, `Parameter`, dtypes,
`grad`/`value_and_grad`, `ops`, `nn`, context functions.
"""

# The compiled core first: a missing build is one clear ImportError.
from cellgrad import _core  # noqa: F401, I001
from cellgrad import _heap, _plugin_modules
from cellgrad import common, context, dtype, nn, ops
from cellgrad._core._tape import is_grad_enabled
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.autodiff import GradOperation, grad, value_and_grad
from cellgrad.func_transforms import jacfwd, jacrev, jvp, vjp, vmap
from cellgrad.context import (
    COMPATIBLE,
    GRAPH_MODE,
    LAX,
    PYNATIVE_MODE,
    STRICT,
    ParallelMode,
    get_auto_parallel_context,
    get_context,
    get_ps_context,
    get_seed,
    jit,
    reset_auto_parallel_context,
    reset_ps_context,
    set_auto_parallel_context,
    set_context,
    set_ps_context,
    set_seed,
)
from cellgrad.dtype import (
    bfloat16,
    bool_,
    double,
    float16,
    float32,
    float64,
    float_,
    half,
    int8,
    int16,
    int32,
    int64,
    int_,
    single,
    uint8,
    uint16,
    uint32,
    uint64,
)
from cellgrad.device_manager import get_current_device, set_deterministic, set_device
from cellgrad.grad_mode import enable_grad, no_grad, set_grad_enabled
from cellgrad.grad_mode import no_grad as _no_grad  # noqa: F401 (mindspore._no_grad)
from cellgrad._grad_function import _Function  # noqa: F401 (mindspore._Function)
from cellgrad.graph_knobs import JitConfig, jit_class, lazy_inline, mutable, set_recursion_limit
from cellgrad.run_check import run_check
from cellgrad.parameter import Parameter, ParameterTuple
from cellgrad.common.tensor import Tensor, from_numpy, tensor
from cellgrad.common.sparse_tensor import COOTensor, CSRTensor, RowTensor, SparseTensor
from cellgrad.tensor_interop import *  # noqa: F403
from cellgrad.tensor_interop import __all__ as _interop_names
from cellgrad.ops.primitive import constexpr  # MindSpore's top level has it too
from cellgrad.parallel import (
    get_algo_parameters,
    load_segmented_checkpoints,
    merge_sliced_parameter,
    reset_algo_parameters,
    set_algo_parameters,
)
from cellgrad.runtime import dispatch_threads_num, launch_blocking, set_cpu_affinity
from cellgrad.common.recompute import recompute
from cellgrad.common.device import DeviceCtx
from cellgrad.common.symbol import Symbol
from cellgrad.saved_tensors import register_saved_tensors_hooks, saved_tensors_hooks
from cellgrad.streams import *  # noqa: F403
from cellgrad.streams import __all__ as _stream_names
from cellgrad.heap_stats import *  # noqa: F403
from cellgrad.heap_stats import __all__ as _memory_names
from cellgrad.jit_marks import enable_dynamic, no_inline
from cellgrad.ms_dispatch import MsDispatchMode
from cellgrad.data_dump import set_dump
from cellgrad.flops_count import flops_collection
from cellgrad.jit_forbidden import *  # noqa: F403
from cellgrad.jit_forbidden import __all__ as _jit_forbidden_names
from cellgrad.common._tm_leftovers import UntypedStorage

_heap.tune()
_plugin_modules.install()

__version__ = "0.1.0"

__all__ = [
    "RowTensor", "COOTensor", "CSRTensor", "SparseTensor",
    "Tensor", "tensor", "Parameter", "ParameterTuple", "from_numpy",
    "grad", "value_and_grad", "GradOperation", "vmap", "vjp", "jvp", "jacrev", "jacfwd",
    "ops", "nn", "common", "context",
    "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "JitConfig", "jit_class",
    "lazy_inline", "mutable", "set_recursion_limit", "set_device", "get_current_device",
    "set_deterministic", "run_check",
    "set_context", "get_context", "PYNATIVE_MODE", "GRAPH_MODE", "set_seed", "get_seed", "jit",
    "STRICT", "COMPATIBLE", "LAX", "ParallelMode", "set_auto_parallel_context",
    "get_auto_parallel_context", "reset_auto_parallel_context", "set_ps_context",
    "get_ps_context", "reset_ps_context",
    "bfloat16", "bool_", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "half", "single", "double", "float_", "int_",
]

# MindSpore's dtype aliases (`ms.long`, `ms.int`, `ms.bool`, ...): set last, as `int`/`bool`/`float`
# hide the builtins in this module from here on.
globals().update(dtype.ALIASES)
globals().update(dtype.TOP_LEVEL)  # complex64, dtype_to_nptype, Type, ...
__all__ += list(dtype.TOP_LEVEL)
__all__ += [*_interop_names, "constexpr", "get_algo_parameters", "merge_sliced_parameter",
            "reset_algo_parameters", "set_algo_parameters", "dispatch_threads_num",
            "launch_blocking", "set_cpu_affinity", "recompute", "load_segmented_checkpoints",
            "DeviceCtx", "Symbol"]
__all__ += ["saved_tensors_hooks", "register_saved_tensors_hooks", *_stream_names,
            *_memory_names, "enable_dynamic", "no_inline", "MsDispatchMode", "UntypedStorage"]
__all__ += ["set_dump", *_jit_forbidden_names, "flops_collection"]

# PEP 562: names that plugins provide (cellgrad.plugins); nothing loads until the first miss.
__getattr__, __dir__ = _plugin_names(__name__)
