"""`mindspore.ops.BasicLSTMCell` (deprecated in MindSpore, an Ascend kernel): one LSTM step
with the gates in MindSpore's "ijfo" order, built from differentiable ops."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import float16, float32
from cellgrad.ops.primitive import Primitive, prim_attr_register


class BasicLSTMCell(Primitive):
    """Mirrors `mindspore.ops.BasicLSTMCell(keep_prob=1.0, forget_bias=1.0,
    state_is_tuple=True, activation='tanh')(x, h, c, w, b)`: `i, j, f, o = split([x, h] @ w +
    b)`, `ct = sigmoid(f + forget_bias) * c + sigmoid(i) * tanh(j)`, `ht = sigmoid(o) *
    tanh(ct)`; returns `(ct, ht, it, jt, ft, ot, tanhct)` with `ht` in float16 as MindSpore
    declares it. `keep_prob` is checked but, as in MindSpore (whose op takes no dropout mask),
    not applied."""

    @prim_attr_register
    def __init__(self, keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation="tanh"):
        for name, value in (("keep_prob", keep_prob), ("forget_bias", forget_bias)):
            if not isinstance(value, float):
                raise TypeError(f"For '{self.name}', the type of '{name}' should be 'float', but "
                                f"got type '{type(value).__name__}'.")
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"For '{self.name}', the 'keep_prob' must be in range [0.0, 1.0], "
                             f"but got {keep_prob}.")
        if not isinstance(state_is_tuple, bool):
            raise TypeError(f"For '{self.name}', the type of 'state_is_tuple' should be 'bool', "
                            f"but got type '{type(state_is_tuple).__name__}'.")
        if activation != "tanh":
            raise ValueError(f"For '{self.name}', the 'activation' should be str and must be in "
                             f"['tanh'], but got {activation!r}.")

    def __call__(self, x, h, c, w, b):
        from cellgrad import ops

        named = {"x": x, "h": h, "c": c, "w": w, "b": b}
        for name, t in named.items():
            if not isinstance(t, TensorBuffer):
                raise TypeError(f"For '{self.name}', the input '{name}' must be a Tensor, but "
                                f"got {type(t).__name__}.")
            if t.dtype not in (float16, float32):
                raise TypeError(f"For '{self.name}', the '{name}_dtype' must be float16 or "
                                f"float32, but got {t.dtype}.")
            want = 1 if name == "b" else 2
            if t.ndim != want:
                raise ValueError(f"For '{self.name}', the '{name} rank' must be {want}, but got "
                                 f"{t.ndim}.")
        if c.dtype != b.dtype:
            raise TypeError(f"For '{self.name}', 'c_dtype' and 'b_dtype' must be the same, but "
                            f"got {c.dtype} and {b.dtype}.")
        n, hidden = h.shape
        checks = (("x_shape[0]", x.shape[0], "h_shape[0]", n),
                  ("c_shape", tuple(c.shape), "h_shape", (n, hidden)),
                  ("w_shape", tuple(w.shape), "(x_shape[1]+h_shape[1], 4*h_shape[1])",
                   (x.shape[1] + hidden, 4 * hidden)),
                  ("b_shape[0]", b.shape[0], "4*h_shape[1]", 4 * hidden))
        for left, got, right, want in checks:
            if got != want:
                raise ValueError(f"For '{self.name}', the '{left}' must be equal to '{right}' "
                                 f"{want}, but got {got}.")
        dt = c.dtype
        xh = ops.concat((ops.cast(x, dt), ops.cast(h, dt)), 1)
        gates = ops.matmul(xh, ops.cast(w, dt)) + b
        i, j, f, o = ops.split(gates, hidden, 1)
        it, jt = ops.sigmoid(i), ops.tanh(j)
        ft, ot = ops.sigmoid(f + self.forget_bias), ops.sigmoid(o)
        ct = ft * c + it * jt
        tanhct = ops.tanh(ct)
        ht = ops.cast(ot * tanhct, float16)
        return ct, ht, it, jt, ft, ot, tanhct


__all__ = ["BasicLSTMCell"]
