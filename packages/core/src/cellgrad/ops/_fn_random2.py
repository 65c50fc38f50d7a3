"""More random ops of `mindspore.ops`: distribution samplers (Gamma, Poisson, Laplace, Cauchy,
log-normal, truncated normals), shuffles and permutations, categorical and candidate
samplers, the in-place fills (`uniform_`, `exponential_`, `random_`, `bernoulli_`, `normal_`)
and `mindspore.Generator`.

Values come from `cellgrad.seeding` (PCG64 streams named after MindSpore's kernels, restarted
by `set_seed`), or from a `Generator` given as `generator=`; MindSpore's own streams are not
reproduced: shapes, dtypes, ranges and distributions are.
"""

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float16, float32, float64, int32, int64, to_dtype, uint8
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._random import _seed, _SeededPrimitive, _shape
from cellgrad.ops.primitive import Primitive, prim_attr_register


class Generator:
    """Mirrors `mindspore.Generator`: a seed and an offset; each draw uses the stream of
    (seed, offset) and moves the offset on. Its state is 16 UInt8 bytes (seed, offset)."""

    def __init__(self):
        self._seed, self._offset = 0, 0

    def manual_seed(self, seed):
        """Set the seed (and restart the offset); returns the generator."""
        seed = C.integer("Generator.manual_seed", "seed", seed)
        self._seed, self._offset = seed % 2**64, 0
        return self

    def seed(self):
        """Seed from fresh entropy; returns the new seed."""
        self.manual_seed(int(np.random.SeedSequence().entropy % 2**63))
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        raw = np.array([self._seed, self._offset], np.uint64).view(np.uint8)
        return make_tensor(raw.copy(), None, 0, uint8)

    def set_state(self, state):
        if not isinstance(state, TensorBuffer) or state._data.dtype != np.uint8 or \
                state._data.size != 16:
            raise TypeError("For 'Generator.set_state', the state must be a UInt8 Tensor of 16 "
                            "elements (from get_state).")
        self._seed, self._offset = (int(v) for v in state._data.reshape(-1).view(np.uint64))
        return self

    def _step(self, step=1):
        rng = seeding.fixed_generator(self._seed, self._offset)
        self._offset += int(step)
        return rng


default_generator = Generator()


def _rng(kernel, generator=None, seed=None):
    if generator is not None:
        if not isinstance(generator, Generator):
            raise TypeError(f"'generator' must be a mindspore.Generator, but got "
                            f"{type(generator).__name__}.")
        return generator._step()
    return seeding.generator(kernel, seed)


def _tensor(op, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}.")
    return x


def _out(values, dt):
    return make_tensor(np.asarray(values).astype(dt.np_dtype), None, 0, dt)


def _value(v):
    return v._data if isinstance(v, TensorBuffer) else np.asarray(v, np.float64)


def _fill(input, values):
    input._data[...] = values.astype(input._data.dtype)
    return input


# ---- in-place fills ----
def uniform_(input, from_=0, to=1, *, generator=None):
    """Mirrors `mindspore.ops.uniform_`: fills `input` with U[from_, to) in place."""
    _tensor("uniform_", input)
    if from_ > to:
        raise ValueError(f"For 'uniform_', 'from_' must not exceed 'to', but got {from_} and "
                         f"{to}.")
    return _fill(input, _rng("UniformReal", generator).uniform(from_, to, input.shape))


def exponential_(input, lambd=1, *, generator=None):
    """Mirrors `mindspore.ops.exponential_`: fills `input` with Exp(rate `lambd`) in place."""
    _tensor("exponential_", input)
    if lambd <= 0:
        raise ValueError(f"For 'exponential_', 'lambd' must be positive, but got {lambd}.")
    return _fill(input, _rng("Exponential", generator).exponential(1.0 / lambd, input.shape))


