"""`nn.Adam`, `nn.LazyAdam`, `nn.AdamWeightDecay` and `nn.AdaMax` with MindSpore's update
formulas."""

import math

import numpy as np

from cellgrad_nn._kernels import update
from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


def _check_betas(owner, beta1, beta2, eps):
    for name, value, low, high in (("beta1", beta1, 0.0, 1.0), ("beta2", beta2, 0.0, 1.0)):
        if isinstance(value, bool) or not isinstance(value, float) or not low < value < high:
            raise ValueError(f"For '{owner}', the '{name}' must be a float in (0, 1), but got "
                             f"{value!r}.")
    if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{owner}', the 'eps' must be a positive float, but got {eps!r}.")


class Adam(Optimizer):
    """Mirrors `mindspore.nn.Adam`: m and v moving averages, and
    param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps).

    (PyTorch adds eps to the bias-corrected sqrt(v); the two agree up to eps's scale.)
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas("Adam", beta1, beta2, eps)
        unknown = set(kwargs) - {"use_lazy", "use_offload"}
        if unknown:
            raise TypeError(f"For 'Adam', unexpected keyword arguments {sorted(unknown)}.")
        use_lazy, use_offload = kwargs.get("use_lazy", False), kwargs.get("use_offload", False)
        if use_lazy and use_offload:
            raise ValueError(f"For 'Adam', 'use_lazy' and 'use_offload' can not both be True."
                             f"But got use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError(f"For lazy Adam and Adam with offload, there is no parameter named "
                             f"'use_amsgrad'.but got 'use_amsgrad'={use_amsgrad}.")
        if use_nesterov and use_amsgrad:
            raise ValueError("For 'Adam', use_nesterov and use_amsgrad cannot both be True.")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.use_locking, self.use_nesterov, self.use_amsgrad = use_locking, use_nesterov, \
            use_amsgrad
        self.beta1_power = self._scalar("beta1_power", [1.0])
        self.beta2_power = self._scalar("beta2_power", [1.0])
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        if use_amsgrad:
            self.vhat = self._state("vhat")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]
        states = (self.moment1, self.moment2) + ((self.vhat,) if use_amsgrad else ())
        self._group = (update.ADAM, states,
                       {"beta1": beta1, "beta2": beta2, "eps": eps, "nesterov": use_nesterov,
                        "amsgrad": use_amsgrad})

    def _group_options(self):
        return {"lr_factor": self._correction}

    def construct(self, gradients):
        # The powers advance once per step, before the parameters use them (MindSpore's order).
        self.beta1_power.asnumpy()[...] *= self.beta1
        self.beta2_power.asnumpy()[...] *= self.beta2
        b1p = float(self.beta1_power.asnumpy()[0])
        b2p = float(self.beta2_power.asnumpy()[0])
        self._correction = math.sqrt(1.0 - b2p) / (1.0 - b1p)
        return super().construct(gradients)

    def _update(self, i, param, grad, lr):
        m, v, tmp = self.moment1[i].asnumpy(), self.moment2[i].asnumpy(), self._tmp[i]
        b1, b2 = self.beta1, self.beta2
        m *= b1
        m += grad * (1.0 - b1)
        v *= b2
        np.multiply(grad, grad, out=tmp)
        tmp *= 1.0 - b2
        v += tmp
        denom = v
        if self.use_amsgrad:
            vhat = self.vhat[i].asnumpy()
            np.maximum(vhat, v, out=vhat)
            denom = vhat
        np.sqrt(denom, out=tmp)
        tmp += self.eps
        if self.use_nesterov:
            np.divide(m * b1 + grad * (1.0 - b1), tmp, out=tmp)
        else:
            np.divide(m, tmp, out=tmp)
        tmp *= lr * self._correction
        param -= tmp


Adam._group_owner = Adam._update


class AdamWeightDecay(Optimizer):
    """Mirrors `mindspore.nn.AdamWeightDecay`: decoupled weight decay and no bias correction,
    update = m / (sqrt(v) + eps) + weight_decay * param; param -= lr * update."""

    _decays_in_gradient = False

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_betas("AdamWeightDecay", beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.moments1 = self._state("adam_m")
        self.moments2 = self._state("adam_v")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]
        self._group = (update.ADAM_WEIGHT_DECAY, (self.moments1, self.moments2),
                       {"beta1": beta1, "beta2": beta2, "eps": eps})

    def _update(self, i, param, grad, lr):
        m, v, tmp = self.moments1[i].asnumpy(), self.moments2[i].asnumpy(), self._tmp[i]
        m *= self.beta1
        m += grad * (1.0 - self.beta1)
        v *= self.beta2
        np.multiply(grad, grad, out=tmp)
        tmp *= 1.0 - self.beta2
        v += tmp
        np.sqrt(v, out=tmp)
        tmp += self.eps
        np.divide(m, tmp, out=tmp)
        if self._wds[i]:
            tmp += param * self._wds[i]
        tmp *= lr
        param -= tmp


AdamWeightDecay._group_owner = AdamWeightDecay._update


class LazyAdam(Adam):
    """Mirrors `mindspore.nn.LazyAdam`: Adam that, for sparse gradients, updates only the rows
    the gradient holds; gradients here are dense, so every row is updated as by `nn.Adam`."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        _checks.of_type("LazyAdam", "weight_dacay", weight_decay)  # MindSpore's spelling
        for name, flag in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            _checks.of_type("LazyAdam", name, flag, (bool,))
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


class AdaMax(Optimizer):
    """Mirrors `mindspore.nn.AdaMax`: m = beta1 * m + (1 - beta1) * g,
    v = max(beta2 * v, |g|), param -= lr / (1 - beta1^t) * m / (v + eps)."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _checks.in_range("AdaMax", "beta1", beta1, 0.0, 1.0)
        self.beta2 = _checks.in_range("AdaMax", "beta2", beta2, 0.0, 1.0)
        self.eps = _checks.positive("AdaMax", "eps", eps)
        self.beta1_power = self._scalar("beta1_power", [1.0])
        self.moment1 = self._state("moment1")
        self.moment2 = self._state("moment2")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]

    def construct(self, gradients):
        self.beta1_power.asnumpy()[...] *= self.beta1
        self._step_lr_scale = 1.0 / (1.0 - float(self.beta1_power.asnumpy()[0]))
        return super().construct(gradients)

    def _update(self, i, param, grad, lr):
        m, v, tmp = self.moment1[i].asnumpy(), self.moment2[i].asnumpy(), self._tmp[i]
        m *= self.beta1
        m += grad * (1.0 - self.beta1)
        v *= self.beta2
        np.maximum(v, np.abs(grad, out=tmp), out=v)
        np.add(v, self.eps, out=tmp)
        np.divide(m, tmp, out=tmp)
        tmp *= lr * self._step_lr_scale
        param -= tmp
