"""More activations, composed from recorded ops (their gradients, of any order, come from
those ops): selu, celu, mish, softsign, hardtanh, logsigmoid, softmin, hardshrink,
softshrink, tanhshrink, threshold, fast_gelu, prelu."""

import numpy as np

from cellgrad.plugins import apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional.activation import ELU, SOFTPLUS
from cellgrad_nn.functional.softmax import SOFTMAX

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _F():
    from cellgrad.ops import functional as F

    return F


def _softplus(x):
    return apply(SOFTPLUS, (x,), {"beta": 1.0, "threshold": 20.0})


def selu(input_x):
    """Mirrors `mindspore.ops.selu`: scale * elu(x, alpha) with the self-normalising
    constants. Int8/Int32 inputs run MindSpore's integer kernel: its constants truncated to
    1, so x where x > 0, else expm1(x) in float32 truncated (-1 from x <= -18, else 0)."""
    from cellgrad._core._buffer import TensorBuffer

    if isinstance(input_x, TensorBuffer) and str(input_x.dtype) in ("Int8", "Int32"):
        from cellgrad import Tensor

        x = input_x._data
        neg = np.trunc(np.expm1(np.minimum(x, 0).astype(np.float32))).astype(x.dtype)
        return Tensor(np.where(x > 0, x, neg))
    if isinstance(input_x, TensorBuffer) and not input_x.dtype.is_floating:
        raise TypeError("For primitive[SeLU], the input argument[input_x] must be a type of "
                        "{Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], "
                        f"Tensor[Int8]}}, but got Tensor[{input_x.dtype}].")
    _checks.floating("selu", "input_x", input_x)
    return apply(ELU, (input_x,), {"alpha": _SELU_ALPHA}) * _SELU_SCALE


