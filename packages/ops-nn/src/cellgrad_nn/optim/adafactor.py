"""`nn.AdaFactor` (Shazeer & Stern, 2018) with MindSpore's update: factored second moments for
matrices (row and column means), a relative step size by default, update clipping by RMS."""

import numpy as np

from cellgrad.common.parameter import Parameter, ParameterTuple
from cellgrad.common.tensor import Tensor
from cellgrad_nn.optim.optimizer import Optimizer


def _rms(x):
    return np.sqrt(np.mean(np.square(x)))


class AdaFactor(Optimizer):
    """Mirrors `mindspore.nn.AdaFactor`. States: `exp_avg.<param>` (when beta1 > 0),
    `exp_avg_sq_row_<param>`, `exp_avg_sq_col_<param>`, `exp_avg_sq_<param>` and
    `afactor_step`. As MindSpore's, the gradients are used as given (not divided by
    loss_scale) and weight decay scales the parameter."""

    _decays_in_gradient = False

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        self.scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = "AdaFactor"
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"For '{name}', the type of 'eps' must be list or tuple, but got "
                            f"{type(eps).__name__}.")
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, value in enumerate(eps):
            _float(name, f"eps{i}", value, 0.0)
        _float(name, "clip_threshold", clip_threshold, 0.0)
        _float(name, "decay_rate", decay_rate)
        if not 0 < decay_rate < 1:
            raise ValueError(f"For '{name}', the 'decay_rate' must be in range (0, 1), but got "
                             f"{decay_rate}.")
        if not 0 <= weight_decay < 1:
            raise ValueError(f"For '{name}', the 'weight_decay' must be in range [0, 1), but got "
                             f"{weight_decay}.")
        for arg, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                           ("compression", compression)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{name}', the type of '{arg}' must be bool, but got "
                                f"{type(value).__name__}.")
        if isinstance(beta1, bool) or not isinstance(beta1, (int, float)) or beta1 < 0:
            raise ValueError(f"For '{name}', the 'beta1' must be a non-negative number, but got "
                             f"{beta1!r}.")
        self.eps, self.clip_threshold, self.decay_rate = tuple(eps), clip_threshold, decay_rate
        self.beta1, self.weight_decay_value = float(beta1), float(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step, self.warmup_init, self.compression = relative_step, warmup_init, \
            compression
        self.use_first_moment = beta1 > 0
        self.exp_avg = self._state("exp_avg") if self.use_first_moment else ParameterTuple(
            [Parameter(Tensor(np.float32(0.0)), name=f"exp_avg_unused_{i}")
             for i in range(len(self.parameters))])
        rows, cols, full = [], [], []
        for p in self.parameters:
            shape, dtype = tuple(p.shape), p.asnumpy().dtype
            factored = len(shape) > 1
            rows.append(Parameter(Tensor(np.zeros(shape[:-1] if factored else (1,), dtype)),
                                  name=f"exp_avg_sq_row_{p.name}"))
            cols.append(Parameter(Tensor(np.zeros(shape[:-2] + shape[-1:] if factored else (1,),
                                                  dtype)), name=f"exp_avg_sq_col_{p.name}"))
            full_dtype = np.float16 if compression and not factored else dtype
            full.append(Parameter(Tensor(np.zeros((1,) if factored else shape, full_dtype)),
                                  name=f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)
        self.step = Parameter(Tensor(np.zeros(1, np.float32)), name="afactor_step")

    @property
    def supports_memory_efficient_fp16(self):
        """Mirrors `AdaFactor.supports_memory_efficient_fp16`."""
        return True

    @property
    def supports_flat_params(self):
        """Mirrors `AdaFactor.supports_flat_params`."""
        return False

    def construct(self, gradients):
        step = self.step.asnumpy()
        step += 1
        t = np.float32(step[0])
        self._lr_override = None
        if self.scale_lr and self.relative_step:
            min_step = np.float32(1e-6) * t if self.warmup_init else np.float32(1e-2)
            self._lr_override = np.minimum(min_step, np.float32(1.0) / np.sqrt(t))
        self._beta2t = np.float32(1.0) - np.power(t, np.float32(-self.decay_rate))
        return super().construct(gradients)

    def _gradient(self, i, data, grad):
        g = grad.asnumpy() if isinstance(grad, Tensor) else np.asarray(grad)
        if g.shape != data.shape:
            raise ValueError(f"For 'AdaFactor', the gradient of '{self.parameters[i].name}' has "
                             f"shape {g.shape}, but the parameter has shape {data.shape}.")
        return g

    def _update(self, i, param, grad, lr):
        f32 = np.float32
        lr = f32(self._lr_override if self._lr_override is not None else lr)
        beta2t, eps1, eps2 = self._beta2t, f32(self.eps[0]), f32(self.eps[1])
        g = grad.astype(np.float32)
        p = param.astype(np.float32)
        lr_update = lr * np.maximum(eps2, f32(_rms(p))) if self.scale_parameter else lr
        sq = g * g + eps1
        if g.ndim >= 2:
            row, col = self.exp_avg_sq_row[i].asnumpy(), self.exp_avg_sq_col[i].asnumpy()
            row[...] = row * beta2t + sq.mean(-1) * (f32(1.0) - beta2t)
            col[...] = col * beta2t + sq.mean(-2) * (f32(1.0) - beta2t)
            r_factor = (f32(1.0) / np.sqrt(row / row.mean(-1, keepdims=True)))[..., None]
            c_factor = f32(1.0) / np.sqrt(col[..., None, :])
            update = r_factor * c_factor * g
        else:
            full = self.exp_avg_sq[i].asnumpy()
            full[...] = full * beta2t + sq * (f32(1.0) - beta2t)
            update = (f32(1.0) / np.sqrt(full.astype(np.float32))) * g
        coeff = np.maximum(f32(_rms(update)) / f32(self.clip_threshold), f32(1.0))
        update = update / coeff * lr_update
        if self.use_first_moment:
            avg = self.exp_avg[i].asnumpy()
            avg[...] = avg * f32(self.beta1) + update * f32(1.0 - self.beta1)
            update = avg
        if self.weight_decay_value:
            p = p + p * -f32(self.weight_decay_value) * lr_update
        param[...] = (p - update).astype(param.dtype)


def _float(cls_name, arg, value, least=None):
    if not isinstance(value, float):
        raise TypeError(f"For '{cls_name}', the type of '{arg}' must be float, but got "
                        f"{type(value).__name__}.")
    if least is not None and value < least:
        raise ValueError(f"For '{cls_name}', the '{arg}' must be a non-negative float, but got "
                         f"{value}.")
