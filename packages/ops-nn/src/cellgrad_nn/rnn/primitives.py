"""MindSpore's recurrent Primitives over the layer ops of `recurrent.py`: `ops.DynamicRNN`
and `ops.DynamicGRUV2` (Ascend kernels in MindSpore; their documented layouts here) and
`ops.LSTM` (MindSpore's CPU kernel: one packed weight blob).

Weights are re-laid out with Tensor ops (split, concat, transpose), so their gradients flow
back to the Primitive's own `w`/`b`; the time loop and its backward are `recurrent.py`'s.
As in MindSpore's bprops, `y` carries the gradient of every step and `output_h`/`output_c`
only that of their last step; the gate outputs (`i`, `j`, `f`, `o`, `tanhct`, `update`,
`reset`, `new`, `hidden_new`) are the forward's values, without gradient.
"""

import numpy as np
from cellgrad._core._buffer import make_tensor

from cellgrad import _checkparam as validator
from cellgrad import ops
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import apply
from cellgrad_nn.rnn import _checks
from cellgrad_nn.rnn.recurrent import GRU
from cellgrad_nn.rnn.recurrent import LSTM as LSTM_OP


def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def _const(arr, like):
    return make_tensor(np.ascontiguousarray(arr.astype(like.dtype.np_dtype, copy=False)))


def _with_last(all_steps, last):
    """All steps as constants except the last, which is `last` (MindSpore's bprops use only
    the last step's gradient of output_h / output_c)."""
    return ops.concat((_const(all_steps[:-1], last), ops.expand_dims(last, 0)), 0)


def _cast(x, dtype):
    return x if x is None or x.dtype == dtype else ops.cast(x, dtype)


def _compute_dtype(x):
    """float16 inputs (what MindSpore's Ascend kernels take) run in float32."""
    from cellgrad.dtype import float16, float32

    return float32 if x.dtype == float16 else x.dtype


class DynamicRNN(Primitive):
    """Mirrors `mindspore.ops.DynamicRNN(...)(x, w, b, seq_length, init_h, init_c)`: one LSTM
    layer over a time-major `x` (T, B, I) with `w` (I + H, 4H) in MindSpore's gate order i, j,
    f, o (j the candidate), `forget_bias` added to f. Returns y, output_h, output_c, i, j, f,
    o, tanhct, each (T, B, H). MindSpore runs it on Ascend only; `seq_length` must be None."""

    @prim_attr_register
    def __init__(self, cell_type="LSTM", direction="UNIDIRECTIONAL", cell_depth=1,
                 use_peephole=False, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                 time_major=True, activation="tanh", forget_bias=0.0, is_training=True):
        name = "DynamicRNN"
        validator.check_value_type("forget_bias", forget_bias, [float], name)
        validator.check_value_type("cell_depth", cell_depth, [int], name)
        validator.check_value_type("keep_prob", keep_prob, [float], name)
        validator.check_number_range(keep_prob, 0.0, 1.0, validator.INC_BOTH, float, "keep_prob")
        validator.check_value_type("cell_clip", cell_clip, [float], name)
        validator.check_int(num_proj, 0, validator.GE, "num_proj", name)
        validator.check_value_type("use_peephole", use_peephole, [bool], name)
        validator.check_value_type("time_major", time_major, [bool], name)
        validator.check("time_major", time_major, "the supported value", True, validator.EQ,
                        name)
        validator.check_value_type("is_training", is_training, [bool], name)
        for arg, value, valid in (("cell_type", cell_type, ["LSTM"]),
                                  ("direction", direction, ["UNIDIRECTIONAL"]),
                                  ("activation", activation, ["tanh"])):
            validator.check_value_type(arg, value, [str], name)
            validator.check_string(value, valid, arg, name)
        _unsupported(name, use_peephole=use_peephole, num_proj=num_proj, cell_clip=cell_clip,
                     keep_prob=keep_prob)

    def __call__(self, x, w, b, seq_length, init_h, init_c):
        name = "DynamicRNN"
        for arg, t in (("x", x), ("w", w), ("b", b), ("init_h", init_h), ("init_c", init_c)):
            _checks.floating(name, arg, t)
        _no_seq_length(name, seq_length)
        T, B, n_in = x.shape
        H = w.shape[1] // 4
        _shape(name, "w", w, (n_in + H, 4 * H))
        _shape(name, "b", b, (4 * H,))
        _shape(name, "init_h", init_h, (1, B, H))
        _shape(name, "init_c", init_c, (1, B, H))
        dt = _compute_dtype(x)
        i, j, f, o = ops.split(_cast(w, dt), H, 1)
        weight = ops.transpose(ops.concat((i, f, j, o), 1), (1, 0))  # (4H, I + H), i f g o
        bi, bj, bf, bo = ops.split(_cast(b, dt), H, 0)
        bias = ops.concat((bi, bf + self.forget_bias, bj, bo), 0)
        w_ih, w_hh = weight[:, :n_in], weight[:, n_in:]
        h0, c0 = _cast(init_h[0], dt), _cast(init_c[0], dt)
        zeros = ops.zeros((4 * H,), dt)  # the op adds b_ih and b_hh; `bias` holds both
        y, h_n, c_n = apply(LSTM_OP, (_cast(x, dt), h0, c0, w_ih, w_hh, bias, zeros), {})
        gates = _lstm_gates(x, y, h0, c0, w_ih, w_hh, bias)
        out_dtype = b.dtype
        return (_cast(y, out_dtype), _cast(_with_last(gates["h"], h_n), x.dtype),
                _cast(_with_last(gates["c"], c_n), out_dtype),
                *(_cast(_const(gates[k], y), out_dtype) for k in ("i", "j", "f", "o", "tanhc")))


