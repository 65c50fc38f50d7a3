"""Mirrors `mindspore.nn.grad`: the `Jvp` and `Vjp` cells (deprecated in MindSpore since 1.9 for
`ops.jvp` / `ops.vjp`, which they call here; MindSpore's tests/ut/python/nn/gradient use them).
"""

import warnings

from cellgrad.func_transforms import jvp, vjp
from cellgrad.nn.cell import Cell

__all__ = ["Jvp", "Vjp"]


def _structure(name, what, value, like):
    """`value` must be a Tensor where `like` is one and a tuple of as many where it is a tuple."""
    if isinstance(like, tuple) != isinstance(value, tuple) or (
            isinstance(like, tuple) and len(like) != len(value)):
        got = f"a tuple of {len(value)}" if isinstance(value, tuple) else type(value).__name__
        want = f"a tuple of {len(like)}" if isinstance(like, tuple) else "a Tensor"
        raise TypeError(f"For '{name}', 'v' must match the {what}: {want}, but got {got}.")


def _deprecated(name, instead):
    warnings.warn(f"'nn.{name}' is deprecated from version 1.9 and will be removed in a future "
                  f"version, use '{instead}' instead.", DeprecationWarning, stacklevel=3)


class Jvp(Cell):
    """Mirrors `mindspore.nn.grad.Jvp(fn)`: `Jvp(fn)(*inputs, v)` is `(fn(*inputs), J v)`, `v`
    one tangent per input (a Tensor for one input, a tuple for several)."""

    def __init__(self, fn):
        _deprecated("Jvp", "ops.jvp")
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        _structure("Jvp", "inputs", v, inputs if len(inputs) > 1 else inputs[0])
        if len(inputs) == 1 and isinstance(inputs[0], tuple):
            # as MindSpore, `fn` gets the arguments as given: one tuple stays one argument
            return jvp(lambda *xs: self.fn(xs), inputs[0], v)
        return jvp(self.fn, inputs if len(inputs) > 1 else inputs[0], v)


class Vjp(Cell):
    """Mirrors `mindspore.nn.grad.Vjp(fn)`: `Vjp(fn)(*inputs, v)` is `(fn(*inputs), v^T J)`, `v`
    shaped as the output; the gradient is a Tensor for one input, a tuple for several."""

    def __init__(self, fn):
        _deprecated("Vjp", "ops.vjp")
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        outputs, vjp_fn = vjp(self.fn, *inputs)
        _structure("Vjp", "output", v, outputs)
        grads = vjp_fn(v)
        return outputs, grads[0] if len(inputs) == 1 else grads
