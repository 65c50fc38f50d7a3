"""`nn.RNN`, `nn.LSTM`, `nn.GRU`: stacked, optionally bidirectional recurrent layers.

Each layer and direction is one op of `cellgrad_nn.rnn.recurrent` (its own backward through
time); the layers around it (transposes, concatenation, dropout) are ordinary ops.
"""

import math

import numpy as np
from cellgrad._core._buffer import make_tensor

from cellgrad import Parameter, ParameterTuple, Tensor, ops
from cellgrad import log as logger
from cellgrad.dtype import float32, int32, int64
from cellgrad.nn import Cell
from cellgrad.plugins import apply
from cellgrad_nn.layers.dropout import Dropout
from cellgrad_nn.rnn import _checks
from cellgrad_nn.rnn.recurrent import BY_MODE

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class _DynamicRNNBase(Cell):
    """Runs one layer in one direction over a time-major sequence (MindSpore's child `rnn`)."""

    def __init__(self, mode):
        super().__init__()
        self.op = BY_MODE[mode]
        self.is_lstm = mode == "LSTM"

    def construct(self, x, h, seq_length, w_ih, w_hh, b_ih, b_hh, reverse=False):
        dt = x.dtype
        w_ih, w_hh = _as(w_ih, dt), _as(w_hh, dt)
        b_ih, b_hh = _as(b_ih, dt), _as(b_hh, dt)
        state = h if self.is_lstm else (h,)
        attrs = {"lengths": seq_length, "reverse": reverse}
        out = apply(self.op, (x, *state, w_ih, w_hh, b_ih, b_hh), attrs)
        return (out[0], out[1:]) if self.is_lstm else out


def _as(w, dt):
    return w if w is None or w.dtype == dt else ops.cast(w, dt)


class _DynamicRNNTanh(_DynamicRNNBase):
    def __init__(self):
        super().__init__("RNN_TANH")


class _DynamicRNNRelu(_DynamicRNNBase):
    def __init__(self):
        super().__init__("RNN_RELU")


class _DynamicLSTMCPUGPU(_DynamicRNNBase):
    def __init__(self):
        super().__init__("LSTM")


class _DynamicGRUCPUGPU(_DynamicRNNBase):
    def __init__(self):
        super().__init__("GRU")


_RUNNERS = {"LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU, "RNN_TANH": _DynamicRNNTanh,
            "RNN_RELU": _DynamicRNNRelu}


