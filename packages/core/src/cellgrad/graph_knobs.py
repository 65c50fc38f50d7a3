"""MindSpore's graph-compiler knobs, which PyNative code passes too: `mutable`, `JitConfig`,
`jit_class`, `lazy_inline`, `set_recursion_limit`.

cellgrad runs every function eagerly (see `cellgrad.jit`), so these accept MindSpore's
arguments, check them as MindSpore does and leave the computation unchanged.
"""

import functools

__all__ = ["JitConfig", "jit_class", "lazy_inline", "mutable", "set_recursion_limit"]


class _MutableTuple(tuple):
    """A tuple marked mutable (`ms.mutable((a, b))`): a plain tuple here."""


class _MutableList(list):
    """A list marked mutable (`ms.mutable([a, b], dynamic_len=True)`): a plain list here."""


def mutable(input_data, dynamic_len=False):
    """Mirrors `mindspore.mutable`: marks a value as variable for the graph compiler; in
    PyNative the value itself (tuples and lists keep their type's behaviour)."""
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the 'dynamic_len' must be bool, but got "
                        f"{type(dynamic_len).__name__}.")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should "
                        f"be list or tuple, but got: {type(input_data).__name__}")
    if isinstance(input_data, list):
        return _MutableList(input_data)
    if isinstance(input_data, tuple):
        return _MutableTuple(input_data)
    return input_data


class JitConfig:
    """Mirrors `mindspore.JitConfig`: the options of a jit compilation, kept in
    `jit_config_dict` (cellgrad runs eagerly and compiles nothing)."""

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        for name, value, allowed in (
                ("exc_mode", exc_mode, ["auto", "sink", "no_sink"]),
                ("jit_syntax_level", jit_syntax_level, ["", "STRICT", "COMPATIBLE", "LAX"]),
                ("debug_level", debug_level, ["RELEASE", "DEBUG"]),
                ("infer_boost", infer_boost, ["on", "off"])):
            if value not in allowed:
                raise ValueError(f"For '{name}' must be one of '{allowed}'.")
        self.jit_config_dict = dict(jit_level=jit_level, exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level, debug_level=debug_level,
                                    infer_boost=infer_boost, **kwargs)
        if jit_level:  # MindSpore records the back end a level implies
            self.jit_config_dict.setdefault("backend", "GE" if jit_level == "O2" else "ms_backend")


def jit_class(cls):
    """Mirrors `mindspore.jit_class`: marks a class usable inside jit functions; returns it."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    cls.__ms_class__ = True
    return cls


def lazy_inline(fn=None, attrs=None, policy=None):
    """Mirrors `mindspore.lazy_inline` (a graph-compilation hint for a Cell's `__init__`):
    the decorated function runs unchanged."""
    def wrap(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            return func(*args, **kwargs)

        return run

    return wrap(fn) if fn is not None else wrap


_RECURSION_LIMIT = [1000]


def set_recursion_limit(recursion_limit=1000):
    """Mirrors `mindspore.set_recursion_limit` (the graph compiler's recursion depth): checked
    and recorded; eager execution has no such limit."""
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, int) or \
            recursion_limit <= 0:
        raise ValueError(f"The input value must be int and must > 0, but got "
                         f"'{recursion_limit}' with type '{type(recursion_limit).__name__}'.")
    _RECURSION_LIMIT[0] = recursion_limit
