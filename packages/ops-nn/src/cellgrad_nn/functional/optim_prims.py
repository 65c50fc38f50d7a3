"""Optimizer update primitives that write their Parameters in place: `AdamWeightDecay`."""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.functional import _checks


def _state(op, name, t, dtypes=(np.float16, np.float32)):
    if not isinstance(t, Tensor) or t.asnumpy().dtype.type not in dtypes:
        raise TypeError(f"For '{op}', '{name}' must be a Float16 or Float32 Tensor or "
                        f"Parameter, got {_checks.describe(t)}.")
    return t.asnumpy()


def _scalar(op, name, value):
    if isinstance(value, Tensor):
        if np.size(value.asnumpy()) != 1 or not value.dtype.is_floating:
            raise TypeError(f"For '{op}', '{name}' must be a float or a one-element floating "
                            f"Tensor, got {_checks.describe(value)}.")
        return np.float32(value.asnumpy().reshape(()))
    if not isinstance(value, float):
        raise TypeError(f"Failed calling {op} with \"{op}(use_locking=bool)(var=Tensor, "
                        f"m=Tensor, v=Tensor, lr=float, beta1=float, beta2=float, "
                        f"epsilon=float, decay=float, gradient=Tensor)\": '{name}' is "
                        f"{type(value).__name__}.")
    return np.float32(value)


class AdamWeightDecay(Primitive):
    """Mirrors `mindspore.ops.AdamWeightDecay(use_locking=False)(var, m, v, lr, beta1, beta2,
    epsilon, decay, gradient)`: m = beta1 m + (1 - beta1) g, v = beta2 v + (1 - beta2) g^2,
    var -= lr (m / (sqrt(v) + epsilon) + decay var), all three written in place (no bias
    correction). Returns (var, m, v), the updated tensors themselves; MindSpore 2.10's CPU
    kernel returns tensors whose contents are unspecified."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        # MindSpore 2.10 records `use_locking` as given (an int included); one process has
        # nothing to lock.
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        op = self.name
        w, mm, vv = _state(op, "var", var), _state(op, "m", m), _state(op, "v", v)
        _checks.tensor(op, "gradient", gradient)
        if gradient.dtype != var.dtype:
            raise TypeError(f"For '{op}', data type conversion is not supported for a "
                            f"Parameter, nor for the input tensor of an in-place operator: "
                            f"'gradient' is {gradient.dtype}, 'var' {var.dtype}.")
        for name, t in (("m", m), ("v", v), ("gradient", gradient)):
            if tuple(t.shape) != tuple(var.shape):
                raise ValueError(f"For primitive[{op}], the var_shape: {list(var.shape)} must "
                                 f"be equal to {name}'s shape {list(t.shape)}.")
        lr, b1, b2, eps, wd = (_scalar(op, n, x) for n, x in (
            ("lr", lr), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon),
            ("decay", decay)))
        g = gradient.asnumpy().astype(np.float32)
        m32 = b1 * mm.astype(np.float32) + (1 - b1) * g
        v32 = b2 * vv.astype(np.float32) + (1 - b2) * g * g
        update = m32 / (np.sqrt(v32) + eps) + wd * w.astype(np.float32)
        w[...] = (w.astype(np.float32) - lr * update).astype(w.dtype)
        mm[...] = m32.astype(mm.dtype)
        vv[...] = v32.astype(vv.dtype)
        return var, m, v
