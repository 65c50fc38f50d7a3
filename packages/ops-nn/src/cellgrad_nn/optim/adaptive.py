"""`nn.RMSProp`, `nn.Adagrad` and `nn.Adadelta` with MindSpore's update formulas."""

import numpy as np

from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


class RMSProp(Optimizer):
    """Mirrors `mindspore.nn.RMSProp`: ms = decay * ms + (1 - decay) * g^2,
    mom = momentum * mom + lr * g / sqrt(ms - mg^2 (centered) + epsilon), param -= mom."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("decay", decay), ("momentum", momentum)):
            if isinstance(value, bool) or not isinstance(value, float) or value < 0:
                raise ValueError(f"For 'RMSProp', the '{name}' must be a float >= 0, but got "
                                 f"{value!r}.")
        if isinstance(epsilon, bool) or not isinstance(epsilon, float) or epsilon <= 0:
            raise ValueError(f"For 'RMSProp', the 'epsilon' must be a positive float, but got "
                             f"{epsilon!r}.")
        self.decay, self.momentum, self.epsilon = decay, momentum, epsilon
        self.use_locking, self.centered = use_locking, centered
        if centered:
            self.mean_grad = self._state("mean_grad")
        self.mean_square = self._state("mean_square", "ones")  # MindSpore starts it at 1
        self.moment = self._state("moment")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]

    def _update(self, i, param, grad, lr):
        ms, mom, tmp = self.mean_square[i].asnumpy(), self.moment[i].asnumpy(), self._tmp[i]
        ms *= self.decay
        np.multiply(grad, grad, out=tmp)
        tmp *= 1.0 - self.decay
        ms += tmp
        tmp[...] = ms
        if self.centered:
            mg = self.mean_grad[i].asnumpy()
            mg *= self.decay
            mg += grad * (1.0 - self.decay)
            tmp -= mg * mg
        tmp += self.epsilon
        np.sqrt(tmp, out=tmp)
        np.divide(grad, tmp, out=tmp)
        tmp *= lr
        mom *= self.momentum
        mom += tmp
        param -= mom


class Adagrad(Optimizer):
    """Mirrors `mindspore.nn.Adagrad`: accum += g^2 (starting at `accum`);
    param -= lr * g / sqrt(accum)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(accum, bool) or not isinstance(accum, float) or accum < 0:
            raise ValueError(f"For 'Adagrad', the 'accum' must be a float >= 0, but got "
                             f"{accum!r}.")
        if not isinstance(update_slots, bool):
            raise TypeError(f"For 'Adagrad', the 'update_slots' must be a bool, but got "
                            f"{update_slots!r}.")
        self.update_slots = update_slots
        self.accum = self._state("accum", accum)
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]

    def _update(self, i, param, grad, lr):
        acc, tmp = self.accum[i].asnumpy(), self._tmp[i]
        if self.update_slots:
            np.multiply(grad, grad, out=tmp)
            acc += tmp
        np.sqrt(acc, out=tmp)
        np.divide(grad, tmp, out=tmp)
        tmp *= lr
        param -= tmp


class Adadelta(Optimizer):
    """Mirrors `mindspore.nn.Adadelta`: accum = rho * accum + (1 - rho) * g^2,
    update = sqrt(accum_update + eps) / sqrt(accum + eps) * g,
    accum_update = rho * accum_update + (1 - rho) * update^2, param -= lr * update."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _checks.in_range("Adadelta", "rho", rho, 0.0, 1.0, closed=True)
        self.epsilon = _checks.positive("Adadelta", "epsilon", epsilon, allow_zero=True)
        self.accum = self._state("accum")
        self.accum_update = self._state("accum_update")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]

    def _update(self, i, param, grad, lr):
        acc, upd, tmp = self.accum[i].asnumpy(), self.accum_update[i].asnumpy(), self._tmp[i]
        rho, eps = self.rho, self.epsilon
        acc *= rho
        acc += grad * grad * (1.0 - rho)
        np.sqrt(upd + eps, out=tmp)
        tmp /= np.sqrt(acc + eps)
        tmp *= grad
        upd *= rho
        upd += tmp * tmp * (1.0 - rho)
        tmp *= lr
        param -= tmp