def random_(input, from_=0, to=None, *, generator=None):
    """Mirrors `mindspore.ops.random_`: fills `input` with integers in [from_, to) (to: the
    dtype's largest integer + 1 when None) in place."""
    _tensor("random_", input)
    if to is None:
        dt = input._data.dtype
        to = (np.iinfo(dt).max if dt.kind in "iu" else 2 ** np.finfo(dt).nmant) + 1
        if dt == np.bool_:
            to = 2
    if from_ >= to:
        raise ValueError(f"For 'random_', 'from_' must be less than 'to', but got {from_} and "
                         f"{to}.")
    return _fill(input, _rng("UniformInt", generator).integers(from_, to, input.shape))


def normal_(input, mean=0, std=1, *, generator=None):
    """Mirrors `mindspore.ops.normal_`: fills `input` with N(mean, std^2) in place."""
    _tensor("normal_", input)
    if input._dtype.kind != 2:
        raise TypeError(f"For 'normal_', the input must be a float Tensor, but got "
                        f"{input.dtype}.")
    return _fill(input, _rng("Normal", generator).normal(mean, std, input.shape))


def bernoulli_(input, p=0.5, *, generator=None):
    """Mirrors `mindspore.ops.bernoulli_`: fills `input` with 1 (probability `p`, a number or
    a broadcastable Tensor) or 0, in place."""
    _tensor("bernoulli_", input)
    prob = _value(p).astype(np.float64)
    if not np.all((prob >= 0) & (prob <= 1)):
        raise ValueError("For 'bernoulli_', 'p' must be in [0, 1].")
    draw = _rng("Bernoulli", generator).random(input.shape) < np.broadcast_to(prob, input.shape)
    return _fill(input, draw)


def bernoulli_ext(input, *, generator=None):
    """Mirrors `mindspore.ops.bernoulli_ext`: 1 with the probability held by each element of
    `input`, else 0, in `input`'s dtype."""
    _tensor("bernoulli_ext", input)
    prob = input._data.astype(np.float64)
    if not np.all((prob >= 0) & (prob <= 1)):
        raise ValueError("For 'bernoulli_ext', the probabilities must be in [0, 1].")
    draw = _rng("Bernoulli", generator).random(input.shape) < prob
    return _out(draw, input.dtype)


# ---- samplers ----
def standard_laplace(shape, seed=None):
    """Mirrors `mindspore.ops.standard_laplace`: Laplace(0, 1) samples of `shape`, Float32."""
    shape = _shape("standard_laplace", shape)
    return _out(_rng("StandardLaplace", seed=_seed("standard_laplace", seed)).laplace(
        0.0, 1.0, shape), float32)


def _shape_tensor(op, shape):
    if not isinstance(shape, TensorBuffer):
        raise TypeError(f"For {op}, input[0] only support tensor!")
    return _shape(op, shape)


def random_gamma(shape, alpha, seed=None):
    """Mirrors `mindspore.ops.random_gamma`: Gamma(alpha, 1) samples of shape `shape +
    alpha.shape` in `alpha`'s dtype."""
    shape = _shape_tensor("RandomGamma", shape)
    _tensor("random_gamma", alpha)
    a = alpha._data.astype(np.float64)
    rng = _rng("RandomGamma", seed=_seed("random_gamma", seed))
    return _out(rng.standard_gamma(np.broadcast_to(a, shape + a.shape)), alpha.dtype)


def random_poisson(shape, rate, seed=None, dtype=float32):
    """Mirrors `mindspore.ops.random_poisson`: Poisson(rate) counts of shape `shape +
    rate.shape` as `dtype`."""
    shape = _shape_tensor("RandomPoisson", shape)
    _tensor("random_poisson", rate)
    dt = to_dtype(dtype)
    if dt not in (float16, float32, float64, int32, int64):
        raise TypeError(f"For 'RandomPoisson', 'dtype' must be a float or Int32/Int64, but got "
                        f"{dt}.")
    r = rate._data.astype(np.float64)
    rng = _rng("RandomPoisson", seed=_seed("random_poisson", seed))
    return _out(rng.poisson(np.broadcast_to(r, shape + r.shape)), dt)


