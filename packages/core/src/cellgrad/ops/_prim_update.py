"""Optimizer-update Primitives of `mindspore.ops` (ApplyMomentum ... SparseApplyRMSProp, SGD,
Adam): each writes its Parameters (the variable and its slots) in place by the rule below and
returns the updated values, as MindSpore documents them.

The rules compute in the variable's dtype (Float32 for a Float64 variable where MindSpore's CPU
kernel has no Float64 version: ApplyAdagradV2, ApplyAdadelta, ApplyAdaMax, ApplyPowerSign,
ApplyProximalGradientDescent). Scalars may be Python numbers, numpy scalars or
Tensors. Numbers are recorded from MindSpore 2.10 (tests/core/ms_programs/apply_prims.py).
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register


class _Update(Primitive):
    """`__call__(*args)` named by `_args`; `_rule` returns the new values of `_slots` (a
    dict); the updated `_returns` come back as Tensors."""

    _args: tuple = ()
    _slots: tuple = ()
    _returns: tuple = ()
    _sparse = False
    # MindSpore 2.10's CPU kernel has no Float64 version: a Float64 variable is updated in
    # Float32 (the results rounded to it), as MindSpore's kernel selection casts it
    _float32_kernel = False

    def __call__(self, *args):
        if len(args) != len(self._args):
            raise TypeError(f"For '{self.name}', expected {len(self._args)} inputs "
                            f"({', '.join(self._args)}), but got {len(args)}.")
        named = dict(zip(self._args, args))
        var = named[self._args[0]]
        for slot in self._slots:
            C.tensor(self.name, slot, named[slot])
            if tuple(named[slot].shape) != tuple(var.shape):
                raise ValueError(f"For '{self.name}', the shape of '{slot}' must be the shape of "
                                 f"'{self._args[0]}' {tuple(var.shape)}, but got "
                                 f"{tuple(named[slot].shape)}.")
        dt = var._data.dtype
        if self._float32_kernel and dt == np.float64:
            dt = np.dtype(np.float32)
        arrays = {k: (v._data if isinstance(v, TensorBuffer) else np.asarray(v)) for k, v in
                  named.items()}
        arrays = {k: (a if k == "indices" or a.dtype.kind in "iub" and k == "global_step"
                      else a.astype(dt, copy=False)) for k, a in arrays.items()}
        if self._sparse:
            new = self._sparse_update(arrays)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                new = self._rule(**arrays)
        for slot, value in new.items():
            named[slot]._data[...] = value
        return tuple(make_tensor(named[r]._data.copy(), None, 0, named[r].dtype)
                     for r in self._returns) if len(self._returns) > 1 else \
            make_tensor(var._data.copy(), None, 0, var.dtype)

    def _sparse_update(self, a):
        """Rows `indices` of the slots updated with their gradient rows (repeats summed)."""
        idx = a.pop("indices").astype(np.int64).reshape(-1)
        n = a[self._args[0]].shape[0]
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise ValueError(f"For '{self.name}', the indices must be in [0, {n}), but got values "
                             f"in [{idx.min()}, {idx.max()}].")
        rows, where = np.unique(idx, return_inverse=True)
        grad = np.zeros((rows.size,) + a["grad"].shape[1:], a["grad"].dtype)
        np.add.at(grad, where, a["grad"])
        sub = {k: (v[rows] if k in self._slots else v) for k, v in a.items()}
        sub["grad"] = grad
        with np.errstate(divide="ignore", invalid="ignore"):
            new_rows = self._rule(**sub)
        out = {}
        for slot, value in new_rows.items():
            full = a[slot].copy()
            full[rows] = value
            out[slot] = full
        return out


def _fma(a, b, c):
    """a * b + c rounded once (a fused multiply-add, as MindSpore's vectorised kernels)."""
    if a.dtype == np.float64:
        return a * b + c
    return (a.astype(np.float64) * b.astype(np.float64) + c).astype(a.dtype)


def _prox(prox, lr, l1, l2):
    return np.sign(prox) / (1 + lr * l2) * np.maximum(np.abs(prox) - lr * l1, 0)


def _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=0, cpu_sign=False):
    shrunk = grad + 2 * l2_shrinkage * var
    new_accum = accum + grad * grad
    sigma = (new_accum ** -lr_power - accum ** -lr_power) / lr
    linear = linear + shrunk - sigma * var
    quadratic = new_accum ** -lr_power / lr + 2 * l2
    # MindSpore 2.10's ApplyFtrl CPU kernel shrinks by +l1 whatever the sign of `linear`
    shrink = l1 if cpu_sign else np.sign(linear) * l1
    var = np.where(np.abs(linear) > l1, (shrink - linear) / quadratic, 0)
    return {"var": var, "accum": new_accum, "linear": linear}


