"""Activation layers (`nn.ReLU`, `nn.GELU`, `nn.Softmax`, ...) and `nn.get_activation`."""

import numpy as np

from cellgrad import ops
from cellgrad.nn import Cell
from cellgrad.parameter import Parameter
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional import activation as F
from cellgrad_nn.functional import activation_extra as FX
from cellgrad_nn.functional.softmax import log_softmax, softmax


class ReLU(Cell):
    """Mirrors `mindspore.nn.ReLU`."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.relu(x)


class ReLU6(Cell):
    """Mirrors `mindspore.nn.ReLU6`."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.relu6(x)


class LeakyReLU(Cell):
    """Mirrors `mindspore.nn.LeakyReLU`: x for x > 0, alpha * x otherwise."""

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'LeakyReLU', 'alpha' must be a number, but got {alpha!r}.")
        self.alpha = alpha

    def construct(self, x):
        return F.leaky_relu(x, self.alpha)


class ELU(Cell):
    """Mirrors `mindspore.nn.ELU`."""

    def __init__(self, alpha=1.0):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'ELU', 'alpha' must be a number, but got {alpha!r}.")
        self.alpha = alpha

    def construct(self, x):
        return F.elu(x, self.alpha)


class GELU(Cell):
    """Mirrors `mindspore.nn.GELU`: the tanh approximation unless `approximate=False`."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', 'approximate' must be a bool, but got "
                            f"{approximate!r}.")
        self.approximate = approximate
        self._mode = "tanh" if approximate else "none"

    def construct(self, x):
        return F.gelu(x, self._mode)


class SiLU(Cell):
    """Mirrors `mindspore.nn.SiLU`: x * sigmoid(x)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return F.silu(x)


class Sigmoid(Cell):
    """Mirrors `mindspore.nn.Sigmoid`."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    """Mirrors `mindspore.nn.Tanh`."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        return ops.tanh(x)


class _AxisCell(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)):
            raise TypeError(f"For '{type(self).__name__}', 'axis' must be an int, but got "
                            f"{axis!r}.")
        self.axis = axis


class Softmax(_AxisCell):
    """Mirrors `mindspore.nn.Softmax`."""

    def construct(self, x):
        return softmax(x, self.axis)


class LogSoftmax(_AxisCell):
    """Mirrors `mindspore.nn.LogSoftmax`."""

    def construct(self, x):
        return log_softmax(x, self.axis)


def _unary_cell(name, fn):
    """A parameterless activation Cell applying `fn`, as MindSpore's `nn.<name>`."""

    def __init__(self):
        Cell.__init__(self)

    def construct(self, input):
        return fn(input)

    return type(name, (Cell,), {"__init__": __init__, "construct": construct,
                                "__module__": __name__, "__qualname__": name,
                                "__doc__": f"Mirrors `mindspore.nn.{name}`."})


# MindSpore's parameterless activation cells that apply one function.
HSwish = _unary_cell("HSwish", F.hardswish)
HSigmoid = _unary_cell("HSigmoid", F.hardsigmoid)
Mish = _unary_cell("Mish", FX.mish)
Softsign = _unary_cell("Softsign", FX.softsign)
Tanhshrink = _unary_cell("Tanhshrink", FX.tanhshrink)
LogSigmoid = _unary_cell("LogSigmoid", FX.logsigmoid)
SeLU = _unary_cell("SeLU", FX.selu)
FastGelu = _unary_cell("FastGelu", FX.fast_gelu)


