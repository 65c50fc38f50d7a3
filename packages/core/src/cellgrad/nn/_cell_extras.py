"""The rest of MindSpore 2.10's `Cell` API: state-dict hooks, extra state, scopes and
prefixes, mixed-precision type, the pipeline/parallel attributes as a single CPU process has
them, `to_empty`, `set_boost`, and the deprecated `run_construct` / `cast_inputs`.

A mixin of `Cell` placed before `CellState`, so its `state_dict` and `_load_state` wrap the
ones there (with the hooks) on every cell of the recursion."""

import enum
import itertools
import time
import weakref
from collections import OrderedDict

import numpy as np

from cellgrad.dtype import bfloat16, float16, float32

_handle_ids = itertools.count()


class MixedPrecisionType(enum.Enum):
    """Mirrors MindSpore's `MixedPrecisionType` (what `Cell.get_mixed_precision_type`
    returns)."""

    NOTSET = 0
    FP16 = 1
    FP32 = 2
    BF16 = 3


_TYPE_OF = {None: MixedPrecisionType.NOTSET, float16: MixedPrecisionType.FP16,
            float32: MixedPrecisionType.FP32, bfloat16: MixedPrecisionType.BF16}
_DTYPE_OF = {v: k for k, v in _TYPE_OF.items()}


class _HookHandle:
    """Mirrors `mindspore.common.hook_handle.HookHandle` for the state-dict hooks:
    `remove()` takes the hook off its table."""

    def __init__(self, table):
        self.handle_id = next(_handle_ids)
        self._table = weakref.ref(table) if hasattr(table, "__weakref__") else lambda: table

    def remove(self):
        table = self._table()
        if table is not None:
            table.pop(self.handle_id, None)


class _Hooks(OrderedDict):
    pass


