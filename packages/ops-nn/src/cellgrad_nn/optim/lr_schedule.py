"""Learning-rate schedules evaluated at the optimizer's global step (`nn.ExponentialDecayLR`,
`nn.CosineDecayLR`, `nn.PolynomialDecayLR`, `nn.WarmUpLR`), and their base class."""

import math

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell


def _step(global_step):
    """The step as a float32 number (a Tensor of shape () or (1,), or a Python int)."""
    if isinstance(global_step, Tensor):
        return np.float32(global_step.asnumpy().reshape(-1)[0])
    return np.float32(global_step)


def _positive(schedule, name, value, kind=(int, float)):
    if isinstance(value, bool) or not isinstance(value, kind) or value <= 0:
        raise ValueError(f"For '{schedule}', '{name}' must be a positive "
                         f"{'int' if kind is int else 'number'}, but got {value!r}.")
    return value


class LearningRateSchedule(Cell):
    """Mirrors `mindspore.nn.LearningRateSchedule`: `construct(global_step)` returns the
    learning rate of that step as a float32 Tensor of shape ()."""

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step)")


def _lr(value):
    return Tensor(np.asarray(value, np.float32))


class ExponentialDecayLR(LearningRateSchedule):
    """Mirrors `mindspore.nn.ExponentialDecayLR`: lr * decay_rate ** (step / decay_steps)."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        self.learning_rate = _positive("ExponentialDecayLR", "learning_rate", learning_rate)
        self.decay_rate = _positive("ExponentialDecayLR", "decay_rate", decay_rate)
        self.decay_steps = _positive("ExponentialDecayLR", "decay_steps", decay_steps, int)
        self.is_stair = is_stair

    def construct(self, global_step):
        p = _step(global_step) / np.float32(self.decay_steps)
        if self.is_stair:
            p = np.floor(p)
        return _lr(np.float32(self.learning_rate) * np.float32(self.decay_rate) ** p)


class NaturalExpDecayLR(ExponentialDecayLR):
    """Mirrors `mindspore.nn.NaturalExpDecayLR`: lr * e ** (-decay_rate * step), the step
    rounded down to a multiple of decay_steps when `is_stair` (MindSpore's formula: the step
    is not divided by decay_steps)."""

    def construct(self, global_step):
        p = _step(global_step)
        if self.is_stair:
            p = np.floor(p / np.float32(self.decay_steps)) * np.float32(self.decay_steps)
        return _lr(np.float32(self.learning_rate) *
                   np.float32(math.e) ** (np.float32(-self.decay_rate) * p))


class InverseDecayLR(ExponentialDecayLR):
    """Mirrors `mindspore.nn.InverseDecayLR`: lr / (1 + decay_rate * step / decay_steps)."""

    def construct(self, global_step):
        p = _step(global_step) / np.float32(self.decay_steps)
        if self.is_stair:
            p = np.floor(p)
        return _lr(np.float32(self.learning_rate) / (1 + np.float32(self.decay_rate) * p))


class CosineDecayLR(LearningRateSchedule):
    """Mirrors `mindspore.nn.CosineDecayLR`: from max_lr down to min_lr over decay_steps."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        if not isinstance(min_lr, float) or min_lr < 0:
            raise ValueError(f"For 'CosineDecayLR', 'min_lr' must be a float >= 0, but got "
                             f"{min_lr!r}.")
        if not isinstance(max_lr, float) or max_lr <= min_lr:
            raise ValueError(f"For 'CosineDecayLR', 'max_lr' must be a float greater than "
                             f"min_lr={min_lr}, but got {max_lr!r}.")
        self.min_lr, self.max_lr = min_lr, max_lr
        self.decay_steps = _positive("CosineDecayLR", "decay_steps", decay_steps, int)

    def construct(self, global_step):
        p = min(_step(global_step), np.float32(self.decay_steps)) / np.float32(self.decay_steps)
        delta = np.float32(0.5 * (self.max_lr - self.min_lr))
        return _lr(np.float32(self.min_lr) + delta * (1 + np.cos(np.float32(math.pi) * p)))


class PolynomialDecayLR(LearningRateSchedule):
    """Mirrors `mindspore.nn.PolynomialDecayLR`:
    (lr - end) * (1 - step / decay_steps) ** power + end."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        self.learning_rate = _positive("PolynomialDecayLR", "learning_rate", learning_rate)
        self.end_learning_rate = end_learning_rate
        self.decay_steps = _positive("PolynomialDecayLR", "decay_steps", decay_steps, int)
        self.power = _positive("PolynomialDecayLR", "power", power)
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _step(global_step)
        decay_steps = np.float32(self.decay_steps)
        if self.update_decay_steps:
            decay_steps = decay_steps * max(np.ceil(step / decay_steps), np.float32(1))
        else:
            step = min(step, decay_steps)
        diff = np.float32(self.learning_rate - self.end_learning_rate)
        return _lr(diff * (np.float32(1) - step / decay_steps) ** np.float32(self.power)
                   + np.float32(self.end_learning_rate))


class WarmUpLR(LearningRateSchedule):
    """Mirrors `mindspore.nn.WarmUpLR`: lr * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _positive("WarmUpLR", "learning_rate", learning_rate)
        self.warmup_steps = _positive("WarmUpLR", "warmup_steps", warmup_steps, int)

    def construct(self, global_step):
        fraction = min(_step(global_step), np.float32(self.warmup_steps)) / \
            np.float32(self.warmup_steps)
        return _lr(np.float32(self.learning_rate) * fraction)
