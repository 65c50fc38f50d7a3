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
    "'hybrid'), which cellgrad cannot do: write the kernel as a numpy function and use "
    "ops.Custom(func, out_shape, out_dtype, func_type='pyfunc', bprop=...), or register a "
    "Python op with its backward through cellgrad.plugins (the cellgrad_register_ops hook)")
_THOR = (
    "belongs to THOR, MindSpore's second-order optimizer for Ascend and GPU graph mode, which "
    "cellgrad does not provide: train with nn.Momentum, nn.SGD or nn.Adam and the plain layers "
    "(nn.Dense, nn.Conv2d, nn.Embedding)")

_ENV_PROFILER = (
    "profiles a whole run from the MS_PROFILER_OPTIONS environment variable on Ascend/GPU; "
    "use cellgrad.Profiler (or profiler.profile) in the program")

_ASCEND_ATTENTION = (
    "is a fused attention / mixture-of-experts / KV-cache kernel for Ascend NPUs (its layouts "
    "and tiling are the kernel's); cellgrad has no such kernels: compose the computation from "
    "ops.matmul, ops.softmax, ops.gather and ops.scatter_update, or use nn.MultiheadAttention")
_GRAPH_INTERNAL = (
    "is an internal of MindSpore's graph compiler (control flow, environment, side-effect "
    "ordering or iterator nodes of a compiled graph) with no meaning when Python runs the "
    "program eagerly: write the Python itself (if/while/for, dicts, next()); cellgrad.grad "
    "gives gradients")
_PARAM_SERVER = ("is a parameter-server (MS_ROLE=MS_PSERVER) communication op; cellgrad has no "
                 "parameter server: keep the Parameters in the Cell and update them with an "
                 "nn optimizer")
_DEVICE_MEMORY = ("manages or reports device (Ascend/GPU) memory; cellgrad's Tensors are numpy "
                  "arrays in host memory, managed by Python: the top-level statistics "
                  "(cellgrad.memory_allocated, memory_stats, empty_cache, ...) report that heap")
_STREAMS = ("manages device streams and events for asynchronous kernels on Ascend/GPU; "
            "cellgrad runs every op synchronously on the CPU, in one in-order stream: use the "
            "top-level cellgrad.Stream, Event, StreamCtx and current_stream")
_DEVICE_HEALTH = ("checks Ascend hardware for silent data corruption or stress faults; "
                  "cellgrad runs on the CPU and has no such device check")
_KERNEL_LAUNCH = ("tunes how MindSpore launches device kernels (capture into graphs, launch "
                  "groups, dispatch threads); cellgrad calls numpy directly: drop the call")

_MODEL_PARALLEL = ("works on the layouts and strategy files of MindSpore's semi/auto-parallel "
                   "compiler (tensors sliced across devices); cellgrad trains data-parallel "
                   "only (cellgrad-distributed), where every rank holds whole Parameters: save "
                   "and load whole checkpoints (save_checkpoint / load_checkpoint), and "
                   "parallel.merge_sliced_parameter joins slices saved along axis 0")
_FAULT_TOLERANCE = ("belongs to MindSpore's cluster fault tolerance for Ascend (MindIO, TFT "
                    "controllers, exit-by-request between ranks), which cellgrad does not have: "
                    "save checkpoints with train.ModelCheckpoint and resume from them")
_REWRITE = ("belongs to mindspore.rewrite, which edits a network by rewriting its construct "
            "source as a symbol tree; cellgrad does not provide it: change the Cell in Python "
            "(assign a new sub-cell attribute, Cell.insert_child_to_cell, "
            "SequentialCell.append/insert)")
_GRAPH_OPTIONS = ("is an option of MindSpore's graph compiler (dynamic-shape symbols, inlining "
                  "of compiled subgraphs, jit syntax checks); cellgrad runs the Python eagerly "
                  "and compiles no graph, so drop it (Cell.set_inputs is accepted as is)")
_EXEC_ORDER = ("checks that communication ops ran in the same order on every rank of a "
               "compiled Ascend graph; cellgrad runs ops eagerly in program order: nothing to "
               "check")
_MINDRECORD_CRYPTO = ("sets the AES encryption of MindRecord files; cellgrad-dataset writes "
                      "and reads plain MindRecord files only: encrypt the files at rest with "
                      "your storage's encryption instead")
_OBFUSCATION = ("belongs to MindSpore's model obfuscation (mindspore.safeguard), which cellgrad "
                "does not provide: save and load plain checkpoints")
_RUNTIME_PREFIXES = ("", "runtime.", "hal.")
_RUNTIME_PROVIDED = ("runtime.set_memory",)  # cellgrad.runtime has it
# cellgrad.heap_stats and cellgrad.streams (top level and cellgrad.runtime) have them
_RUNTIME_PROVIDED += tuple(prefix + name for prefix in ("", "runtime.") for name in (
    "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
    "memory_stats", "memory_summary", "empty_cache", "reset_max_memory_allocated",
    "reset_max_memory_reserved", "reset_peak_memory_stats", "Stream", "StreamCtx", "Event",
    "current_stream", "default_stream", "set_cur_stream", "communication_stream"))

