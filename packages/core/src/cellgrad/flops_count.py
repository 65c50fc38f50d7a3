"""Counting a step's matrix-product FLOPs, and `mindspore.flops_collection`.

`FlopCounter` watches dispatch (`cellgrad.observe`) and counts, as MindSpore's collector
does, only the matrix products: MatMul/BatchMatMul, Dense, Conv2D/Conv3D (and transposed),
at 2 FLOPs per multiply-add. The backward of a counted op adds its forward once for each of
its two operands that needs a gradient (a batch of data needs none: `Dense(10, 5)` at batch 32
trains in 6400 FLOPs, MindSpore's documented count). `flops_collection(phase)` gives the
counts of the last step a counter recorded for `phase` ("train" or "eval") in MindSpore's tuple
(full model, full hardware, shard model, shard hardware, is_dynamic_shape); one process
holds the whole model and recomputes nothing, so all four counts are the same number.
"""

import math

from cellgrad._core._buffer import TensorBuffer
from cellgrad._observer_protocol import Observer

__all__ = ["flops_collection"]

_last = {}  # phase -> FLOPs of the last counted step


def _size(shape):
    return math.prod(shape) if shape else 1


def _forward_flops(name, inputs, result):
    """2 * multiply-adds of one counted op (None for an op that is not counted)."""
    if name not in _COUNTED or not isinstance(result, TensorBuffer):
        return None
    a, w = inputs[0], inputs[1]
    if name in ("matmul", "dense"):
        return 2 * _size(result.shape) * (a.shape[-1] if a.shape else 1)
    if name in ("conv2d", "conv3d"):
        return 2 * _size(result.shape) * _size(w.shape[1:])
    return 2 * _size(a.shape) * _size(w.shape[1:])  # transposed conv: every input element


_COUNTED = frozenset(("matmul", "dense", "conv2d", "conv3d", "conv_transpose2d",
                      "conv_transpose3d"))


class FlopCounter(Observer):
    """Counts the FLOPs of what runs between `start()` and `stop()` (a context manager too)."""

    def __init__(self):
        self.flops = 0
        self.pending = {}   # op name -> forward FLOPs not yet differentiated (last first)
        self.handle = None

    def start(self):
        self.flops = 0
        self.pending = {}
        from cellgrad import observe

        self.handle = observe.add_observer(self)
        return self

    def stop(self, phase=None):
        """Stops counting; with `phase`, records the count for `flops_collection(phase)`."""
        if self.handle is not None:
            self.handle.remove()
            self.handle = None
        if phase is not None:
            _last[phase] = self.flops
        return self.flops

    __enter__ = start

    def __exit__(self, *exc):
        self.stop()

    def op_end(self, op, inputs, attrs, result):
        f = _forward_flops(op.name, inputs, result)
        if f is not None:
            self.flops += f
            needs = sum(getattr(t, "_node", None) is not None for t in inputs[:2])
            self.pending.setdefault(op.name, []).append(f * needs)

    def backward_begin(self, op):
        stack = self.pending.get(op.name)
        if stack:
            self.flops += stack.pop()


def flops_collection(phase='train'):
    """Mirrors `mindspore.flops_collection(phase='train')`: the FLOPs of the last step counted
    for `phase` (see the module docstring)."""
    if not isinstance(phase, str):
        raise TypeError(f"For 'flops_collection', the argument 'phase' must be str, but got "
                        f"{type(phase).__name__}.")
    if phase not in _last:
        raise RuntimeError(f"For 'flops_collection', no step of phase '{phase}' has been "
                           f"counted: run a step under FlopsUtilizationCollector (or "
                           f"cellgrad.flops_count.FlopCounter) first.")
    f = _last[phase]
    return f, f, f, f, False
