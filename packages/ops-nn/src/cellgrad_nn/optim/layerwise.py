"""Layer-wise trust ratios: `nn.Lamb` and `nn.LARS`.

MindSpore 2.10 runs neither on a CPU ("Unsupported op [Lamb] / [LARSUpdate] on CPU"); these
follow the formulas of its documentation (and of the LAMB and LARS papers) in numpy.
"""

import numpy as np

from cellgrad import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


def _trust(numerator, denominator):
    """numerator / denominator, or 1 where either is 0 (a fresh layer moves at the plain rate)."""
    return numerator / denominator if numerator > 0 and denominator > 0 else 1.0


class Lamb(Optimizer):
    """Mirrors `mindspore.nn.Lamb`: Adam's bias-corrected ratio r = m_hat / (sqrt(v_hat) + eps)
    plus weight_decay * param, scaled per parameter by ||param|| / ||r + wd * param||."""

    _decays_in_gradient = False  # the decay enters the ratio, not the gradient

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = _checks.in_range("Lamb", "beta1", beta1, 0.0, 1.0)
        self.beta2 = _checks.in_range("Lamb", "beta2", beta2, 0.0, 1.0)
        self.eps = _checks.positive("Lamb", "eps", eps)
        self.moments1 = self._state("lamb_m")
        self.moments2 = self._state("lamb_v")

    def _update(self, i, param, grad, lr):
        t = int(self.global_step.asnumpy()[0]) + 1
        m, v = self.moments1[i].asnumpy(), self.moments2[i].asnumpy()
        m *= self.beta1
        m += grad * (1.0 - self.beta1)
        v *= self.beta2
        v += grad * grad * (1.0 - self.beta2)
        ratio = (m / (1.0 - self.beta1 ** t)) / (np.sqrt(v / (1.0 - self.beta2 ** t)) + self.eps)
        if self._wds[i]:
            ratio += self._wds[i] * param
        trust = _trust(float(np.linalg.norm(param)), float(np.linalg.norm(ratio)))
        param -= (lr * trust) * ratio


class LARS(Optimizer):
    """Mirrors `mindspore.nn.LARS`: wraps `optimizer`, replacing each filtered parameter's
    gradient by trust * (g + wd * param), trust = coefficient * ||param|| /
    (||g|| + wd * ||param|| + epsilon) (with `use_clip`, min(trust / lr, 1)); the wrapped
    optimizer then steps without its own weight decay."""

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=lambda x: 'LayerNorm' not in x.name and 'bias' not in x.name):
        super().__init__(0.0, [Parameter(Tensor(np.float32(0.0)), name="fake_param")])
        _checks.of_type("LARS", "optimizer", optimizer, (Optimizer,))
        self.epsilon = _checks.of_type("LARS", "epsilon", epsilon)
        self.coefficient = _checks.of_type("LARS", "coefficient", coefficient)
        self.use_clip = _checks.of_type("LARS", "use_clip", use_clip, (bool,))
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the "
                             "dynamic learning rate and group learning rate cannot both be true.")
        self.opt = optimizer
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        # The decay moves into the trust ratio's gradient: the wrapped optimizer drops its own.
        self._lars_wds, optimizer._wds = list(optimizer._wds), [0.0] * len(optimizer._wds)
        self._lars_loss_scale, optimizer.loss_scale = optimizer.loss_scale, 1.0

    def construct(self, gradients):
        step = int(self.global_step.asnumpy()[0])
        out = []
        for i, (param, grad) in enumerate(zip(self.parameters, gradients)):
            g = (grad.asnumpy() if isinstance(grad, Tensor) else np.asarray(grad))
            g = g / self._lars_loss_scale if self._lars_loss_scale != 1.0 else g
            if self.lars_flag[i]:
                w, wd = param.asnumpy(), self._lars_wds[i]
                w_norm, g_norm = float(np.linalg.norm(w)), float(np.linalg.norm(g))
                trust = 1.0
                if w_norm > 0 and g_norm > 0:
                    trust = self.coefficient * w_norm / (g_norm + wd * w_norm + self.epsilon)
                if self.use_clip:
                    trust = min(trust / self.opt._lrs[i].value(step), 1.0)
                g = (g + wd * w) * trust
            out.append(Tensor(g.astype(param.asnumpy().dtype, copy=False)))
        return self.opt(tuple(out))