class ApplyMomentum(_Update):
    """Mirrors `mindspore.ops.ApplyMomentum(use_nesterov=False, use_locking=False,
    gradient_scale=1.0)(variable, accumulation, learning_rate, gradient, momentum)`:
    `accum = momentum * accum + grad; var -= lr * accum` (MindSpore 2.10's CPU kernel applies
    no Nesterov step even with `use_nesterov`; neither does cellgrad)."""

    _args = ("variable", "accumulation", "learning_rate", "gradient", "momentum")
    _slots = ("variable", "accumulation")
    _returns = ("variable",)

    @prim_attr_register
    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        C.boolean("ApplyMomentum", "use_nesterov", use_nesterov)
        self.add_prim_attr("side_effect_mem", True)

    def _rule(self, variable, accumulation, learning_rate, gradient, momentum):
        accum = momentum * accumulation + gradient
        return {"variable": variable - learning_rate * accum, "accumulation": accum}


class ApplyGradientDescent(_Update):
    """Mirrors `mindspore.ops.ApplyGradientDescent()(var, alpha, delta)`: `var -= alpha *
    delta`."""

    _args, _slots, _returns = ("var", "alpha", "delta"), ("var",), ("var",)

    def _rule(self, var, alpha, delta):
        return {"var": var - alpha * delta}


class ApplyAdagrad(_Update):
    """Mirrors `mindspore.ops.ApplyAdagrad(update_slots=True)(var, accum, lr, grad)`:
    `accum += grad^2; var -= lr * grad / sqrt(accum)` (the CPU kernel updates `accum` even with
    `update_slots=False`, as here)."""

    _args, _slots, _returns = ("var", "accum", "lr", "grad"), ("var", "accum"), ("var", "accum")

    @prim_attr_register
    def __init__(self, update_slots=True):
        C.boolean("ApplyAdagrad", "update_slots", update_slots)

    def _rule(self, var, accum, lr, grad):
        accum = accum + grad * grad
        return {"var": var - lr * grad / np.sqrt(accum), "accum": accum}


class ApplyAdagradV2(_Update):
    """Mirrors `mindspore.ops.ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr,
    grad)`: `var -= lr * grad / (sqrt(accum) + epsilon)`."""

    _float32_kernel = True

    _args, _slots, _returns = ("var", "accum", "lr", "grad"), ("var", "accum"), ("var", "accum")

    @prim_attr_register
    def __init__(self, epsilon, update_slots=True):
        C.boolean("ApplyAdagradV2", "update_slots", update_slots)

    def _rule(self, var, accum, lr, grad):
        accum = accum + grad * grad
        return {"var": var - lr * grad / (np.sqrt(accum) + self.epsilon), "accum": accum}


class ApplyAdagradDA(_Update):
    """Mirrors `mindspore.ops.ApplyAdagradDA(use_locking=False)(var, gradient_accumulator,
    gradient_squared_accumulator, grad, lr, l1, l2, global_step)`: dual averaging."""

    _args = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1",
             "l2", "global_step")
    _slots = ("var", "gradient_accumulator", "gradient_squared_accumulator")
    _returns = ("var",)

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
              global_step):
        ga = gradient_accumulator + grad
        gsa = gradient_squared_accumulator + grad * grad
        step = global_step.astype(var.dtype)
        # MindSpore 2.10's CPU kernel shrinks by -l1 * step whatever the sign of `ga`
        tmp = np.where(np.abs(ga) > l1 * step, ga - l1 * step, 0) if l1 > 0 else ga
        new = -lr * tmp / (l2 * step * lr + np.sqrt(gsa))
        return {"var": new, "gradient_accumulator": ga, "gradient_squared_accumulator": gsa}


class ApplyAdadelta(_Update):
    """Mirrors `mindspore.ops.ApplyAdadelta()(var, accum, accum_update, lr, rho, epsilon,
    grad)`."""

    _float32_kernel = True

    _args = ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad")
    _slots = _returns = ("var", "accum", "accum_update")

    def _rule(self, var, accum, accum_update, lr, rho, epsilon, grad):
        accum = rho * accum + (1 - rho) * grad * grad
        update = np.sqrt(accum_update + epsilon) * grad / np.sqrt(accum + epsilon)
        accum_update = rho * accum_update + (1 - rho) * update * update
        return {"var": var - lr * update, "accum": accum, "accum_update": accum_update}


