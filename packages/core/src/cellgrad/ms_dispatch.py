"""`mindspore.MsDispatchMode`: intercept every op dispatch with `__ms_dispatch__`.

While a mode is open, each op cellgrad dispatches calls the innermost mode's
`__ms_dispatch__(func, args, kwargs)`, where `func(*args)` runs the op (through the next outer
mode, if any) and `func.name` is cellgrad's op name (`"mul"`, `"exp"`, `"matmul"`; MindSpore's
are its primitives' names, `"Mul"`, `"Exp"`, `"MatMul"`). As in MindSpore, ops the handler
runs itself are not intercepted, `kwargs` is None (an op's attributes stay bound to `func`),
and what the handler returns is the op's result (it is called as
`__ms_dispatch__(func, args)`). The hook point is the engine's dispatch
handler (`_buffer.set_dispatch_handler`); an observer watches as well while a mode is open, so
the engine's fast paths and the layers' shortcuts dispatch (`cellgrad.observe`).
"""

import contextlib

from cellgrad._core import _buffer

__all__ = ["MsDispatchMode"]

_modes = []        # the open modes, innermost last
_watch = {}        # "handle": the observer handle while a mode is open


class OpFunc:
    """The op a mode intercepted: `name`, and `func(*args)` runs it."""

    __slots__ = ("_op", "_attrs", "_level")

    def __init__(self, op, attrs, level):
        self._op, self._attrs, self._level = op, attrs, level

    @property
    def name(self):
        return self._op.name

    def __call__(self, *args, **kwargs):
        attrs = {**self._attrs, **kwargs} if self._attrs else (kwargs or None)
        if self._level > 0:  # the next outer mode sees the op
            return _modes[self._level - 1].__ms_dispatch__(
                OpFunc(self._op, attrs, self._level - 1), args)
        return _buffer.apply_undispatched(self._op, tuple(args), attrs)

    def __repr__(self):
        return f"OpFunc({self.name})"


def _handle(op, inputs, attrs):
    level = len(_modes) - 1
    previous = _buffer.set_dispatch_handler(None)  # the handler's own ops are not intercepted
    try:
        return _modes[level].__ms_dispatch__(OpFunc(op, attrs, level), inputs)
    finally:
        _buffer.set_dispatch_handler(previous)


class MsDispatchMode(contextlib.ContextDecorator):
    """Mirrors `mindspore.MsDispatchMode`: subclass it and override `__ms_dispatch__`; a
    context manager or a decorator. Nested modes: the innermost handles each op first."""

    def __enter__(self):
        from cellgrad import observe

        _modes.append(self)
        if "handle" not in _watch:
            _watch["handle"] = observe.add_observer(observe.Observer())
        _buffer.set_dispatch_handler(_handle)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self in _modes:
            del _modes[len(_modes) - 1 - _modes[::-1].index(self)]
        if not _modes:
            _buffer.set_dispatch_handler(None)
            if "handle" in _watch:
                _watch.pop("handle").remove()
        return False

    def __ms_dispatch__(self, func, args, kwargs=None):
        """Called for each op inside the mode; by default runs it unchanged."""
        return func(*args)
