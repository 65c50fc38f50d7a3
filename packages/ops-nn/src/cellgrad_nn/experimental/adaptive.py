"""`experimental.optim` Adadelta, Adagrad and RMSprop with MindSpore 2.10's update formulas."""

import numpy as np

from cellgrad_nn.experimental.adam import _Stepped
from cellgrad_nn.experimental.optimizer import Optimizer, greater_than, in_range, not_less_than


class Adadelta(Optimizer):
    """Mirrors `mindspore.experimental.optim.Adadelta`: update = sqrt(u + eps) /
    sqrt(a + eps) * g with running averages a of g^2 and u of update^2."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        owner = self.__class__.__name__
        greater_than(owner, "lr", lr)
        greater_than(owner, "eps", eps)
        not_less_than(owner, "weight_decay", weight_decay)
        in_range("Adadelta", "rho", rho, 0.0, 1.0, closed_high=True)
        super().__init__(params, {"lr": lr, "rho": rho, "eps": eps,
                                  "weight_decay": weight_decay, "maximize": maximize})
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)

    def construct(self, gradients):
        for group, lr, items in self._groups(gradients):
            rho, eps = np.float32(group["rho"]), np.float32(group["eps"])
            for i, param, grad in items:
                acc, acc_up = self.accum[i].asnumpy(), self.accum_update[i].asnumpy()
                acc[...] = acc * rho + grad * grad * (np.float32(1.0) - rho)
                update = np.sqrt(acc_up + eps) / np.sqrt(acc + eps) * grad
                acc_up[...] = acc_up * rho + update * update * (np.float32(1.0) - rho)
                param -= lr * update
        return True


class Adagrad(_Stepped):
    """Mirrors `mindspore.experimental.optim.Adagrad`: a += g^2, param -= lr / (1 + (t - 1) *
    lr_decay) * g / (sqrt(a) + eps)."""

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False):
        owner = self.__class__.__name__
        greater_than(owner, "lr", lr)
        not_less_than(owner, "lr_decay", lr_decay)
        not_less_than(owner, "weight_decay", weight_decay)
        not_less_than(owner, "initial_accumulator_value", initial_accumulator_value)
        greater_than(owner, "eps", eps)
        super().__init__(params, {"lr": lr, "lr_decay": lr_decay, "eps": eps,
                                  "weight_decay": weight_decay,
                                  "initial_accumulator_value": initial_accumulator_value,
                                  "maximize": maximize})
        self.accum = self.parameters.clone(prefix="accum", init=initial_accumulator_value)
        self._init_step("step_t")

    def construct(self, gradients):
        done = int(self.step_t.asnumpy())  # the count advances after the update here
        for group, lr, items in self._groups(gradients):
            decayed = np.float32(lr / (1.0 + done * group["lr_decay"]))
            for i, param, grad in items:
                acc = self.accum[i].asnumpy()
                acc += grad * grad
                param -= decayed * grad / (np.sqrt(acc) + np.float32(group["eps"]))
        self._advance()
        return True


class RMSprop(Optimizer):
    """Mirrors `mindspore.experimental.optim.RMSprop`: s = alpha * s + (1 - alpha) * g^2,
    centered subtracts the squared mean gradient, and momentum accumulates g / (sqrt(s) + eps)."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, maximize=False):
        owner = self.__class__.__name__
        greater_than(owner, "lr", lr)
        not_less_than(owner, "alpha", alpha)
        greater_than(owner, "eps", eps)
        not_less_than(owner, "momentum", momentum)
        not_less_than(owner, "weight_decay", weight_decay)
        super().__init__(params, {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                                  "centered": centered, "weight_decay": weight_decay,
                                  "maximize": maximize})
        self.mean_grad = self.parameters.clone(prefix="mean_grad", init="zeros")
        self.mean_square = self.parameters.clone(prefix="mean_square", init="zeros")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")

    def construct(self, gradients):
        for group, lr, items in self._groups(gradients):
            alpha, eps = np.float32(group["alpha"]), np.float32(group["eps"])
            momentum = group["momentum"]
            for i, param, grad in items:
                sq = self.mean_square[i].asnumpy()
                sq[...] = sq * alpha + grad * grad * (np.float32(1.0) - alpha)
                if group["centered"]:
                    mg = self.mean_grad[i].asnumpy()
                    mg[...] = mg * alpha + grad * (np.float32(1.0) - alpha)
                    avg = np.sqrt(sq - mg * mg) + eps
                else:
                    avg = np.sqrt(sq) + eps
                if momentum > 0:
                    mom = self.moment[i].asnumpy()
                    mom[...] = mom * np.float32(momentum) + grad / avg
                    param -= mom * lr
                else:
                    param -= lr * grad / avg
        return True
