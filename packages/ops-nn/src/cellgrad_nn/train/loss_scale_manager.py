"""Loss-scale managers (`mindspore.train.FixedLossScaleManager`, `DynamicLossScaleManager`):
what `Model(..., loss_scale_manager=...)` builds its loss-scaled train step from."""

from cellgrad_nn.wrap.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell


class LossScaleManager:
    """Mirrors `mindspore.train.LossScaleManager`: the interface a manager implements."""

    def get_loss_scale(self):
        """The current loss scale."""

    def update_loss_scale(self, overflow):
        """Update the scale after a step that did (`overflow`) or did not overflow."""

    def get_update_cell(self):
        """The Cell `TrainOneStepWithLossScaleCell` calls to update the scale, or None."""


class FixedLossScaleManager(LossScaleManager):
    """Mirrors `mindspore.train.FixedLossScaleManager`: a constant scale; with
    `drop_overflow_update` a step whose gradients overflow is skipped."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError(f"The argument 'loss_scale' must be >= 1, but got {loss_scale}")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        """Whether a step whose gradients overflow is skipped."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to update."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """Mirrors `mindspore.train.DynamicLossScaleManager`: divide the scale by `scale_factor`
    on overflow (not below 1), multiply it after `scale_window` steps without one."""

    bad_step_max = 1000

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError(f"The argument 'init_loss_scale' must be > 1, but got "
                             f"{init_loss_scale}")
        if isinstance(scale_window, bool) or not isinstance(scale_window, int) \
                or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', the 'scale_window' must be int and "
                             f"must > 0, but got '{scale_window}' with type "
                             f"'{type(scale_window).__name__}'.")
        if scale_factor <= 0:
            raise ValueError(f"The argument 'scale_factor' must be > 0, but got {scale_factor}")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError("Dynamic loss scale Continuous overflow ", self.bad_step,
                               " times, has exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        """Always True: an overflowing step is skipped."""
        return True

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