def celu(x, alpha=1.0):
    """Mirrors `mindspore.ops.celu`: max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""
    _checks.floating("celu", "x", x)
    alpha = _checks.number("celu", "alpha", alpha)
    if alpha == 0:
        raise ValueError("For 'celu', 'alpha' must not be 0.")
    return apply(ELU, (x * (1.0 / alpha),), {"alpha": 1.0}) * alpha


def mish(x):
    """Mirrors `mindspore.ops.mish`: x * tanh(softplus(x))."""
    _checks.floating("mish", "x", x)
    return x * _F().tanh(_softplus(x))


def softsign(x):
    """Mirrors `mindspore.ops.softsign`: x / (1 + |x|)."""
    _checks.floating("softsign", "x", x)
    return x / (_F().abs(x) + 1.0)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    """Mirrors `mindspore.ops.hardtanh`: clip to [min_val, max_val]; integer and bool inputs
    keep their dtype (bounds cast to it as MindSpore's kernel casts them)."""
    kind = _checks.tensor("hardtanh", "input", input)._data.dtype.kind
    if kind not in "biu":
        _checks.floating("hardtanh", "input", input)
    lo = _checks.number("hardtanh", "min_val", min_val)
    hi = _checks.number("hardtanh", "max_val", max_val)
    if lo > hi:
        raise ValueError(f"For 'hardtanh', 'min_val' ({lo}) must not exceed 'max_val' ({hi}).")
    F = _F()
    if kind == "b":
        return input.copy()
    if kind in "iu":
        dt = input._data.dtype
        lo, hi = (F.full((), _int_bound(v, dt), dtype=input.dtype) for v in (min_val, max_val))
    # maximum/minimum, not clamp: a value on a bound gets half the gradient, as in MindSpore
    return F.minimum(F.maximum(input, lo), hi)


def _int_bound(value, dtype):
    """A bound as MindSpore's integer kernel sees it: an int wraps, a float truncates and
    saturates."""
    if not isinstance(value, int):
        info = np.iinfo(dtype)
        return int(np.clip(np.trunc(value), info.min, info.max))
    return int(np.array(value).astype(dtype))


def logsigmoid(x):
    """Mirrors `mindspore.ops.logsigmoid`: log(sigmoid(x)) = -softplus(-x), stable."""
    _checks.floating("logsigmoid", "x", x)
    return -_softplus(-x)


def softmin(x, axis=-1, *, dtype=None):
    """Mirrors `mindspore.ops.softmin`: softmax(-x) along `axis`."""
    if dtype is not None:
        x = _F().cast(_checks.tensor("softmin", "x", x), dtype)
    _checks.floating("softmin", "x", x)
    return apply(SOFTMAX, (-x,), {"axis": _checks.axis("softmin", axis, x.ndim)})


def _lambd(name, lambd):
    # MindSpore's HShrink/SoftShrink take a bool `lambd` as 0 or 1
    return float(lambd) if isinstance(lambd, bool) else _checks.number(name, "lambd", lambd)


def hardshrink(input, lambd=0.5):
    """Mirrors `mindspore.ops.hardshrink`: x where |x| > lambd, else 0."""
    _checks.floating("hardshrink", "input", input)
    lambd = _lambd("hardshrink", lambd)
    return _F().where(_F().abs(input) > lambd, input, _F().zeros_like(input))


def softshrink(input, lambd=0.5):
    """Mirrors `mindspore.ops.softshrink`: x - lambd above lambd, x + lambd below -lambd,
    else 0."""
    _checks.floating("softshrink", "input", input)
    lambd = _lambd("softshrink", lambd)
    if lambd < 0:
        raise ValueError(f"For 'softshrink', 'lambd' must be non-negative, got {lambd}.")
    return input - _F().clamp(input, -lambd, lambd)


def tanhshrink(input):
    """Mirrors `mindspore.ops.tanhshrink`: x - tanh(x)."""
    _checks.floating("tanhshrink", "input", input)
    return input - _F().tanh(input)


def threshold(input, thr, value):
    """Mirrors `mindspore.ops.threshold`: x where x > thr, else `value`."""
    _checks.floating("threshold", "input", input)
    thr = _checks.number("threshold", "thr", thr)
    value = _checks.number("threshold", "value", value)
    return _F().where(input > thr, input, _F().full_like(input, value))


def fast_gelu(x):
    """Mirrors `mindspore.ops.fast_gelu`: x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)),
    i.e. x * sigmoid(1.702 x)."""
    _checks.floating("fast_gelu", "x", x)
    return x * _F().sigmoid(x * 1.702)


def prelu(input, weight):
    """Mirrors `mindspore.ops.prelu`: x where x > 0, else weight * x; `weight` has one value
    or one per channel (dimension 1)."""
    _checks.floating("prelu", "input", input)
    _checks.floating("prelu", "weight", weight)
    channels = input.shape[1] if input.ndim >= 2 else 1
    if weight.ndim != 1 or weight.shape[0] not in (1, channels):
        raise ValueError(f"For 'prelu', 'weight' must be 1-D with 1 or {channels} (channel) "
                         f"values, got {_checks.describe(weight)} for input "
                         f"{_checks.describe(input)}.")
    F = _F()
    w = weight
    if input.ndim >= 2 and weight.shape[0] != 1:
        w = F.reshape(weight, (1, channels) + (1,) * (input.ndim - 2))
    return F.where(input > 0, input, input * w)


def glu(x, axis=-1):
    """Mirrors `mindspore.ops.glu`: a * sigmoid(b), `x` split in halves a, b along `axis`."""
    F = _F()
    _checks.floating("glu", "x", x)
    axis = _checks.axis("glu", axis, x.ndim)
    if x.shape[axis] % 2:
        raise ValueError(f"For 'glu', dimension {axis} of 'x' {tuple(x.shape)} must be even "
                         f"(split in two halves).")
    a, b = F.split(x, x.shape[axis] // 2, axis)
    return a * F.sigmoid(b)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3):
    """Mirrors `mindspore.ops.rrelu`: negative elements scaled by a slope drawn uniformly
    from [lower, upper] (cellgrad's seeded generator), positive ones kept."""
    import numpy as np

    from cellgrad import Tensor, context

    _checks.floating("rrelu", "input", input)
    lower = _checks.number("rrelu", "lower", lower)
    upper = _checks.number("rrelu", "upper", upper)
    if lower > upper:
        raise ValueError(f"For 'rrelu', 'lower' ({lower}) must not exceed 'upper' ({upper}).")
    data = input._data
    slope = context.generator().uniform(lower, upper, data.shape).astype(data.dtype)
    return input * Tensor(np.where(data >= 0, 1, slope).astype(data.dtype))
