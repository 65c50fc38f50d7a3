"""`experimental.optim` Adam family: Adam, AdamW, Adamax, NAdam and RAdam, with MindSpore
2.10's update formulas (each written out in its class's step)."""

import math

import numpy as np

from cellgrad import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad_nn.experimental.optimizer import (
    Optimizer,
    check_adam_args,
    greater_than,
    in_range,
    not_less_than,
)


def _check_betas(owner, betas):
    for i in (0, 1):
        in_range(owner, f"betas[{i}]", betas[i], 0.0, 1.0)


class _Stepped(Optimizer):
    """An optimizer with a shared int32 step count advanced before the update."""

    def _init_step(self, name):
        setattr(self, name, Parameter(Tensor(np.int32(0)), name))
        self._step_name = name

    def _advance(self):
        counter = getattr(self, self._step_name).asnumpy()
        counter += 1
        return int(counter)


class Adam(_Stepped):
    """Mirrors `mindspore.experimental.optim.Adam`: MindSpore's Adam kernel,
    param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps).

    As in MindSpore 2.10, `amsgrad` is recorded in the groups but does not change the update
    (PyTorch's adds eps after the bias correction and honours amsgrad).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        check_adam_args(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self._init_step("state_step")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients):
            beta1, beta2 = group["betas"]
            lr_t = np.float32(lr * math.sqrt(1.0 - beta2 ** t) / (1.0 - beta1 ** t))
            for i, param, grad in items:
                m, v = self.exp_avg[i].asnumpy(), self.exp_avg_sq[i].asnumpy()
                m += (grad - m) * np.float32(1.0 - beta1)
                v += (grad * grad - v) * np.float32(1.0 - beta2)
                param -= lr_t * m / (np.sqrt(v) + np.float32(group["eps"]))
        return True


class AdamW(_Stepped):
    """Mirrors `mindspore.experimental.optim.AdamW`: decoupled decay param *= 1 - lr * wd,
    then param -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps), with v's
    running maximum under `amsgrad` (PyTorch's formula)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        check_adam_args(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self._init_step("state_step")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients, decay=False):
            beta1, beta2 = group["betas"]
            keep = np.float32(1.0 - lr * group["weight_decay"])
            step_size = np.float32(lr / (1.0 - beta1 ** t))
            bc2_sqrt = np.float32(math.sqrt(1.0 - beta2 ** t))
            for i, param, grad in items:
                m, v = self.exp_avg[i].asnumpy(), self.exp_avg_sq[i].asnumpy()
                param *= keep
                m *= np.float32(beta1)
                m += grad * np.float32(1.0 - beta1)
                v *= np.float32(beta2)
                v += grad * grad * np.float32(1.0 - beta2)
                if group["amsgrad"]:
                    vmax = self.max_exp_avg_sq[i].asnumpy()
                    np.maximum(vmax, v, out=vmax)
                    v = vmax
                param -= m / (np.sqrt(v) / bc2_sqrt + np.float32(group["eps"])) * step_size
        return True


class Adamax(_Stepped):
    """Mirrors `mindspore.experimental.optim.Adamax`: u = max(beta2 * u, |g| + eps),
    param -= lr / (1 - beta1^t) * m / u."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *,
                 maximize=False):
        greater_than(self.__class__.__name__, "lr", lr)
        not_less_than(self.__class__.__name__, "weight_decay", weight_decay)
        greater_than(self.__class__.__name__, "eps", eps)
        _check_betas("Adamax", betas)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize})
        self._init_step("step_t")
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_inf = self.parameters.clone(prefix="exp_inf", init="zeros")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients):
            beta1, beta2 = group["betas"]
            clr = np.float32(lr / (1.0 - beta1 ** t))
            for i, param, grad in items:
                m, u = self.exp_avg[i].asnumpy(), self.exp_inf[i].asnumpy()
                m[...] = m * np.float32(beta1) + grad * np.float32(1.0 - beta1)
                np.maximum(u * np.float32(beta2), np.abs(grad) + np.float32(group["eps"]), out=u)
                param -= clr * m / u
        return True


class NAdam(_Stepped):
    """Mirrors `mindspore.experimental.optim.NAdam`: Adam with Nesterov momentum and the
    momentum schedule mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_decay=4e-3):
        owner = self.__class__.__name__
        greater_than(owner, "lr", lr)
        greater_than(owner, "eps", eps)
        not_less_than(owner, "weight_decay", weight_decay)
        not_less_than(owner, "momentum_decay", momentum_decay)
        _check_betas("NAdam", betas)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay})
        self._init_step("step_t")
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.mu_product = [Parameter(Tensor(np.float32(1.0)), "mu_product_" + p.name)
                           for p in self.parameters]

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients, negate=False):
            beta1, beta2 = group["betas"]
            decay, eps = group["momentum_decay"], np.float32(group["eps"])
            bc2 = np.float32(1.0 - beta2 ** t)
            mu = np.float32(beta1 * (1.0 - 0.5 * 0.96 ** (t * decay)))
            mu_next = np.float32(beta1 * (1.0 - 0.5 * 0.96 ** ((t + 1) * decay)))
            for i, param, grad in items:
                m, v = self.exp_avg[i].asnumpy(), self.exp_avg_sq[i].asnumpy()
                prod = self.mu_product[i].asnumpy()
                prod *= mu
                m[...] = m * np.float32(beta1) + grad * np.float32(1.0 - beta1)
                v[...] = v * np.float32(beta2) + grad * grad * np.float32(1.0 - beta2)
                denom = np.sqrt(v / bc2) + eps
                param -= lr * (np.float32(1.0) - mu) / (np.float32(1.0) - prod) * grad / denom
                param -= lr * mu_next / (np.float32(1.0) - prod * mu_next) * m / denom
        return True


class RAdam(_Stepped):
    """Mirrors `mindspore.experimental.optim.RAdam`: Adam with the variance rectification
    term, plain bias-corrected momentum while rho_t <= 5."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        owner = self.__class__.__name__
        greater_than(owner, "lr", lr)
        not_less_than(owner, "weight_decay", weight_decay)
        greater_than(owner, "eps", eps)
        _check_betas("RAdam", betas)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay})
        self._init_step("step_t")
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients, negate=False):
            beta1, beta2 = group["betas"]
            bc1, bc2 = 1.0 - beta1 ** t, 1.0 - beta2 ** t
            rho_inf = 2.0 / (1.0 - beta2) - 1.0
            rho_t = rho_inf - 2.0 * t * beta2 ** t / bc2
            rect = None
            if rho_t > 5.0:
                rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                                 / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            for i, param, grad in items:
                m, v = self.exp_avg[i].asnumpy(), self.exp_avg_sq[i].asnumpy()
                m[...] = m * np.float32(beta1) + grad * np.float32(1.0 - beta1)
                v[...] = v * np.float32(beta2) + grad * grad * np.float32(1.0 - beta2)
                corrected = m / np.float32(bc1)
                if rect is None:
                    param -= corrected * lr
                else:
                    adaptive = np.float32(math.sqrt(bc2)) / (np.sqrt(v) + np.float32(group["eps"]))
                    param -= corrected * lr * adaptive * np.float32(rect)
        return True
