"""Random ops, mirroring `mindspore.ops`' random functions and primitives.

Values come from `cellgrad.seeding` (MindSpore's rule: a stream per kernel and op seed,
restarted by `set_seed`); the kernels name the streams as MindSpore's do, so `uniform`, `rand`
and `rand_like` share one. Random ops have no gradient. Where MindSpore leaves a result
unseeded (`bernoulli` without a seed, a primitive with seeds 0), cellgrad follows the global
seed, so `set_seed` reproduces every random value.
"""

import builtins
import numbers

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int32, int64, to_dtype
from cellgrad.ops.primitives import Primitive

_UNIFORM_REAL = "UniformReal"
_STANDARD_NORMAL = "StandardNormal"
_UNIFORM_INT = "UniformInt"


# ---- argument checks ----
def _shape(op, shape, allow_list=False):
    """A shape given as an int, a tuple (or list where MindSpore takes one) or an int Tensor."""
    if isinstance(shape, TensorBuffer):
        if shape._dtype.kind != 1 or shape.ndim > 1:
            raise TypeError(f"For '{op}', a shape Tensor must be a 1-d integer Tensor, but got "
                            f"shape {tuple(shape.shape)} and dtype {shape.dtype}.")
        shape = tuple(int(s) for s in np.ravel(shape._data))
    elif isinstance(shape, numbers.Integral) and not isinstance(shape, bool):
        shape = (int(shape),)
    elif isinstance(shape, tuple) or (allow_list and isinstance(shape, list)):
        if not builtins.all(isinstance(s, numbers.Integral) and not isinstance(s, bool)
                            for s in shape):
            raise TypeError(f"For '{op}', the shape must hold ints, but got {shape}.")
        shape = tuple(int(s) for s in shape)
    else:
        raise TypeError(f"For '{op}', the shape must be an int, a tuple of ints or an integer "
                        f"Tensor, but got {type(shape).__name__} {shape!r}.")
    if builtins.any(s < 0 for s in shape):
        raise ValueError(f"For '{op}', the shape must not have negative entries, but got "
                         f"{shape}.")
    return shape


def _seed(op, seed):
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"For '{op}', the seed must be a non-negative int or None, but got "
                         f"{seed!r}.")
    return int(seed)


def _float_dtype(op, dtype, default=float32):
    dt = default if dtype is None else to_dtype(dtype)
    if dt.kind != 2:
        raise ValueError(f"For '{op}', the 'dtype' must be a float type, but got {dt}.")
    return dt


def _int_dtype(op, dtype, default=int64):
    dt = default if dtype is None else to_dtype(dtype)
    if dt.kind != 1:
        raise ValueError(f"For '{op}', the 'dtype' must be an int type, but got {dt}.")
    return dt


