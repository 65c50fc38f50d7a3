"""`ms.jit` with cellgrad-jit installed: trace once, replay later calls with equal guards.

The first call with a new cache key runs eagerly under a `Recorder` (`trace`); when nothing
in it is unsafe the plan (`plan.Plan`) serves later calls whose key is equal and whose
other guards hold. The key: each argument's kind — a Tensor's shape and dtype, a
Parameter's or Cell's identity, a Python scalar's value (baked into the plan) — and the
containers around them. The other guards: each traced Cell's training phase and hooks, the
Parameters' shapes, dtypes and gradient hooks, the arrays of Parameters read as attributes.
A changed guard traces again; the cache keeps `MAX_CACHE` plans and warns once when a
function keeps being traced. A call that cannot be replayed runs eagerly; `fn.jit_stats`
counts traces, replays and eager calls and keeps the reasons (also logged at DEBUG on the
`cellgrad_jit` logger).
"""

import functools
import logging
import warnings
from collections import OrderedDict

import numpy as np
from cellgrad._core._buffer import DType, TensorBuffer

from cellgrad import _jit_hook, observe
from cellgrad.common.parameter import Parameter
from cellgrad.nn import Cell
from cellgrad_jit.guards import Guards, cell_methods, reachable
from cellgrad_jit.mutables import is_mutable_scalar, kind_of, watched
from cellgrad_jit.plan import Plan
from cellgrad_jit.trace import Recorder, Unsafe

__all__ = ["MAX_CACHE", "JitStats", "compile_function"]

log = logging.getLogger("cellgrad_jit")
MAX_CACHE = 8
_SCALARS = (bool, int, float, complex, str, bytes, type(None), np.generic, DType)


class JitStats:
    """What `ms.jit` did for one function: `traces`, `replays`, `eager_calls` (calls run
    eagerly, with `fallbacks` {reason: count}) and `evictions` from the bounded cache."""

    def __init__(self, name):
        self.name = name
        self.traces = self.replays = self.eager_calls = self.evictions = 0
        self.fallbacks = {}
        self.warned = False

    @property
    def last_fallback(self):
        return next(reversed(self.fallbacks), None)

    def fell_back(self, reason):
        self.eager_calls += 1
        self.fallbacks[reason] = self.fallbacks.get(reason, 0) + 1

    def __repr__(self):
        return (f"JitStats({self.name!r}, traces={self.traces}, replays={self.replays}, "
                f"eager_calls={self.eager_calls}, fallbacks={self.fallbacks})")


class _Eager:
    """A key whose calls run eagerly, until a Cell's phase or hooks change (then it is traced
    again: removing the hook that made it eager makes it replayable)."""
    __slots__ = ("reason", "cells")

    def __init__(self, reason, cells):
        self.reason = reason
        self.cells = [(c, c.training, _jit_hook.cell_hooked(c)) for c, _ in cells]

    def changed(self):
        return any(c.training != t or _jit_hook.cell_hooked(c) != h for c, t, h in self.cells)


class _NoKey(Exception):
    pass


class _ByValue:
    """A key whose plan used a mutable scalar in Python: its plans are keyed by the values."""
    __slots__ = ("reason",)

    def __init__(self, reason):
        self.reason = reason


def _key(v, tensors, by_value=False, marked=False):
    """The cache key of an argument; appends its Tensors and mutable scalars to `tensors`
    (their order: the plan's inputs). A mutable scalar (`ms.mutable(0.5)`, or a number in
    `ms.mutable((a, b))`: MindSpore makes every element mutable) keys by its kind (its value
    is an input), or by its value too when `by_value`."""
    if is_mutable_scalar(v) or (marked and type(v) in (bool, int, float)):
        tensors.append(v)
        kind = kind_of(v)
        return ("M", kind, (float if kind == "float" else int)(v)) if by_value else ("M", kind)
    if isinstance(v, TensorBuffer):
        if isinstance(v, Parameter):
            tensors.append(v)
            return ("P", id(v))
        if _jit_hook.tape_place(v) is not None:
            raise _NoKey("an argument is on the gradient tape (jit called inside a gradient "
                         "transform of its caller)")
        tensors.append(v)
        return ("T", v._data.shape, v._data.dtype.str, v.dtype.name)
    if isinstance(v, _SCALARS):
        return (type(v), v)
    if isinstance(v, (tuple, list, dict)):
        marked = marked or getattr(v, "__ms_mutable__", False) is True
        if isinstance(v, dict):
            return (dict, tuple((k, _key(x, tensors, by_value, marked)) for k, x in v.items()))
        return (type(v), tuple(_key(x, tensors, by_value, marked) for x in v))
    return ("O", id(v))