def shuffle(x, seed=None):
    """Mirrors `mindspore.ops.shuffle`: `x` with its first axis randomly permuted."""
    _tensor("shuffle", x)
    perm = _rng("RandomShuffle", seed=_seed("shuffle", seed)).permutation(x.shape[0]) \
        if x.ndim else None
    return x if perm is None else make_tensor(x._data[perm], None, 0, x.dtype)


def random_categorical(logits, num_sample, seed=0, dtype=int64):
    """Mirrors `mindspore.ops.random_categorical`: `num_sample` draws per row of the 2-D
    unnormalised log-probabilities `logits`."""
    _tensor("random_categorical", logits)
    if logits.ndim != 2:
        raise ValueError("logits shape size only support 2D")
    n = C.integer("random_categorical", "num_sample", num_sample)
    dt = to_dtype(dtype)
    if dt.kind != 1:
        raise TypeError(f"For 'random_categorical', 'dtype' must be an int type, but got {dt}.")
    rng = _rng("RandomCategorical", seed=_seed("random_categorical", seed))
    z = logits._data.astype(np.float64)
    keys = z[:, None, :] + rng.gumbel(size=(z.shape[0], n, z.shape[1]))
    return _out(np.argmax(keys, -1), dt)


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """Mirrors `mindspore.ops.multinomial_with_replacement`: `numsamples` category indices per
    row of the probabilities `x` (Int64), from the stream of (seed, offset)."""
    _tensor("multinomial_with_replacement", x)
    if x.ndim not in (1, 2):
        raise ValueError(f"For 'MultinomialWithReplacement', 'x' must be 1-D or 2-D, but got "
                         f"{x.ndim}-D.")
    seeds = [int(v._data) if isinstance(v, TensorBuffer) else int(v) for v in (seed, offset)]
    w = np.atleast_2d(x._data.astype(np.float64))
    if np.any(w < 0) or np.any(w.sum(1) <= 0):
        raise ValueError("For 'MultinomialWithReplacement', each row of 'x' must be "
                         "non-negative with a positive sum.")
    if not replacement and numsamples > w.shape[1]:
        raise ValueError(f"For 'MultinomialWithReplacement', without replacement 'numsamples' "
                         f"({numsamples}) must not exceed the number of categories "
                         f"({w.shape[1]}).")
    rng = seeding.generator("MultinomialWithReplacement") if seeds == [0, 0] else \
        seeding.fixed_generator(*(v % 2**63 for v in seeds))
    with np.errstate(divide="ignore"):
        logw = np.log(w)
    if replacement:
        vals = np.argmax(logw[:, None, :] + rng.gumbel(size=(w.shape[0], numsamples,
                                                             w.shape[1])), -1)
    else:
        vals = np.argsort(-(logw + rng.gumbel(size=w.shape)), 1, kind="stable")[:, :numsamples]
    return _out(vals if x.ndim == 2 else vals[0], int64)


def _candidate(op, true_classes, num_true, num_sampled, unique, range_max, seed, log):
    _tensor(op, true_classes)
    tc = C.indices(op, "true_classes", true_classes)
    if tc.ndim != 2 or tc.shape[1] != num_true:
        raise ValueError(f"For '{op}', 'true_classes' must have shape (batch, num_true={num_true})"
                         f", but got {tc.shape}.")
    if unique and num_sampled > range_max:
        raise ValueError(f"For '{op}', 'num_sampled' ({num_sampled}) must not exceed "
                         f"'range_max' ({range_max}) when 'unique'.")
    rng = _rng(op, seed=_seed(op, seed))

    def prob(k):
        if not log:
            return np.full(np.shape(k), 1.0 / range_max)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.log((k + 2.0) / (k + 1.0)) / np.log(range_max + 1.0)

    p = prob(np.arange(range_max, dtype=np.float64))
    if unique:
        sampled, tries = _draw_unique(rng, p, num_sampled)
    else:
        sampled, tries = rng.choice(range_max, num_sampled, replace=True, p=p), num_sampled

    def expected(q):
        # TensorFlow's ExpectedCountHelper, which MindSpore's kernels share: p * num_sampled when
        # no draw was rejected, else the chance of appearing in `tries` draws
        if tries == num_sampled:
            return q * num_sampled
        with np.errstate(invalid="ignore", divide="ignore"):
            return -np.expm1(tries * np.log1p(-q))

    # true classes outside [0, range_max) still get the distribution's formula
    return (_out(sampled, to_dtype(true_classes.dtype)),
            _out(expected(prob(tc.astype(np.float64))), float32),
            _out(expected(p[sampled]), float32))


