"""Initializers, mirroring `mindspore.common.initializer`.

The distributions and fan computations are MindSpore's; random values come from the generator
seeded by `cellgrad.set_seed` (so a seed reproduces cellgrad's numbers, not MindSpore's).
"""

import math
import numbers

import numpy as np

from cellgrad import context
from cellgrad._core._buffer import TensorBuffer, round_bfloat16
from cellgrad.dtype import bfloat16, float32, to_dtype

__all__ = [
    "Constant",
    "Dirac",
    "HeNormal",
    "HeUniform",
    "Identity",
    "Initializer",
    "Normal",
    "One",
    "Orthogonal",
    "Sparse",
    "TruncatedNormal",
    "Uniform",
    "VarianceScaling",
    "XavierNormal",
    "XavierUniform",
    "Zero",
    "apply_initializer",
    "initializer",
]

_ALIASES = {}


def _register(*aliases):
    """Register a class under its lower-case name and `aliases` (MindSpore's string names)."""

    def add(cls):
        for name in (cls.__name__.lower(), *aliases):
            _ALIASES.setdefault(name, cls)
        return cls

    return add


class Initializer:
    """Base class: `_initialize(arr)` fills a float numpy array in place."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    def _rng(self):
        if self._seed is None:
            return context.generator("initializer")
        return np.random.default_rng(self._seed)

    def _initialize(self, arr):
        raise NotImplementedError(f"{type(self).__name__} must implement _initialize(arr).")

    def __call__(self, arr):
        self._initialize(arr)
        return arr

    def to_tensor(self, shape=None, dtype=None):
        """A Tensor of `shape` (default: the `shape` attribute) initialised by this object."""
        from cellgrad.common.tensor import Tensor

        shape = getattr(self, "shape", None) if shape is None else shape
        if shape is None:
            raise ValueError(f"{type(self).__name__}.to_tensor needs a shape.")
        return Tensor(shape=shape, dtype=float32 if dtype is None else dtype, init=self)


@_register("zeros")
class Zero(Initializer):
    """All zeros (`'zeros'`)."""

    def _initialize(self, arr):
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """All ones (`'ones'`)."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """A constant `value` (a number, or an array broadcast to the shape)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        arr[...] = np.asarray(self.value)