_EMBEDDING_CACHE = ("belongs to MindSpore's embedding cache / map-parameter service for "
                    "parameter-server training (hash tables on the device), which cellgrad does "
                    "not have: keep the table in nn.Embedding or nn.EmbeddingLookup")

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
    **{f"ops.{name}": _KERNELS for name in (
        "TBERegOp", "AiCPURegOp", "AkgAscendRegOp", "AkgGpuRegOp",
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
    **{f"ops.{name}": _EMBEDDING_CACHE for name in (
        "MapCacheIdx", "MapUniform", "make_map_parameter", "ref_to_embed", "embed")},
    "ops.CpuRegOp": _KERNELS,
    "ops.array_reduce": _GRAPH_INTERNAL,
    "ops.recompute_block": ("marks a block for recomputation inside a compiled graph; in "
                            "cellgrad call Cell.recompute() on the cell to recompute"),
    **{f"ops.{name}": _ASCEND_ATTENTION for name in (
        "lightning_indexer",
        "sparse_flash_attention", "moe_distribute_combine", "moe_distribute_dispatch",
        "nsa_compress",
        "nsa_compress_attention",
        "nsa_select_attention")},
    **{f"ops.{name}": _GRAPH_INTERNAL for name in (
        "env_get", "environ_add", "environ_create", "environ_get", "environ_set", "ms_next",
        "ms_hasnext", "iter_converter", "GeSwitch", "geswitch", "Merge", "merge", "UpdateState",
        "J",
        "get_vm_impl_fn", "PyExecute",
        "SliceGetItem", "DtypeToEnum")},
    "ops.GetNext": ("takes the next batch from the device data queue of MindSpore's dataset "
                    "sink mode; cellgrad has no device queue: iterate the dataset "
                    "(create_tuple_iterator / create_dict_iterator) and pass the batch in"),
    **{f"ops.{name}": _PARAM_SERVER for name in ("Push", "Pull")},
    **{name: _MODEL_PARALLEL for name in (
        "Layout", "shard", "reshard", "parameter_broadcast", "build_searched_strategy",
        "load_distributed_checkpoint", "merge_pipeline_strategys", "transform_checkpoints",
        "transform_checkpoint_by_rank", "rank_list_for_transform", "restore_group_info_list",
        "sync_pipeline_shared_parameters", "unified_safetensors", "get_ckpt_path_with_strategy",
        "train.build_searched_strategy", "train.load_distributed_checkpoint",
        "train.merge_pipeline_strategys", "train.rank_list_for_transform",
        "train.transform_checkpoint_by_rank", "train.transform_checkpoints",
        "parallel.Layout", "parallel.shard", "parallel.reshard", "parallel.parameter_broadcast",
        "parallel.build_searched_strategy", "parallel.load_distributed_checkpoint",
        "parallel.merge_pipeline_strategys", "parallel.transform_checkpoints",
        "parallel.transform_checkpoint_by_rank", "parallel.rank_list_for_transform",
        "parallel.restore_group_info_list", "parallel.sync_pipeline_shared_parameters",
        "parallel.unified_safetensors", "parallel.auto_parallel", "parallel.nn",
"parallel.convert_checkpoints",
        "parallel.convert_checkpoint_by_rank", "ops.Reshard", "ops.reshard", "ops.distribute")},
    "export_split_mindir": (
        "splits a MindIR across devices for MindSpore's parallel inference on Ascend; cellgrad "
        "runs a model whole on one CPU: export it whole (cellgrad.export)"),
    "TFRecordToMR": (
        "takes TensorFlow's tf.io feature specs (it needs TensorFlow installed); cellgrad-dataset "
        "reads TFRecord files itself: dataset.TFRecordDataset(...).save(file_name) writes "
        "them as MindRecord"),
    **{name: _FAULT_TOLERANCE for name in (
        "TrainFaultTolerance", "ExitByRequest", "TFTCommValue", "RSCPluginHandle",
        "mindio_preload", "set_mindio_server_info", "train.TrainFaultTolerance")},
    **{name: _REWRITE for name in ("Node", "NodeType", "ScopedValue", "SymbolTree")},
    **{name: _GRAPH_OPTIONS for name in ("ops.Reusing",)},
    **{name: _EXEC_ORDER for name in ("comm_exec_order_check", "runtime_execution_order_check")},
    **{name: _MINDRECORD_CRYPTO for name in (
        "set_enc_key", "set_enc_mode", "set_dec_mode")},
    **{name: _OBFUSCATION for name in ("obfuscate_ckpt", "load_obf_params_into_net")},
    "ConvertModelUtils": _THOR,
    "ConvertNetUtils": _THOR,
    **{prefix + name: _DEVICE_MEMORY for prefix in _RUNTIME_PREFIXES for name in (
        "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
        "memory_stats", "memory_summary", "empty_cache", "reset_max_memory_allocated",
        "reset_max_memory_reserved", "reset_peak_memory_stats", "set_device_limit",
        "get_device_limit", "set_memory", "memory_replay", "ms_memory_recycle", "MemPool",
        "use_mem_pool", "PluggableAllocator", "memory", "device_limit")
        if prefix + name not in _RUNTIME_PROVIDED},
    **{prefix + name: _STREAMS for prefix in _RUNTIME_PREFIXES for name in (
        "Stream", "StreamCtx", "Event", "current_stream", "default_stream", "set_cur_stream",
        "communication_stream", "stream", "event", "stream_limit")
        if prefix + name not in _RUNTIME_PROVIDED},
    **{prefix + name: (
        "caps the Ascend AI Core cube/vector cores a stream's kernels may use (MindSpore's CPU "
        "build cannot even make a Stream on the CPU); cellgrad's CPU kernels have no such cores: "
        "bound the CPU threads with OMP_NUM_THREADS / OPENBLAS_NUM_THREADS instead")
       for prefix in _RUNTIME_PREFIXES for name in (
        "StreamLimitCtx", "get_stream_limit", "set_stream_limit", "reset_stream_limit")},
    **{name: _DEVICE_HEALTH for name in (
        "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result", "stress_detect")},
    **{prefix + name: _KERNEL_LAUNCH for prefix in _RUNTIME_PREFIXES for name in (
        "set_kernel_launch_capture", "set_kernel_launch_group", "thread_bind_core")},
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