def _draw_unique(rng, p, n):
    """`n` distinct classes drawn one at a time (duplicates rejected) and the number of draws."""
    seen, out, tries = set(), [], 0
    while len(out) < n:
        for d in rng.choice(len(p), max(n - len(out), 16), replace=True, p=p).tolist():
            tries += 1
            if d not in seen:
                seen.add(d)
                out.append(d)
                if len(out) == n:
                    break
    return np.asarray(out, np.int64), tries


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """Mirrors `mindspore.ops.uniform_candidate_sampler`: `num_sampled` classes drawn uniformly
    from [0, range_max), with the expected counts of the true and sampled classes."""
    return _candidate("UniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                      range_max, seed, False)


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True,
                                  range_max=5, seed=0):
    """Mirrors `mindspore.ops.log_uniform_candidate_sampler`: classes drawn with the
    log-uniform (Zipfian) distribution P(k) = log((k+2)/(k+1)) / log(range_max+1)."""
    return _candidate("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                      range_max, seed, True)


def _truncated(rng, mean, std, lo, hi, shape):
    """Normal(mean, std) samples in [lo, hi] by inverse-CDF of the truncated normal."""
    from math import erf, sqrt

    cdf = np.vectorize(lambda z: 0.5 * (1 + erf(z / sqrt(2))))
    a, b = cdf((lo - mean) / std), cdf((hi - mean) / std)
    u = a + (b - a) * rng.random(shape)
    return mean + std * _ndtri(u)


def _ndtri(p):
    from statistics import NormalDist

    return np.vectorize(NormalDist().inv_cdf)(np.clip(p, 1e-16, 1 - 1e-16))


# ---- primitives ----
class Bernoulli(Primitive):
    """Mirrors `mindspore.ops.Bernoulli(seed=-1, offset=0)(x, p)`: 0/1 in `x`'s dtype."""

    @prim_attr_register
    def __init__(self, seed=-1, offset=0):
        C.integer("Bernoulli", "seed", seed)

    def __call__(self, x, p):
        from cellgrad.ops._random import bernoulli

        return bernoulli(x, p, None if self.seed == -1 else self.seed)


class Multinomial(_SeededPrimitive):
    """Mirrors `mindspore.ops.Multinomial(seed=0, seed2=0, dtype=mstype.int32)(x,
    num_samples)`: draws with replacement."""

    def __init__(self, seed=0, seed2=0, dtype=int32):
        super().__init__(seed, seed2)
        self.dtype = to_dtype(dtype)

    def __call__(self, x, num_samples):
        from cellgrad.ops._random import multinomial

        out = multinomial(x, int(num_samples._data) if isinstance(num_samples, TensorBuffer)
                          else num_samples, True)
        return _out(out._data, self.dtype)


class MultinomialWithReplacement(Primitive):
    """Mirrors `mindspore.ops.MultinomialWithReplacement(numsamples, replacement=False)(x,
    seed, offset)`."""

    @prim_attr_register
    def __init__(self, numsamples, replacement=False):
        C.integer("MultinomialWithReplacement", "numsamples", numsamples)

    def __call__(self, x, seed, offset):
        return multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


class Gamma(_SeededPrimitive):
    """Mirrors `mindspore.ops.Gamma(seed=0, seed2=0)(shape, alpha, beta)`: Gamma(alpha, rate
    beta), of shape `shape + broadcast(alpha, beta).shape` (no CPU kernel in MindSpore 2.10)."""

    def __call__(self, shape, alpha, beta):
        shape = _shape(self.name, shape)
        a, b = _value(alpha), _value(beta)
        tail = np.broadcast_shapes(a.shape, b.shape)
        rng = self._rng("Gamma")
        draw = rng.gamma(np.broadcast_to(a, shape + tail), 1.0 / np.broadcast_to(b, shape + tail))
        return _out(draw, alpha.dtype if isinstance(alpha, TensorBuffer) else float32)


class Poisson(_SeededPrimitive):
    """Mirrors `mindspore.ops.Poisson(seed=0, seed2=0)(shape, mean)`: Int32 counts of shape
    `shape + mean.shape` (no CPU kernel in MindSpore 2.10)."""

    def __call__(self, shape, mean):
        shape = _shape(self.name, shape)
        m = _value(mean)
        return _out(self._rng("Poisson").poisson(np.broadcast_to(m, shape + m.shape)), int32)


class RandomGamma(_SeededPrimitive):
    """Mirrors `mindspore.ops.RandomGamma(seed=0, seed2=0)(shape, alpha)`."""

    def __call__(self, shape, alpha):
        shape = _shape_tensor("RandomGamma", shape)
        a = _tensor("RandomGamma", alpha)._data.astype(np.float64)
        return _out(self._rng("RandomGamma").standard_gamma(np.broadcast_to(a, shape + a.shape)),
                    alpha.dtype)


class RandomPoisson(_SeededPrimitive):
    """Mirrors `mindspore.ops.RandomPoisson(seed=0, seed2=0, dtype=mstype.int64)(shape,
    rate)`."""

    def __init__(self, seed=0, seed2=0, dtype=int64):
        super().__init__(seed, seed2)
        self.dtype = to_dtype(dtype)

    def __call__(self, shape, rate):
        shape = _shape_tensor("RandomPoisson", shape)
        r = _tensor("RandomPoisson", rate)._data.astype(np.float64)
        return _out(self._rng("RandomPoisson").poisson(np.broadcast_to(r, shape + r.shape)),
                    self.dtype)


class Randperm(Primitive):
    """Mirrors `mindspore.ops.Randperm(max_length=1, pad=-1, dtype=mstype.int32)(n)`: a
    permutation of 0..n-1 padded with `pad` to `max_length`."""

    @prim_attr_register
    def __init__(self, max_length=1, pad=-1, dtype=int32):
        if C.integer("Randperm", "max_length", max_length) <= 0:
            raise ValueError(f"For 'Randperm', 'max_length' must be positive, but got "
                             f"{max_length}.")
        C.integer("Randperm", "pad", pad)

    def __call__(self, n):
        k = int(np.ravel(n._data)[0]) if isinstance(n, TensorBuffer) else int(n)
        if not 0 <= k <= self.max_length:
            raise ValueError(f"For 'Randperm', 'n' must be in [0, max_length={self.max_length}],"
                             f" but got {k}.")
        out = np.full(self.max_length, self.pad, np.int64)
        out[:k] = _rng("Randperm").permutation(k)
        return _out(out, to_dtype(self.dtype))


class RandpermV2(Primitive):
    """Mirrors `mindspore.ops.RandpermV2(seed=0, offset=0, dtype=mstype.int64)(n)`:
    `ops.randperm`."""

    @prim_attr_register
    def __init__(self, seed=0, offset=0, dtype=int64):
        pass

    def __call__(self, n):
        from cellgrad.ops._random import randperm

        n = int(n._data) if isinstance(n, TensorBuffer) else n
        return randperm(n, self.seed, self.offset, self.dtype)


class RandomShuffle(_SeededPrimitive):
    """Mirrors `mindspore.ops.RandomShuffle(seed=0, seed2=0)(x)`: the first axis permuted."""

    def __call__(self, x):
        _tensor("RandomShuffle", x)
        if not x.ndim:
            return x
        return make_tensor(x._data[self._rng("RandomShuffle").permutation(x.shape[0])], None, 0,
                           x.dtype)


class RandomCategorical(Primitive):
    """Mirrors `mindspore.ops.RandomCategorical(dtype=mstype.int64)(logits, num_samples,
    seed=0)`."""

    @prim_attr_register
    def __init__(self, dtype=int64):
        pass

    def __call__(self, logits, num_samples, seed=0):
        return random_categorical(logits, num_samples, seed, self.dtype)


class UniformCandidateSampler(Primitive):
    """Mirrors `mindspore.ops.UniformCandidateSampler(num_true, num_sampled, unique,
    range_max, seed=0, remove_accidental_hits=False)(true_classes)`."""

    @prim_attr_register
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0,
                 remove_accidental_hits=False):
        pass

    def __call__(self, true_classes):
        return uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled,
                                         self.unique, self.range_max, self.seed)