class ApplyAdaMax(_Update):
    """Mirrors `mindspore.ops.ApplyAdaMax()(var, m, v, beta1_power, lr, beta1, beta2, epsilon,
    grad)`."""

    _float32_kernel = True

    _args = ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _slots = _returns = ("var", "m", "v")

    def _rule(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        m = beta1 * m + (1 - beta1) * grad
        v = np.maximum(beta2 * v, np.abs(grad))
        return {"var": var - lr / (1 - beta1_power) * m / (v + epsilon), "m": m, "v": v}


class ApplyAddSign(_Update):
    """Mirrors `mindspore.ops.ApplyAddSign()(var, m, lr, alpha, sign_decay, beta, grad)`."""

    _args = ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad")
    _slots = _returns = ("var", "m")

    def _rule(self, var, m, lr, alpha, sign_decay, beta, grad):
        m = beta * m + (1 - beta) * grad
        update = (alpha + sign_decay * np.sign(grad) * np.sign(m)) * grad
        return {"var": var - lr * update, "m": m}


class ApplyPowerSign(_Update):
    """Mirrors `mindspore.ops.ApplyPowerSign()(var, m, lr, logbase, sign_decay, beta, grad)`."""

    _float32_kernel = True

    _args = ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad")
    _slots = _returns = ("var", "m")

    def _rule(self, var, m, lr, logbase, sign_decay, beta, grad):
        m = beta * m + (1 - beta) * grad
        update = np.exp(logbase * sign_decay * np.sign(grad) * np.sign(m)) * grad
        return {"var": var - lr * update, "m": m}


class ApplyRMSProp(_Update):
    """Mirrors `mindspore.ops.ApplyRMSProp(use_locking=False)(var, mean_square, moment,
    learning_rate, grad, decay, momentum, epsilon)`; returns the new `var` (MindSpore 2.10's
    CPU kernel returns zeros while updating the Parameters)."""

    _args = ("var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum",
             "epsilon")
    _slots = ("var", "mean_square", "moment")
    _returns = ("var",)

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):
        ms = decay * mean_square + (1 - decay) * grad * grad
        moment = momentum * moment + learning_rate * grad / np.sqrt(ms + epsilon)
        return {"var": var - moment, "mean_square": ms, "moment": moment}


class ApplyCenteredRMSProp(_Update):
    """Mirrors `mindspore.ops.ApplyCenteredRMSProp(use_locking=False)(var, mean_gradient,
    mean_square, moment, grad, learning_rate, decay, momentum, epsilon)`; returns the new
    `var` (MindSpore 2.10's CPU kernel returns zeros)."""

    _args = ("var", "mean_gradient", "mean_square", "moment", "grad", "learning_rate", "decay",
             "momentum", "epsilon")
    _slots = ("var", "mean_gradient", "mean_square", "moment")
    _returns = ("var",)

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay,
              momentum, epsilon):
        mg = decay * mean_gradient + (1 - decay) * grad
        ms = decay * mean_square + (1 - decay) * grad * grad
        moment = momentum * moment + learning_rate * grad / np.sqrt(ms - mg * mg + epsilon)
        return {"var": var - moment, "mean_gradient": mg, "mean_square": ms, "moment": moment}


class ApplyFtrl(_Update):
    """Mirrors `mindspore.ops.ApplyFtrl(use_locking=False)(var, accum, linear, grad, lr, l1,
    l2, lr_power)`: FTRL-proximal."""

    _args = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power")
    _slots = ("var", "accum", "linear")
    _returns = ("var",)

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        return _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, cpu_sign=True)


class ApplyProximalAdagrad(_Update):
    """Mirrors `mindspore.ops.ApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1, l2,
    grad)`."""

    _args = ("var", "accum", "lr", "l1", "l2", "grad")
    _slots = _returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, accum, lr, l1, l2, grad):
        accum = accum + grad * grad
        rate = lr / np.sqrt(accum)
        return {"var": _prox(var - rate * grad, rate, l1, l2), "accum": accum}


class ApplyProximalGradientDescent(_Update):
    """Mirrors `mindspore.ops.ApplyProximalGradientDescent()(var, alpha, l1, l2, delta)`."""

    _float32_kernel = True

    _args, _slots, _returns = ("var", "alpha", "l1", "l2", "delta"), ("var",), ("var",)

    def _rule(self, var, alpha, l1, l2, delta):
        return {"var": _prox(var - alpha * delta, alpha, l1, l2)}


class ApplyKerasMomentum(_Update):
    """Mirrors `mindspore.ops.ApplyKerasMomentum(use_locking=False, use_nesterov=False)(var,
    accum, lr, grad, momentum)`: `accum = momentum * accum - lr * grad; var += accum` (no CPU
    kernel in MindSpore 2.10)."""

    _args = ("var", "accum", "lr", "grad", "momentum")
    _slots = _returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        C.boolean("ApplyKerasMomentum", "use_nesterov", use_nesterov)

    def _rule(self, var, accum, lr, grad, momentum):
        accum = momentum * accum - lr * grad
        step = momentum * accum - lr * grad if self.use_nesterov else accum
        return {"var": var + step, "accum": accum}


def _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    vhat = np.maximum(vhat, v)
    rate = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
    return {"var": var - rate * m / (np.sqrt(vhat) + epsilon), "m": m, "v": v, "vhat": vhat}


class ApplyAdamWithAmsgrad(_Update):
    """Mirrors `mindspore.ops.ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.999, epsilon=1e-8,
    use_locking=False)(var, m, v, vhat, beta1_power, beta2_power, lr, grad)`."""

    _args = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad")
    _slots = _returns = ("var", "m", "v", "vhat")

    @prim_attr_register
    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        pass

    def _rule(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, self.beta1, self.beta2,
                        self.epsilon, grad)


class ApplyAdamWithAmsgradV2(_Update):
    """Mirrors `mindspore.ops.ApplyAdamWithAmsgradV2(use_locking=False)(var, m, v, vhat,
    beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)`."""

    _args = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
             "epsilon", "grad")
    _slots = _returns = ("var", "m", "v", "vhat")

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, **a):
        return _amsgrad(**a)


class SGD(_Update):
    """Mirrors `mindspore.ops.SGD(dampening=0.0, weight_decay=0.0, nesterov=False)(parameters,
    gradient, learning_rate, accum, momentum, stat)`: on the first step (`stat` > 0) `accum`
    starts at the gradient; `stat` is then 0."""

    _args = ("parameters", "gradient", "learning_rate", "accum", "momentum", "stat")
    _slots = ("parameters", "accum", "stat")
    _returns = ("parameters",)

    @prim_attr_register
    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        if nesterov and dampening != 0:
            raise ValueError(f"For 'SGD', the 'dampening' must be 0 when 'nesterov' is True, but "
                             f"got {dampening}.")

    def _rule(self, parameters, gradient, learning_rate, accum, momentum, stat):
        grad = gradient + self.weight_decay * parameters
        if momentum > 0:
            accum = np.where(stat > 0, grad, momentum * accum + (1 - self.dampening) * grad)
            step = grad + momentum * accum if self.nesterov else accum
        else:
            step = grad
        return {"parameters": parameters - learning_rate * step, "accum": accum,
                "stat": np.zeros_like(stat)}


class Adam(_Update):
    """Mirrors `mindspore.ops.Adam(use_locking=False, use_nesterov=False)(var, m, v,
    beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)`: returns (var, m, v)
    (MindSpore 2.10's CPU kernel returns zeros while updating the Parameters)."""

    _args = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
             "gradient")
    _slots = _returns = ("var", "m", "v")

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        C.boolean("Adam", "use_nesterov", use_nesterov)

    def _rule(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        # MindSpore's kernel: m += (g - m)(1 - beta1) as one fused multiply-add
        m = _fma(gradient - m, 1 - beta1, m)
        v = _fma(_fma(gradient, gradient, -v), 1 - beta2, v)
        rate = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
        step = _fma(1 - beta1, gradient, m * beta1) if self.use_nesterov else m
        return {"var": var - rate * step / (np.sqrt(v) + epsilon), "m": m, "v": v}


# ---- sparse: the rows `indices` only ----
class SparseApplyAdagrad(_Update):
    """Mirrors `mindspore.ops.SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var,
    accum, grad, indices)`."""

    _args = ("var", "accum", "grad", "indices")
    _slots = _returns = ("var", "accum")
    _sparse = True

    @prim_attr_register
    def __init__(self, lr, update_slots=True, use_locking=False):
        pass

    def _rule(self, var, accum, grad):
        accum = accum + grad * grad
        return {"var": var - self.lr * grad / np.sqrt(accum), "accum": accum}


class SparseApplyAdagradV2(_Update):
    """Mirrors `mindspore.ops.SparseApplyAdagradV2(lr, epsilon, use_locking=False,
    update_slots=True)(var, accum, grad, indices)`."""

    _args = ("var", "accum", "grad", "indices")
    _slots = _returns = ("var", "accum")
    _sparse = True

    @prim_attr_register
    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        pass

    def _rule(self, var, accum, grad):
        accum = accum + grad * grad
        return {"var": var - self.lr * grad / (np.sqrt(accum) + self.epsilon), "accum": accum}


class SparseApplyFtrl(_Update):
    """Mirrors `mindspore.ops.SparseApplyFtrl(lr, l1, l2, lr_power, use_locking=False)(var,
    accum, linear, grad, indices)`."""

    _args = ("var", "accum", "linear", "grad", "indices")
    _slots = _returns = ("var", "accum", "linear")
    _sparse = True

    @prim_attr_register
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        pass

    def _rule(self, var, accum, linear, grad):
        return _ftrl(var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power)


class SparseApplyFtrlV2(_Update):
    """Mirrors `mindspore.ops.SparseApplyFtrlV2(lr, l1, l2, l2_shrinkage, lr_power,
    use_locking=False)(var, accum, linear, grad, indices)` (no CPU kernel in MindSpore 2.10)."""

    _args = ("var", "accum", "linear", "grad", "indices")
    _slots = _returns = ("var", "accum", "linear")
    _sparse = True

    @prim_attr_register
    def __init__(self, lr, l1, l2, l2_shrinkage, lr_power, use_locking=False):
        pass

    def _rule(self, var, accum, linear, grad):
        return _ftrl(var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power,
                     self.l2_shrinkage)


class SparseApplyProximalAdagrad(_Update):
    """Mirrors `mindspore.ops.SparseApplyProximalAdagrad(use_locking=False)(var, accum, lr, l1,
    l2, grad, indices)` (no CPU kernel in MindSpore 2.10)."""

    _args = ("var", "accum", "lr", "l1", "l2", "grad", "indices")
    _slots = _returns = ("var", "accum")
    _sparse = True

    @prim_attr_register
    def __init__(self, use_locking=False):
        pass

    def _rule(self, var, accum, lr, l1, l2, grad):
        accum = accum + grad * grad
        rate = lr / np.sqrt(accum)
        return {"var": _prox(var - rate * grad, rate, l1, l2), "accum": accum}


class SparseApplyRMSProp(_Update):
    """Mirrors `mindspore.ops.SparseApplyRMSProp(rho, momentum, epsilon, use_locking=False)(var,
    ms, mom, lr, grad, indices)`."""

    _args = ("var", "ms", "mom", "lr", "grad", "indices")
    _slots = _returns = ("var", "ms", "mom")
    _sparse = True

    @prim_attr_register
    def __init__(self, rho, momentum, epsilon, use_locking=False):
        pass

    def _rule(self, var, ms, mom, lr, grad):
        ms = self.rho * ms + (1 - self.rho) * grad * grad
        mom = self.momentum * mom + lr * grad / np.sqrt(ms + self.epsilon)
        return {"var": var - mom, "ms": ms, "mom": mom}


class SparseApplyAdadelta(_Update):
    """Mirrors `mindspore.ops.SparseApplyAdadelta(epsilon, use_locking=False)(var, accum,
    accum_update, lr, rho, grad, indices)` (no CPU kernel in MindSpore 2.10)."""

    _args = ("var", "accum", "accum_update", "lr", "rho", "grad", "indices")
    _slots = _returns = ("var", "accum", "accum_update")
    _sparse = True

    @prim_attr_register
    def __init__(self, epsilon, use_locking=False):
        pass

    def _rule(self, var, accum, accum_update, lr, rho, grad):
        return ApplyAdadelta._rule(self, var, accum, accum_update, lr, rho, self.epsilon, grad)


__all__ = [
    "ApplyMomentum", "ApplyGradientDescent", "ApplyAdagrad", "ApplyAdagradV2", "ApplyAdagradDA",
    "ApplyAdadelta", "ApplyAdaMax", "ApplyAddSign", "ApplyPowerSign", "ApplyRMSProp",
    "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyProximalAdagrad", "ApplyProximalGradientDescent",
    "ApplyKerasMomentum", "ApplyAdamWithAmsgrad", "ApplyAdamWithAmsgradV2", "SGD", "Adam",
    "SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyFtrl", "SparseApplyFtrlV2",
    "SparseApplyProximalAdagrad", "SparseApplyRMSProp", "SparseApplyAdadelta",
]
