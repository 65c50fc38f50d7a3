"""Activation layers (`nn.ReLU`, `nn.GELU`, `nn.Softmax`, ...) and `nn.get_activation`."""

from cellgrad import ops
from cellgrad.nn import Cell
from cellgrad_nn.functional import activation as F
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


_ACTIVATIONS = {"relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "elu": ELU,
                "gelu": GELU, "silu": SiLU, "swish": SiLU, "sigmoid": Sigmoid, "tanh": Tanh,
                "softmax": Softmax, "logsoftmax": LogSoftmax}


def get_activation(name, prim_name=None):
    """Mirrors `mindspore.nn.get_activation`: an activation Cell from its lower-case name."""
    if name is None:
        return None
    if not isinstance(name, str) or name not in _ACTIVATIONS:
        raise KeyError(f"For '{prim_name or 'get_activation'}', the activation {name!r} is not "
                       f"supported; supported: {sorted(_ACTIVATIONS)}.")
    return _ACTIVATIONS[name]()