class LogUniformCandidateSampler(Primitive):
    """Mirrors `mindspore.ops.LogUniformCandidateSampler(num_true=1, num_sampled=5,
    unique=True, range_max=5, seed=0)(true_classes)`."""

    @prim_attr_register
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        pass

    def __call__(self, true_classes):
        return log_uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled,
                                             self.unique, self.range_max, self.seed)


class ComputeAccidentalHits(Primitive):
    """Mirrors `mindspore.ops.ComputeAccidentalHits(num_true=1)(true_classes, sampled_candidates)`:
    (row, sampled position, weight -FLT_MAX) of each sampled candidate that is one of the row's
    true classes (no CPU kernel in MindSpore 2.10)."""

    @prim_attr_register
    def __init__(self, num_true=1):
        C.integer("ComputeAccidentalHits", "num_true", num_true)

    def __call__(self, true_classes, sampled_candidates):
        tc = C.indices(self.name, "true_classes", true_classes)
        sc = C.indices(self.name, "sampled_candidates", sampled_candidates)
        if tc.ndim != 2 or tc.shape[1] != self.num_true or sc.ndim != 1:
            raise ValueError(f"For '{self.name}', 'true_classes' must be (batch, num_true="
                             f"{self.num_true}) and 'sampled_candidates' 1-D, but got {tc.shape} "
                             f"and {sc.shape}.")
        rows, cols = np.nonzero((tc[:, :, None] == sc[None, None, :]).any(1))
        weights = np.full(rows.size, -np.finfo(np.float32).max, np.float32)
        return _out(rows, int32), _out(cols, int32), _out(weights, float32)


