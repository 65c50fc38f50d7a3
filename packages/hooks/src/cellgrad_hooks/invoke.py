"""Calling user hooks: the callable check, errors that name where a hook ran, and gradients
handed to hooks as Tensors and taken back from them.

During a first-order backward walk gradients are numpy arrays; hooks see them as Tensors with
no tape node and run with grad mode off (their ops record nothing). When a higher order is
being recorded the gradients are already Tensors on the tape and hooks run recorded, so a
hook's arithmetic is differentiated too.
"""

import numpy as np
from cellgrad._core._buffer import TensorBuffer, make_tensor

from cellgrad._core import _tape

__all__ = ["HookReturnTypeError", "check_hook_fn", "call", "call_in_backward", "cell_hook",
           "to_tensor", "to_grad", "hook_name", "check_grad"]


def check_hook_fn(hook_fn):
    """MindSpore's check: a hook must be callable (same message as MindSpore)."""
    if not callable(hook_fn):
        raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")


def hook_name(fn):
    """`Class.method` or the function's name, without the `outer.<locals>.` of nested ones."""
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    return name.rsplit("<locals>.", 1)[-1] if name else type(fn).__name__


def cell_hook(cell, kind, fn):
    """`where` for `call`: the cell's class and the hook."""
    return lambda: f"For '{type(cell).__name__}', the {kind} hook '{hook_name(fn)}'"


def _named(exc, where):
    """`exc` again, its message prefixed by where it was raised; the same class, chained.

    An exception class that cannot be rebuilt from one message is re-raised unchanged with a
    note (shown in the traceback) instead.
    """
    message = f"{where} raised {type(exc).__name__}: {exc}"
    try:
        new = type(exc)(message)
    except Exception:
        new = None
    if new is None or message not in str(new):
        if hasattr(exc, "add_note"):
            exc.add_note(where)
        return exc
    new.__cause__ = exc
    return new


def call(where, fn, *args):
    """`fn(*args)`; an exception from it is re-raised naming `where` (a callable giving the
    text, so the common path builds no string)."""
    try:
        return fn(*args)
    except Exception as e:
        raise _named(e, where()) from e


def call_in_backward(where, fn, *args, recorded=False):
    """`call` for a hook run by the backward walk: grad mode off unless `recorded` (the walk is
    building a higher-order graph)."""
    previous = _tape.set_grad_enabled(recorded and _tape.is_grad_enabled())
    try:
        return call(where, fn, *args)
    finally:
        _tape.set_grad_enabled(previous)


def to_tensor(g, dtype):
    """A gradient from the walk as the Tensor a hook sees (None stays None)."""
    if g is None or isinstance(g, TensorBuffer):
        return g
    return make_tensor(g if type(g) is np.ndarray else np.asarray(g), None, 0, dtype)


def to_grad(t, recorded):
    """A Tensor a hook returned, as the walk wants it: its array, or itself when recorded."""
    if t is None or recorded:
        return t
    return t._data


class HookReturnTypeError(TypeError, RuntimeError):
    """A Tensor hook returned something other than a Tensor (MindSpore raises RuntimeError;
    this is also the TypeError Python code expects)."""


def check_grad(value, shape, dtype, what, error=TypeError):
    """`value`, a gradient a hook returned, checked against the `shape` and `dtype` of the one
    it replaces; errors say `what` it is. None (no gradient) passes. `error`: the class for a
    value that is not a Tensor."""
    if value is None:
        return None
    if not isinstance(value, TensorBuffer):
        raise error(f"{what} must be a Tensor (or None), but got {type(value).__name__}.")
    if tuple(value.shape) != tuple(shape) or value._dtype is not dtype:
        raise ValueError(f"{what} must have the shape {tuple(shape)} and dtype {dtype} of the "
                         f"gradient it replaces, but got shape {tuple(value.shape)} and dtype "
                         f"{value.dtype}.")
    return value
