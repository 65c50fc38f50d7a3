"""MindSpore's graph-compiler knobs, which PyNative code passes too: `mutable`, `JitConfig`,
`jit_class`, `lazy_inline`, `set_recursion_limit`.

cellgrad runs every function eagerly (see `cellgrad.jit`), so these accept MindSpore's
arguments, check them as MindSpore does and leave the computation unchanged.
"""

import functools

__all__ = ["JitConfig", "jit_class", "lazy_inline", "mutable", "set_recursion_limit"]


class _Int(int):
    """An int marked mutable (`ms.mutable(3)`): `ms.jit` makes it an input of the plan."""


class _Float(float):
    """A float marked mutable (`ms.mutable(0.5)`): `ms.jit` makes it an input of the plan."""


class _Bool(int):
    """A bool marked mutable (bool cannot be subclassed: an int that reports class bool, as
    MindSpore's)."""

    def __init__(self, value):
        self.value = bool(value)

    @property
    def __class__(self):
        return bool

    def __and__(self, x):
        return self.value & x

    def __rand__(self, x):
        return x & self.value

    def __or__(self, x):
        return self.value | x

    def __ror__(self, x):
        return x | self.value

    def __xor__(self, x):
        return self.value ^ x

    def __rxor__(self, x):
        return x ^ self.value

    def __str__(self):
        return str(self.value)

    def __repr__(self):
        return repr(self.value)


class _Tuple(tuple):
    """A tuple marked mutable (`ms.mutable((a, b))`)."""


class _List(list):
    """A list marked mutable (`ms.mutable([a, b], dynamic_len=True)`)."""


class _Dict(dict):
    """A dict marked mutable."""


def _valid(value, seen):
    if id(value) in seen:
        return False
    if isinstance(value, (tuple, list, dict)):
        seen.add(id(value))
        ok = all(_valid(v, seen) for v in (value.values() if isinstance(value, dict) else value))
        seen.discard(id(value))
        return ok
    from cellgrad.common.tensor import Tensor

    return isinstance(value, (Tensor, int, float))


def mutable(input_data, dynamic_len=False):
    """Mirrors `mindspore.mutable`: marks a value as variable for the graph compiler. The value
    keeps its behaviour (a subclass of its type); under `ms.jit` a mutable scalar is an input
    of the plan (a new value replays, no retrace)."""
    if not _valid(input_data, set()):
        raise TypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                        f"Tensor, tuple, list, dict) or their nested structures with no "
                        f"self-reference, but got {type(input_data).__name__}: {input_data}.")
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"For 'mutable', the second input should be bool, but got: "
                        f"{type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"For 'mutable', when the variable_len is True, the first input should "
                        f"be list or tuple, but got: {type(input_data).__name__}")
    ret = input_data
    if isinstance(input_data, bool):
        ret = _Bool(input_data)
    elif isinstance(input_data, int):
        ret = _Int(input_data)
    elif isinstance(input_data, float):
        ret = _Float(input_data)
    elif isinstance(input_data, list):
        ret = _List(input_data)
    elif isinstance(input_data, tuple):
        ret = _Tuple(input_data)
    elif isinstance(input_data, dict):
        ret = _Dict(input_data)
    if ret is not input_data:  # a Tensor takes no attributes: it is an input anyway
        ret.__ms_mutable__ = True
        ret.__ms_dynamic_len__ = dynamic_len
        ret.__ms_origin_object__ = input_data
    return ret


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