class CellExtras:
    """`Cell` methods and attributes beyond construction, calling and parameters."""

    def _hook_table(self, key):
        table = self.__dict__.get(key)
        if table is None:
            table = self.__dict__[key] = _Hooks()
        return table

    def _register(self, key, hook):
        if not callable(hook):
            raise TypeError(f"For '{key.strip('_').replace('_hooks', '')}', the 'hook' must be "
                            f"a function, but got {type(hook).__name__}.")
        table = self._hook_table(key)
        handle = _HookHandle(table)
        table[handle.handle_id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook):
        """Mirrors `Cell.register_state_dict_pre_hook`: hook(cell, prefix, keep_vars) before
        this cell's entries are collected."""
        return self._register("_state_dict_pre_hooks", hook)

    def register_state_dict_post_hook(self, hook):
        """Mirrors `Cell.register_state_dict_post_hook`: hook(cell, state_dict, prefix,
        local_metadata) after this cell's subtree is collected."""
        return self._register("_state_dict_post_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """Mirrors `Cell.register_load_state_dict_pre_hook`: hook(cell, state_dict, prefix,
        local_metadata, strict, missing_keys, unexpected_keys, error_msgs) before this cell
        loads."""
        return self._register("_load_state_dict_pre_hooks", hook)

    def register_load_state_dict_post_hook(self, hook):
        """Mirrors `Cell.register_load_state_dict_post_hook`: hook(cell, incompatible_keys)
        after this cell's subtree loads; it must return None (it may edit the key lists)."""
        return self._register("_load_state_dict_post_hooks", hook)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        pre = self.__dict__.get("_state_dict_pre_hooks")
        post = self.__dict__.get("_state_dict_post_hooks")
        if not pre and not post:
            return super().state_dict(*args, destination=destination, prefix=prefix,
                                      keep_vars=keep_vars)
        prefix_arg = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_arg = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        for hook in list((pre or {}).values()):
            hook(self, prefix_arg, keep_arg)
        result = super().state_dict(*args, destination=destination, prefix=prefix,
                                    keep_vars=keep_vars)
        for hook in list((post or {}).values()):
            hook(self, result, prefix_arg, {})
        return result

    state_dict.__doc__ = "Mirrors `Cell.state_dict` (with the registered state-dict hooks)."

    def _load_state(self, state, prefix, missing, unexpected, errors):
        for hook in list(self.__dict__.get("_load_state_dict_pre_hooks", {}).values()):
            hook(self, state, prefix, {}, True, missing, unexpected, errors)
        super()._load_state(state, prefix, missing, unexpected, errors)
        post = self.__dict__.get("_load_state_dict_post_hooks")
        if post:
            from cellgrad.nn._state import _IncompatibleKeys

            keys = _IncompatibleKeys(missing, unexpected)
            for hook in list(post.values()):
                if hook(self, keys) is not None:
                    raise RuntimeError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not"
                        "expected to return new values, if incompatible_keys need to be "
                        "modified,it should be done inplace.")

    def get_extra_state(self):
        """Mirrors `Cell.get_extra_state`: a cell that has extra state overrides it; the base
        raises RuntimeError."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be "
                           "called.")

    def set_extra_state(self, state):
        """Mirrors `Cell.set_extra_state` (overridden with `get_extra_state`; the base raises
        RuntimeError)."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be "
                           "called.")

    # ---- scopes, prefixes, types ----
    @property
    def param_prefix(self):
        """Mirrors `Cell.param_prefix`: the prefix of this cell's direct parameters ('' until
        `update_cell_prefix` of an ancestor)."""
        return self.__dict__.get("_param_prefix", "")

    def update_cell_prefix(self):
        """Mirrors `Cell.update_cell_prefix`: each cell's `param_prefix` becomes its path."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type):
        """Mirrors `Cell.update_cell_type`: sets `cell_type` (quantization's tag)."""
        self.cell_type = cell_type

    def get_scope(self):
        """Mirrors `Cell.get_scope`: the scope `generate_scope` gave (None before)."""
        return self.__dict__.get("_scope")

    def generate_scope(self):
        """Mirrors `Cell.generate_scope`: every sub-cell's scope is
        'Default/<name>-<Class>/...'."""
        def walk(cell, scope):
            for name, child in cell.name_cells().items():
                if child is None:
                    continue
                child_scope = f"{scope}/{name}-{type(child).__name__}"
                child.__dict__["_scope"] = child_scope
                walk(child, child_scope)

        walk(self, "Default")

    def set_mixed_precision_type(self, mixed_type):
        """Mirrors `Cell.set_mixed_precision_type`: this cell's `MixedPrecisionType` (the
        precision `to_float` sets, for this cell only)."""
        if not isinstance(mixed_type, MixedPrecisionType):
            raise TypeError("set_mixed_precision_type(): incompatible function arguments. The "
                            "following argument types are supported:\n    1. (self, arg0: "
                            f"MixedPrecisionType) -> None\n\nInvoked with: {mixed_type!r}")
        self._set_mixed(_DTYPE_OF[mixed_type])

    def get_mixed_precision_type(self):
        """Mirrors `Cell.get_mixed_precision_type`: NOTSET, FP16, FP32 or BF16."""
        return _TYPE_OF.get(self.__dict__.get("_mixed"), MixedPrecisionType.NOTSET)

    def set_boost(self, boost_type):
        """Mirrors `Cell.set_boost`: 'less_bn' only, set as a flag on every sub-cell."""
        if boost_type not in ("less_bn",):
            raise ValueError("For 'set_boost', the argument 'boost_type' must be 'less_bn', but "
                             f"got {boost_type}.")
        return self.add_flags_recursive(less_bn=True)

    # ---- parallel attributes: one process, one device ----
    @property
    def pipeline_stage(self):
        """Mirrors `Cell.pipeline_stage`: the stage a pipeline runs this cell on (an
        AttributeError until set, as in MindSpore)."""
        if "_pipeline_stage" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                                 "'pipeline_stage'.")
        return self.__dict__["_pipeline_stage"]

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("For 'Cell', the property 'pipeline_stage' must be int type, but got "
                            f"type : {type(value)}")
        if value < 0:
            raise ValueError("For 'Cell', the property 'pipeline_stage' can not be less than 0, "
                             f"but got {value}")
        self.__dict__["_pipeline_stage"] = value

    @property
    def pipeline_segment(self):
        """Mirrors `Cell.pipeline_segment` (an AttributeError until set)."""
        if "_pipeline_segment" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                                 "'pipeline_segment'.")
        return self.__dict__["_pipeline_segment"]

    @pipeline_segment.setter
    def pipeline_segment(self, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("For 'context.set_auto_parallel_context', the argument "
                            f"'pipeline_stages' must be int type, but got type : {type(value)}")
        if value < 0:
            raise ValueError("For 'context.set_auto_parallel_context', the argument "
                             f"'pipeline_stages' can not be less than 0, but got {value}")
        self.__dict__["_pipeline_segment"] = value

    def set_data_parallel(self):
        """Mirrors `Cell.set_data_parallel`: marks the strategy 'data_parallel', which with
        one device changes nothing."""
        self.__dict__["_strategy_gen_mode"] = "data_parallel"

    def remove_redundant_parameters(self):
        """Mirrors `Cell.remove_redundant_parameters` (deprecated): a parallel graph's
        parameters other stages hold; a single process holds none."""
        from cellgrad import log

        log.warning("'remove_redundant_parameters' will be deprecated in future versions.")

    def parameters_broadcast_dict(self, recurse=True):
        """Mirrors `Cell.parameters_broadcast_dict`: name -> Parameter of the parameters
        that are not layer-wise parallel."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse)
                           if not getattr(p, "layerwise_parallel", False))

    def register_saved_tensors_hooks(self, pack_hook, unpack_hook):
        """Mirrors `Cell.register_saved_tensors_hooks`: the cell's `construct` runs inside
        `ms.saved_tensors_hooks(pack_hook, unpack_hook)` (the latest pair registered)."""
        self._saved_tensors_pack_hook = pack_hook
        self._saved_tensors_unpack_hook = unpack_hook
        if "construct" in self.__dict__ and getattr(self.construct, "_saved_hooks", False):
            return
        inner = self.construct

        def construct(*args, **kwargs):
            if self._saved_tensors_pack_hook is None:
                return inner(*args, **kwargs)
            from cellgrad.saved_tensors import saved_tensors_hooks

            with saved_tensors_hooks(self._saved_tensors_pack_hook,
                                     self._saved_tensors_unpack_hook):
                return inner(*args, **kwargs)

        construct._saved_hooks = True
        self.__dict__["construct"] = construct

    def offload(self, backward_prefetch="Auto"):
        """Mirrors `Cell.offload`: activations kept in host memory, where every tensor is
        here already."""
        if not (backward_prefetch == "Auto" or (isinstance(backward_prefetch, int)
                                                 and not isinstance(backward_prefetch, bool)
                                                 and backward_prefetch >= 0)):
            raise ValueError("For 'offload', the 'backward_prefetch' must be 'Auto' or a "
                             f"non-negative int, but got {backward_prefetch!r}.")

    def get_func_graph_proto(self):
        """Mirrors `Cell.get_func_graph_proto`: None in PyNative (no compiled graph)."""
        return None

    def to_empty(self, *, device=None, recurse=True):
        """Mirrors `Cell.to_empty`: every parameter and buffer replaced by uninitialized memory
        of its shape and dtype (device None, 'CPU' or 'Ascend' names where; here the host)."""
        if device not in (None, "CPU", "Ascend", "cpu", "npu"):
            raise ValueError(f'Failed to convert the value "{device}" of input \'device\' of '
                             "'empty_like' to enum.")
        cells = [cell for _, cell in self.cells_and_names()] if recurse else [self]
        for cell in cells:
            d = cell.__dict__
            for table in ("_params", "_buffers"):
                for value in d.get(table, {}).values():
                    if value is not None:
                        value._data = np.empty_like(value.asnumpy())
        return self

    def cast_inputs(self, inputs, dst_type):
        """Mirrors `Cell.cast_inputs` (deprecated): MindSpore 2.10 only warns and returns
        None."""
        from cellgrad import log

        log.warning("'cast_inputs' will be deprecated in future versions.")

    def run_construct(self, cast_inputs, kwargs):
        """Mirrors `Cell.run_construct` (deprecated): the cell run on the two arguments
        `(cast_inputs, kwargs)`, as MindSpore 2.10 passes them."""
        from cellgrad import log

        log.warning(f"The 'run_construct' function of '{type(self).__name__}' will be removed "
                    "in a future version. Calling this function is not recommended.")
        return self(cast_inputs, kwargs)

    # ---- graph-compilation bookkeeping, empty in PyNative ----
    @property
    def create_time(self):
        """Mirrors `Cell.create_time`: when the cell was made (ns, an int)."""
        return self.__dict__.setdefault("_create_time", time.perf_counter_ns())

    @property
    def exist_names(self):
        """Mirrors `Cell.exist_names`: names of the parameters held in plain lists/tuples."""
        return set(self.__dict__.get("_exist_names") or ())

    @property
    def cell_init_args(self):
        """Mirrors `Cell.cell_init_args` (set by MindSpore's `cell_attr_register`; an
        AttributeError until set)."""
        if "_cell_init_args" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute "
                                 "'cell_init_args'.")
        return self.__dict__["_cell_init_args"]

    @cell_init_args.setter
    def cell_init_args(self, value):
        if not isinstance(value, str):
            raise TypeError("For 'Cell', the property 'cell_init_args' must be string type, but "
                            f"got type {type(value)}.")
        self.__dict__["_cell_init_args"] = value

    @property
    def exist_objs(self):
        """Mirrors `Cell.exist_objs` (MindSpore's record of the list/tuple objects holding
        parameters; cellgrad checks their names through `exist_names` and keeps this empty)."""
        return self.__dict__.setdefault("_exist_objs", set())

    @property
    def compile_cache(self):
        """Mirrors `Cell.compile_cache`: the compiled phases (none in PyNative)."""
        return self.__dict__.setdefault("_compile_cache", set())

    @property
    def phase_cache(self):
        """Mirrors `Cell.phase_cache` (empty in PyNative)."""
        return self.__dict__.setdefault("_phase_cache", {})

    @property
    def jit_config_dict(self):
        """Mirrors `Cell.jit_config_dict`: what `set_jit_config` kept ({} before)."""
        return self.__dict__.get("_jit_config_dict") or {}

    @property
    def parameter_layout_dict(self):
        """Mirrors `Cell.parameter_layout_dict`: sharded parameters' layouts (none on one
        device)."""
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value):
        if not isinstance(value, dict):
            raise TypeError("For 'Cell', the property 'parameter_layout_dict' must be dict type, "
                            f"but got type {type(value)}.")
        self.__dict__["_parameter_layout_dict"] = value

    @property
    def parallel_parameter_name_list(self):
        """Mirrors `Cell.parallel_parameter_name_list` (() on one device)."""
        return self.__dict__.get("_parallel_parameter_name_list", ())

    @parallel_parameter_name_list.setter
    def parallel_parameter_name_list(self, value):
        if not isinstance(value, list):
            raise TypeError("For 'Cell', the property 'parallel_parameter_name_list' must be "
                            f"list type, but got type {type(value)}.")
        self.__dict__["_parallel_parameter_name_list"] = value

    @property
    def parallel_parameter_merge_net_dict(self):
        """Mirrors `Cell.parallel_parameter_merge_net_dict` ({} on one device)."""
        return self.__dict__.setdefault("_parallel_parameter_merge_net_dict", {})

    @property
    def compile_phase(self):
        """Mirrors `Cell.compile_phase` (None: nothing compiled in PyNative)."""
        return self.__dict__.get("_compile_phase")

    @property
    def compiled(self):
        """Mirrors `Cell.compiled` (False in PyNative)."""
        return self.__dict__.get("_compiled", False)
