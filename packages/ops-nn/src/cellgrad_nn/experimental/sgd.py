"""`experimental.optim` SGD, ASGD and Rprop with MindSpore 2.10's update formulas."""

import numpy as np

from cellgrad import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad_nn.experimental.adam import _Stepped
from cellgrad_nn.experimental.optimizer import Optimizer, greater_than, in_range, not_less_than


def _of_type(owner, name, value, types):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        names = ", ".join(t.__name__ for t in types)
        raise TypeError(f"For '{owner}', the type of '{name}' should be one of [{names}], but "
                        f"got '{type(value).__name__}'.")


class SGD(Optimizer):
    """Mirrors `mindspore.experimental.optim.SGD`: momentum buffer b = g on the first step,
    then b = momentum * b + (1 - dampening) * g; nesterov uses g + momentum * b."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *,
                 maximize=False):
        _of_type("SGD", "lr", lr, (float, int, Tensor))
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        _of_type("SGD", "momentum", momentum, (int, float))
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        momentum = float(momentum)
        _of_type("SGD", "nesterov", nesterov, (bool,))
        _of_type("SGD", "maximize", maximize, (bool,))
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize, "grad_centralization": False})
        for group in self.param_groups:
            _of_type("SGD", "dampening", group.get("dampening"), (int, float))
            group["dampening"] = float(group.get("dampening"))
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             "'dampening' must equal to 0.0, but got 'momentum' "
                             f"{momentum}, 'dampening' {dampening}")
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        for group, lr, items in self._groups(gradients, decay=False):
            momentum, wd = np.float32(group["momentum"]), np.float32(group["weight_decay"])
            for i, param, grad in items:
                if wd > 0:
                    grad = grad + param * wd
                if momentum > 0:
                    buf, stat = self.accum[i].asnumpy(), self.stat[i].asnumpy()
                    first = stat > 0
                    buf[...] = np.where(first, grad, buf * momentum
                                        + np.float32(1.0 - group["dampening"]) * grad)
                    stat[...] = 0
                    grad = grad + buf * momentum if group["nesterov"] else buf.copy()
                param -= lr * grad
        return True


class ASGD(_Stepped):
    """Mirrors `mindspore.experimental.optim.ASGD`: averaged SGD, eta_t = lr /
    (1 + lambd * lr * t)^alpha, the average ax starting at step t0."""

    def __init__(self, params, lr=0.01, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
                 maximize=False):
        greater_than(self.__class__.__name__, "lr", lr)
        not_less_than(self.__class__.__name__, "weight_decay", weight_decay)
        if not isinstance(lambd, float):
            raise TypeError(f"For 'ASGD', the type of lambd must be float, but got {type(lambd)}.")
        if not isinstance(t0, float):
            raise TypeError(f"For 'ASGD', the type of t0 must be float, but got {type(t0)}.")
        super().__init__(params, {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                                  "weight_decay": weight_decay, "maximize": maximize})
        self.mu = [Parameter(Tensor(np.float32(1.0)), "mu_" + p.name) for p in self.parameters]
        self.eta = [Parameter(Tensor(np.float32(0.0)), "eta_" + p.name) for p in self.parameters]
        self.ax = self.parameters.clone(prefix="ax", init="zeros")
        self._init_step("step_t")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients):
            lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
            for i, param, grad in items:
                eta, mu, ax = (self.eta[i].asnumpy(), self.mu[i].asnumpy(),
                               self.ax[i].asnumpy())
                if t == 1:
                    eta[...] = lr
                param[...] = param * (np.float32(1.0) - np.float32(lambd) * eta) - eta * grad
                if mu != 1:
                    ax += (param - ax) * mu
                else:
                    ax[...] = param
                eta[...] = lr / np.float32((1.0 + lambd * float(lr) * t) ** alpha)
                mu[...] = 1.0 / max(1.0, t - t0)
        return True


class Rprop(_Stepped):
    """Mirrors `mindspore.experimental.optim.Rprop`: per-element step sizes grown by etaplus
    or shrunk by etaminus as the gradient keeps or flips its sign, clipped to step_sizes."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 maximize=False):
        greater_than(self.__class__.__name__, "lr", lr)
        greater_than(self.__class__.__name__, "etas[1]", etas[1], 1.0)
        in_range("Rprop", "etas[0]", etas[0], 0.0, 1.0, closed_low=False)
        super().__init__(params, {"lr": lr, "etas": etas, "step_sizes": step_sizes,
                                  "maximize": maximize})
        self.prev = self.parameters.clone(prefix="prev", init="zeros")
        self.step_size = self.parameters.clone(prefix="step_size", init="zeros")
        self._init_step("step_t")

    def construct(self, gradients):
        t = self._advance()
        for group, lr, items in self._groups(gradients, decay=False):
            etaminus, etaplus = (np.float32(e) for e in group["etas"])
            low, high = group["step_sizes"]
            for i, param, grad in items:
                prev, size = self.prev[i].asnumpy(), self.step_size[i].asnumpy()
                if t == 1:
                    size[...] = lr
                sign = np.sign(grad * prev)
                factor = np.where(sign > 0, etaplus, np.where(sign < 0, etaminus,
                                                              np.float32(1.0)))
                np.clip(size * factor, np.float32(low), np.float32(high), out=size)
                grad = np.where(factor == etaminus, np.float32(0.0), grad)
                prev[...] = grad
                param -= np.sign(grad) * size
        return True
