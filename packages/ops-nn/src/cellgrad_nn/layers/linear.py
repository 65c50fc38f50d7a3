"""`nn.Dense`, `nn.Linear`, `nn.BiDense`, `nn.Flatten`, `nn.Identity`."""

import math

import numpy as np
from cellgrad._core._buffer import make_tensor
from cellgrad._core._tape import recording_depth

from cellgrad import Parameter, Tensor
from cellgrad._errors import ShapeError
from cellgrad.common.initializer import HeUniform, Uniform, initializer
from cellgrad.dtype import float32, float64
from cellgrad.nn import Cell
from cellgrad.observe import watching
from cellgrad.plugins import apply
from cellgrad_nn.amp import auto as _auto
from cellgrad_nn.functional import _dense_blas
from cellgrad_nn.functional._dense_blas import splits
from cellgrad_nn.functional.linear import DENSE, _gemm, dense
from cellgrad_nn.layers import _checks
from cellgrad_nn.layers.activation import get_activation

_DIRECT_DTYPES = (float32, float64)


class Dense(Cell):
    """Mirrors `mindspore.nn.Dense`: `activation(x @ weight.T + bias)`.

    Defaults as MindSpore 2.10: weight HeUniform(negative_slope=sqrt(5)), bias
    Uniform(1 / sqrt(in_channels)) — PyTorch's Linear initialisation.
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=float32):
        super().__init__()
        self.in_channels = _checks.positive_int("Dense", "in_channels", in_channels)
        self.out_channels = _checks.positive_int("Dense", "out_channels", out_channels)
        self.has_bias = bool(has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) \
            else activation
        if activation is not None and not callable(self.activation):
            raise TypeError(f"For 'Dense', 'activation' must be a str, a Cell or a Primitive, "
                            f"but got {type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'Dense', the input must be a Tensor, but got "
                            f"{type(x).__name__}.")
        if x.shape[-1] != self.in_channels:
            raise ShapeError(f"For 'Dense', the last dimension of the input must be "
                             f"in_channels={self.in_channels}, but got input "
                             f"{_checks.describe(x)}.")
        w, b = self.weight, self.bias
        if _auto.ACTIVE:  # amp 'auto': MatMul takes the low dtype, BiasAdd promotes
            x, w = _auto.white_pair(x, w)
        if x.dtype is not w.dtype:  # MindSpore's Dense multiplies with MatMul, which refuses
            raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got "
                            f"'x1' with type Tensor[{x.dtype}] and 'x2' with type "
                            f"Tensor[{w.dtype}].")
        ws = w.shape
        # The usual (out, in) weight and (out,) bias: the check above covers the input, so the
        # op is applied without dense()'s checks (a per-call cost); anything else gets them.
        if len(ws) == 2 and ws[1] == self.in_channels and (b is None or b.shape == ws[:1]):
            dt = w.dtype  # x's too (checked above)
            if b is not None and b.dtype is dt and dt in _DIRECT_DTYPES \
                    and not recording_depth() and not watching():
                # Nothing to record, promote or observe: the op's forward on the arrays,
                # without the dispatch (inference at batch 1 is mostly this overhead).
                xa, wa = x._data, w._data
                if xa.ndim == 2 and (xa.shape[0] > 1 or (
                        wa.size >= _dense_blas.GEMV_SPLIT_MIN and splits(xa, wa))):
                    out = _gemm(xa, wa, b._data)  # the product's measured orientation or split
                else:
                    out = _dense_blas.dense_b1(xa, wa, b._data) if xa.ndim == 2 else None
                    if out is None:  # np.dot: the same BLAS call without matmul's set-up
                        out = np.dot(xa, wa.T) if xa.ndim <= 2 else np.matmul(xa, wa.T)
                        out += b._data
                out = make_tensor(out, None, 0, dt)
            else:
                out = apply(DENSE, (x, w) if b is None else (x, w, b))
        else:
            out = dense(x, w, b)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def extend_repr(self):
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Linear(Dense):
    """Mirrors `mindspore.nn.Linear`: `nn.Dense` with PyTorch's argument names (no
    activation)."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None,
                 dtype=None):
        if not isinstance(bias, bool):
            raise TypeError(f"For 'Linear', the type of 'has_bias' should be 'bool', but got "
                            f"type '{type(bias).__name__}'.")
        super().__init__(in_features, out_features, weight_init, bias_init, bias, None,
                         float32 if dtype is None else dtype)
        self.in_features, self.out_features = self.in_channels, self.out_channels

    def extend_repr(self):
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


class BiDense(Cell):
    """Mirrors `mindspore.nn.BiDense`: y = x1^T A x2 + b per output feature, weight
    (out_channels, in1_channels, in2_channels); both inits default to
    Uniform(1 / sqrt(in1_channels))."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=float32):
        super().__init__()
        for name, value in (("in1_channels", in1_channels), ("in2_channels", in2_channels),
                            ("out_channels", out_channels)):
            _checks.positive_int("BiDense", name, value)
        self.in1_channels, self.in2_channels = in1_channels, in2_channels
        self.out_channels, self.has_bias = out_channels, bool(has_bias)
        bound = 1 / math.sqrt(in1_channels)
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init,
                                            (out_channels, in1_channels, in2_channels), dtype),
                                name="weight")
        self.bias = None
        if self.has_bias:
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init,
                                              [out_channels], dtype), name="bias")

    def construct(self, input1, input2):
        from cellgrad.ops import functional as F

        for name, x, size in (("input1", input1, self.in1_channels),
                              ("input2", input2, self.in2_channels)):
            if x.shape[-1] != size:
                raise ValueError(f"For 'BiDense', the last dimension of '{name}' must be {size}, "
                                 f"but got {_checks.describe(x)}.")
        if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
            raise ValueError(f"For 'BiDense', 'input1' and 'input2' must agree except in the last "
                             f"dimension, but got {_checks.describe(input1)} and "
                             f"{_checks.describe(input2)}.")
        lead = tuple(input1.shape[:-1])
        o, i, j = self.out_channels, self.in1_channels, self.in2_channels
        x1, x2 = F.reshape(input1, (-1, i)), F.reshape(input2, (-1, 1, j))
        # (n, i) @ (i, o * j): each output's x1^T A, then the dot with x2
        left = F.matmul(x1, F.reshape(F.transpose(self.weight, (1, 0, 2)), (i, o * j)))
        out = F.sum(F.reshape(left, (-1, o, j)) * x2, -1)
        if self.bias is not None:
            out = out + self.bias
        return F.reshape(out, lead + (o,))

    def extend_repr(self):
        s = (f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, "
             f"output_channels={self.out_channels}")
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


class Flatten(Cell):
    """Mirrors `mindspore.nn.Flatten`: merge dimensions `start_dim`..`end_dim`."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        for name, value in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Flatten', '{name}' must be an int, but got {value!r}.")
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        ndim = x.ndim
        if ndim == 0:
            return x.reshape((1,))
        start = self.start_dim + ndim if self.start_dim < 0 else self.start_dim
        end = self.end_dim + ndim if self.end_dim < 0 else self.end_dim
        if not 0 <= start <= end < ndim:
            raise ValueError(f"For 'Flatten', start_dim={self.start_dim} and end_dim="
                             f"{self.end_dim} must give 0 <= start <= end < {ndim} for input "
                             f"{_checks.describe(x)}.")
        shape = x.shape
        # explicit sizes, not -1: an empty batch is a valid input
        return x.reshape(shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


class Identity(Cell):
    """Mirrors `mindspore.nn.Identity`: returns its input."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, x):
        return x
