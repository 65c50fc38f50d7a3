"""The Python values a traced call reads outside its arguments, to guard in its plan.

A replay repeats the ops of the trace; a Python value the user's code read along the way (a
global, a closure variable) is baked into them. So the user functions the call can run are
walked once, after the trace: the jitted function, the methods of every Cell class it ran
(`construct`, helpers called through `self`), functions held by those Cells or passed as
arguments, and, recursively, the functions their globals and closures name. The globals and
closure variables they read are guarded: scalars by value, functions, Tensors and Cells by
identity. A changed guard makes the plan trace again. Framework code (cellgrad's packages,
numpy, the standard library) is not user code: its module-level settings are not guarded.
(A walk, not a `sys.settrace` during the trace: that measured 1.2x the trace's time.)
"""

import dis
import sys
import types

from cellgrad._core._buffer import TensorBuffer

from cellgrad.nn import Cell

__all__ = ["Guards", "cell_methods", "reachable"]

SCALARS = (bool, int, float, complex, str, type(None))
_FRAMEWORK = ("cellgrad", "numpy", "pluggy", "_pytest", "pytest", "threadpoolctl")
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


def _user_module(name):
    top = (name or "").partition(".")[0]
    return not (top.startswith(_FRAMEWORK) or top in _STDLIB or top == "builtins")


def _kind(value):
    """'value' (guarded by equality), 'identity', or None (not guarded)."""
    if isinstance(value, SCALARS):
        return "value"
    if isinstance(value, (types.FunctionType, TensorBuffer, Cell)):
        return "identity"
    return None


_GLOBAL_READS = {}  # code -> the names its LOAD_GLOBAL/LOAD_NAME instructions read


def _names(code, out):
    """The global names `code` and the code objects nested in it (lambdas, comprehensions,
    inner functions) read (not attribute names: `self.step` guards no global `step`)."""
    names = _GLOBAL_READS.get(code)
    if names is None:
        names = _GLOBAL_READS[code] = frozenset(
            i.argval for i in dis.get_instructions(code)
            if i.opname in ("LOAD_GLOBAL", "LOAD_NAME"))
    out.update(names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            _names(c, out)
    return out


class Guards:
    """Guards collected for one plan: `values` [(where, key, value)] compared by equality
    (`where` a dict and key a name, or None and a closure cell), `identities` [(where, key,
    object)] compared by identity."""

    def __init__(self):
        self.values, self.identities = [], []
        self._seen = set()  # (id(where), key)

    def add(self, where, key, value):
        kind = _kind(value)
        if kind is None:
            return
        mark = (id(where), key if where is not None else id(key))
        if mark in self._seen:
            return
        self._seen.add(mark)
        (self.values if kind == "value" else self.identities).append((where, key, value))

    def globals_of(self, code, names):
        for n in _names(code, set()):
            if n in names:
                self.add(names, n, names[n])

    def hold(self):
        for where, key, value in self.values:
            now = _read(where, key)
            if now is not value and (type(now) is not type(value) or now != value):
                return False
        for where, key, obj in self.identities:
            if _read(where, key) is not obj:
                return False
        return True


_MISSING = object()


def _read(where, key):
    if where is None:
        try:
            return key.cell_contents
        except ValueError:  # the closure cell was emptied
            return _MISSING
    return where.get(key, _MISSING)


def reachable(function, guards, depth=4):
    """Guard the closure cells and globals of `function` and, recursively, of the user
    functions they hold (`depth` levels)."""
    seen = set()

    def walk(fn, level):
        fn = getattr(fn, "__func__", fn)
        if not isinstance(fn, types.FunctionType) or id(fn) in seen or level > depth:
            return
        seen.add(id(fn))
        if not _user_module(fn.__globals__.get("__name__")):
            return
        for cell in fn.__closure__ or ():
            try:
                v = cell.cell_contents
            except ValueError:
                continue
            guards.add(None, cell, v)
            walk(v, level + 1)
        names = fn.__globals__
        for n in _names(fn.__code__, set()):
            if n in names:
                guards.add(names, n, names[n])
                walk(names[n], level + 1)

    walk(function, 0)


def cell_methods(cells, args, guards):
    """Guard what the user methods of the traced Cells' classes, the functions those Cells
    hold and the function arguments read (`reachable` from each)."""
    seen = set()
    for cell in cells:
        for cls in type(cell).__mro__:
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            if not _user_module(cls.__module__):
                continue
            for v in vars(cls).values():
                reachable(getattr(v, "__func__", v), guards)
        for v in vars(cell).values():
            if isinstance(v, types.FunctionType):
                reachable(v, guards)
    for v in args:
        if isinstance(v, (types.FunctionType, types.MethodType)):
            reachable(v, guards)
