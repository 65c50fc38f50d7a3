"""`auto_parallel_context()` of MindSpore's private `mindspore.parallel._auto_parallel_context`,
which real training code imports (67 files of the usage study): an object with
`get_<key>()`, `set_<key>(value)` for each key of the auto-parallel context (MindSpore's method
names), `get_<key>_is_set()` and `reset()`, over cellgrad's context."""

from cellgrad import parallel_context as _context

# context key -> the name MindSpore's methods use for it
_METHOD_NAMES = {"search_mode": "strategy_search_mode",
                 "all_reduce_fusion_config": "all_reduce_fusion_split_indices"}
_IS_SET = ("device_num", "global_rank", "full_batch", "parameter_broadcast")
_GET_ONLY = ("pipeline_interleave", "pipeline_scheduler")  # set through pipeline_config


class _AutoParallelContext:
    """Mirrors MindSpore's `_AutoParallelContext`; its methods are made from the keys below."""

    def reset(self):
        """`reset_auto_parallel_context()`."""
        _context.reset_auto_parallel_context()


def _getter(key):
    def get(self):
        return _context.get_auto_parallel_context(key)

    get.__doc__ = f"`get_auto_parallel_context({key!r})`."
    return get


def _setter(key):
    def set_(self, value):
        _context.set_auto_parallel_context(**{key: value})

    set_.__doc__ = f"`set_auto_parallel_context({key}=value)`."
    return set_


def _is_set(key):
    def is_set(self):
        return _context.is_set(key)

    is_set.__doc__ = f"Whether `{key}` was set since the last reset."
    return is_set


for _key in _context._DEFAULTS:
    _name = _METHOD_NAMES.get(_key, _key)
    for _prefix, _make in (("get", _getter), ("set", _setter)):
        if _prefix == "set" and _key in _GET_ONLY:
            continue
        _method = _make(_key)
        _method.__name__ = _method.__qualname__ = f"{_prefix}_{_name}"
        setattr(_AutoParallelContext, _method.__name__, _method)
for _key in _IS_SET:
    _method = _is_set(_key)
    _method.__name__ = _method.__qualname__ = f"get_{_key}_is_set"
    setattr(_AutoParallelContext, _method.__name__, _method)

_instance = _AutoParallelContext()


def auto_parallel_context():
    """The auto-parallel context object (one per process, as MindSpore's)."""
    return _instance
