"""`experimental.optim.lr_scheduler`: schedulers that write each group's learning rate into
the optimizer's `lr` Parameter (MindSpore 2.10's recursive forms, PyTorch's semantics).

`step()` advances `last_epoch` and applies `get_lr()`; `step(epoch)` jumps, with the closed
form where the scheduler has one. Learning rates are float32, as MindSpore's."""

import math
from bisect import bisect_right
from collections import Counter

import numpy as np

from cellgrad import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad_nn.experimental.optimizer import Optimizer

__all__ = ["StepLR", "LinearLR", "LRScheduler", "ExponentialLR", "PolynomialLR",
           "MultiplicativeLR", "ConstantLR", "MultiStepLR", "LambdaLR", "SequentialLR",
           "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts", "CosineAnnealingLR"]


def _f(value):
    """A float from a number, a Tensor or a Parameter."""
    return float(value.asnumpy()) if isinstance(value, Tensor) else float(value)


def _set(param, value):
    param.asnumpy()[...] = np.float32(_f(value))


def _epoch_param(owner, value):
    return Parameter(Tensor(np.float32(value)), name=f"last_epoch_{owner}")


class LRScheduler:
    """Mirrors `mindspore.experimental.optim.lr_scheduler.LRScheduler`: records each group's
    `initial_lr`, holds `base_lrs`, `last_epoch` (a float32 Parameter) and steps once at
    construction."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise TypeError("The type of 'last_epoch' should be 'int', but got "
                            f"'{type(last_epoch).__name__}'.")
        if last_epoch < -1:
            raise ValueError(f"Invalid last_epoch: {last_epoch}")
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"].value())
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                   "when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.optimizer = optimizer
        self._last_lr = list(optimizer.lrs)
        self.groups_num = len(optimizer.param_groups)
        self.last_epoch = _epoch_param(self.__class__.__name__, last_epoch)
        self.step()

    @staticmethod
    def get_lr():
        """The learning rates of the current `last_epoch` (the subclass's rule)."""
        raise NotImplementedError

    def get_last_lr(self):
        """The learning rates the last step set, one Tensor per group."""
        return [lr.value() for lr in self._last_lr]

    @property
    def _epoch(self):
        return _f(self.last_epoch)

    @property
    def _lrs(self):
        return [_f(lr) for lr in self._last_lr]

    @property
    def _bases(self):
        return [_f(lr) for lr in self.base_lrs]

    def step(self, epoch=None):
        """Advances one epoch, or jumps to `epoch`."""
        if epoch is None:
            _set(self.last_epoch, self._epoch + 1)
            values = self.get_lr()
        else:
            _set(self.last_epoch, epoch)
            values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") \
                else self.get_lr()
        for i in range(self.groups_num):
            _set(self._last_lr[i], values[i])
        return True


class StepLR(LRScheduler):
    """Mirrors `lr_scheduler.StepLR`: times gamma every `step_size` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        if not isinstance(step_size, int) or isinstance(step_size, bool):
            raise TypeError(f"For 'StepLR', the 'step_size' must be int, but got "
                            f"{type(step_size)}.")
        if not isinstance(gamma, float):
            raise TypeError(f"For 'StepLR', the 'gamma' must be float, but got {type(gamma)}.")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0 or e % self.step_size != 0:
            return self._lrs
        return [lr * self.gamma for lr in self._lrs]

    def _get_closed_form_lr(self):
        return [b * self.gamma ** (self._epoch // self.step_size) for b in self._bases]


class LinearLR(LRScheduler):
    """Mirrors `lr_scheduler.LinearLR`: the factor moves linearly from start_factor to
    end_factor over total_iters epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less than or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'LinearLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * self.start_factor for lr in self._lrs]
        if e > self.total_iters:
            return self._lrs
        delta = self.end_factor - self.start_factor
        factor = 1.0 + delta / (self.total_iters * self.start_factor + (e - 1) * delta)
        return [lr * factor for lr in self._lrs]

    def _get_closed_form_lr(self):
        delta = self.end_factor - self.start_factor
        return [b * (self.start_factor + delta * min(self.total_iters, self._epoch)
                     / self.total_iters) for b in self._bases]


class ExponentialLR(LRScheduler):
    """Mirrors `lr_scheduler.ExponentialLR`: times gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        if not isinstance(gamma, float):
            raise TypeError(f"For 'ExponentialLR', the 'gamma' must be float, but got "
                            f"{type(gamma)}.")
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch == 0:
            return self._lrs
        return [lr * self.gamma for lr in self._lrs]

    def _get_closed_form_lr(self):
        return [b * self.gamma ** self._epoch for b in self._bases]


class PolynomialLR(LRScheduler):
    """Mirrors `lr_scheduler.PolynomialLR`: base_lr * (1 - t / total_iters)^power."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        if not isinstance(power, float):
            raise TypeError(f"For 'PolynomialLR', the 'power' must be float, but got "
                            f"{type(power)}.")
        if power < 0:
            raise ValueError(f"For 'PolynomialLR', the 'power' must be >= 0, but got {power}.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'PolynomialLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, n = self._epoch, self.total_iters
        if e == 0 or e > n:
            return self._lrs
        factor = ((1.0 - e / n) / (1.0 - (e - 1) / n)) ** self.power
        return [lr * factor for lr in self._lrs]

    def _get_closed_form_lr(self):
        n = self.total_iters
        return [b * (1.0 - min(n, self._epoch) / n) ** self.power for b in self._bases]


def _lambdas(owner, optimizer, lr_lambda):
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * n


class LambdaLR(LRScheduler):
    """Mirrors `lr_scheduler.LambdaLR`: base_lr * lr_lambda(epoch), one function per group
    or one for all."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas("LambdaLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        return [b * _f(fn(e)) for fn, b in zip(self.lr_lambdas, self._bases)]


class MultiplicativeLR(LRScheduler):
    """Mirrors `lr_scheduler.MultiplicativeLR`: lr * lr_lambda(epoch) every epoch after the
    first."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.lr_lambdas = _lambdas("MultiplicativeLR", optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._epoch > 0:
            e = self.last_epoch
            return [lr * _f(fn(e)) for fn, lr in zip(self.lr_lambdas, self._lrs)]
        return self._lrs


class MultiStepLR(LRScheduler):
    """Mirrors `lr_scheduler.MultiStepLR`: times gamma^k at a milestone listed k times."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        if not isinstance(milestones, list):
            raise TypeError("The type of 'milestones' should be 'list', but got "
                            f"'{type(milestones).__name__}'.")
        for milestone in milestones:
            if not isinstance(milestone, int) or isinstance(milestone, bool):
                raise TypeError("For 'MultiStepLR', elements of the 'milestones' must be type of "
                                "int, but got one element of 'milestones' type: "
                                f"{type(milestone)}.")
        if isinstance(gamma, bool) or not isinstance(gamma, (float, int)):
            raise TypeError("The type of 'gamma' should be one of ['float', 'int'], but got "
                            f"'{type(gamma).__name__}'.")
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        count = self.milestones.get(int(self._epoch), 0)
        return [lr * self.gamma ** count for lr in self._lrs]

    def _get_closed_form_lr(self):
        e = self._epoch
        return [b * self.gamma ** sum(c for m, c in self.milestones.items() if m <= e)
                for b in self._bases]


class ConstantLR(LRScheduler):
    """Mirrors `lr_scheduler.ConstantLR`: times factor until total_iters."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        if not isinstance(total_iters, int):
            raise TypeError("For 'ConstantLR', the type of total_iters must be int, but got "
                            f"{type(total_iters)}.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self._epoch
        if e == 0:
            return [lr * self.factor for lr in self._lrs]
        if e != self.total_iters:
            return self._lrs
        return [lr / self.factor for lr in self._lrs]

    def _get_closed_form_lr(self):
        done = self._epoch >= self.total_iters
        return [b * (self.factor + done * (1 - self.factor)) for b in self._bases]


class SequentialLR:
    """Mirrors `lr_scheduler.SequentialLR`: hands the epochs to one scheduler after another,
    switching at the milestones (the next scheduler restarts at epoch 0)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        for idx, scheduler in enumerate(schedulers):
            if scheduler.optimizer is not optimizer:
                raise ValueError("Sequential Schedulers expects all schedulers to belong to the "
                                 f"same optimizer, but got scheduler at index {idx} is different "
                                 "from the optimizer passed in.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be "
                             "one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones "
                             f"{len(milestones)}")
        self._schedulers = schedulers
        self.milestones = milestones
        self.milestones_len = len(milestones)
        self.last_epoch = _epoch_param("SequentialLR", last_epoch + 1)
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            _set(group["lr"], group["initial_lr"])
        for scheduler in schedulers:
            _set(scheduler.last_epoch, _f(scheduler.last_epoch) - 1)
        schedulers[0].step()
        self._last_lr = schedulers[0]._last_lr

    def step(self):
        """Advances one epoch in the scheduler the milestones select."""
        epoch = _f(self.last_epoch) + 1
        _set(self.last_epoch, epoch)
        idx = bisect_right(self.milestones, int(epoch))
        scheduler = self._schedulers[idx]
        if idx > 0 and self.milestones[idx - 1] == int(epoch):
            scheduler.step(0)
        else:
            scheduler.step()

    def get_last_lr(self):
        """The learning rates the last step set, one Tensor per group."""
        return [lr.value() for lr in self._last_lr]


class ReduceLROnPlateau:
    """Mirrors `lr_scheduler.ReduceLROnPlateau`: times factor when the metric has not improved
    (by threshold, relative or absolute) for more than patience steps, then waits cooldown
    steps; never below min_lr."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("The lr factor should be less than 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"Expected an `Optimizer`, but got type {type(optimizer).__name__}")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"Expected {n} min_lrs, got {len(min_lr)}")
            min_lrs = list(min_lr)
        else:
            min_lrs = [min_lr] * n
        if mode not in {"min", "max"}:
            raise ValueError(f"`mode` should be 'min' or 'max', but got {mode}.")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError(f"`threshold mode` should be 'rel' or 'abs', but got "
                             f"{threshold_mode}.")
        self.factor, self.optimizer, self.mode = factor, optimizer, mode
        self.min_lrs = [Tensor(np.float32(lr)) for lr in min_lrs]
        self.patience, self.threshold, self.threshold_mode = patience, threshold, threshold_mode
        self.cooldown, self.eps = cooldown, eps
        self.mode_worse = float("inf") if mode == "min" else float("-inf")
        self.last_epoch = Parameter(Tensor(np.int32(0)), name="last_epoch_ReduceLROnPlateau")
        self.best = Parameter(Tensor(np.float32(self.mode_worse)), name="best")
        self.cooldown_counter = Parameter(Tensor(np.float32(0)), name="cooldown_counter")
        self.wait = Parameter(Tensor(np.float32(0)), name="wait")
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self, metrics):
        """Takes the epoch's metric (a number or a scalar Tensor)."""
        epoch = int(_f(self.last_epoch)) + 1
        current = float(np.float32(_f(metrics)))
        _set(self.last_epoch, epoch)
        if self._is_improvement(current, _f(self.best)):
            _set(self.best, current)
            _set(self.wait, 0)
        else:
            _set(self.wait, _f(self.wait) + 1)
        if self.in_cooldown():
            _set(self.cooldown_counter, _f(self.cooldown_counter) - 1)
            _set(self.wait, 0)
        if _f(self.wait) > self.patience:
            self._reduce_lr(epoch)
            _set(self.cooldown_counter, self.cooldown)
            _set(self.wait, 0)
        return True

    def _reduce_lr(self, epoch):
        for lr, low in zip(self._last_lr, self.min_lrs):
            old = np.float32(_f(lr))
            new = max(np.float32(old * np.float32(self.factor)), np.float32(_f(low)))
            if old > new + self.eps:
                _set(lr, new)
        return True

    def in_cooldown(self):
        """Whether the scheduler is waiting out its cooldown."""
        return _f(self.cooldown_counter) > 0

    def _is_improvement(self, current, best):
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < best * (1.0 - self.threshold)
        if self.mode == "min":
            return current < best - self.threshold
        if self.threshold_mode == "rel":
            return current > best * (self.threshold + 1.0)
        return current > best + self.threshold

    def get_last_lr(self):
        """The groups' current learning rates, one Tensor per group."""
        return [lr.value() for lr in self._last_lr]


