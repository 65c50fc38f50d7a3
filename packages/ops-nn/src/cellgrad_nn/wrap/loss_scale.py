"""Loss scaling: `nn.TrainOneStepWithLossScaleCell` with `nn.FixedLossScaleUpdateCell` or
`nn.DynamicLossScaleUpdateCell`; a step whose gradients overflow is skipped."""

import numpy as np
from cellgrad._core._buffer import make_tensor

from cellgrad import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad.dtype import bool_, float32
from cellgrad.nn import Cell
from cellgrad_nn.wrap.cells import TrainOneStepCell, _identity, unscale, unscale_all_finite


class FixedLossScaleUpdateCell(Cell):
    """Mirrors `mindspore.nn.FixedLossScaleUpdateCell`: the scale never changes."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class DynamicLossScaleUpdateCell(Cell):
    """Mirrors `mindspore.nn.DynamicLossScaleUpdateCell`: divide the scale by `scale_factor`
    on overflow (not below 1), multiply it after `scale_window` steps without one."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        if not loss_scale_value > 0 or not scale_factor > 1 or scale_window < 1:
            raise ValueError(f"For 'DynamicLossScaleUpdateCell', loss_scale_value must be > 0, "
                             f"scale_factor > 1 and scale_window >= 1, but got "
                             f"{loss_scale_value}, {scale_factor}, {scale_window}.")
        self.loss_scale_value = loss_scale_value
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.cur_iter = Parameter(Tensor(np.array([1], np.int32)), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(np.array([0], np.int32)),
                                            name="last_overflow_iterator_step")

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        scale = loss_scale.asnumpy()
        cur = self.cur_iter.asnumpy()
        last = self.last_overflow_iter.asnumpy()
        overflow_now = bool(np.asarray(overflow.asnumpy() if isinstance(overflow, Tensor)
                                       else overflow))
        value = scale.item(0)
        new_scale = max(value / self.scale_factor, 1.0) if overflow_now else value
        should_inc = self.scale_window <= int(cur[0] - last[0])
        if overflow_now or should_inc:
            last[...] = cur
        if should_inc and not overflow_now:
            new_scale *= self.scale_factor
        scale[...] = new_scale
        cur += 1
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """Mirrors `mindspore.nn.TrainOneStepWithLossScaleCell`: returns `(loss, overflow,
    scale)`; gradients are computed for `scale * loss`, unscaled, checked for inf/nan, and the
    optimizer runs only when they are finite."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = scale_sense.get_loss_scale()
        elif isinstance(scale_sense, Tensor) and scale_sense.shape in ((), (1,)):
            value = scale_sense.asnumpy().reshape(-1)[0]
        elif isinstance(scale_sense, Tensor):
            raise ValueError(f"For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' "
                             f"must be (1,) or (), but got {scale_sense.shape}.")
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', the 'scale_sense' must be Cell "
                            f"or Tensor, but got 'scale_sense' type: {type(scale_sense)}.")
        self.scale_sense = Parameter(Tensor(np.asarray(value, np.float32)), name="scale_sense")

    def construct(self, *inputs):
        scale = self.scale_sense.asnumpy()
        factor = float(scale.reshape(-1)[0])
        # The backward runs with the scaled sensitivity, so an overflow shows up as inf/nan.
        sens = make_tensor(np.array(factor, np.float32), None, 0, float32)
        loss, grads = self._value_and_grad_sens(*inputs, sens)
        if self.grad_reducer is _identity:
            overflow = not unscale_all_finite(grads, factor)
        else:
            with np.errstate(invalid="ignore", over="ignore"):
                grads = self.grad_reducer(unscale(grads, factor))
            overflow = not all(np.isfinite(g.asnumpy()).all() for g in grads)
        cond = make_tensor(np.array(overflow), None, 0, bool_)
        if self.loss_scaling_manager is not None:
            self.loss_scaling_manager(self.scale_sense, cond)
        if not overflow:
            self.optimizer(grads)
        return loss, cond, make_tensor(scale.copy(), None, 0, float32)

    def set_sense_scale(self, sens):
        """Set the loss scale (when `scale_sense` was a Tensor)."""
        value = sens.asnumpy() if isinstance(sens, Tensor) else np.asarray(sens)
        self.scale_sense.asnumpy()[...] = value.reshape(self.scale_sense.shape)