def _int_arg(op, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{op}', '{name}' must be an int, but got {type(value).__name__}.")
    return int(value)


def _size(op, size):
    """`rand(2, 3)`, `rand((2, 3))` and `rand([2, 3])` all mean shape (2, 3); `rand()` is (1,)."""
    if not size:
        return (1,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return _shape(op, tuple(size))


# ---- drawing ----
def _uniform01(rng, shape, dt):
    """U[0, 1) values of dtype `dt` (float64 drawn as float64, the rest from float32)."""
    wide = dt.np_dtype == np.float64
    return _tensor(rng.random(shape, dtype=np.float64 if wide else np.float32), dt)


def _normal01(rng, shape, dt):
    wide = dt.np_dtype == np.float64
    return _tensor(rng.standard_normal(shape, dtype=np.float64 if wide else np.float32), dt)


def _tensor(arr, dt):
    if arr.dtype != dt.np_dtype:
        from cellgrad.common.tensor import Tensor

        return Tensor(arr, dtype=dt)
    return make_tensor(arr, None, 0, dt)


def _integers(rng, low, high, shape, dt):
    return make_tensor(rng.integers(low, high, shape, dtype=np.int64).astype(dt.np_dtype),
                       None, 0, dt)


def _data(x):
    return x._data if isinstance(x, TensorBuffer) else np.asarray(x)


# ---- functional ops ----
def uniform(shape, minval, maxval, seed=None, dtype=float32):
    """Mirrors `mindspore.ops.uniform`: U[minval, maxval) as Float32, or integers as Int32."""
    if not (isinstance(minval, TensorBuffer) and isinstance(maxval, TensorBuffer)):
        raise TypeError("For functional operator[uniform], the input[minval] and input[maxval] "
                        "must be a Tensor.")
    dt = to_dtype(dtype)
    if dt not in (int32, float32):
        raise TypeError(f"The 'uniform' doesn't support '{dt}' and expect to receive "
                        "[mindspore.int32, mindspore.float32].")
    shape = _shape("uniform", shape)
    lo, hi = _data(minval), _data(maxval)
    try:
        out_shape = np.broadcast_shapes(shape, lo.shape, hi.shape)
    except ValueError:
        raise ValueError(f"For 'uniform', the shape {shape}, minval shape {lo.shape} and maxval "
                         f"shape {hi.shape} do not broadcast.") from None
    seed = _seed("uniform", seed)
    if dt is int32:
        if lo.size != 1 or hi.size != 1:
            raise ValueError("For 'uniform' with an int32 dtype, minval and maxval must hold "
                             f"one value each, but got shapes {lo.shape} and {hi.shape}.")
        return _checked_integers("uniform", int(lo.item()), int(hi.item()), out_shape, int32,
                                 seeding.generator(_UNIFORM_INT, seed))
    u = seeding.generator(_UNIFORM_REAL, seed).random(out_shape, dtype=np.float32)
    return make_tensor((lo + (hi - lo) * u).astype(np.float32), None, 0, float32)


def _checked_integers(op, low, high, shape, dt, rng):
    if low >= high:
        raise RuntimeError(f"For '{op}', 'low' must be less than 'high', but got low={low} and "
                           f"high={high}.")
    info = np.iinfo(dt.np_dtype)
    if low < info.min or high - 1 > info.max:
        raise ValueError(f"For '{op}', the range [{low}, {high}) does not fit dtype {dt}.")
    return _integers(rng, low, high, shape, dt)


def normal(shape, mean, stddev, seed=None):
    """Mirrors `mindspore.ops.normal`: N(mean, stddev^2), broadcasting `mean` and `stddev`."""
    shape = _shape("normal", shape)
    m, s = _data(mean), _data(stddev)
    for name, v in (("mean", m), ("stddev", s)):
        if v.dtype.kind not in "fiu":
            raise TypeError(f"For 'normal', '{name}' must be a number or a real Tensor, but got "
                            f"dtype {v.dtype}.")
    wide = np.float64 in (m.dtype, s.dtype)
    try:
        out_shape = np.broadcast_shapes(shape, m.shape, s.shape)
    except ValueError:
        raise ValueError(f"For 'normal', the shape {shape}, mean shape {m.shape} and stddev shape "
                         f"{s.shape} do not broadcast.") from None
    z = seeding.generator(_STANDARD_NORMAL, _seed("normal", seed)).standard_normal(
        out_shape, dtype=np.float64 if wide else np.float32)
    out = (m + s * z).astype(z.dtype)
    return make_tensor(out, None, 0, to_dtype("float64" if wide else "float32"))


def standard_normal(shape, seed=None):
    """Mirrors `mindspore.ops.standard_normal`: N(0, 1) values as Float32."""
    shape = _shape("standard_normal", shape)
    return _normal01(seeding.generator(_STANDARD_NORMAL, _seed("standard_normal", seed)), shape,
                     float32)


def rand(*size, dtype=None, seed=None):
    """Mirrors `mindspore.ops.rand`: U[0, 1) of shape `size` (Float32 by default)."""
    dt = _float_dtype("rand", dtype)
    shape = _size("rand", size)
    return _uniform01(seeding.generator(_UNIFORM_REAL, _seed("rand", seed)), shape, dt)


def randn(*size, dtype=None, seed=None):
    """Mirrors `mindspore.ops.randn`: N(0, 1) of shape `size` (Float32 by default)."""
    dt = _float_dtype("randn", dtype)
    shape = _size("randn", size)
    return _normal01(seeding.generator(_STANDARD_NORMAL, _seed("randn", seed)), shape, dt)


def randint(low, high, size, seed=None, *, dtype=None):
    """Mirrors `mindspore.ops.randint`: integers in [low, high) (Int64 by default)."""
    low, high = _int_arg("randint", "low", low), _int_arg("randint", "high", high)
    if not isinstance(size, tuple):
        raise ValueError(f"For 'randint', the input 'size' must be a tuple, but got {size!r}.")
    dt = _int_dtype("randint", dtype)
    return _checked_integers("randint", low, high, _shape("randint", size), dt,
                             seeding.generator(_UNIFORM_INT, _seed("randint", seed)))


def _like(op, input):
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    return tuple(input.shape)


def rand_like(input, seed=None, *, dtype=None):
    """Mirrors `mindspore.ops.rand_like`: U[0, 1) shaped like `input` (its dtype by default)."""
    shape = _like("rand_like", input)
    dt = _float_dtype("rand_like", dtype, input._dtype)
    return _uniform01(seeding.generator(_UNIFORM_REAL, _seed("rand_like", seed)), shape, dt)


def randn_like(input, seed=None, *, dtype=None):
    """Mirrors `mindspore.ops.randn_like`: N(0, 1) shaped like `input`.

    The dtype defaults to `input`'s when it is a float type, else Float32 (MindSpore 2.10
    returns Float32 for every input).
    """
    shape = _like("randn_like", input)
    default = input._dtype if input._dtype.kind == 2 else float32
    dt = _float_dtype("randn_like", dtype, default)
    return _normal01(seeding.generator(_STANDARD_NORMAL, _seed("randn_like", seed)), shape, dt)


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Mirrors `mindspore.ops.randint_like`: integers in [low, high) shaped like `input`."""
    shape = _like("randint_like", input)
    low, high = _int_arg("randint_like", "low", low), _int_arg("randint_like", "high", high)
    dt = _int_dtype("randint_like", dtype, input._dtype)
    return _checked_integers("randint_like", low, high, shape, dt,
                             seeding.generator(_UNIFORM_INT, _seed("randint_like", seed)))


def bernoulli(input, p=0.5, seed=None):
    """Mirrors `mindspore.ops.bernoulli`: 1 with probability `p`, else 0, in `input`'s dtype.

    With a `seed` the draw depends on that seed alone, as in MindSpore; without one it follows
    the global seed (MindSpore leaves it unseeded).
    """
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For 'bernoulli', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    shape = tuple(input.shape)
    if isinstance(p, TensorBuffer):
        prob = p._data.astype(np.float64)
        if prob.shape != shape and prob.size != 1:
            raise ValueError(f"For 'bernoulli', 'p' must have the shape of 'input' {shape} or "
                             f"one element, but got shape {prob.shape}.")
    elif isinstance(p, numbers.Real) and not isinstance(p, bool):
        prob = np.float64(p)
    else:
        raise TypeError(f"For 'bernoulli', 'p' must be a float or a Tensor, but got "
                        f"{type(p).__name__}.")
    if not np.all((prob >= 0) & (prob <= 1)):
        raise ValueError(f"For 'bernoulli', p should be in [0, 1], but got "
                         f"{p if np.ndim(prob) == 0 else 'values outside it'}.")
    seed = _seed("bernoulli", seed)
    rng = seeding.generator("Bernoulli") if seed is None else seeding.fixed_generator(seed)
    out = rng.random(shape) < prob
    return make_tensor(out.astype(input._dtype.np_dtype), None, 0, input._dtype)


def multinomial(input, num_samples, replacement=True, seed=None):
    """Mirrors `mindspore.ops.multinomial`: category indices drawn by the weights of each row.

    Rows are 1-d or 2-d non-negative weights (not necessarily normalised); without
    replacement a row gives each category at most once (zero-weight ones last).
    """
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For 'multinomial', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if input.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', the dimension of inputs must be 1d or 2d, but got "
                         f"{input.ndim}.")
    n = _int_arg("multinomial", "num_samples", num_samples)
    w = np.atleast_2d(input._data.astype(np.float64))
    if n <= 0:
        raise ValueError(f"For 'multinomial', 'num_samples' must be positive, but got {n}.")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("For 'multinomial', the weights must be finite and non-negative.")
    totals = w.sum(axis=1, keepdims=True)
    if np.any(totals == 0):
        raise ValueError("For 'multinomial', every row of weights must have a positive sum.")
    if not replacement and n > w.shape[1]:
        raise ValueError(f"For 'multinomial', without replacement 'num_samples' ({n}) must not "
                         f"exceed the number of categories ({w.shape[1]}).")
    rng = seeding.generator("Multinomial", _seed("multinomial", seed))
    if replacement:
        cdf = np.cumsum(w / totals, axis=1)
        u = rng.random((w.shape[0], n))
        out = np.stack([np.searchsorted(c, r, side="right") for c, r in zip(cdf, u)])
        out = np.minimum(out, w.shape[1] - 1)
    else:  # Gumbel top-k: the k largest of log(w) + Gumbel noise are a weighted draw
        with np.errstate(divide="ignore"):
            keys = np.log(w) + rng.gumbel(size=w.shape)
        out = np.argsort(-keys, axis=1, kind="stable")[:, :n]
    out = out.astype(np.int32)
    return make_tensor(out if input.ndim == 2 else out[0], None, 0, int32)


def randperm(n, seed=0, offset=0, dtype=int64):
    """Mirrors `mindspore.ops.randperm`: a permutation of 0..n-1 set by `seed` and `offset`."""
    n = _int_arg("randperm", "n", n)
    if n <= 0:
        raise ValueError(f"For 'randperm', the input 'n' must be greater than 0, but got data: "
                         f"{n}.")
    seed, offset = _seed("randperm", seed), _seed("randperm", offset)
    dt = to_dtype(dtype)
    if dt.kind == 0:
        raise TypeError(f"For 'randperm', 'dtype' must be a number type, but got {dt}.")
    if dt.kind == 1 and n - 1 > np.iinfo(dt.np_dtype).max:
        raise ValueError(f"For 'randperm', the value of 'n' is {n}, it's too large for input "
                         f"'dtype' {dt}.")
    perm = seeding.fixed_generator(seed, offset).permutation(n)
    return _tensor(perm.astype(np.float64 if dt.kind == 2 else dt.np_dtype), dt)


# ---- primitives ----
class _SeededPrimitive(Primitive):
    """A random primitive: nonzero (seed, seed2) give the instance its own stream."""

    def __init__(self, seed=0, seed2=0):
        for name, v in (("seed", seed), ("seed2", seed2)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                raise ValueError(f"For '{type(self).__name__}', '{name}' must be a non-negative "
                                 f"int, but got {v!r}.")
        super().__init__(type(self).__name__)
        self.seed, self.seed2 = int(seed), int(seed2)
        self._own = None if seed == 0 and seed2 == 0 else seeding.fixed_generator(seed, seed2)

    def _rng(self, kernel):
        return self._own if self._own is not None else seeding.generator(kernel)


class UniformReal(_SeededPrimitive):
    """Mirrors `mindspore.ops.UniformReal`: U[0, 1) Float32 values of a shape."""

    def __call__(self, shape):
        return _uniform01(self._rng(_UNIFORM_REAL), _shape(self.name, shape), float32)


class StandardNormal(_SeededPrimitive):
    """Mirrors `mindspore.ops.StandardNormal`: N(0, 1) Float32 values of a shape."""

    def __call__(self, shape):
        return _normal01(self._rng(_STANDARD_NORMAL), _shape(self.name, shape), float32)


class UniformInt(_SeededPrimitive):
    """Mirrors `mindspore.ops.UniformInt`: Int32 values in [minval, maxval) of a shape."""

    def __call__(self, shape, minval, maxval):
        for name, v in (("minval", minval), ("maxval", maxval)):
            if not isinstance(v, TensorBuffer) or v._dtype is not int32:
                got = f"Tensor[{v.dtype}]" if isinstance(v, TensorBuffer) else type(v).__name__
                raise TypeError(f"For primitive[UniformInt], the input argument[{name}] must be "
                                f"a type of {{Tensor[Int32]}}, but got {got}.")
        return _checked_integers(self.name, int(minval._data), int(maxval._data),
                                 _shape(self.name, shape), int32, self._rng(_UNIFORM_INT))


__all__ = ["uniform", "normal", "standard_normal", "rand", "randn", "randint", "rand_like",
           "randn_like", "randint_like", "bernoulli", "multinomial", "randperm", "UniformReal",
           "StandardNormal", "UniformInt"]