class CyclicLR(LRScheduler):
    """Mirrors `lr_scheduler.CyclicLR`: cycles between base_lr and max_lr (triangular,
    triangular2, exp_range or a custom scale_fn)."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1):
        base_lrs = self._preprocess_input_param(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _set(group["lr"], lr)
        self.max_lrs = [Tensor(np.float32(_f(lr)))
                        for lr in self._preprocess_input_param(optimizer, max_lr, "max_lr")]
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_step_size = step_size_up + step_size_down
        self.step_up_ratio = step_size_up / self.total_step_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_ref = None
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        super().__init__(optimizer, last_epoch)
        self.base_lrs = [Tensor(np.float32(_f(lr))) for lr in base_lrs]

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        self._scale_fn_ref, self.scale_mode = {
            "triangular": (self._triangular_scale_fn, "cycle"),
            "triangular2": (self._triangular2_scale_fn, "cycle"),
            "exp_range": (self._exp_range_scale_fn, "iterations")}[self.mode]

    @staticmethod
    def _preprocess_input_param(optimizer, param, name):
        n = len(optimizer.param_groups)
        if isinstance(param, (list, tuple)):
            if len(param) != n:
                raise ValueError(f"Expected {n} values for {name}, got {len(param)}")
            return param
        return [param] * n

    def scale_fn(self, x):
        """The amplitude's scale at cycle (or iteration) x."""
        if self._scale_fn_custom is None:
            return self._scale_fn_ref(x)
        return self._scale_fn_custom(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    def _exp_range_scale_fn(self, x):
        return self.gamma ** x

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    def get_lr(self):
        e = self._epoch
        cycle = math.floor(1 + e / self.total_step_size)
        x = 1.0 + e / self.total_step_size - cycle
        if x <= self.step_up_ratio:
            scale_factor = x / self.step_up_ratio
        else:
            scale_factor = (x - 1) / (self.step_up_ratio - 1)
        scale = _f(self.scale_fn(float(cycle) if self.scale_mode == "cycle" else e))
        return [b + (_f(m) - b) * scale_factor * scale
                for b, m in zip(self._bases, self.max_lrs)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Mirrors `lr_scheduler.CosineAnnealingWarmRestarts`: cosine annealing from base_lr to
    eta_min over T_i epochs, restarting with T_i *= T_mult."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1):  # noqa: N803
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"T_0 should be an integer and equal or greater than 0, but got "
                             f"{T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"T_mult should be an integer and equal or greater than 1, but got "
                             f"{T_mult}")
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise TypeError("The type of 'eta_min' should be one of ['float', 'int'], but got "
                            f"'{type(eta_min).__name__}'.")
        self.T_0 = Parameter(Tensor(np.float32(T_0)), name="T_0")
        self.T_i = Parameter(Tensor(np.float32(T_0)), name="T_i")
        self.T_mult = T_mult
        self.eta_min = Tensor(eta_min)
        self.T_cur = Parameter(Tensor(np.float32(last_epoch)), name="T_cur")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        pct = np.float32(math.pi * _f(self.T_cur) / _f(self.T_i))
        low = _f(self.eta_min)
        return [low + (b - low) * (1 + math.cos(pct)) / 2 for b in self._bases]

    def step(self, epoch=None):
        """Advances one epoch, or jumps to `epoch` (fractional epochs allowed)."""
        if epoch is None and self._epoch < 0:
            epoch = 0
        t_0, t_i, t_cur = _f(self.T_0), _f(self.T_i), _f(self.T_cur)
        if epoch is None:
            epoch = self._epoch + 1
            t_cur += 1
            if t_cur >= t_i:
                t_cur, t_i = t_cur - t_i, t_i * self.T_mult
        else:
            epoch = _f(epoch)
            if epoch < 0:
                raise ValueError(f"epoch should be a non-negative integer, but got {epoch}")
            if epoch >= t_0:
                if self.T_mult == 1:
                    t_cur = epoch % t_0
                else:
                    n = int(math.log(epoch / t_0 * (self.T_mult - 1) + 1, self.T_mult))
                    t_cur = epoch - t_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    t_i = t_0 * self.T_mult ** n
            else:
                t_i, t_cur = t_0, epoch
        _set(self.T_i, t_i)
        _set(self.T_cur, t_cur)
        _set(self.last_epoch, math.floor(epoch))
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            _set(group["lr"], lr)


class CosineAnnealingLR(LRScheduler):
    """Mirrors `lr_scheduler.CosineAnnealingLR`: eta_min + (base_lr - eta_min) *
    (1 + cos(pi * t / T_max)) / 2, in its recursive form."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):  # noqa: N803
        if isinstance(eta_min, bool) or not isinstance(eta_min, (float, int)):
            raise TypeError("For 'CosineAnnealingLR', the 'eta_min' must be float or int, but "
                            f"got {type(eta_min)}.")
        if not isinstance(T_max, int) or isinstance(T_max, bool):
            raise TypeError(f"For 'CosineAnnealingLR', the 'T_max' must be int, but got "
                            f"{type(T_max)}.")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, n, low = self._epoch, self.T_max, self.eta_min
        if e == 0:
            return self._lrs
        if (e - 1 - n) % (2 * n) == 0:
            half = (1 - math.cos(np.float32(math.pi / n))) / 2
            return [lr + (b - low) * half for b, lr in zip(self._bases, self._lrs)]
        ratio = (1 + math.cos(math.pi * e / n)) / (1 + math.cos(math.pi * (e - 1) / n))
        return [ratio * (lr - low) + low for lr in self._lrs]

    def _get_closed_form_lr(self):
        e, n, low = self._epoch, self.T_max, self.eta_min
        return [low + (b - low) * (1 + math.cos(math.pi * e / n)) / 2 for b in self._bases]
