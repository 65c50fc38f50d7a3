"""`ms.mutable` scalars as inputs of a plan.

A mutable scalar argument (`ms.mutable(0.5)`: a float, int or bool subclass marked
`__ms_mutable__`) is keyed by its kind, not its value, and becomes an input slot: where the
traced call hands it to an op, the replay makes the op's scalar from the value of the call
(the engine's conversion, `trace._scalar_array`). That is only right when nothing else used
the value. So during the trace the function receives a *watched* copy: any Python use of it
outside an op (arithmetic, a comparison, `bool`, `int`, `float`, formatting, hashing) is
reported, and then the plan is keyed by the value instead (one trace per value, as a plain
Python scalar).
"""

__all__ = ["ScalarArg", "is_mutable_scalar", "kind_of", "plain", "watched"]

_NAMES = (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__divmod__",
    "__rdivmod__", "__pow__", "__rpow__", "__neg__", "__pos__", "__abs__", "__invert__",
    "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__",
    "__rlshift__", "__rshift__", "__rrshift__", "__eq__", "__ne__", "__lt__", "__le__",
    "__gt__", "__ge__", "__bool__", "__int__", "__float__", "__index__", "__complex__",
    "__round__", "__trunc__", "__floor__", "__ceil__", "__hash__", "__format__", "__str__",
    "__repr__", "__getnewargs__", "as_integer_ratio", "is_integer", "conjugate",
    "bit_length", "bit_count", "to_bytes", "hex")
_CLASSES = {}


def is_mutable_scalar(v):
    """Whether `v` is `ms.mutable` of a bool, int or float."""
    return isinstance(v, (int, float)) and getattr(v, "__ms_mutable__", False) is True


def kind_of(v):
    return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "float"


class ScalarArg:
    """An op argument that is a mutable scalar input: converted as the engine does for the
    op's cellgrad `dtype` (None: passed as it is) at each replay."""
    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype

    def value(self, v):
        if self.dtype is None:
            return v
        from cellgrad_jit.trace import _scalar_array

        return _scalar_array(v, self.dtype)


def _watching(name, method):
    def watched_method(self, *args):
        rec = self._jit_rec
        if rec is not None and not rec.depth:
            rec.mutable_used(f"'{name}'")
        return method(self, *args)

    watched_method.__name__ = name
    return watched_method


def _watched_class(base):
    cls = _CLASSES.get(base)
    if cls is None:
        methods = {n: _watching(n, getattr(base, n)) for n in _NAMES if hasattr(base, n)}
        cls = _CLASSES[base] = type(f"Watched{base.__name__}", (base,), methods)
    return cls


def plain(w):
    """The value of watched copy `w` as a plain Python scalar (not reported)."""
    if isinstance(w, float):
        return float.__float__(w)
    v = int.__int__(w)
    return bool(v) if isinstance(w, bool) else v


def watched(v, rec):
    """A copy of mutable scalar `v` that tells `rec` (a `trace.Recorder`) when Python uses it
    outside an op."""
    base = type(v)
    if base is bool:  # an element of a mutable tuple: bool cannot be subclassed
        from cellgrad.graph_knobs import _Bool as base
    w = _watched_class(base)(v.value if hasattr(v, "value") else v)
    for k in ("__ms_mutable__", "__ms_dynamic_len__", "__ms_origin_object__"):
        if hasattr(v, k):
            object.__setattr__(w, k, getattr(v, k))
    w._jit_rec = rec
    return w
