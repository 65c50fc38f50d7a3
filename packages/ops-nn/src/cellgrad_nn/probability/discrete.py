"""Discrete distributions of `mindspore.nn.probability.distribution`: Bernoulli, Geometric,
Poisson, Categorical, with MindSpore's formulas (values recorded from MindSpore 2.10)."""

import numpy as np

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad_nn.probability import _special as S
from cellgrad_nn.probability.distribution import (
    _FLOAT_TYPES,
    _INT_TYPES,
    Distribution,
    check_distribution_name,
    check_greater_zero,
    check_prob,
    check_type,
)

_ANY_TYPES = _INT_TYPES + _FLOAT_TYPES


def _clamp_probs(p):
    eps = float(np.finfo(p.dtype.np_dtype).eps)
    return ops.clamp(p, eps, 1.0 - eps)


class _ProbsDistribution(Distribution):
    """Bernoulli and Geometric: one `probs` parameter (of success)."""

    _label = ""

    def __init__(self, probs, seed, dtype, name, param):
        param["param_dict"] = {"probs": probs}
        check_type("dtype", dtype, _ANY_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_prob(self._probs)

    @property
    def probs(self):
        return self._probs

    def _get_dist_type(self):
        return self._label

    def _get_dist_args(self, probs1=None):
        return self._dist_args((probs1,))

    def _cross_entropy(self, dist, probs1_b, probs1=None):
        check_distribution_name(dist, self._label)
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _kl_args(self, dist, probs1_b, probs1):
        check_distribution_name(dist, self._label)
        probs1_b = self._other(probs1_b, "probs1_b")
        return self._check_param_type(probs1), probs1_b


class Bernoulli(_ProbsDistribution):
    """Mirrors `mindspore.nn.probability.distribution.Bernoulli`. Differs on purpose: `mode`
    returns 1 where probs > 0.5 and 0 elsewhere (MindSpore 2.10's raises a TypeError)."""

    _label = "Bernoulli"

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Bernoulli"):
        super().__init__(probs, seed, dtype, name, dict(locals()))

    def _mean(self, probs1=None):
        return self._check_param_type(probs1)

    def _mode(self, probs1=None):
        p = self._check_param_type(probs1)
        return ops.cast(p > 0.5, self.dtype)

    def _var(self, probs1=None):
        p = self._check_param_type(probs1)
        return p * (1.0 - p)

    def _entropy(self, probs1=None):
        p = self._check_param_type(probs1)
        q = 1.0 - p
        return -(q * ops.log(q)) - p * ops.log(p)

    def _log_prob(self, value, probs1=None):
        value = self._value(value, self.parameter_type)
        p = _clamp_probs(self._check_param_type(probs1))
        return value * ops.log(p) + (1.0 - value) * ops.log(1.0 - p)

    def _cdf(self, value, probs1=None):
        value = ops.floor(self._value(value, self.parameter_type))
        p = self._check_param_type(probs1)
        value = value + ops.zeros_like(p)
        q = 1.0 - p + ops.zeros_like(value)
        zeros, ones = ops.zeros_like(q), ops.ones_like(q)
        return ops.where(value < 0.0, zeros, ops.where(value < 1.0, q, ones))

    def _kl_loss(self, dist, probs1_b, probs1=None):
        pa, pb = self._kl_args(dist, probs1_b, probs1)
        return pa * ops.log(pa / pb) + (1.0 - pa) * ops.log((1.0 - pa) / (1.0 - pb))

    def _sample(self, shape=(), probs1=None):
        p = self._check_param_type(probs1)
        origin, sample_shape = self._sample_shape(shape, p)
        return self._finish_sample(self._uniform(sample_shape) < p, origin)


class Geometric(_ProbsDistribution):
    """Mirrors `mindspore.nn.probability.distribution.Geometric`: the number of failures
    before the first success."""

    _label = "Geometric"

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Geometric"):
        super().__init__(probs, seed, dtype, name, dict(locals()))

    def _mean(self, probs1=None):
        p = self._check_param_type(probs1)
        return (1.0 - p) / p

    def _mode(self, probs1=None):
        return ops.cast(ops.zeros_like(self._check_param_type(probs1)), self.dtype)

    def _var(self, probs1=None):
        p = self._check_param_type(probs1)
        return (1.0 - p) / ops.square(p)

    def _entropy(self, probs1=None):
        p = self._check_param_type(probs1)
        q = 1.0 - p
        return (-q * ops.log(q) - p * ops.log(p)) / p

    def _prob(self, value, probs1=None):
        value = ops.floor(self._value(value, self.parameter_type))
        p = self._check_param_type(probs1)
        pmf = ops.exp(ops.log(1.0 - p) * value + ops.log(p))
        return ops.where(value + ops.zeros_like(pmf) < 0.0, ops.zeros_like(pmf), pmf)

    def _cdf(self, value, probs1=None):
        value = ops.floor(self._value(value, self.parameter_type))
        p = self._check_param_type(probs1)
        cdf = 1.0 - ops.pow(1.0 - p, value + 1.0)
        return ops.where(value + ops.zeros_like(cdf) < 0.0, ops.zeros_like(cdf), cdf)

    def _kl_loss(self, dist, probs1_b, probs1=None):
        pa, pb = self._kl_args(dist, probs1_b, probs1)
        qa, qb = 1.0 - pa, 1.0 - pb
        return ops.log(pa / pb) + qa / pa * ops.log(qa / qb)

    def _sample(self, shape=(), probs1=None):
        p = self._check_param_type(probs1)
        origin, sample_shape = self._sample_shape(shape, p)
        u = self._uniform(sample_shape, float(np.finfo(np.float32).tiny), 1.0)
        return self._finish_sample(ops.floor(ops.log(u) / ops.log(1.0 - p)), origin)


class Poisson(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Poisson` (the rate must be a Tensor or
    array, as MindSpore's)."""

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Poisson"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_type("dtype", dtype, _ANY_TYPES, type(self).__name__)
        if isinstance(rate, (int, float)):
            raise TypeError("Input rate can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def rate(self):
        return self._rate

    def _get_dist_type(self):
        return "Poisson"

    def _get_dist_args(self, rate=None):
        return self._dist_args((rate,))

    def _mean(self, rate=None):
        return self._check_param_type(rate)

    _var = _mean

    def _mode(self, rate=None):
        return ops.floor(self._check_param_type(rate))

    def _log_prob(self, value, rate=None):
        value = self._value(value)
        rate = self._check_param_type(rate)
        log_rate = ops.log(rate)
        safe = ops.where(value < 0.0, ops.zeros_like(value), value)
        y = log_rate * safe - S.lgamma(safe + 1.0)
        y = ops.where(value == safe, y, ops.full_like(y, -np.inf))
        return y - ops.exp(log_rate)

    def _cdf(self, value, rate=None):
        value = self._value(value)
        rate = self._check_param_type(rate)
        below = value < 0.0
        safe = ops.where(below, ops.zeros_like(value), value) + ops.zeros_like(rate)
        # 1 - P(x + 1, rate), as MindSpore's (no floor of x)
        cdf = 1.0 - S.igamma(1.0 + safe, rate + ops.zeros_like(safe))
        return ops.where(below + ops.zeros_like(cdf) > 0, ops.zeros_like(cdf), cdf)

    def _sample(self, shape=(), rate=None):
        rate = self._check_param_type(rate)
        origin, sample_shape = self._sample_shape(shape, rate)
        value = ops.poisson(sample_shape, rate, self._seed_arg())
        return self._finish_sample(ops.reshape(value, sample_shape), origin)


class Categorical(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Categorical`: classes 0..k-1 with the
    last axis of `probs`; out-of-range values have log_prob NaN."""

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name="Categorical"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_type("dtype", dtype, _ANY_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            if self._probs.ndim == 0:
                raise ValueError("probs for Categorical must have rank >= 1.")
            check_prob(self._probs)
            total = self._probs.asnumpy().sum(-1)
            if not np.allclose(total, 1.0, atol=1e-6):
                raise ValueError("Probabilities for each category should sum to one for "
                                 "Categorical distribution.")
            if tuple(self._probs.shape[:-1]) == ():
                self._is_scalar_batch = True
            self._broadcast_shape = self._broadcast_shape[:-1]
        self.index_type = mstype.int32

    @property
    def probs(self):
        return self._probs

    def _get_dist_type(self):
        return "Categorical"

    def _get_dist_args(self, probs=None):
        return self._dist_args((probs,))

    def _classes(self, probs):
        return Tensor(np.arange(probs.shape[-1], dtype=np.float32), self.parameter_type)

    def _mean(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.sum(probs * self._classes(probs), -1, keepdim=True)

    def _mode(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.cast(ops.argmax(probs, -1), self.dtype)

    def _var(self, probs=None):
        probs = self._check_param_type(probs)
        index = self._classes(probs)
        mean = ops.sum(probs * index, -1, keepdim=True)
        return ops.sum(ops.square(index - mean) * probs, -1, keepdim=True)

    def _entropy(self, probs=None):
        probs = self._check_param_type(probs)
        return _squeeze_all(-ops.sum(ops.log(probs) * probs, -1, keepdim=True))

    def _kl_loss(self, dist, probs_b, probs=None):
        # over log-softmax-normalised logits, as MindSpore's (its gradient includes the
        # normalisation)
        check_distribution_name(dist, "Categorical")
        probs_b = self._other(probs_b, "probs_b")
        logits_a = ops.log(self._check_param_type(probs))
        logits_b = ops.log(probs_b)
        log_a, log_b = ops.log_softmax(logits_a, -1), ops.log_softmax(logits_b, -1)
        return _squeeze_all(ops.sum(ops.exp(log_a) * (log_a - log_b), -1, keepdim=True))

    def _cross_entropy(self, dist, probs_b, probs=None):
        check_distribution_name(dist, "Categorical")
        return self._entropy(probs) + self._kl_loss(dist, probs_b, probs)

    def _gather_classes(self, table, value, fill_below):
        """`table[..., floor(value)]` per value (values in (-1, 0) count as 0), with
        out-of-range values given `fill_below`/NaN."""
        value = ops.cast(value, table.dtype)
        value = ops.where(ops.logical_and(value < 0, value > -1.0), ops.zeros_like(value),
                          ops.floor(value))
        num = table.shape[-1]
        drop = value.ndim == 0 and table.ndim == 1
        batch = tuple(np.broadcast_shapes(tuple(value.shape), tuple(table.shape[:-1])))
        value = ops.broadcast_to(value, batch)
        table = ops.broadcast_to(table, batch + (num,))
        idx = ops.cast(ops.clamp(value, 0.0, float(num - 1)), mstype.int32)
        picked = ops.squeeze(ops.gather_elements(table, -1, ops.expand_dims(idx, -1)), -1)
        out = ops.where(value < 0.0, fill_below(picked), picked)
        if fill_below is _nan_like:
            out = ops.where(value > float(num - 1), _nan_like(out), out)
        return ops.reshape(out, ()) if drop else out

    def _log_prob(self, value, probs=None):
        self._check_value(value, "value")
        probs = self._check_param_type(probs)
        return self._gather_classes(ops.log(probs), value, _nan_like)

    def _cdf(self, value, probs=None):
        self._check_value(value, "value")
        probs = self._check_param_type(probs)
        return self._gather_classes(ops.cumsum(probs, -1), value, ops.zeros_like)

    def _sample(self, shape=(), probs=None):
        if not isinstance(shape, tuple):
            raise TypeError(f"For shape, input type must be tuple, but got {type(shape)}.")
        probs = self._check_param_type(probs)
        num = probs.shape[-1]
        batch = tuple(probs.shape[:-1])
        count = int(np.prod(shape)) if shape else 1
        rows = ops.reshape(probs, (-1, num))
        draws = ops.multinomial(rows, count, True, self._seed_arg())  # (rows, count)
        draws = ops.transpose(draws, (1, 0))
        out = ops.reshape(draws, shape + batch)
        return ops.cast(ops.stop_gradient(out), self.dtype)


def _squeeze_all(t):
    """MindSpore's `Squeeze()`: every axis of size 1 dropped."""
    return ops.reshape(t, tuple(d for d in t.shape if d != 1))


def _nan_like(t):
    return ops.full_like(t, np.nan)
