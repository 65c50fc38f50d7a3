"""Loss scalers for hand-written training steps: `mindspore.amp.LossScaler`,
`StaticLossScaler`, `DynamicLossScaler` and `all_finite`.

`scale`/`unscale` multiply every Tensor of a Tensor or a (nested) tuple/list by the scale or
its reciprocal, cast to that Tensor's dtype first (MindSpore's `_grad_scale`/`_grad_unscale`:
a float16 gradient is unscaled in float16). `adjust` updates the `scale_value` and `counter`
Parameters with Tensor ops, as MindSpore's does.
"""

from abc import ABC, abstractmethod

from cellgrad._core._buffer import TensorBuffer

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.dtype import float32, int32
from cellgrad.parameter import Parameter


def _map(fn, inputs):
    """`fn` on every Tensor of `inputs` (tuples and lists keep their type, as HyperMap)."""
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_map(fn, v) for v in inputs)
    return fn(inputs)


def _check_scale_value(scale_value):
    if isinstance(scale_value, bool) or not isinstance(scale_value, (float, int)):
        raise TypeError(f"The type of 'scale_value' should be one of '['float', 'int']', but got "
                        f"type '{type(scale_value).__name__}'.")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")
    return Parameter(Tensor(scale_value, dtype=float32), name="scale_value")


def _check_positive_int(value, name):
    if isinstance(value, bool):
        raise TypeError(f"The '{name}' must be int and must > 0, but got 'True' with type 'bool'.")
    if not isinstance(value, int):
        raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"The '{name}' must be int and must > 0, but got '{value}' with type "
                         f"'int'.")
    return value


class LossScaler(ABC):
    """Mirrors `mindspore.amp.LossScaler`: what a loss scaler implements."""

    @abstractmethod
    def scale(self, inputs):
        """`inputs` (the loss or gradients) multiplied by the scale."""
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs):
        """`inputs` (the loss or gradients) divided by the scale."""
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite):
        """Update the scale after a step whose gradients were (not) all finite."""
        raise NotImplementedError


class _ScaleByParameter(LossScaler):
    """`scale`/`unscale` by the `scale_value` Parameter."""

    scale_value: Parameter

    def scale(self, inputs):
        """Mirrors `LossScaler.scale`: each Tensor times the scale (in its own dtype)."""
        value = self.scale_value
        return _map(lambda x: x * value.astype(x.dtype), inputs)

    def unscale(self, inputs):
        """Mirrors `LossScaler.unscale`: each Tensor times the reciprocal of the scale, cast to
        its dtype (an integer Tensor becomes 0, as in MindSpore)."""
        inverse = ops.reciprocal(self.scale_value)
        return _map(lambda x: x * inverse.astype(x.dtype), inputs)


class StaticLossScaler(_ScaleByParameter):
    """Mirrors `mindspore.amp.StaticLossScaler`: a fixed scale."""

    def __init__(self, scale_value):
        self.scale_value = _check_scale_value(scale_value)

    def adjust(self, grads_finite):
        """The scale is fixed: returns False."""
        return False


class DynamicLossScaler(_ScaleByParameter):
    """Mirrors `mindspore.amp.DynamicLossScaler`: the scale is multiplied by `scale_factor`
    after `scale_window` finite steps in a row (unless that overflows float32) and divided by
    it, not below 1, after a step whose gradients are not finite."""

    def __init__(self, scale_value, scale_factor, scale_window):
        self.scale_value = _check_scale_value(scale_value)
        self.scale_window = _check_positive_int(scale_window, "scale_window")
        self.scale_factor = _check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=int32), name="counter")

    def adjust(self, grads_finite):
        """Mirrors `DynamicLossScaler.adjust`; `grads_finite` is a bool Tensor (`all_finite`)."""
        if not isinstance(grads_finite, TensorBuffer):
            raise TypeError(f"For 'DynamicLossScaler.adjust', 'grads_finite' must be a bool "
                            f"Tensor (from amp.all_finite), but got "
                            f"{type(grads_finite).__name__}.")
        one = ops.ones((), self.scale_value.dtype)
        raised = self.scale_value * self.scale_factor
        at_window = self.counter == (self.scale_window - 1)
        grown = ops.select(at_window, ops.select(ops.isfinite(raised), raised, self.scale_value),
                           self.scale_value)
        shrunk = ops.maximum(one, self.scale_value / self.scale_factor)
        ops.assign(self.scale_value, ops.select(grads_finite, grown, shrunk))
        counter = ((self.counter + 1) % self.scale_window) * grads_finite.astype(int32)
        ops.assign(self.counter, counter)
        return True


def all_finite(inputs):
    """Mirrors `mindspore.amp.all_finite`: a bool scalar Tensor, True when no Tensor of the
    tuple or list `inputs` holds an inf or a NaN (integer Tensors are always finite)."""
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(f"For 'all_finite', 'inputs' must be a tuple or list of Tensors, but got "
                        f"{type(inputs).__name__}.")
    flat = []
    _map(flat.append, inputs)
    if not flat:
        raise ValueError("For 'all_finite', 'inputs' must hold at least one Tensor, but got an "
                         "empty sequence.")
    checks = []
    for x in flat:
        if not isinstance(x, TensorBuffer):
            raise TypeError(f"For 'all_finite', every element of 'inputs' must be a Tensor, but "
                            f"got {type(x).__name__}.")
        if x.dtype.kind == 2:
            checks.append(ops.isfinite(x).all())
    return ops.stack(checks).all() if checks else Tensor(True)