class _LambdCell(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _checks.number(type(self).__name__, "lambd", lambd)


class HShrink(_LambdCell):
    """Mirrors `mindspore.nn.HShrink`: x where |x| > lambd, else 0."""

    def construct(self, input):
        return FX.hardshrink(input, self.lambd)


class SoftShrink(_LambdCell):
    """Mirrors `mindspore.nn.SoftShrink`: x - lambd * sign(x) where |x| > lambd, else 0."""

    def construct(self, input):
        return FX.softshrink(input, self.lambd)


class Hardtanh(Cell):
    """Mirrors `mindspore.nn.Hardtanh`: x clipped to [min_val, max_val]."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = _checks.number("Hardtanh", "min_val", min_val)
        self.max_val = _checks.number("Hardtanh", "max_val", max_val)

    def construct(self, input):
        return FX.hardtanh(input, self.min_val, self.max_val)


class Threshold(Cell):
    """Mirrors `mindspore.nn.Threshold`: x where x > threshold, else value."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _checks.number("Threshold", "threshold", threshold)
        self.value = _checks.number("Threshold", "value", value)

    def construct(self, input):
        return FX.threshold(input, self.threshold, self.value)


class CELU(Cell):
    """Mirrors `mindspore.nn.CELU`."""

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _checks.number("CELU", "alpha", alpha)

    def construct(self, x):
        return FX.celu(x, self.alpha)


class GLU(_AxisCell):
    """Mirrors `mindspore.nn.GLU`: a * sigmoid(b), the input halved along `axis`."""

    def construct(self, x):
        return FX.glu(x, self.axis)


class Softmin(_AxisCell):
    """Mirrors `mindspore.nn.Softmin`."""

    def construct(self, x):
        return FX.softmin(x, self.axis)


class Softmax2d(Cell):
    """Mirrors `mindspore.nn.Softmax2d`: softmax over the channels of (N, C, H, W) or
    (C, H, W)."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"For 'Softmax2d', the input must be 3-D (C, H, W) or 4-D "
                             f"(N, C, H, W), but got shape {tuple(x.shape)}.")
        return softmax(x, -3)


class PReLU(Cell):
    """Mirrors `mindspore.nn.PReLU`: x where x > 0, else a * x, with a learnable slope `a`
    (one, or one per channel)."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int):
            raise TypeError(f"For 'PReLU', the 'channel' must be int, but got "
                            f"'{type(channel).__name__}'")
        if channel < 1:
            raise ValueError(f"For 'PReLU', the 'channel' must be int and must > 0, but got "
                             f"'{channel}' with type 'int'.")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            values = np.full((channel,), w, np.float32)
        elif not isinstance(w, (list, tuple, np.ndarray)) and not hasattr(w, "asnumpy"):
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but "
                            f"got {type(w).__name__}.")
        else:
            values = np.asarray(w.asnumpy() if hasattr(w, "asnumpy") else w, np.float32)
            if values.shape != (channel,):
                raise ValueError(f"For 'PReLU', 'w' must be a number or have shape "
                                 f"({channel},), but got shape {values.shape}.")
        self.a = Parameter(values, name="a")

    def construct(self, x):
        return FX.prelu(x, self.a)


class RReLU(Cell):
    """Mirrors `mindspore.nn.RReLU`: negative inputs scaled by a random slope drawn from
    [lower, upper]."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        self.lower = _checks.number("RReLU", "lower", lower)
        self.upper = _checks.number("RReLU", "upper", upper)
        if self.lower > self.upper:
            raise ValueError(f"For 'RReLU', 'lower' ({lower}) must not exceed 'upper' "
                             f"({upper}).")

    def construct(self, x):
        return FX.rrelu(x, self.lower, self.upper)


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "elu": ELU,
                "gelu": GELU, "silu": SiLU, "swish": SiLU, "sigmoid": Sigmoid, "tanh": Tanh,
                "softmax": Softmax, "logsoftmax": LogSoftmax, "hswish": HSwish,
                "hsigmoid": HSigmoid, "mish": Mish, "softsign": Softsign,
                "tanhshrink": Tanhshrink, "logsigmoid": LogSigmoid,
                "fast_gelu": FastGelu, "hshrink": HShrink, "softshrink": SoftShrink,
                "hardtanh": Hardtanh, "threshold": Threshold, "softmin": Softmin,
                "softmax2d": Softmax2d, "prelu": PReLU, "rrelu": RReLU}


def get_activation(name, prim_name=None):
    """Mirrors `mindspore.nn.get_activation`: an activation Cell from its lower-case name."""
    if name is None:
        return None
    if not isinstance(name, str) or name not in _ACTIVATIONS:
        raise KeyError(f"For '{prim_name or 'get_activation'}', the activation {name!r} is not "
                       f"supported; supported: {sorted(_ACTIVATIONS)}.")
    return _ACTIVATIONS[name]()
