"""One text form for a signature, computed the same way for MindSpore's objects (when the
fixture is recorded) and cellgrad's (when it is checked), so that the two compare by meaning:
`mindspore.float32` and `cellgrad.float32` are both "dtype:Float32", an initializer object is
"object:HeUniform"."""

import inspect
import re

_DTYPE = re.compile(r"^(Float|Int|UInt|Bool|BFloat|Complex)\d*$")

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}


def default_text(value):
    if value is inspect.Parameter.empty:
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(default_text(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    kind = type(value).__name__
    if _DTYPE.match(str(value)):
        return f"dtype:{value}"
    if inspect.isclass(value) or callable(value):
        return f"callable:{getattr(value, '__name__', kind)}"
    return f"object:{kind}"


def _signature(obj):
    try:
        sig = inspect.signature(inspect.unwrap(obj))
    except (TypeError, ValueError):
        return None
    if _is_varargs(sig):  # a decorator without functools.wraps: find the wrapped function
        for cell in getattr(obj, "__closure__", None) or ():
            inner = cell.cell_contents
            if inspect.isfunction(inner) and inner is not obj:
                found = _signature(inner)
                if found is not None and not _is_varargs(found):
                    return found
    return sig


def _is_varargs(sig):
    return [p.kind for p in sig.parameters.values()][-2:] == [
        inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD] and \
        len(sig.parameters) <= 3


def describe(obj, method=False):
    """{"kind": ..., "params": [[name, kind, default], ...]} or {"kind": ..., "unknown": why}."""
    if inspect.isclass(obj):
        kind = "class"
        target = inspect.unwrap(obj.__init__) if "__init__" in _own(obj) else obj
        sig = _signature(target)
        drop_first = target is not obj
    else:
        kind = "function"
        sig = _signature(obj)
        drop_first = method
    if sig is None:
        return {"kind": kind, "unknown": "no signature"}
    params = list(sig.parameters.values())
    if drop_first and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return {"kind": kind,
            "params": [[p.name, _KINDS[p.kind], default_text(p.default)] for p in params]}


def _own(cls):
    """Names defined by `cls` or a base other than object/builtins (where __init__ lives)."""
    names = set()
    for base in cls.__mro__:
        if base is object:
            continue
        names.update(vars(base))
    return names

