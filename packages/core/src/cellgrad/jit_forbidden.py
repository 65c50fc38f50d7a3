"""MindSpore's jit helper functions: which modules and methods `jit` refuses to compile.

`get_obj_module_and_name_info`, `is_jit_forbidden_module` and
`is_invalid_or_jit_forbidden_method` mirror `mindspore.graph._utils.check_jit_forbidden_api`:
the same answers for the same objects, with MindSpore 2.10's forbidden lists. A list entry
holds both spellings: MindSpore's (`mindspore.context`) and, for the objects cellgrad has,
where cellgrad defines them (`cellgrad.context`, `cellgrad.nn._state.CellState.to`).
"""

import types

__all__ = ["get_obj_module_and_name_info", "is_invalid_or_jit_forbidden_method",
           "is_jit_forbidden_module"]

_MS_MODULES = {"mindspore.common.initializer": "cellgrad.common.initializer",
               "mindspore.context": "cellgrad.context", "mindspore.log": "cellgrad.log"}
_jit_forbidden_module = {*_MS_MODULES, *_MS_MODULES.values()}

# MindSpore 2.10's `@jit_forbidden_register` methods: (its module, class, method name)
_MS_METHODS = [
    ("mindspore.nn.cell", "Cell", name) for name in (
        "_apply", "_run_forward_hook", "_run_forward_pre_hook", "buffers", "get_buffer",
        "get_parameters", "get_sub_cell", "load_state_dict", "named_buffers",
        "register_backward_hook", "register_backward_pre_hook", "register_buffer",
        "register_forward_hook", "register_forward_pre_hook",
        "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
        "register_saved_tensors_hooks", "register_state_dict_post_hook",
        "register_state_dict_pre_hook", "state_dict", "to", "to_empty", "trainable_params",
        "untrainable_params")
] + [
    ("mindspore.common.hook_handle", "HookHandle", "remove"),
    ("mindspore.common.hook_handle", "_TensorHookHandle", "remove"),
    ("mindspore.common.parameter", "Parameter", "set_data"),
    ("mindspore.common.tensor", "Tensor", "assign_value"),
    ("mindspore.common.tensor", "Tensor", "set_const_arg"),
    ("mindspore.graph.api", "saved_tensors_hooks", "__init__"),
]
_jit_forbidden_method = {f"{m}.{c}.{n}" for m, c, n in _MS_METHODS}
_resolved = False


def _cellgrad_class(name):
    """cellgrad's class for one of MindSpore's class names in `_MS_METHODS` (None if absent)."""
    import cellgrad

    if name in ("Cell", "Tensor", "Parameter", "saved_tensors_hooks"):
        return getattr(cellgrad.nn if name == "Cell" else cellgrad, name)
    if name == "HookHandle":
        try:
            return type(cellgrad.nn.Cell().register_forward_hook(lambda *a: None))
        except (ImportError, AttributeError, RuntimeError):  # the hooks plugin is missing
            return None
    return None


def _forbidden_methods():
    """The forbidden set, completed once with where cellgrad defines the same methods."""
    global _resolved
    if not _resolved:
        _resolved = True
        for _, cls_name, name in _MS_METHODS:
            method = getattr(_cellgrad_class(cls_name), name, None)
            if getattr(method, "__module__", None) is not None:
                _jit_forbidden_method.add(f"{method.__module__}.{method.__qualname__}")
    return _jit_forbidden_method


def get_obj_module_and_name_info(obj):
    """Mirrors `mindspore.get_obj_module_and_name_info`: (module, name, kind) of a class,
    function or method; None for an object without `__module__`."""
    if not hasattr(obj, "__module__"):
        return None
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        return obj.__module__, obj.__qualname__, "method or function"
    if isinstance(obj, types.BuiltinMethodType):
        class_name_and_method_name = obj.__qualname__.split('.')
        return class_name_and_method_name[0], obj.__qualname__, "method or function"
    return obj.__module__, obj.__name__, "class"


def is_jit_forbidden_module(obj_module):
    """Mirrors `mindspore.is_jit_forbidden_module`: whether `jit` refuses that module."""
    return obj_module in _jit_forbidden_module


def is_invalid_or_jit_forbidden_method(obj, obj_type, attr):
    """Mirrors `mindspore.is_invalid_or_jit_forbidden_method`: whether `obj.attr` is a method
    `jit` refuses; AttributeError when `obj` has no `attr`."""
    if not hasattr(obj, attr):
        raise AttributeError(f"'{obj_type}' object has no attribute '{attr}'")
    method = getattr(obj, attr)
    if not hasattr(method, "__module__") or method.__module__ is None:
        return False
    method_info = method.__module__ + '.' + method.__qualname__
    return method_info in _forbidden_methods()