class TruncatedNormal(_SeededPrimitive):
    """Mirrors `mindspore.ops.TruncatedNormal(dtype=mstype.float32, seed=0, seed2=0)(shape)`:
    N(0, 1) samples truncated to [-2, 2]."""

    def __init__(self, dtype=float32, seed=0, seed2=0):
        super().__init__(seed, seed2)
        self.dtype = to_dtype(dtype)

    def __call__(self, shape):
        shape = _shape_tensor("TruncatedNormal", shape)
        return _out(_truncated(self._rng("TruncatedNormal"), 0.0, 1.0, -2.0, 2.0, shape),
                    self.dtype)


class ParameterizedTruncatedNormal(_SeededPrimitive):
    """Mirrors `mindspore.ops.ParameterizedTruncatedNormal(seed=0, seed2=0)(shape, mean,
    stdevs, min, max)`: row `i` of the (batch, ...) output is N(mean[i], stdevs[i]) truncated
    to [min[i], max[i]]."""

    def __call__(self, shape, mean, stdevs, min, max):
        shape = _shape_tensor("ParameterizedTruncatedNormal", shape)
        params = [_tensor("ParameterizedTruncatedNormal", v)._data.astype(np.float64)
                  for v in (mean, stdevs, min, max)]
        lead = (shape[0],) + (1,) * (len(shape) - 1)
        m, s, lo, hi = (np.broadcast_to(p, (shape[0],)).reshape(lead) for p in params)
        return _out(_truncated(self._rng("ParameterizedTruncatedNormal"), m, s, lo, hi, shape),
                    mean.dtype)