def _fans(shape):
    """(fan_in, fan_out) as MindSpore computes them: dims 1 and 0 times the receptive field."""
    if len(shape) < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 "
                         f"dimensions, but got dimensions {len(shape)} (shape {tuple(shape)}).")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _correct_fan(shape, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out'].")
    fan_in, fan_out = _fans(shape)
    return fan_in if mode == "fan_in" else fan_out


def _gain(nonlinearity, param=None):
    """MindSpore's (and PyTorch's) recommended gain for a nonlinearity."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"'negative_slope' {param!r} is not a valid number; with "
                             "nonlinearity 'leaky_relu' it must be an int or float.")
        return math.sqrt(2.0 / (1 + slope**2))
    raise ValueError("The argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu', "
                     f"'leaky_relu'] or a linear/conv name, but got {nonlinearity!r}.")


@_register("xavier_normal")
class XavierNormal(Initializer):
    """N(0, sigma^2) with sigma = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        arr[...] = self._rng().normal(0.0, std, arr.shape)


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        arr[...] = self._rng().uniform(-bound, bound, arr.shape)


class _He(Initializer):
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _std(self, shape):
        fan = _correct_fan(shape, self.mode)
        return _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


@_register("he_uniform")
class HeUniform(_He):
    """U(-b, b) with b = sqrt(3) * gain / sqrt(fan) (Kaiming uniform)."""

    def _initialize(self, arr):
        bound = math.sqrt(3.0) * self._std(arr.shape)
        arr[...] = self._rng().uniform(-bound, bound, arr.shape)


@_register("he_normal")
class HeNormal(_He):
    """N(0, sigma^2) with sigma = gain / sqrt(fan) (Kaiming normal)."""

    def _initialize(self, arr):
        arr[...] = self._rng().normal(0.0, self._std(arr.shape), arr.shape)


@_register()
class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        arr[...] = self._rng().uniform(-self.scale, self.scale, arr.shape)


@_register()
class Normal(Initializer):
    """N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, arr):
        if self.sigma < 0:
            raise ValueError(f"For 'Normal', sigma must be non-negative, got {self.sigma}.")
        arr[...] = self._rng().normal(self.mean, self.sigma, arr.shape)


@_register()
class TruncatedNormal(Initializer):
    """N(mean, sigma^2) truncated to [a, b].

    As in MindSpore the bounds are absolute values, not multiples of sigma.
    """

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        if self.sigma <= 0:
            raise ValueError(f"For 'TruncatedNormal', sigma must be positive, got {self.sigma}.")
        if not self.a < self.b:
            raise ValueError(f"For 'TruncatedNormal', a must be less than b, got a={self.a}, "
                             f"b={self.b}.")
        arr[...] = _truncated_normal(self._rng(), self.mean, self.sigma, self.a, self.b,
                                     arr.shape)


@_register()
class Identity(Initializer):
    """A 2-d identity matrix (ones on the main diagonal of a rectangular shape)."""

    def _initialize(self, arr):
        if arr.ndim != 2:
            raise ValueError("For Identity initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {arr.ndim} (shape {arr.shape}).")
        arr[...] = np.eye(arr.shape[0], arr.shape[1])


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix scaled by `gain`; trailing dimensions are flattened."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        if arr.ndim < 2:
            raise ValueError("For Orthogonal initializer, the dimension of the initialized tensor "
                             f"should be no less than 2, but got {arr.ndim} (shape {arr.shape}).")
        rows = arr.shape[0]
        cols = arr.size // rows
        data = self._rng().normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        arr[...] = (q * self.gain).reshape(arr.shape)


@_register()
class Dirac(Initializer):
    """The Dirac delta of a 3/4/5-d convolution kernel: each group passes its inputs through."""

    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def _initialize(self, arr):
        if arr.ndim not in (3, 4, 5):
            raise ValueError("For Dirac initializer, only support to initialize tensor with "
                             f"dimension of 3, 4 or 5, but got {arr.ndim} (shape {arr.shape}).")
        if arr.shape[0] % self.groups:
            raise ValueError("For Dirac initializer, the first dimension of the initialized "
                             f"tensor must be divisible by groups, but got first dimension "
                             f"{arr.shape[0]}, groups {self.groups}.")
        per_group = arr.shape[0] // self.groups
        centre = tuple(s // 2 for s in arr.shape[2:])
        arr.fill(0)
        for group in range(self.groups):
            for d in range(min(per_group, arr.shape[1])):
                arr[(group * per_group + d, d) + centre] = 1


@_register()
class Sparse(Initializer):
    """A 2-d N(0, sigma^2) matrix with `ceil(sparsity * rows)` zeros in every column."""

    def __init__(self, sparsity, sigma=0.01):
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity = sparsity
        self.sigma = sigma

    def _initialize(self, arr):
        if arr.ndim != 2:
            raise ValueError("For Sparse initializer, the dimension of the initialized tensor "
                             f"should be 2, but got {arr.ndim} (shape {arr.shape}).")
        if self.sigma < 0:
            raise ValueError(f"For Sparse initializer, sigma must be non-negative, got "
                             f"{self.sigma}.")
        rows, cols = arr.shape
        rng = self._rng()
        arr[...] = rng.normal(0.0, self.sigma, arr.shape)
        zeros = int(math.ceil(self.sparsity * rows))
        for col in range(cols):
            arr[rng.permutation(rows)[:zeros], col] = 0


@_register()
class VarianceScaling(Initializer):
    """Scale / fan variance: truncated normal, untruncated normal or uniform.

    'truncated_normal' is N(0, s^2) cut at two standard deviations, s = sqrt(scale / n) /
    0.8796 so the variance is scale / n (MindSpore 2.10 draws uniform values here instead: it
    tests for the misspelt 'truncated_norm').
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.0:
            raise ValueError("For VarianceScaling initializer, the argument 'scale' must be "
                             f"greater than 0, but got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be "
                             f"fan_in, fan_out or fan_avg, but got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must "
                             "be uniform, truncated_normal or untruncated_normal, but got "
                             f"{distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        variance = self.scale / max(1.0, fan[self.mode])
        rng = self._rng()
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            arr[...] = rng.uniform(-limit, limit, arr.shape)
        elif self.distribution == "untruncated_normal":
            arr[...] = rng.normal(0.0, math.sqrt(variance), arr.shape)
        else:
            std = math.sqrt(variance) / 0.87962566103423978
            arr[...] = _truncated_normal(rng, 0.0, std, -2.0 * std, 2.0 * std, arr.shape)


def _truncated_normal(rng, mean, sigma, a, b, shape):
    """N(mean, sigma^2) values in [a, b], by rejection (exactly the truncated distribution)."""
    out = rng.normal(mean, sigma, shape)
    bad = (out < a) | (out > b)
    while bad.any():
        out[bad] = rng.normal(mean, sigma, int(bad.sum()))
        bad = (out < a) | (out > b)
    return out


def _resolve(init):
    """An Initializer for a name, a number or an Initializer; TypeError otherwise."""
    if isinstance(init, Initializer):
        return init
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not "
                             f"found. Known names: {', '.join(sorted(_ALIASES))}.")
        return cls()
    if isinstance(init, numbers.Number):
        return Constant(init)
    raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', "
                    f"'number', 'string' or 'initializer', but got {type(init)}.")