class _RNNBase(Cell):
    """Stacked recurrent layers with MindSpore's parameters `weight_ih_l{k}[_reverse]`, ...

    Parameters are uniform in (-1/sqrt(hidden_size), 1/sqrt(hidden_size)), drawn from numpy's
    global generator as MindSpore does (so `np.random.seed` gives MindSpore's weights).
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0., bidirectional=False, dtype=float32):
        super().__init__()
        name = self.cls_name
        _checks.positive_int(name, "hidden_size", hidden_size)
        _checks.positive_int(name, "input_size", input_size)
        _checks.positive_int(name, "num_layers", num_layers)
        if not isinstance(dropout, float):
            raise TypeError(f"For '{name}', the type of 'dropout' must be 'float', but got "
                            f"'{type(dropout).__name__}'.")
        for arg, value in (("has_bias", has_bias), ("batch_first", batch_first),
                           ("bidirectional", bidirectional)):
            _checks.check_bool(name, arg, value)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{name}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but "
                             f"got {dropout}.")
        if dropout > 0 and num_layers == 1:
            logger.warning(f"dropout option adds dropout after all but last recurrent layer, "
                           f"so non-zero dropout expects num_layers greater than 1, but got "
                           f"dropout={dropout} and num_layers={num_layers}")
        self.rnn = _RUNNERS[mode]()
        self.hidden_size, self.batch_first, self.num_layers = hidden_size, batch_first, num_layers
        self.input_size = input_size
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional, self.has_bias = bidirectional, has_bias
        self.is_lstm = mode == "LSTM"
        self._make_parameters(_GATES[mode] * hidden_size, dtype)

    def _make_parameters(self, gate_size, dtype):
        num_directions = 2 if self.bidirectional else 1
        stdv = 1 / math.sqrt(self.hidden_size)
        lists = {"w_ih": [], "w_hh": [], "b_ih": [], "b_hh": []}

        def param(shape, name):
            data = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
            return Parameter(Tensor(data, dtype=dtype), name=name)

        for layer in range(self.num_layers):
            for direction in range(num_directions):
                size = self.input_size if layer == 0 else self.hidden_size * num_directions
                suffix = f"l{layer}" + ("_reverse" if direction == 1 else "")
                lists["w_ih"].append(param((gate_size, size), f"weight_ih_{suffix}"))
                lists["w_hh"].append(param((gate_size, self.hidden_size), f"weight_hh_{suffix}"))
                if self.has_bias:
                    lists["b_ih"].append(param((gate_size,), f"bias_ih_{suffix}"))
                    lists["b_hh"].append(param((gate_size,), f"bias_hh_{suffix}"))
        self.w_ih_list = ParameterTuple(lists["w_ih"])
        self.w_hh_list = ParameterTuple(lists["w_hh"])
        self.b_ih_list = ParameterTuple(lists["b_ih"])
        self.b_hh_list = ParameterTuple(lists["b_hh"])

    def construct(self, x, hx=None, seq_length=None):
        name = self.cls_name
        _checks.floating(name, "x", x)
        if x.ndim != 3:
            layout = "(batch_size, seq_len, input_size)" if self.batch_first else \
                "(seq_len, batch_size, input_size)"
            raise ValueError(f"For '{name}', the 'x' must be 3-D {layout}, but got "
                             f"{_checks.describe(x)}.")
        if x.shape[2] != self.input_size:
            raise ValueError(f"For '{name}', the last dimension of 'x' must be input_size="
                             f"{self.input_size}, but got {_checks.describe(x)}.")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        states = self._initial_states(x, hx, batch)
        lengths = self._lengths(seq_length, batch)
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        out, h_n, c_n = self._stacked(x, states, lengths)
        if self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        h_n = ops.stack(h_n)
        return (out, (h_n, ops.stack(c_n))) if self.is_lstm else (out, h_n)

    def _initial_states(self, x, hx, batch):
        """[h] or [h, c]: (num_layers * num_directions, batch, hidden) Tensors, or None."""
        if hx is None:
            return None
        name = self.cls_name
        parts = list(_checks.state_tuple(name, "hx", hx)) if self.is_lstm else \
            [_checks.tensor(name, "hx", hx)]
        expected = (self.num_layers * (2 if self.bidirectional else 1), batch, self.hidden_size)
        for k, h in enumerate(parts):
            arg = f"hx[{k}]" if self.is_lstm else "hx"
            _checks.floating(name, arg, h)
            _checks.same_dtype(name, x, arg, h)
            _checks.shape(name, arg, h, expected,
                          "num_layers * num_directions, batch_size, hidden_size")
        return parts

    def _lengths(self, seq_length, batch):
        if seq_length is None:
            return None
        name = self.cls_name
        _checks.tensor(name, "seq_length", seq_length)
        if seq_length.dtype not in (int32, int64):
            raise TypeError(f"For '{name}', the 'seq_length' should be one of "
                            f"[mindspore.int32, mindspore.int64], but got "
                            f"'mindspore.{str(seq_length.dtype).lower()}'.")
        if seq_length.ndim != 1 or seq_length.shape[0] != batch:
            raise ValueError(f"For '{name}' batch size of x and seq_length must be equal, but "
                             f"got {batch} of x and {_checks.describe(seq_length)} of "
                             f"seq_length.")
        return seq_length.asnumpy().astype(np.int64)

    def _stacked(self, x, states, lengths):
        num_directions = 2 if self.bidirectional else 1
        zeros = None
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(num_directions):
                k = layer * num_directions + direction
                if states is None:
                    if zeros is None:
                        zeros = make_tensor(np.zeros((x.shape[1], self.hidden_size),
                                                     x._data.dtype))
                    state = (zeros, zeros) if self.is_lstm else zeros
                else:
                    state = tuple(s[k] for s in states) if self.is_lstm else states[0][k]
                b_ih = self.b_ih_list[k] if self.has_bias else None
                b_hh = self.b_hh_list[k] if self.has_bias else None
                out, h = self.rnn(x, state, lengths, self.w_ih_list[k], self.w_hh_list[k],
                                  b_ih, b_hh, direction == 1)
                outs.append(out)
                if self.is_lstm:
                    h_n.append(h[0])
                    c_n.append(h[1])
                else:
                    h_n.append(h)
            x = outs[0] if num_directions == 1 else ops.concat(outs, 2)
            if self.dropout != 0 and layer < self.num_layers - 1:
                x = self.dropout_op(x)
        return x, h_n, c_n


class RNN(_RNNBase):
    """Mirrors `mindspore.nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh',
    has_bias=True, batch_first=False, dropout=0., bidirectional=False, dtype=float32)`."""

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For '{type(self).__name__}', the 'nonlinearity' must be in "
                             f"['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class GRU(_RNNBase):
    """Mirrors `mindspore.nn.GRU(input_size, hidden_size, num_layers=1, has_bias=True,
    batch_first=False, dropout=0., bidirectional=False, dtype=float32)`; gates r, z, n."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """Mirrors `mindspore.nn.LSTM(input_size, hidden_size, num_layers=1, has_bias=True,
    batch_first=False, dropout=0., bidirectional=False, dtype=float32)`; gates i, f, g, o."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)
