"""`nn.SGD`, `nn.Momentum` and `nn.ASGD`: updates in place with MindSpore's (and PyTorch's)
formulas."""

import numpy as np

from cellgrad import Parameter, ParameterTuple
from cellgrad_nn._kernels import update
from cellgrad_nn._kernels.update import sgd_step
from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


def _check(owner, name, value, low=0.0):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
        raise ValueError(f"For '{owner}', the '{name}' must be a float >= {low}, but got "
                         f"{value!r}.")
    return float(value)


def _share_constant_state(state, value):
    """Back each Parameter of `state` by one read-only broadcast `value` instead of its own
    array: without momentum the update never reads or writes accum and stat (PyTorch makes no
    buffer at all), but MindSpore's optimizer has them, so they exist with their values. Saves
    two copies of the network's parameters (deep_chain: 33 MB). `set_data` replaces the array
    as usual (loading a checkpoint); writing into it in place raises numpy's read-only error."""
    for p in state:
        data = p._data
        p._data = np.broadcast_to(np.asarray(value, data.dtype), data.shape)


def _one_pass(param, grad):
    """Whether `sgd_step` can update `param` (contiguous float32/float64, grad alike)."""
    return param.dtype == grad.dtype and param.dtype in (np.float32, np.float64) and \
        param.flags.c_contiguous and grad.flags.c_contiguous and param.shape == grad.shape


class SGD(Optimizer):
    """Mirrors `mindspore.nn.SGD`: with momentum m and dampening d,
    accum = m * accum + (1 - d) * g (accum = g on the first step), then
    param -= lr * (g + m * accum if nesterov else accum)."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _check("SGD", "momentum", momentum)
        self.dampening = _check("SGD", "dampening", dampening)
        if nesterov and (momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError("For 'SGD', nesterov needs momentum > 0 and dampening 0.")
        self.nesterov = bool(nesterov)
        self.momentum = self._scalar("momentum", momentum)
        self._m = momentum
        self.accum = self._state("accum")
        if momentum == 0.0:  # each shared before the next is made: one copy at a time
            _share_constant_state(self.accum, 0)
        self.stat = self._state("stat", "ones")
        if momentum == 0.0:
            _share_constant_state(self.stat, 1)
        self._tmp = [None] * len(self.parameters)
        if momentum == 0.0:
            self._group = (update.SGD_PLAIN, (), {})
        else:
            self._group = (update.SGD_MOMENTUM, (self.accum, self.stat),
                           {"m": momentum, "dampening": self.dampening,
                            "nesterov": self.nesterov})

    def _update(self, i, param, grad, lr):
        if self._m == 0.0:
            if _one_pass(param, grad):
                sgd_step(param, grad, lr)   # numpy's two passes' result, bit for bit
            else:
                param -= grad * np.float32(lr) if param.dtype == np.float32 else grad * lr
            return
        accum = self.accum[i].asnumpy()
        stat = self.stat[i].asnumpy()
        if stat.flat[0]:
            accum[...] = grad
            stat[...] = 0
        else:
            accum *= self._m
            accum += grad * (1.0 - self.dampening) if self.dampening else grad
        step = grad + accum * self._m if self.nesterov else accum
        param -= step * lr


SGD._group_owner = SGD._update


class Momentum(Optimizer):
    """Mirrors `mindspore.nn.Momentum`: accum = momentum * accum + g;
    param -= lr * (g + momentum * accum if use_nesterov else accum)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, float) or momentum < 0.0:
            raise ValueError(f"For 'Momentum', the 'momentum' must be a float >= 0, but got "
                             f"{momentum!r}.")
        self.use_nesterov = bool(use_nesterov)
        self.momentum = self._scalar("momentum", momentum)
        self._m = momentum
        self.moments = self._state("moments")
        self._tmp = [np.empty_like(p.asnumpy()) for p in self.parameters]
        self._group = (update.MOMENTUM, (self.moments,),
                       {"m": momentum, "nesterov": self.use_nesterov})

    def _update(self, i, param, grad, lr):
        accum = self.moments[i].asnumpy()
        tmp = self._tmp[i]
        accum *= self._m
        accum += grad
        if self.use_nesterov:
            np.multiply(accum, self._m, out=tmp)
            tmp += grad
            tmp *= lr
        else:
            np.multiply(accum, lr, out=tmp)
        param -= tmp


Momentum._group_owner = Momentum._update


class ASGD(Optimizer):
    """Mirrors `mindspore.nn.ASGD` (averaged SGD): param = param * (1 - lambd * eta) - eta * g,
    the running average ax of the parameters starts after step t0; then at step t
    eta = lr / (1 + lambd * lr * t)^alpha and mu = 1 / max(1, t - t0)."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            _checks.of_type("ASGD", name, value)
        self.lambd, self.alpha, self.t0 = lambd, alpha, t0
        # Scalars named as MindSpore names them ('mu_<param>', not 'mu.<param>').
        self.mu = ParameterTuple(Parameter(np.float32(1.0), name=f"mu_{p.name}")
                                 for p in self.parameters)
        self.eta = ParameterTuple(Parameter(np.float32(0.0), name=f"eta_{p.name}")
                                  for p in self.parameters)
        self.ax = self._state("ax_")

    def _update(self, i, param, grad, lr):
        step = int(self.global_step.asnumpy()[0]) + 1
        mu, eta, ax = self.mu[i].asnumpy(), self.eta[i].asnumpy(), self.ax[i].asnumpy()
        if step == 1:
            eta[...] = lr
        e = eta.dtype.type(eta)
        param *= 1.0 - self.lambd * e
        param -= e * grad
        if mu != 1:
            ax += (param - ax) * mu
        else:
            ax[...] = param
        eta[...] = lr / (1.0 + self.lambd * lr * step) ** self.alpha
        mu[...] = 1.0 / max(1.0, step - self.t0)
