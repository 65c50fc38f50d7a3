"""Grad mode switches (thread-local): `no_grad`, `enable_grad`, `set_grad_enabled`.

Each works as a context manager and as a decorator.
"""

import functools
import threading

from cellgrad._core import _tape

_local = threading.local()  # `no_grad` regions open on this thread


def in_no_grad():
    """Whether a `no_grad` region is open and recording is off (MindSpore refuses `grad` there;
    the core's own pauses, as around a custom bprop's forward, do not count)."""
    return getattr(_local, "depth", 0) > 0 and not _tape.is_grad_enabled()


class _GradMode:
    _mode = True

    def __enter__(self):
        self._previous = _tape.set_grad_enabled(self._mode)
        return self

    def __exit__(self, *exc):
        _tape.set_grad_enabled(self._previous)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradMode):
    """Inside it, ops record nothing on the tape (their results are constants)."""

    _mode = False

    def __enter__(self):
        _local.depth = getattr(_local, "depth", 0) + 1
        return super().__enter__()

    def __exit__(self, *exc):
        _local.depth -= 1
        return super().__exit__(*exc)


class enable_grad(_GradMode):
    """Turns recording back on inside a `no_grad` region."""

    _mode = True


class set_grad_enabled(_GradMode):
    """`set_grad_enabled(False)` as a context manager or decorator."""

    def __init__(self, mode):
        self._mode = bool(mode)

    def __call__(self, fn):
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper
