"""Fused optimizer-update Primitives of `mindspore.ops` (FusedSparseAdam ... LARSUpdate): each
writes its Parameters in place like the `Apply*` Primitives of `_prim_update`.

Sparse ones merge repeated `indices` (their gradient rows summed) as MindSpore's CPU kernels do.
The outputs MindSpore calls "useless" (its kernels return zeros or scratch there) are the
updated values here. Numbers are recorded from MindSpore 2.10's CPU kernels
(tests/core/ms_programs/fused_optim_s9.py); FusedWeightScaleApplyMomentum and LARSUpdate have
no CPU kernel there and follow its GPU/Ascend kernels' formulas.
"""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._prim_update import _ftrl, _prox, _Update
from cellgrad.ops.primitive import Primitive, prim_attr_register


def _is(op, name, value, kinds, what):
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        raise TypeError(f"For '{op}', the type of '{name}' should be '{what}', but got type "
                        f"'{type(value).__name__}'.")
    return value


def _bools(op, **values):
    for name, value in values.items():
        _is(op, name, value, (bool,), "bool")


def _float(op, name, value, low=None, strict=False):
    _is(op, name, value, (float,), "float")
    if low is not None and (value <= low if strict else value < low):
        raise ValueError(f"For '{op}', the '{name}' must be float and must "
                         f"{'>' if strict else '>='} {low}, but got '{value}' with type 'float'.")
    return value


def _array(value, dtype):
    data = value._data if isinstance(value, TensorBuffer) else np.asarray(value)
    return data.astype(dtype, copy=False)


def _adam_rate(lr, beta1_power, beta2_power):
    return lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)


class FusedSparseAdam(_Update):
    """Mirrors `mindspore.ops.FusedSparseAdam(use_locking=False, use_nesterov=False)(var, m, v,
    beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices)`: Adam on every row,
    the rows not in `indices` with a zero gradient (their moments decay; with `use_nesterov`
    their values stay, as in MindSpore's CPU kernel)."""

    _args = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
             "grad", "indices")
    _slots = _returns = ("var", "m", "v")
    _sparse = True

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.add_prim_attr("side_effect_mem", True)

    def _sparse_update(self, a):
        idx = a.pop("indices").astype(np.int64).reshape(-1)
        var = a["var"]
        _check_rows(self.name, idx, var.shape[0])
        grad = np.zeros_like(var)
        np.add.at(grad, idx, a["grad"])
        b1, b2 = a["beta1"], a["beta2"]
        with np.errstate(divide="ignore", invalid="ignore"):
            m = b1 * a["m"] + (1 - b1) * grad
            v = b2 * a["v"] + (1 - b2) * grad * grad
            step = m
            if self.use_nesterov:  # MindSpore's kernel then moves the gradient's rows only
                rows, step = np.unique(idx), np.zeros_like(m)
                step[rows] = m[rows] * b1 + (1 - b1) * grad[rows]
            rate = _adam_rate(a["lr"], a["beta1_power"], a["beta2_power"])
            var = var - rate * step / (np.sqrt(v) + a["epsilon"])
        return {"var": var, "m": m, "v": v}


def _check_rows(op, idx, n):
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"For '{op}', the indices must be in [0, {n}), but got values in "
                         f"[{idx.min()}, {idx.max()}].")


class FusedSparseLazyAdam(_Update):
    """Mirrors `mindspore.ops.FusedSparseLazyAdam(use_locking=False, use_nesterov=False)(var,
    m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices)`: Adam on the rows
    `indices` only."""

    _args = FusedSparseAdam._args
    _slots = _returns = ("var", "m", "v")
    _sparse = True

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.add_prim_attr("side_effect_mem", True)

    def _rule(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        step = m * beta1 + (1 - beta1) * grad if self.use_nesterov else m
        rate = _adam_rate(lr, beta1_power, beta2_power)
        return {"var": var - rate * step / (np.sqrt(v) + epsilon), "m": m, "v": v}


class FusedSparseFtrl(_Update):
    """Mirrors `mindspore.ops.FusedSparseFtrl(lr, l1, l2, lr_power, use_locking=False)(var,
    accum, linear, grad, indices)`: FTRL-proximal on the rows `indices`."""

    _args = ("var", "accum", "linear", "grad", "indices")
    _slots = _returns = ("var", "accum", "linear")
    _sparse = True

    @prim_attr_register
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        for name, value in (("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)):
            _is(self.name, name, value, (float,), "float")
        _float(self.name, "lr", lr, 0, strict=True)
        _float(self.name, "l1", l1, 0)
        _float(self.name, "l2", l2, 0)
        if lr_power > 0:
            raise ValueError(f"For '{self.name}', the argument 'lr_power' must <= 0, but got "
                             f"{lr_power}.")
        _bools(self.name, use_locking=use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def _rule(self, var, accum, linear, grad):
        return _ftrl(var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power)


class FusedSparseProximalAdagrad(_Update):
    """Mirrors `mindspore.ops.FusedSparseProximalAdagrad(use_locking=False)(var, accum, lr, l1,
    l2, grad, indices)`: proximal Adagrad on the rows `indices`."""

    _args = ("var", "accum", "lr", "l1", "l2", "grad", "indices")
    _slots = _returns = ("var", "accum")
    _sparse = True

    @prim_attr_register
    def __init__(self, use_locking=False):
        _bools(self.name, use_locking=use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def _rule(self, var, accum, lr, l1, l2, grad):
        accum = accum + grad * grad
        rate = lr / np.sqrt(accum)
        return {"var": _prox(var - rate * grad, rate, l1, l2), "accum": accum}


class AdamNoUpdateParam(_Update):
    """Mirrors `mindspore.ops.AdamNoUpdateParam(use_locking=False, use_nesterov=False)(m, v,
    beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)`: updates `m` and `v` in
    place and returns the step to add to the parameter, `-lr_t * m / (sqrt(v) + epsilon)`."""

    _args = ("m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon",
             "gradient")
    _slots = ("m", "v")

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bools(self.name, use_locking=use_locking, use_nesterov=use_nesterov)
        self.add_prim_attr("side_effect_mem", True)

    def _rule(self, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient * gradient
        step = m * beta1 + (1 - beta1) * gradient if self.use_nesterov else m
        self._step = -_adam_rate(lr, beta1_power, beta2_power) * step / (np.sqrt(v) + epsilon)
        return {"m": m, "v": v}

    def __call__(self, *args):
        super().__call__(*args)
        step, self._step = self._step, None
        return make_tensor(step, None, 0, args[-1].dtype if isinstance(args[-1], TensorBuffer)
                           else args[0].dtype)


class FusedCastAdamWeightDecay(_Update):
    """Mirrors `mindspore.ops.FusedCastAdamWeightDecay(use_locking=False)(var, m, v, lr, beta1,
    beta2, epsilon, decay, gradient, global_norm)`: AdamWeightDecay computed in float32 on the
    gradient divided by `global_norm`, `var` (float16 or float32) cast back."""

    _args = ("var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "gradient",
             "global_norm")
    _slots = _returns = ("var", "m", "v")

    @prim_attr_register
    def __init__(self, use_locking=False):
        _bools(self.name, use_locking=use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, *args):
        if len(args) != len(self._args):
            return super().__call__(*args)
        named = dict(zip(self._args, args))
        for name in ("var", "m", "v", "gradient"):
            C.floating(self.name, name, named[name])
            if tuple(named[name].shape) != tuple(named["var"].shape):
                raise ValueError(f"For '{self.name}', the shape of '{name}' must be the shape of "
                                 f"'var' {tuple(named['var'].shape)}, but got "
                                 f"{tuple(named[name].shape)}.")
        a = {k: _array(v, np.float32) for k, v in named.items()}
        grad = a["gradient"] / a["global_norm"]
        m = a["beta1"] * a["m"] + (1 - a["beta1"]) * grad
        v = a["beta2"] * a["v"] + (1 - a["beta2"]) * grad * grad
        update = m / (np.sqrt(v) + a["epsilon"])
        if a["decay"] > 0:
            update = update + a["decay"] * a["var"]
        new = {"var": a["var"] - a["lr"] * update, "m": m, "v": v}
        for name, value in new.items():
            named[name]._data[...] = value
        return tuple(make_tensor(named[r]._data.copy(), None, 0, named[r].dtype)
                     for r in self._returns)


class FusedWeightScaleApplyMomentum(_Update):
    """Mirrors `mindspore.ops.FusedWeightScaleApplyMomentum()(weight_decay, loss_scale,
    variable, accumulation, learning_rate, gradient, momentum)`: `grad = (gradient +
    weight_decay * variable) * loss_scale; accum = momentum * accum + grad; variable -= lr *
    accum` (MindSpore's GPU kernel; its CPU build has none). Returns the new `variable`."""

    _args = ("weight_decay", "loss_scale", "variable", "accumulation", "learning_rate",
             "gradient", "momentum")
    _slots = ("variable", "accumulation")
    _returns = ("variable",)

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, *args):
        if len(args) != len(self._args):
            return super().__call__(*args)
        named = dict(zip(self._args, args))
        var, acc = C.floating(self.name, "variable", named["variable"]), named["accumulation"]
        C.tensor(self.name, "accumulation", acc)
        if tuple(acc.shape) != tuple(var.shape):
            raise ValueError(f"For '{self.name}', the shape of 'accumulation' must be the shape "
                             f"of 'variable' {tuple(var.shape)}, but got {tuple(acc.shape)}.")
        a = {k: _array(v, var._data.dtype) for k, v in named.items()}
        grad = (a["gradient"] + a["weight_decay"] * a["variable"]) * a["loss_scale"]
        accum = a["momentum"] * a["accumulation"] + grad
        var._data[...] = a["variable"] - a["learning_rate"] * accum
        acc._data[...] = accum
        return make_tensor(var._data.copy(), None, 0, var.dtype)


class LARSUpdate(_Update):
    """Mirrors `mindspore.ops.LARSUpdate(epsilon=1e-05, hyperpara=0.001, use_clip=False)(weight,
    gradient, norm_weight, norm_gradient, weight_decay, learning_rate)`: the new gradient
    `coeff * (gradient + weight_decay * weight)`, `coeff = hyperpara * |w| / (|g| +
    weight_decay * |w| + epsilon)` (1 when a norm is 0; with `use_clip`, `clip(coeff / lr, 0, 1)
    * lr`), from the sums of squares `norm_weight`, `norm_gradient` (MindSpore's Ascend kernel;
    its CPU build has none)."""

    @prim_attr_register
    def __init__(self, epsilon=1e-05, hyperpara=0.001, use_clip=False):
        _is(self.name, "epsilon", epsilon, (float,), "float")
        _is(self.name, "hyperpara", hyperpara, (float,), "float")
        _bools(self.name, use_clip=use_clip)

    def __call__(self, weight, gradient, norm_weight, norm_gradient, weight_decay,
                 learning_rate):
        for name, x in (("weight", weight), ("gradient", gradient),
                        ("norm_weight", norm_weight), ("norm_gradient", norm_gradient)):
            C.tensor(self.name, name, x)
        for name, x in (("weight_decay", weight_decay), ("learning_rate", learning_rate)):
            if not isinstance(x, (TensorBuffer, numbers.Number)) or isinstance(x, bool):
                raise TypeError(f"For '{self.name}', the '{name}' must be a Number or a Tensor, "
                                f"but got {type(x).__name__}.")
        if tuple(gradient.shape) != tuple(weight.shape):
            raise TypeError(f"For '{self.name}', the shape of 'gradient' must be the shape of "
                            f"'weight' {tuple(weight.shape)}, but got {tuple(gradient.shape)}.")
        dt = gradient._data.dtype
        w, g = weight._data.astype(dt, copy=False), gradient._data
        wd, lr = _array(weight_decay, dt), _array(learning_rate, dt)
        w_norm = np.sqrt(_array(norm_weight, dt))
        g_norm = np.sqrt(_array(norm_gradient, dt))
        with np.errstate(divide="ignore", invalid="ignore"):
            coeff = self.hyperpara * w_norm / (g_norm + wd * w_norm + self.epsilon)
            coeff = np.where((w_norm > 0) & (g_norm > 0), coeff, np.ones_like(coeff))
            if self.use_clip:
                coeff = np.clip(coeff / lr, 0, 1) * lr
        out = (coeff * (g + wd * w)).astype(dt, copy=False)
        return make_tensor(np.ascontiguousarray(out), None, 0, gradient.dtype)


def _rms(x):
    return np.sqrt(np.mean(x * x))


class FusedAdaFactor(Primitive):
    """Mirrors `mindspore.ops.FusedAdaFactor(enable_scale_parameter=False,
    enable_first_moment=False, enable_weight_decay=False)(epsilon, clip_threshold, beta1, beta2,
    weight_decay, learning_rate, grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col,
    exp_avg_sq)`: one Adafactor step as MindSpore's CPU kernel takes it (a parameter of rank 2
    or more uses the row/column factors, a vector `exp_avg_sq`; the learning rate, scaled by
    `max(epsilon[1], RMS(param))` with `enable_scale_parameter`, multiplies the clipped update
    before the first moment; weight decay adds `weight_decay * lr * param`). Returns a 1-tuple
    of the new `param`."""

    _names = ("epsilon", "clip_threshold", "beta1", "beta2", "weight_decay", "learning_rate",
              "grad", "param", "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")

    @prim_attr_register
    def __init__(self, enable_scale_parameter=False, enable_first_moment=False,
                 enable_weight_decay=False):
        _bools(self.name, enable_scale_parameter=enable_scale_parameter,
               enable_first_moment=enable_first_moment, enable_weight_decay=enable_weight_decay)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, *args):
        if len(args) != len(self._names):
            raise TypeError(f"For '{self.name}', expected {len(self._names)} inputs "
                            f"({', '.join(self._names)}), but got {len(args)}.")
        return self._step(dict(zip(self._names, args)), None)

    def _step(self, named, global_norm):
        param, grad = named["param"], named["grad"]
        for name in ("grad", "param", "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col",
                     "exp_avg_sq"):
            C.floating(self.name, name, named[name])
        shape = tuple(param.shape)
        if tuple(grad.shape) != shape:
            raise ValueError(f"For '{self.name}', 'grad_shape' must be equal to 'param_shape', "
                             f"but got 'grad_shape': {tuple(grad.shape)} and 'param_shape': "
                             f"{shape}.")
        factored = len(shape) >= 2
        if factored:
            for name, want in (("exp_avg_sq_row", shape[:-1]),
                               ("exp_avg_sq_col", shape[:-2] + shape[-1:])):
                if tuple(named[name].shape) != want:
                    raise ValueError(f"For '{self.name}', the shape of '{name}' must be {want} "
                                     f"for a 'param' of shape {shape}, but got "
                                     f"{tuple(named[name].shape)}.")
        elif tuple(named["exp_avg_sq"].shape) != shape:
            raise ValueError(f"For '{self.name}', the shape of 'exp_avg_sq' must be {shape}, but "
                             f"got {tuple(named['exp_avg_sq'].shape)}.")
        f32 = np.float32
        eps = _array(named["epsilon"], f32).reshape(-1)
        clip, beta1, beta2, decay, lr = (_array(named[k], f32) for k in (
            "clip_threshold", "beta1", "beta2", "weight_decay", "learning_rate"))
        g, p = _array(grad, f32), _array(param, f32)
        if global_norm is not None:
            g = g / _array(global_norm, f32)
        new = {}
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = g * g + eps[0]
            if factored:
                row = beta2 * _array(named["exp_avg_sq_row"], f32) + (1 - beta2) * sq.mean(-1)
                col = beta2 * _array(named["exp_avg_sq_col"], f32) + (1 - beta2) * sq.mean(-2)
                r = 1 / np.sqrt(row / row.mean(-1, keepdims=True))
                update = r[..., :, None] / np.sqrt(col)[..., None, :] * g
                new["exp_avg_sq_row"], new["exp_avg_sq_col"] = row, col
            else:
                avg = beta2 * _array(named["exp_avg_sq"], f32) + (1 - beta2) * sq
                update = g / np.sqrt(avg)
                new["exp_avg_sq"] = avg
            update = update / max(1.0, float(_rms(update) / clip))
            if self.enable_scale_parameter:
                lr = lr * max(float(eps[1]), float(_rms(p)))
            update = update * lr
            if self.enable_first_moment:
                update = beta1 * _array(named["exp_avg"], f32) + (1 - beta1) * update
                new["exp_avg"] = update
            if self.enable_weight_decay:
                update = update + decay * lr * p
        new["param"] = p - update
        for name, value in new.items():
            named[name]._data[...] = value
        return (make_tensor(param._data.copy(), None, 0, param.dtype),)


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """Mirrors `mindspore.ops.FusedAdaFactorWithGlobalNorm(enable_scale_parameter=False,
    enable_first_moment=False, enable_weight_decay=False)(..., exp_avg_sq, global_norm)`:
    `FusedAdaFactor` on `grad / global_norm`."""

    @prim_attr_register
    def __init__(self, enable_scale_parameter=False, enable_first_moment=False,
                 enable_weight_decay=False):
        super().__init__(enable_scale_parameter, enable_first_moment, enable_weight_decay)

    def __call__(self, *args):
        if len(args) != len(self._names) + 1:
            raise TypeError(f"For '{self.name}', expected {len(self._names) + 1} inputs "
                            f"({', '.join(self._names)}, global_norm), but got {len(args)}.")
        return self._step(dict(zip(self._names, args)), args[-1])


__all__ = [
    "FusedSparseAdam", "FusedSparseLazyAdam", "FusedSparseFtrl", "FusedSparseProximalAdagrad",
    "AdamNoUpdateParam", "FusedCastAdamWeightDecay", "FusedWeightScaleApplyMomentum",
    "LARSUpdate", "FusedAdaFactor", "FusedAdaFactorWithGlobalNorm",
]