def _lstm_gates(x, y, h0, c0, w_ih, w_hh, bias):
    """The gate activations of every step, from the hidden states the op computed: one GEMM
    for all steps and an elementwise scan for the cell state."""
    xs, hs = x.asnumpy().astype(y.dtype.np_dtype), y.asnumpy()
    h_prev = np.concatenate([h0.asnumpy()[None], hs[:-1]])
    g = xs @ w_ih.asnumpy().T + h_prev @ w_hh.asnumpy().T + bias.asnumpy()
    i, f, j, o = np.split(g, 4, axis=-1)
    i, f, j, o = _sigmoid(i), _sigmoid(f), np.tanh(j), _sigmoid(o)
    c = np.empty_like(i)
    prev = c0.asnumpy()
    for t in range(c.shape[0]):
        prev = c[t] = f[t] * prev + i[t] * j[t]
    return {"h": hs, "c": c, "i": i, "j": j, "f": f, "o": o, "tanhc": np.tanh(c)}


class DynamicGRUV2(Primitive):
    """Mirrors `mindspore.ops.DynamicGRUV2(...)(x, weight_input, weight_hidden, bias_input,
    bias_hidden, seq_length, init_h)`: one GRU layer over a time-major `x` (T, B, I) with
    `weight_input` (I, 3H) and `weight_hidden` (H, 3H) in `gate_order` ('rzh' or 'zrh'), the
    reset gate applied after the hidden product (`reset_after=True`). Returns y, output_h,
    update, reset, new, hidden_new, each (T, B, H). MindSpore runs it on Ascend only."""

    @prim_attr_register
    def __init__(self, direction="UNIDIRECTIONAL", cell_depth=1, keep_prob=1.0, cell_clip=-1.0,
                 num_proj=0, time_major=True, activation="tanh", gate_order="rzh",
                 reset_after=True, is_training=True):
        name = "DynamicGRUV2"
        validator.check_value_type("cell_depth", cell_depth, [int], name)
        validator.check_value_type("keep_prob", keep_prob, [float], name)
        validator.check_value_type("cell_clip", cell_clip, [float], name)
        validator.check_int(num_proj, 0, validator.GE, "num_proj", name)
        validator.check_value_type("time_major", time_major, [bool], name)
        validator.check_value_type("is_training", is_training, [bool], name)
        validator.check_string(direction, ["UNIDIRECTIONAL"], "direction", name)
        validator.check_string(activation, ["tanh"], "activation", name)
        validator.check_string(gate_order, ["zrh", "rzh"], "gate_order", name)
        validator.check_value_type("reset_after", reset_after, [bool], name)
        _unsupported(name, num_proj=num_proj, cell_clip=cell_clip, keep_prob=keep_prob,
                     reset_after=reset_after, time_major=time_major)

    def __call__(self, x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length,
                 init_h):
        name = "DynamicGRUV2"
        for arg, t in (("x", x), ("weight_input", weight_input),
                       ("weight_hidden", weight_hidden), ("init_h", init_h)):
            _checks.floating(name, arg, t)
        _no_seq_length(name, seq_length)
        T, B, n_in = x.shape
        H = weight_hidden.shape[0]
        _shape(name, "weight_input", weight_input, (n_in, 3 * H))
        _shape(name, "weight_hidden", weight_hidden, (H, 3 * H))
        _shape(name, "init_h", init_h, (B, H))
        dt = _compute_dtype(x)
        w_ih = self._rzh(ops.transpose(_cast(weight_input, dt), (1, 0)), H)
        w_hh = self._rzh(ops.transpose(_cast(weight_hidden, dt), (1, 0)), H)
        b_ih = None if bias_input is None else self._rzh(_cast(bias_input, dt), H)
        b_hh = None if bias_hidden is None else self._rzh(_cast(bias_hidden, dt), H)
        if (b_ih is None) != (b_hh is None):  # the op takes both biases or neither
            zeros = ops.zeros((3 * H,), dt)
            b_ih, b_hh = (zeros if b_ih is None else b_ih), (zeros if b_hh is None else b_hh)
        h0 = _cast(init_h, dt)
        y, h_n = apply(GRU, (_cast(x, dt), h0, w_ih, w_hh, b_ih, b_hh), {})
        gates = _gru_gates(x, y, h0, w_ih, w_hh, b_ih, b_hh)
        out_dtype = x.dtype if bias_input is None else bias_input.dtype
        return (_cast(y, out_dtype), _cast(_with_last(gates["h"], h_n), out_dtype),
                *(_cast(_const(gates[k], y), out_dtype) for k in ("z", "r", "n", "hn")))

    def _rzh(self, t, H):
        """Rows (gates) in r, z, n order, as the GRU op takes them."""
        if self.gate_order == "rzh":
            return t
        z, r, n = ops.split(t, H, 0)
        return ops.concat((r, z, n), 0)