class StandardLaplace(_SeededPrimitive):
    """Mirrors `mindspore.ops.StandardLaplace(seed=0, seed2=0)(shape)`: Laplace(0, 1),
    Float32."""

    def __call__(self, shape):
        return _out(self._rng("StandardLaplace").laplace(0.0, 1.0, _shape(self.name, shape)),
                    float32)


class Cauchy(Primitive):
    """Mirrors `mindspore.ops.Cauchy(size, median=0.0, sigma=1.0)()`: Cauchy samples of
    shape `size`, Float32."""

    @prim_attr_register
    def __init__(self, size, median=0.0, sigma=1.0):
        if not isinstance(size, (list, tuple)) or not size:
            raise TypeError(f"For 'Cauchy', 'size' must be a non-empty list of ints, but got "
                            f"{size!r}.")
        if sigma <= 0:
            raise ValueError(f"For 'Cauchy', 'sigma' must be positive, but got {sigma}.")

    def __call__(self):
        draw = _rng("Cauchy").standard_cauchy(tuple(self.size))
        return _out(self.median + self.sigma * draw, float32)


class LogNormalReverse(Primitive):
    """Mirrors `mindspore.ops.LogNormalReverse(mean=1.0, std=2.0)(input)`: exp of N(mean, std)
    samples, shaped like `input` in its dtype."""

    @prim_attr_register
    def __init__(self, mean=1.0, std=2.0):
        if std <= 0:
            raise ValueError(f"For 'LogNormalReverse', 'std' must be positive, but got {std}.")

    def __call__(self, input):
        _tensor("LogNormalReverse", input)
        draw = _rng("LogNormalReverse").lognormal(self.mean, self.std, input.shape)
        return _out(draw, input.dtype)


class NonDeterministicInts(Primitive):
    """Mirrors `mindspore.ops.NonDeterministicInts(dtype=mstype.int64)(shape)`: integers over
    the dtype's whole range from fresh entropy (never seeded, as the name says)."""

    @prim_attr_register
    def __init__(self, dtype=int64):
        if to_dtype(dtype) not in (int32, int64):
            raise TypeError(f"For 'NonDeterministicInts', 'dtype' must be Int32 or Int64, but "
                            f"got {dtype}.")

    def __call__(self, shape):
        shape = _shape_tensor("NonDeterministicInts", shape)
        dt = to_dtype(self.dtype)
        info = np.iinfo(dt.np_dtype)
        draw = np.random.default_rng().integers(info.min, info.max, shape, dtype=dt.np_dtype,
                                                endpoint=True)
        return _out(draw, dt)


__all__ = [
    "bernoulli_ext", "ComputeAccidentalHits", "uniform_", "exponential_", "random_", "normal_",
    "bernoulli_", "standard_laplace",
    "random_gamma", "random_poisson", "shuffle", "random_categorical",
    "multinomial_with_replacement", "uniform_candidate_sampler", "log_uniform_candidate_sampler",
    "Bernoulli", "Multinomial", "MultinomialWithReplacement", "Gamma", "Poisson", "RandomGamma",
    "RandomPoisson", "Randperm", "RandpermV2", "RandomShuffle", "RandomCategorical",
    "UniformCandidateSampler", "LogUniformCandidateSampler", "TruncatedNormal",
    "ParameterizedTruncatedNormal", "StandardLaplace", "Cauchy", "LogNormalReverse",
    "NonDeterministicInts",
]
