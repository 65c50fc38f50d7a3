"""Elementwise activations with their backward rules (`ops.relu`, `ops.gelu`, ...).

Rules use `ctx.xp` and save only inputs, outputs and attributes, so they also run on Tensors,
recorded, for higher-order gradients.
"""

import math

import numpy as np
from cellgrad._core._buffer import SAVE_OUTPUT, TensorBuffer, apply_unary

from cellgrad.common.tensor import Tensor
from cellgrad.dtype import bool_
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn._kernels.activation import relu as relu_kernel
from cellgrad_nn._kernels.activation import relu_grad
from cellgrad_nn.functional import _checks, _lowp
from cellgrad_nn.functional._math import erf, erf_xp, sigmoid, sigmoid_xp, tanh_xp


def _relu_fwd(x):
    out = _relu_values(x)
    return out, (out,)


def _relu_values(x, _maximum=np.maximum, _relu=relu_kernel):
    if x.dtype.char == "e":  # float16: a select on the bit patterns (numpy's is emulated)
        return _lowp.relu(x)
    out = _relu(x)  # float32/64, C-contiguous: one loop without the ufunc's set-up
    return _maximum(x, 0) if out is None else out


# The core's one-input fast path calls this directly and saves the output (as _relu_fwd does),
# skipping the generic dispatch: relu runs once per activation cell on every call.
_relu_fwd.ufunc = _relu_values
_relu_fwd.save = SAVE_OUTPUT


def _relu_bwd(ctx, g):
    (out,) = ctx.saved
    # a select, as MindSpore's ReluGrad: an inf/nan gradient where the unit is off gives 0, not
    # nan (a loss-scaled step is not skipped for it); no float16 multiply (emulated by numpy)
    if not ctx.xp.IS_TENSOR:
        res = relu_grad(out, g)  # one pass; None for other dtypes and layouts
        if res is not None:
            return res
        if out.dtype.char == "e" and g.dtype.char == "e" and out.shape == g.shape:
            return _lowp.relu_grad(out, g)
        return np.where(out > 0, g, np.zeros((), g.dtype))  # bfloat16 under numpy 1.x too
    return ctx.xp.where(out > 0, g, 0)


def _relu6_fwd(x):
    return np.clip(x, 0, 6), (x,)


def _relu6_bwd(ctx, g):
    (x,) = ctx.saved
    if not ctx.xp.IS_TENSOR:  # one mask, formed in place
        mask = x > 0
        mask &= x <= 6
        return np.multiply(g, mask)
    return g * ((x > 0) & (x <= 6))  # MindSpore passes the gradient at x = 6, not at 0


def _leaky_fwd(x, *, alpha):
    return np.where(x > 0, x, x * alpha), (x, alpha)


def _leaky_bwd(ctx, g):
    x, alpha = ctx.saved
    # At 0 MindSpore's maximum(alpha * x, x) splits the tie: (1 + alpha) / 2.
    xp = ctx.xp
    return xp.where(x > 0, g, xp.where(x < 0, g * alpha, g * ((1 + alpha) / 2)))


def _elu_fwd(x, *, alpha):
    out = np.where(x > 0, x, np.expm1(np.minimum(x, 0)) * alpha)
    return out, (x, out, alpha)


def _elu_bwd(ctx, g):
    x, out, alpha = ctx.saved
    if not ctx.xp.IS_TENSOR and g.dtype == out.dtype:  # the same values, a temporary fewer
        t = out + alpha
        t *= g  # (g * t: the product commutes exactly)
        return np.where(x > 0, g, t)
    return ctx.xp.where(x > 0, g, g * (out + alpha))


_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_GELU_C = 0.044715


def _gelu_fwd(x, *, approximate):
    # The tanh (or Phi) is saved for the first-order rule; higher orders recompute it from x.
    if approximate == "tanh":
        t = np.tanh((x + x * x * x * _GELU_C) * _SQRT_2_OVER_PI)
        return x * (t + 1) * 0.5, (x, approximate, t)
    cdf = (erf(x * _SQRT_HALF) + 1) * 0.5
    return x * cdf, (x, approximate, cdf)


def _gelu_bwd(ctx, g):
    x, approximate, inner = ctx.saved
    xp = ctx.xp
    if approximate == "tanh":
        t = tanh_xp(xp, (x + x * x * x * _GELU_C) * _SQRT_2_OVER_PI) if xp.IS_TENSOR else inner
        du = (x * x * (3 * _GELU_C) + 1) * _SQRT_2_OVER_PI
        return g * ((t + 1) * 0.5 + x * 0.5 * (1 - t * t) * du)
    cdf = (erf_xp(xp, x * _SQRT_HALF) + 1) * 0.5 if xp.IS_TENSOR else inner
    return g * (cdf + x * xp.exp(x * x * -0.5) * _INV_SQRT_2PI)


def _silu_fwd(x):
    return x * sigmoid(x), (x,)


def _silu_bwd(ctx, g):
    (x,) = ctx.saved
    s = sigmoid_xp(ctx.xp, x)
    if not ctx.xp.IS_TENSOR and g.dtype == x.dtype:  # in place: the same roundings
        t = x * s
        t *= 1 - s
        t += s
        t *= g
        return t
    return g * (s + x * s * (1 - s))


def _softplus_fwd(x, *, beta, threshold):
    bx = x * beta
    soft = (np.log1p(np.exp(-np.abs(bx))) + np.maximum(bx, 0)) / beta
    return np.where(bx > threshold, x, soft).astype(x.dtype, copy=False), (x, beta, threshold)


def _softplus_bwd(ctx, g):
    x, beta, threshold = ctx.saved
    bx = x * beta
    return ctx.xp.where(bx > threshold, g, g * sigmoid_xp(ctx.xp, bx))


