"""Learning-rate lists, one value per step (`nn.piecewise_constant_lr`, `nn.warmup_lr`, ...)."""

import math


def _check(name, total_step, step_per_epoch, epochs, epochs_name):
    for arg, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                       (epochs_name, epochs)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"For '{name}', '{arg}' must be a positive int, but got {value!r}.")


def piecewise_constant_lr(milestone, learning_rates):
    """Mirrors `mindspore.nn.piecewise_constant_lr`: learning_rates[t] for steps in
    [milestone[t-1], milestone[t])."""
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with "
                         f"the size of 'learning_rates', but got 'milestone' size: "
                         f"{len(milestone)}, 'learning_rates' size: {len(learning_rates)}.")
    lr, last = [], 0
    for i, item in enumerate(milestone):
        if isinstance(item, bool) or not isinstance(item, int) or item <= last:
            raise ValueError(f"For 'piecewise_constant_lr', milestone must be increasing positive "
                             f"ints, but got milestone[{i}]: {item!r} after {last}.")
        lr += [learning_rates[i]] * (item - last)
        last = item
    return lr


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """Mirrors `mindspore.nn.exponential_decay_lr`: lr * decay_rate ** (epoch / decay_epoch)."""
    _check("exponential_decay_lr", total_step, step_per_epoch, decay_epoch, "decay_epoch")
    lr = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        lr.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return lr


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """Mirrors `mindspore.nn.natural_exp_decay_lr`: lr * e ** (-decay_rate * epoch), the epoch
    rounded down to a multiple of decay_epoch when `is_stair` (MindSpore's formula)."""
    _check("natural_exp_decay_lr", total_step, step_per_epoch, decay_epoch, "decay_epoch")
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        lr.append(learning_rate * math.e ** (-decay_rate * epoch))
    return lr


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False):
    """Mirrors `mindspore.nn.inverse_decay_lr`: lr / (1 + decay_rate * epoch / decay_epoch)."""
    _check("inverse_decay_lr", total_step, step_per_epoch, decay_epoch, "decay_epoch")
    lr = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        lr.append(learning_rate / (1 + decay_rate * (math.floor(p) if is_stair else p)))
    return lr


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """Mirrors `mindspore.nn.cosine_decay_lr`: from max_lr to min_lr over decay_epoch epochs."""
    if not isinstance(min_lr, float):
        raise TypeError(f"For 'cosine_decay_lr', the argument 'min_lr' must be type of float, "
                        f"but got 'min_lr' type: {type(min_lr)}.")
    _check("cosine_decay_lr", total_step, step_per_epoch, decay_epoch, "decay_epoch")
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the "
                         f"'min_lr', but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    lr = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        lr.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return lr


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch,
                        power, update_decay_epoch=False):
    """Mirrors `mindspore.nn.polynomial_decay_lr`."""
    _check("polynomial_decay_lr", total_step, step_per_epoch, decay_epoch, "decay_epoch")
    delta = learning_rate - end_learning_rate
    lr = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            span = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            span, epoch = decay_epoch, min(epoch, decay_epoch)
        lr.append(delta * (1 - epoch / span) ** power + end_learning_rate)
    return lr


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """Mirrors `mindspore.nn.warmup_lr`: lr * min(epoch, warmup_epoch) / warmup_epoch."""
    _check("warmup_lr", total_step, step_per_epoch, warmup_epoch, "warmup_epoch")
    return [learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch) / warmup_epoch
            for i in range(total_step)]