def _swap(v, replace, marked=False):
    """`v` with its leaves replaced, in `_key`'s order: `replace` yields, per leaf `_key`
    appended to its list, the object to put there (None: keep the leaf)."""
    if is_mutable_scalar(v) or (marked and type(v) in (bool, int, float)):
        new = next(replace)
        return v if new is None else new
    if isinstance(v, TensorBuffer):
        next(replace)
        return v
    if isinstance(v, _SCALARS) or not isinstance(v, (tuple, list, dict)):
        return v
    marked = marked or getattr(v, "__ms_mutable__", False) is True
    if isinstance(v, dict):
        new = {k: _swap(x, replace, marked) for k, x in v.items()}
        same = all(new[k] is x for k, x in v.items())
    else:
        new = [_swap(x, replace, marked) for x in v]
        same = all(a is b for a, b in zip(new, v))
    if same:
        return v
    if type(v) in (tuple, list, dict):
        return type(v)(new)
    if isinstance(v, tuple) and hasattr(v, "_fields"):  # a namedtuple
        return type(v)(*new)
    made = type(v)(new)  # ms.mutable's _Tuple/_List/_Dict: keep its marks
    for k in ("__ms_mutable__", "__ms_dynamic_len__", "__ms_origin_object__"):
        if hasattr(v, k):
            setattr(made, k, getattr(v, k))
    return made


def compile_function(function, settings):
    """The callable `ms.jit(function, ...)` returns (cellgrad-jit's compiler)."""
    name = getattr(function, "__qualname__", None) or type(function).__name__
    fullgraph = settings.get("fullgraph", False)
    cache = OrderedDict()
    stats = JitStats(name)
    owner = getattr(function, "__self__", None)

    def eager(reason, args, kwargs):
        stats.fell_back(reason)
        return function(*args, **kwargs)

    def trace(key, args, kwargs, tensors, by_value=False):
        rec = Recorder(name)
        swap, given = [], (args, kwargs)
        for i, t in enumerate(tensors):
            if isinstance(t, TensorBuffer):
                rec.bind_input(t, i)
                swap.append(None)
            else:  # a mutable scalar: the function gets a watched copy
                swap.append(watched(t, rec))
                rec.bind_scalar(swap[-1], i)
        if any(w is not None for w in swap):
            replace = iter(swap)
            args, kwargs = _swap(args, replace), _swap(kwargs, replace)
        rec.see_reachable(function, args, kwargs)
        for c in [owner, *args]:
            if isinstance(c, Cell):
                rec.cells[id(c)] = (c, c.training)
        guards = Guards()
        reachable(function, guards)
        cell_methods([sub for c, _ in rec.cells.values() for _, sub in c.cells_and_names()],
                     [*args, *kwargs.values()], guards)
        previous = _jit_hook.set_tracer(rec)
        handle = observe.add_observer(rec)
        try:
            out = function(*args, **kwargs)
        finally:
            handle.remove()
            _jit_hook.set_tracer(previous)
        stats.traces += 1
        if len(cache) >= MAX_CACHE:
            cache.popitem(last=False)
            stats.evictions += 1
            if not stats.warned:
                stats.warned = True
                warnings.warn(f"jit: '{name}' has been traced {stats.traces} times: its guards "
                              f"(argument shapes/dtypes, Python scalar arguments, training "
                              f"phase, Parameters, hooks) keep changing, and only "
                              f"{MAX_CACHE} plans are kept. Pass varying numbers as Tensors.",
                              RuntimeWarning, stacklevel=3)
        try:
            plan = rec.finish(out)
        except Unsafe as e:
            reason = str(e)
            log.debug("jit: '%s' runs eagerly: %s", name, reason)
            cache[key] = _Eager(reason, rec.cells.values())
            stats.fallbacks[reason] = stats.fallbacks.get(reason, 0) + 1
            if fullgraph:
                raise RuntimeError(f"For 'jit' with fullgraph=True, '{name}' cannot be "
                                   f"captured as one graph: {reason}.") from None
            return out
        cell_methods([c for c, _ in plan.cells], (), guards)  # values: as before the call
        plan.guards = guards
        log.debug("jit: '%s' traced: %d steps", name, len(plan.steps))
        if rec.mutable_reason and not by_value:
            log.debug("jit: '%s' keyed by the mutable scalars' values: %s", name,
                      rec.mutable_reason)
            cache[key] = _ByValue(rec.mutable_reason)
            values = []
            key = (_key(given[0], values, True), _key(given[1], values, True))
        cache[key] = plan
        for w in swap:
            if w is not None:
                w._jit_rec = None  # the result may hold a watched copy: it stops reporting
        return out

    @functools.wraps(function)
    def jitted(*args, **kwargs):
        if _jit_hook.tracer is not None:
            return function(*args, **kwargs)  # inside another trace: part of that one
        if _jit_hook.recording():
            return eager("called inside a gradient transform (the replay has no tape)",
                         args, kwargs)
        tensors = []
        try:
            key = (_key(args, tensors), _key(kwargs, tensors))
        except _NoKey as e:
            return eager(str(e), args, kwargs)
        entry = cache.get(key)
        by_value = type(entry) is _ByValue
        if by_value:
            key = (_key(args, [], True), _key(kwargs, [], True))
            entry = cache.get(key)
        if entry is None:
            return trace(key, args, kwargs, tensors, by_value)
        if type(entry) is _Eager:
            if not entry.changed():
                return eager(entry.reason, args, kwargs)
            del cache[key]
            return trace(key, args, kwargs, tensors, by_value)
        if not entry.guards_hold():
            del cache[key]
            return trace(key, args, kwargs, tensors, by_value)
        stats.replays += 1
        return entry.run(tensors)

    jitted.jit_stats = stats
    jitted.jit_plans = cache
    return jitted


__all__ += ["Plan"]