def _hardswish_fwd(x):
    out = x * np.clip(x + 3, 0, 6) / 6
    out += 0  # -0.0 (from x < -3) prints as 0, as MindSpore's
    return out, (x,)


def _hardswish_bwd(ctx, g):
    (x,) = ctx.saved
    inner = g * (x * (1 / 3) + 0.5)
    return ctx.xp.where(x < -3, g * 0, ctx.xp.where(x > 3, g, inner))


def _hardsigmoid_fwd(x):
    return np.clip(x + 3, 0, 6) / 6, (x,)


def _hardsigmoid_bwd(ctx, g):
    (x,) = ctx.saved
    if not ctx.xp.IS_TENSOR:  # one mask and one result, formed in place
        mask = x > -3
        mask &= x < 3
        out = np.multiply(g, mask)
        out *= 1 / 6
        return out
    return g * ((x > -3) & (x < 3)) * (1 / 6)


RELU = Op("relu", _relu_fwd, _relu_bwd, PROMOTE_NONE)
RELU6 = Op("relu6", _relu6_fwd, _relu6_bwd, PROMOTE_NONE)
LEAKY_RELU = Op("leaky_relu", _leaky_fwd, _leaky_bwd, PROMOTE_NONE)
ELU = Op("elu", _elu_fwd, _elu_bwd, PROMOTE_NONE)
GELU = Op("gelu", _gelu_fwd, _gelu_bwd, PROMOTE_NONE)
SILU = Op("silu", _silu_fwd, _silu_bwd, PROMOTE_NONE)
SOFTPLUS = Op("softplus", _softplus_fwd, _softplus_bwd, PROMOTE_NONE)
HARDSWISH = Op("hardswish", _hardswish_fwd, _hardswish_bwd, PROMOTE_NONE)
HARDSIGMOID = Op("hardsigmoid", _hardsigmoid_fwd, _hardsigmoid_bwd, PROMOTE_NONE)
OPS = (RELU, RELU6, LEAKY_RELU, ELU, GELU, SILU, SOFTPLUS, HARDSWISH, HARDSIGMOID)


def relu(input, inplace=False):
    """Mirrors `mindspore.ops.relu`: max(input, 0); integer inputs keep their dtype.

    `inplace=True` also writes the result into `input` (MindSpore's CPU build rejects it).
    """
    if not isinstance(input, TensorBuffer):
        _checks.tensor("relu", "input", input)
    if input.dtype is bool_:
        raise TypeError(f"For 'relu', 'input' must be a numeric Tensor, got "
                        f"{_checks.describe(input)}.")
    out = apply_unary(RELU, input)
    if inplace:
        # the values go into `input`; the returned Tensor carries the gradient (relu's rule)
        np.copyto(input._data, out._data)
    return out


def relu6(x):
    """Mirrors `mindspore.ops.relu6`: min(max(x, 0), 6) on a floating Tensor."""
    return apply(RELU6, (_checks.floating("relu6", "x", x),))


def leaky_relu(input, alpha=0.2):
    """Mirrors `mindspore.ops.leaky_relu`: x where x > 0, else alpha * x. An integer or bool
    input is computed in its dtype with `alpha` cast to it (MindSpore's kernel: 0.1 -> 0)."""
    if isinstance(input, Tensor) and input.asnumpy().dtype.kind in "biu":
        x = input.asnumpy()
        a = np.asarray(_checks.number("leaky_relu", "alpha", alpha)).astype(x.dtype)
        return Tensor(np.where(x > 0, x, x * a).astype(x.dtype))
    _checks.floating("leaky_relu", "input", input)
    return apply(LEAKY_RELU, (input,), {"alpha": _checks.number("leaky_relu", "alpha", alpha)})


def elu(input_x, alpha=1.0):
    """Mirrors `mindspore.ops.elu`: x where x > 0, else alpha * (exp(x) - 1).

    Any `alpha` works (MindSpore 2.10's CPU kernel accepts only 1.0).
    """
    _checks.floating("elu", "input_x", input_x)
    return apply(ELU, (input_x,), {"alpha": _checks.number("elu", "alpha", alpha)})


def gelu(input, approximate="none"):
    """Mirrors `mindspore.ops.gelu`: x * Phi(x) ('none', with erf) or its tanh approximation."""
    _checks.floating("gelu", "input", input)
    if approximate not in ("none", "tanh"):
        raise ValueError(f"For 'gelu', 'approximate' must be 'none' or 'tanh', got "
                         f"{approximate!r}.")
    return apply(GELU, (input,), {"approximate": approximate})


def silu(input):
    """Mirrors `mindspore.ops.silu`: x * sigmoid(x)."""
    return apply(SILU, (_checks.floating("silu", "input", input),))


def softplus(input, beta=1, threshold=20):
    """Mirrors `mindspore.ops.softplus`: log(1 + exp(beta * x)) / beta, linear past threshold."""
    _checks.floating("softplus", "input", input)
    beta = _checks.number("softplus", "beta", beta)
    if beta == 0:
        raise ValueError("For 'softplus', 'beta' must not be 0.")
    threshold = _checks.number("softplus", "threshold", threshold)
    return apply(SOFTPLUS, (input,), {"beta": beta, "threshold": threshold})


def hardswish(input):
    """Mirrors `mindspore.ops.hardswish`: x * relu6(x + 3) / 6."""
    return apply(HARDSWISH, (_checks.floating("hardswish", "input", input),))


def hardsigmoid(input):
    """Mirrors `mindspore.ops.hardsigmoid`: relu6(x + 3) / 6."""
    return apply(HARDSIGMOID, (_checks.floating("hardsigmoid", "input", input),))