def _gru_gates(x, y, h0, w_ih, w_hh, b_ih, b_hh):
    xs, hs = x.asnumpy().astype(y.dtype.np_dtype), y.asnumpy()
    h_prev = np.concatenate([h0.asnumpy()[None], hs[:-1]])
    gx = xs @ w_ih.asnumpy().T + (0 if b_ih is None else b_ih.asnumpy())
    gh = h_prev @ w_hh.asnumpy().T + (0 if b_hh is None else b_hh.asnumpy())
    xr, xz, xn = np.split(gx, 3, axis=-1)
    hr, hz, hn = np.split(gh, 3, axis=-1)
    r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
    return {"h": hs, "r": r, "z": z, "n": np.tanh(xn + r * hn), "hn": hn}


def _shape(name, arg, t, expected):
    if tuple(t.shape) != tuple(expected):
        raise ValueError(f"For '{name}', the shape of '{arg}' must be {tuple(expected)}, but got "
                         f"{tuple(t.shape)}.")


def _no_seq_length(name, seq_length):
    if seq_length is not None:
        raise ValueError(f"For '{name}', 'seq_length' must be None (MindSpore's kernel takes no "
                         f"other value either); mask the outputs by length instead, or use "
                         f"nn.LSTM / nn.GRU with seq_length.")


def _unsupported(name, **attrs):
    defaults = {"use_peephole": False, "num_proj": 0, "cell_clip": -1.0, "keep_prob": 1.0,
                "reset_after": True, "time_major": True}
    for arg, value in attrs.items():
        if value != defaults[arg]:
            raise ValueError(f"For '{name}', '{arg}'={value!r} is not supported on the CPU "
                             f"(only {defaults[arg]!r}): use nn.LSTM / nn.GRU, or compose the "
                             f"cell from ops.")


