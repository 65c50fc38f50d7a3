"""`nn.RNNCell`, `nn.LSTMCell`, `nn.GRUCell`: one time step, as a one-step recurrent op."""

import math
from functools import wraps

from cellgrad import Parameter
from cellgrad import log as logger
from cellgrad.common.initializer import Uniform, initializer
from cellgrad.dtype import float16, float32
from cellgrad.nn import Cell
from cellgrad.plugins import apply
from cellgrad_nn.rnn import _checks
from cellgrad_nn.rnn.recurrent import GRU, LSTM, RNN_RELU, RNN_TANH

_CELL_FLOATS = (float32, float16)


class RNNCellBase(Cell):
    """Mirrors `mindspore.nn.RNNCellBase`: `weight_ih`, `weight_hh`, `bias_ih`, `bias_hh`,
    uniform in (-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype=float32):
        super().__init__()
        _checks.check_bool(self.cls_name, "has_bias", has_bias)
        _checks.positive_int(self.cls_name, "hidden_size", hidden_size)
        _checks.positive_int(self.cls_name, "input_size", input_size)
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        gates = num_chunks * hidden_size
        stdv = 1 / math.sqrt(hidden_size)

        def param(shape, name):
            return Parameter(initializer(Uniform(stdv), shape, dtype), name=name)

        self.weight_ih = param([gates, input_size], "weight_ih")
        self.weight_hh = param([gates, hidden_size], "weight_hh")
        self.bias_ih = param([gates], "bias_ih") if has_bias else None
        self.bias_hh = param([gates], "bias_hh") if has_bias else None

    def reset_parameters(self, dtype=float32):
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _step(self, op, x, states):
        """One step: x (batch, input_size), states [(batch, hidden_size), ...]."""
        name = self.cls_name
        _checks.floating(name, "x", x, _CELL_FLOATS)
        if x.ndim != 2 or x.shape[1] != self.input_size:
            raise ValueError(f"For '{name}', the 'x' must have shape (batch_size, input_size="
                             f"{self.input_size}), but got {_checks.describe(x)}.")
        args = ("hx[0]", "hx[1]") if len(states) == 2 else ("hx",)
        for arg, h in zip(args, states):
            _checks.floating(name, arg, h, _CELL_FLOATS)
            _checks.shape(name, arg, h, (x.shape[0], self.hidden_size),
                          "batch_size, hidden_size")
        dt = x.dtype
        w = [p if p is None or p.dtype == dt else p.astype(dt)
             for p in (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)]
        states = [h if h.dtype == dt else h.astype(dt) for h in states]
        out = apply(op, (x.reshape((1,) + tuple(x.shape)), *states, *w))
        return out[1:]


class RNNCell(RNNCellBase):
    """Mirrors `mindspore.nn.RNNCell`: h' = tanh or relu(W_ih x + b_ih + W_hh h + b_hh)."""

    _non_linearity = ["tanh", "relu"]

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype=float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if not isinstance(nonlinearity, str) or nonlinearity not in self._non_linearity:
            raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be str and must "
                             f"be in '{self._non_linearity}', but got {nonlinearity!r}.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        _checks.tensor(self.cls_name, "x", x)
        _checks.tensor(self.cls_name, "hx", hx)
        op = RNN_TANH if self.nonlinearity == "tanh" else RNN_RELU
        return self._step(op, x, [hx])[0]


def _check_lstmcell_init(func):
    """MindSpore < 1.6's LSTMCell was a whole layer: its arguments are refused."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        logger.warning("LSTMCell has been changed from 'single LSTM layer' to 'single LSTM cell', "
                       "if you still need use single LSTM layer, please use `nn.LSTM` instead.")
        if len(args) > 4 or "batch_size" in kwargs or "dropout" in kwargs or \
                "bidirectional" in kwargs:
            raise ValueError("The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) "
                             "are detected, if you still need use single LSTM layer, please "
                             "use `nn.LSTM` instead.")
        return func(*args, **kwargs)

    return wrapper


class LSTMCell(RNNCellBase):
    """Mirrors `mindspore.nn.LSTMCell`: (h', c') from x and (h, c); gates i, f, g, o."""

    @_check_lstmcell_init
    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)

    def construct(self, x, hx):
        _checks.tensor(self.cls_name, "x", x)
        _checks.state_tuple(self.cls_name, "hx", hx)
        return tuple(self._step(LSTM, x, list(hx)))


class GRUCell(RNNCellBase):
    """Mirrors `mindspore.nn.GRUCell`: h' = (1 - z) n + z h; gates r, z, n."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        _checks.tensor(self.cls_name, "x", x)
        _checks.tensor(self.cls_name, "hx", hx)
        return self._step(GRU, x, [hx])[0]