def _shape_tuple(shape):
    if shape is None:
        return None
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    shape = tuple(shape)
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s <= 0:
            raise ValueError("For 'initializer', the argument 'shape' is invalid, the value of "
                             f"'shape' must be positive integer, but got {shape}.")
    return tuple(int(s) for s in shape)


def apply_initializer(init, shape, dtype):
    """The values `init` gives for `shape` and `dtype`, as a numpy array of the dtype's storage.

    This is what `Tensor(shape=, dtype=, init=)` and `Parameter.clone(init=...)` call.
    """
    dt = to_dtype(dtype)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    if isinstance(init, TensorBuffer):
        if tuple(init.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same "
                             f"as the argument 'shape', but got the 'init' shape {init.shape} and "
                             f"the 'shape' {shape}.")
        return np.array(init._data, dtype=dt.np_dtype)
    work = np.zeros(shape, np.float64 if dt.kind == 2 and dt.bits == 64 else np.float32)
    _resolve(init)(work)
    out = work.astype(dt.np_dtype)
    return round_bfloat16(out) if dt is bfloat16 else out


def initializer(init, shape=None, dtype=float32):
    """Mirrors `mindspore.common.initializer.initializer`: a Tensor initialised by `init`.

    `init` is a name ('normal', 'ones', 'xavier_uniform', ...), a number (a constant), an
    Initializer or a Tensor (returned as is after a shape check).
    """
    if not isinstance(init, (TensorBuffer, numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', "
                        f"'number', 'string' or 'initializer', but got {type(init)}.")
    if isinstance(init, TensorBuffer):
        if shape is not None and tuple(init.shape) != tuple(_as_list(shape)):
            raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same "
                             f"as the argument 'shape', but got the 'init' shape "
                             f"{list(init.shape)} and the 'shape' {shape}.")
        return init
    shape = _shape_tuple(shape)
    if shape is None:
        shape = getattr(init, "shape", None)
        if shape is None:
            raise ValueError("For 'initializer', the argument 'shape' is required unless 'init' "
                             "is a Tensor.")
    from cellgrad.common.tensor import Tensor

    return Tensor(shape=shape, dtype=dtype, init=_resolve(init))


def _as_list(shape):
    return [shape] if isinstance(shape, numbers.Integral) else list(shape)

# PEP 562: names that plugins provide (cellgrad.plugins); nothing loads until the first miss.
from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