class LSTM(Primitive):
    """Mirrors `mindspore.ops.LSTM(input_size, hidden_size, num_layers, has_bias,
    bidirectional, dropout, proj_size=0)(input, h, c, w)`, MindSpore's CPU kernel: `w` is one
    (N, 1, 1) blob of every layer and direction's w_ih (4H, in), then every w_hh (4H, H), then
    every bias (b_ih + b_hh, 4H), gates i, f, g, o; a layer after the first takes the previous
    one's (directions concatenated) output. Returns output, h_n, c_n and the kernel's
    workspace outputs `reserve` and `state`, empty here (cellgrad's backward keeps its own).
    `dropout` is not applied, as on MindSpore's CPU."""

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout,
                 proj_size=0):
        name = "LSTM"
        for arg, value in (("input_size", input_size), ("hidden_size", hidden_size),
                           ("num_layers", num_layers)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"For '{name}', the '{arg}' must be int, but got "
                                f"'{type(value).__name__}'")
            if value <= 0:
                raise ValueError(f"For '{name}', the '{arg}' must be int and must > 0, but got "
                                 f"'{value}' with type 'int'.")
        validator.check_value_type("has_bias", has_bias, (bool,), name)
        validator.check_value_type("bidirectional", bidirectional, (bool,), name)
        validator.check_value_type("dropout", dropout, [float], name)
        validator.check_float_range(dropout, 0, 1, validator.INC_BOTH, "dropout", name)
        validator.check_int_range(proj_size, 0, hidden_size, validator.INC_LEFT, "proj_size",
                                  name)
        if proj_size:
            raise ValueError("For 'LSTM', 'proj_size' > 0 is not supported by cellgrad: use "
                             "nn.LSTM and an nn.Dense projection of its outputs.")
        self.num_directions = 2 if bidirectional else 1

    def weight_size(self):
        """The length of the blob `w` this Primitive takes."""
        H, D = self.hidden_size, self.num_directions
        size = sum(4 * H * (self._layer_input(layer) + H) for layer in range(self.num_layers))
        return D * size + (4 * H * self.num_layers * D if self.has_bias else 0)

    def _layer_input(self, layer):
        return self.input_size if layer == 0 else self.hidden_size * self.num_directions

    def __call__(self, input, h, c, w):
        name = "LSTM"
        for arg, t in (("input", input), ("h", h), ("c", c), ("w", w)):
            _checks.floating(name, arg, t)
        H, L, D = self.hidden_size, self.num_layers, self.num_directions
        T, B, n_in = input.shape
        if n_in != self.input_size:
            raise ValueError(f"For '{name}', the last dimension of 'input' must be input_size "
                             f"{self.input_size}, but got shape {tuple(input.shape)}.")
        _shape(name, "h", h, (L * D, B, H))
        _shape(name, "c", c, (L * D, B, H))
        if w.size != self.weight_size():
            raise ValueError(f"For '{name}', 'w' must hold {self.weight_size()} values for these "
                             f"sizes, but got shape {tuple(w.shape)}.")
        dt = input.dtype
        blob, pos = ops.reshape(_cast(w, dt), (-1,)), 0
        weights = {}
        for key, rows, cols in [*(((layer, d, 0), 4 * H, self._layer_input(layer))
                                  for layer in range(L) for d in range(D)),
                                *(((layer, d, 1), 4 * H, H) for layer in range(L)
                                  for d in range(D))]:
            weights[key] = ops.reshape(blob[pos:pos + rows * cols], (rows, cols))
            pos += rows * cols
        zeros = ops.zeros((4 * H,), dt)
        x, h_n, c_n = _cast(input, dt), [], []
        for layer in range(L):
            outs = []
            for d in range(D):
                k = layer * D + d
                bias = blob[pos + k * 4 * H:pos + (k + 1) * 4 * H] if self.has_bias else zeros
                y, hk, ck = apply(LSTM_OP, (x, h[k], c[k], weights[layer, d, 0],
                                            weights[layer, d, 1], bias, zeros), {"reverse": d == 1})
                outs.append(y)
                h_n.append(hk)
                c_n.append(ck)
            x = outs[0] if D == 1 else ops.concat(outs, -1)
        empty = make_tensor(np.zeros((0, 1), dtype=dt.np_dtype))
        return x, ops.stack(h_n), ops.stack(c_n), empty, empty
