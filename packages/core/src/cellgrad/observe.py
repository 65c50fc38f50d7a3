"""Watching what runs: the interface the profiler and graph capture build on.

An observer sees every op dispatch (forward), every backward rule the gradient walk runs and
every Cell call, from the engine's own dispatch. Subclass `Observer` and override what you
need; `add_observer(obs)` starts watching and returns a handle whose `remove()` stops it.
Several observers may watch at once (each sees every event, in the order they were added).

    op_begin(op, inputs, attrs) / op_end(op, inputs, attrs, result) / op_abort(op)
        around one dispatch: `op` a `cellgrad.plugins.Op` (`op.name`), `inputs` the Tensors
        and plain values as passed, `attrs` a dict or None, `result` a Tensor or a tuple of
        them. `op_abort` replaces `op_end` when the op raised.
    backward_begin(op) / backward_end(op)
        around one backward rule in the gradient walk (not called for the rest of a walk
        whose rule raised).
    cell_begin(cell, args, kwargs) / cell_end(cell, result) / cell_abort(cell)
        around one `Cell.__call__` (construct, hooks and all).

Cost when no observer watches: one C-level test per dispatch and one global test per Cell
call. While one watches, dispatches take the engine's generic path (no fast paths), so time
measured under an observer is an upper bound of unobserved time. A layer with a shortcut that
bypasses dispatch (computing on arrays directly) must test `watching()` and dispatch while it
is true, so that observers see every op.
"""

from cellgrad._core import _buffer, _tape
from cellgrad._observer_protocol import Observer
from cellgrad.nn import cell as _cell

__all__ = ["Observer", "add_observer", "observers", "watching"]

_active = []  # the observers, in the order added


class _FanOut(Observer):
    """Several observers as one: begin events in order, end events in reverse order."""

    def __init__(self, targets):
        self.targets = tuple(targets)
        self.reverse = self.targets[::-1]

    def op_begin(self, op, inputs, attrs):
        for t in self.targets:
            t.op_begin(op, inputs, attrs)

    def op_end(self, op, inputs, attrs, result):
        for t in self.reverse:
            t.op_end(op, inputs, attrs, result)

    def op_abort(self, op):
        for t in self.reverse:
            t.op_abort(op)

    def backward_begin(self, op):
        for t in self.targets:
            t.backward_begin(op)

    def backward_end(self, op):
        for t in self.reverse:
            t.backward_end(op)

    def cell_begin(self, cell, args, kwargs):
        for t in self.targets:
            t.cell_begin(cell, args, kwargs)

    def cell_end(self, cell, result):
        for t in self.reverse:
            t.cell_end(cell, result)

    def cell_abort(self, cell):
        for t in self.reverse:
            t.cell_abort(cell)


class _Handle:
    """Returned by `add_observer`; `remove()` stops the observer (idempotent)."""

    def __init__(self, observer):
        self.observer = observer

    def remove(self):
        if any(o is self.observer for o in _active):
            _active[:] = [o for o in _active if o is not self.observer]
            _install()

    def __enter__(self):
        return self.observer

    def __exit__(self, *exc):
        self.remove()


def add_observer(observer):
    """Start `observer` (an `Observer`, or any object with its eight methods) watching."""
    missing = [m for m in vars(Observer) if not m.startswith("_")
               and not callable(getattr(observer, m, None))]
    if missing:
        raise TypeError(f"add_observer: {type(observer).__name__} lacks the observer "
                        f"method(s) {', '.join(missing)}; subclass cellgrad.observe.Observer.")
    if any(o is observer for o in _active):
        raise ValueError(f"add_observer: {observer!r} is already watching.")
    _active.append(observer)
    _install()
    return _Handle(observer)


def observers():
    """The observers watching now, in the order added."""
    return list(_active)


def watching():
    """Whether any observer watches (cheap: for shortcuts that skip dispatch)."""
    return bool(_active)


def _install():
    current = None if not _active else _active[0] if len(_active) == 1 else _FanOut(_active)
    _buffer.set_op_observer(current)
    _tape.set_backward_observer(current)
    _cell.set_cell_observer(current)
