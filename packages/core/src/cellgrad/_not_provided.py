"""MindSpore names that cellgrad deliberately does not provide, and what to use instead.

Consulted only when a name is missing from its namespace (a package that provides it later
wins), so `cellgrad.ops.TBERegOp` raises an error that says why instead of a bare
AttributeError; through an alias path (`cellgrad.ops.operations.Custom`) the same entry
answers. Like the plugin-name errors, the error is an AttributeError for attribute access
(`hasattr()` is False) and an ImportError for `from m import name`.
"""

_KERNELS = (
    "registers or compiles a kernel for one of MindSpore's device back ends (TBE, AKG, AiCPU, "
    "AOT); cellgrad computes with numpy on the CPU and has no kernel compiler: write the "
    "computation with cellgrad ops, or register a Python op with its backward through "
    "cellgrad.plugins (the cellgrad_register_ops hook; see examples/op-plugin)")
_CUSTOM = (
    "compiles a custom device kernel (func_type 'aot', 'tbe', 'akg', 'aicpu', 'julia', "
    "'hybrid'), which cellgrad cannot do; for func_type 'pyfunc' call the Python function "
    "itself (a Cell with a bprop gives it a gradient), or register a Python op with its "
    "backward through cellgrad.plugins (the cellgrad_register_ops hook)")
_THOR = (
    "belongs to THOR, MindSpore's second-order optimizer for Ascend and GPU graph mode, which "
    "cellgrad does not provide: train with nn.Momentum, nn.SGD or nn.Adam and the plain layers "
    "(nn.Dense, nn.Conv2d, nn.Embedding)")
_ASCEND_RNN = ("is an Ascend-only fused recurrent kernel (its weights and outputs use the "
               "Ascend layout); use nn.{} instead")

_ENV_PROFILER = (
    "profiles a whole run from the MS_PROFILER_OPTIONS environment variable on Ascend/GPU; "
    "use cellgrad.Profiler (or profiler.profile) in the program")

# qualname (as written after `cellgrad.`) -> why it is not there and what to use instead
NOT_PROVIDED = {
    "EnvProfiler": _ENV_PROFILER,
    "profiler.EnvProfiler": _ENV_PROFILER,
    "profiler.DynamicProfilerMonitor": (
        "starts and stops Ascend profiling from a JSON file that another process edits "
        "(msmonitor); use cellgrad.Profiler(start_profile=False) with start()/stop(), or "
        "profiler.profile with a profiler.schedule"),
    "profiler.mstx": (
        "marks ranges for Ascend's msprof timeline (mstx); cellgrad's trace already has a span "
        "for every Cell: put the code to mark in a Cell, or time it around Profiler.step()"),
    "ops.Custom": _CUSTOM,
    **{f"ops.{name}": _KERNELS for name in (
        "CustomRegOp", "TBERegOp", "AiCPURegOp", "AkgAscendRegOp", "AkgGpuRegOp", "DataType",
        "op_info_register", "custom_info_register", "kernel", "ms_kernel", "CustomOpBuilder")},
    **{f"nn.{name}": _THOR for name in (
        "thor", "Conv2dThor", "DenseThor", "EmbeddingThor", "EmbeddingLookupThor")},
    "train.ConvertModelUtils": _THOR,
    "train.ConvertNetUtils": _THOR,
    "nn.ResizeBilinear": (
        "is a MindSpore 1.x Cell that MindSpore 2.x removed: "
        "ops.ResizeBilinearV2(align_corners, half_pixel_centers)(x, size) computes what its "
        "construct(x, size, align_corners=...) did (for scale_factor, size is the input's "
        "height and width times it)"),
    "ops.ControlDepend": ("was removed in MindSpore 1.2 (execution order follows data "
                          "dependencies): ops.depend(value, expr) returns value after expr"),
    "ops.DynamicRNN": _ASCEND_RNN.format("LSTM"),
    "ops.DynamicGRUV2": _ASCEND_RNN.format("GRU"),
    "ops.LSTM": ("is MindSpore's fused LSTM kernel with a packed weight blob and workspace "
                 "outputs (its CPU build fails for 2 layers when input_size != hidden_size): "
                 "use nn.LSTM, which runs each layer and direction as one op with its own "
                 "backward"),
}


class NotProvidedError(Exception):
    """A MindSpore name that cellgrad deliberately does not provide; the message says what to
    use instead. Raised as `NotProvidedAttributeError` or `NotProvidedImportError`."""

    def __init__(self, message, qualname=None):
        super().__init__(message)
        self.qualname = qualname  # "ops.TBERegOp"


class NotProvidedAttributeError(NotProvidedError, AttributeError):
    """`cellgrad.ops.TBERegOp`: attribute access (so `hasattr()` is False)."""


class NotProvidedImportError(NotProvidedError, ImportError):
    """`from cellgrad.ops import TBERegOp`."""


def check(qualname, written=None, from_import=False):
    """Raise the error for `qualname` if cellgrad deliberately does not provide it.

    `written` is the qualname as the code wrote it when it came through an alias path.
    """
    reason = NOT_PROVIDED.get(qualname)
    if reason is None:
        return
    error = NotProvidedImportError if from_import else NotProvidedAttributeError
    raise error(f"cellgrad.{written or qualname} (mindspore.{qualname}) {reason}",
                qualname=written or qualname)
