"""`nn.FTRL` and `nn.ProximalAdagrad`: adaptive steps followed by the proximal step of the
l1/l2 penalties, with MindSpore's update formulas."""

import numpy as np

from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


class FTRL(Optimizer):
    """Mirrors `mindspore.nn.FTRL` (follow the regularized leader): with
    n' = n + g^2, linear += g - (n'^-p - n^-p) / lr * param, then
    param = (sign(linear) * l1 - linear) / (n'^-p / lr + 2 * l2) where |linear| > l1, else 0
    (p = lr_power)."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        _checks.bound("FTRL", "initial_accum", initial_accum, 0.0, above=True)
        _checks.positive("FTRL", "learning_rate", learning_rate)
        self.lr_power = _checks.bound("FTRL", "lr_power", lr_power, 0.0, above=False)
        self.l1 = _checks.bound("FTRL", "l1", l1, 0.0, above=True)
        self.l2 = _checks.bound("FTRL", "l2", l2, 0.0, above=True)
        self.use_locking = _checks.of_type("FTRL", "use_locking", use_locking, (bool,))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.moments = self._state("moments", initial_accum)
        self.linear = self._state("linear")

    def _update(self, i, param, grad, lr):
        accum, linear = self.moments[i].asnumpy(), self.linear[i].asnumpy()
        power = -self.lr_power
        new_accum = accum + grad * grad
        new_scale = new_accum ** power
        linear += grad - (new_scale - accum ** power) / lr * param
        quadratic = new_scale / lr + 2.0 * self.l2
        shrunk = np.sign(linear) * self.l1 - linear
        np.copyto(param, np.where(np.abs(linear) > self.l1, shrunk / quadratic, 0.0))
        accum[...] = new_accum


class ProximalAdagrad(Optimizer):
    """Mirrors `mindspore.nn.ProximalAdagrad`: accum += g^2, a = lr / sqrt(accum),
    v = param - a * g, param = sign(v) * max(|v| - a * l1, 0) / (1 + a * l2)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            _checks.of_type("ProximalAdagrad", name, value)
        _checks.of_type("ProximalAdagrad", "use_locking", use_locking, (bool,))
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            _checks.positive("ProximalAdagrad", name, value, allow_zero=True)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.l1, self.l2, self.use_locking = l1, l2, use_locking
        self.accum = self._state("accum", accum)

    def _update(self, i, param, grad, lr):
        accum = self.accum[i].asnumpy()
        accum += grad * grad
        step = lr / np.sqrt(accum)
        prox = param - step * grad
        shrunk = np.maximum(np.abs(prox) - step * self.l1, 0.0)
        np.copyto(param, np.sign(prox) * shrunk / (1.0 + step * self.l2))
