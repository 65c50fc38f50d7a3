"""Continuous distributions of `mindspore.nn.probability.distribution`: Normal, Uniform,
Exponential, Gamma, Beta, Cauchy, Logistic, with MindSpore's formulas (values recorded from
MindSpore 2.10). Parameters compute in float32 (float64 ones are cast, as MindSpore's)."""

import math

import numpy as np

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad_nn.probability import _special as S
from cellgrad_nn.probability.distribution import (
    _FLOAT_TYPES,
    Distribution,
    check_distribution_name,
    check_greater_zero,
    check_type,
)

_EULER = np.euler_gamma


def _where_less(value, bound, below, above):
    return ops.where(value < bound, below, above)


class Normal(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Normal`."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal"):
        param = dict(locals())
        param["param_dict"] = {"mean": mean, "sd": sd}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")

    def _repr_names(self):
        return ("mean", "standard deviation")

    def _get_dist_type(self):
        return "Normal"

    def _get_dist_args(self, mean=None, sd=None):
        return self._dist_args((mean, sd))

    def _mean(self, mean=None, sd=None):
        return self._check_param_type(mean, sd)[0]

    _mode = _mean

    def _sd(self, mean=None, sd=None):
        return self._check_param_type(mean, sd)[1]

    def _entropy(self, mean=None, sd=None):
        sd = self._check_param_type(mean, sd)[1]
        return math.log(math.sqrt(math.e * 2.0 * math.pi)) + ops.log(sd)

    def _cross_entropy(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        return self._entropy(mean, sd) + self._kl_loss(dist, mean_b, sd_b, mean, sd)

    def _log_prob(self, value, mean=None, sd=None):
        value = self._value(value)
        mean, sd = self._check_param_type(mean, sd)
        return -0.5 * ops.square((value - mean) / sd) + (-0.5 * math.log(2 * math.pi)
                                                         - ops.log(sd))

    def _cdf(self, value, mean=None, sd=None):
        value = self._value(value)
        mean, sd = self._check_param_type(mean, sd)
        return 0.5 * (1.0 + S.erf((value - mean) / (sd * math.sqrt(2.0))))

    def _kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        mean_b = self._other(mean_b, "mean_b")
        sd_b = self._other(sd_b, "sd_b")
        mean_a, sd_a = self._check_param_type(mean, sd)
        diff_log_scale = ops.log(sd_a) - ops.log(sd_b)
        squared_diff = ops.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared_diff + 0.5 * ops.expm1(2 * diff_log_scale) - diff_log_scale

    def _sample(self, shape=(), mean=None, sd=None):
        mean, sd = self._check_param_type(mean, sd)
        origin, sample_shape = self._sample_shape(shape, mean, sd)
        value = ops.normal(sample_shape, mean, sd, self._seed_arg())
        return self._finish_sample(value, origin)


class Uniform(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Uniform`."""

    def __init__(self, low=None, high=None, seed=None, dtype=mstype.float32, name="Uniform"):
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None:
            if not np.all(self._low.asnumpy() < self._high.asnumpy()):
                raise ValueError("low must be less than high")

    @property
    def low(self):
        return self._low

    @property
    def high(self):
        return self._high

    def _get_dist_type(self):
        return "Uniform"

    def _get_dist_args(self, low=None, high=None):
        return self._dist_args((low, high))

    def _mean(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return (low + high) / 2.0

    def _var(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.square(high - low) / 12.0

    def _entropy(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.log(high - low)

    def _cross_entropy(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        return self._entropy(low, high) + self._kl_loss(dist, low_b, high_b, low, high)

    def _prob(self, value, low=None, high=None):
        value = self._value(value)
        low, high = self._check_param_type(low, high)
        prob = ops.exp(-ops.log(high - low)) + ops.zeros_like(value)
        zeros = ops.zeros_like(prob)
        return ops.where(value <= high, ops.where(value < low, zeros, prob), zeros)

    def _kl_loss(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        low_b = self._other(low_b, "low_b")
        high_b = self._other(high_b, "high_b")
        low_a, high_a = self._check_param_type(low, high)
        kl = ops.log(high_b - low_b) - ops.log(high_a - low_a)
        inside = ops.logical_and(low_b <= low_a, high_a <= high_b)
        return ops.where(inside, kl, ops.full_like(kl, np.inf))

    def _cdf(self, value, low=None, high=None):
        value = self._value(value)
        low, high = self._check_param_type(low, high)
        prob = (value - low) / (high - low)
        return ops.where(value < high, _where_less(value, low, ops.zeros_like(prob), prob),
                         ops.ones_like(prob))

    def _sample(self, shape=(), low=None, high=None):
        low, high = self._check_param_type(low, high)
        origin, sample_shape = self._sample_shape(shape, low, high)
        value = (high - low) * self._uniform(sample_shape) + low
        return self._finish_sample(value, origin)


class Exponential(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Exponential`."""

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name="Exponential"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def rate(self):
        return self._rate

    def _get_dist_type(self):
        return "Exponential"

    def _get_dist_args(self, rate=None):
        return self._dist_args((rate,))

    def _mean(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    _sd = _mean

    def _mode(self, rate=None):
        return ops.cast(ops.zeros_like(self._check_param_type(rate)), self.dtype)

    def _entropy(self, rate=None):
        return 1.0 - ops.log(self._check_param_type(rate))

    def _cross_entropy(self, dist, rate_b, rate=None):
        check_distribution_name(dist, "Exponential")
        return self._entropy(rate) + self._kl_loss(dist, rate_b, rate)

    def _log_prob(self, value, rate=None):
        value = self._value(value)
        rate = self._check_param_type(rate)
        prob = ops.log(rate) - rate * value
        return _where_less(value + ops.zeros_like(prob), 0.0, ops.full_like(prob, -np.inf), prob)

    def _cdf(self, value, rate=None):
        value = self._value(value)
        rate = self._check_param_type(rate)
        cdf = 1.0 - ops.exp(-1.0 * rate * value)
        return _where_less(value + ops.zeros_like(cdf), 0.0, ops.zeros_like(cdf), cdf)

    def _log_survival(self, value, rate=None):
        value = self._value(value)
        rate = self._check_param_type(rate)
        sf = -1.0 * rate * value
        return _where_less(value + ops.zeros_like(sf), 0.0, ops.zeros_like(sf), sf)

    def _kl_loss(self, dist, rate_b, rate=None):
        check_distribution_name(dist, "Exponential")
        rate_b = self._other(rate_b, "rate_b")
        rate_a = self._check_param_type(rate)
        return ops.log(rate_a) - ops.log(rate_b) + rate_b / rate_a - 1.0

    def _sample(self, shape=(), rate=None):
        rate = self._check_param_type(rate)
        origin, sample_shape = self._sample_shape(shape, rate)
        u = self._uniform(sample_shape, float(np.finfo(np.float32).tiny), 1.0)
        return self._finish_sample(-ops.log(u) / rate, origin)


class Gamma(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Gamma` (parameters must be Tensors or
    arrays, as MindSpore's)."""

    def __init__(self, concentration=None, rate=None, seed=None, dtype=mstype.float32,
                 name="Gamma"):
        param = dict(locals())
        param["param_dict"] = {"concentration": concentration, "rate": rate}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        for arg, label in ((concentration, "concentration"), (rate, "rate")):
            if isinstance(arg, (int, float)):
                raise TypeError(f"Input {label} can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._concentration = self._add_parameter(concentration, "concentration")
        self._rate = self._add_parameter(rate, "rate")
        for value, label in ((self._concentration, "concentration"), (self._rate, "rate")):
            if value is not None:
                check_greater_zero(value, label)

    @property
    def concentration(self):
        return self._concentration

    @property
    def rate(self):
        return self._rate

    def _get_dist_type(self):
        return "Gamma"

    def _get_dist_args(self, concentration=None, rate=None):
        return self._dist_args((concentration, rate))

    def _mean(self, concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        return c / r

    def _var(self, concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        return c / ops.square(r)

    def _sd(self, concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        return ops.sqrt(c) / r

    def _mode(self, concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        return ops.where(c > 1.0, (c - 1.0) / r, ops.full_like(c, np.nan))

    def _entropy(self, concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        return c - ops.log(r) + S.lgamma(c) + (1.0 - c) * S.digamma(c)

    def _cross_entropy(self, dist, concentration_b, rate_b, concentration_a=None, rate_a=None):
        check_distribution_name(dist, "Gamma")
        return self._entropy(concentration_a, rate_a) + self._kl_loss(
            dist, concentration_b, rate_b, concentration_a, rate_a)

    def _log_prob(self, value, concentration=None, rate=None):
        value = self._value(value)
        c, r = self._check_param_type(concentration, rate)
        unnormalized = (c - 1.0) * ops.log(value) - r * value
        return unnormalized - (S.lgamma(c) - c * ops.log(r))

    def _cdf(self, value, concentration=None, rate=None):
        value = self._value(value)
        c, r = self._check_param_type(concentration, rate)
        x = r * value
        return S.igamma(ops.broadcast_to(c, x.shape), x + ops.zeros_like(c))

    def _kl_loss(self, dist, concentration_b, rate_b, concentration_a=None, rate_a=None):
        check_distribution_name(dist, "Gamma")
        cb = self._other(concentration_b, "concentration_b")
        rb = self._other(rate_b, "rate_b")
        ca, ra = self._check_param_type(concentration_a, rate_a)
        return ((ca - cb) * S.digamma(ca) + S.lgamma(cb) - S.lgamma(ca) + cb * ops.log(ra)
                - cb * ops.log(rb) + ca * (rb / ra - 1.0))

    def _sample(self, shape=(), concentration=None, rate=None):
        c, r = self._check_param_type(concentration, rate)
        origin, sample_shape = self._sample_shape(shape, c, r)
        value = ops.gamma(sample_shape, c, r, self._seed_arg())
        return self._finish_sample(ops.reshape(value, sample_shape), origin)


class Beta(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.Beta` (no cdf, as MindSpore's)."""

    def __init__(self, concentration1=None, concentration0=None, seed=None,
                 dtype=mstype.float32, name="Beta"):
        param = dict(locals())
        param["param_dict"] = {"concentration1": concentration1,
                               "concentration0": concentration0}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        for arg, label in ((concentration1, "concentration1"), (concentration0,
                                                                 "concentration0")):
            if isinstance(arg, (int, float)):
                raise TypeError(f"Input {label} can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._concentration1 = self._add_parameter(concentration1, "concentration1")
        self._concentration0 = self._add_parameter(concentration0, "concentration0")
        for value, label in ((self._concentration1, "concentration1"),
                             (self._concentration0, "concentration0")):
            if value is not None:
                check_greater_zero(value, label)

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    def _get_dist_type(self):
        return "Beta"

    def _get_dist_args(self, concentration1=None, concentration0=None):
        return self._dist_args((concentration1, concentration0))

    def _mean(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        return c1 / (c1 + c0)

    def _var(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = c1 + c0
        return c1 * c0 / (ops.pow(total, 2) * (total + 1.0))

    def _mode(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        mode = (c1 - 1.0) / (c1 + c0 - 2.0)
        return ops.where(ops.logical_and(c1 > 1.0, c0 > 1.0), mode, ops.full_like(mode, np.nan))

    def _entropy(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = c1 + c0
        return (S.lbeta(c1, c0) - (c1 - 1.0) * S.digamma(c1) - (c0 - 1.0) * S.digamma(c0)
                + (total - 2.0) * S.digamma(total))

    def _cross_entropy(self, dist, concentration1_b, concentration0_b, concentration1_a=None,
                       concentration0_a=None):
        check_distribution_name(dist, "Beta")
        return self._entropy(concentration1_a, concentration0_a) + self._kl_loss(
            dist, concentration1_b, concentration0_b, concentration1_a, concentration0_a)

    def _log_prob(self, value, concentration1=None, concentration0=None):
        value = self._value(value)
        c1, c0 = self._check_param_type(concentration1, concentration0)
        return ((c1 - 1.0) * ops.log(value) + (c0 - 1.0) * ops.log1p(-value)
                - S.lbeta(c1, c0))

    def _kl_loss(self, dist, concentration1_b, concentration0_b, concentration1_a=None,
                 concentration0_a=None):
        check_distribution_name(dist, "Beta")
        c1b = self._other(concentration1_b, "concentration1_b")
        c0b = self._other(concentration0_b, "concentration0_b")
        c1a, c0a = self._check_param_type(concentration1_a, concentration0_a)
        ta, tb = c1a + c0a, c1b + c0b
        return (S.lbeta(c1b, c0b) - S.lbeta(c1a, c0a) - S.digamma(c1a) * (c1b - c1a)
                - S.digamma(c0a) * (c0b - c0a) + S.digamma(ta) * (tb - ta))

    def _sample(self, shape=(), concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        origin, sample_shape = self._sample_shape(shape, c1, c0)
        one = ops.ones_like(c1)
        x = ops.reshape(ops.gamma(sample_shape, c1, one, self._seed_arg()), sample_shape)
        y = ops.reshape(ops.gamma(sample_shape, c0, one, self._seed_arg()), sample_shape)
        return self._finish_sample(x / (x + y), origin)


class _LocScale(Distribution):
    """A distribution of a location and a positive scale (Cauchy, Logistic)."""

    def _init_loc_scale(self, param):
        """`param`: the subclass's `__init__` locals (loc, scale, seed, dtype, name)."""
        param["param_dict"] = {"loc": param["loc"], "scale": param["scale"]}
        check_type("dtype", param["dtype"], _FLOAT_TYPES, type(self).__name__)
        Distribution.__init__(self, param["seed"], param["dtype"], param["name"], param)
        self._loc = self._add_parameter(param["loc"], "loc")
        self._scale = self._add_parameter(param["scale"], "scale")
        if self._scale is not None:
            check_greater_zero(self._scale, "scale")

    def _repr_names(self):
        return ("location", "scale")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _get_dist_args(self, loc=None, scale=None):
        return self._dist_args((loc, scale))


class Cauchy(_LocScale):
    """Mirrors `mindspore.nn.probability.distribution.Cauchy` (mean, var and sd undefined)."""

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32, name="Cauchy"):
        self._init_loc_scale(dict(locals()))

    def _get_dist_type(self):
        return "Cauchy"

    def _mode(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _mean(self, *args, **kwargs):
        raise ValueError("mean is undefined for Cauchy distribution.")

    def _sd(self, *args, **kwargs):
        raise ValueError("standard deviation is undefined for Cauchy distribution.")

    def _var(self, *args, **kwargs):
        raise ValueError("variance is undefined for Cauchy distribution.")

    def _entropy(self, loc=None, scale=None):
        scale = self._check_param_type(loc, scale)[1]
        return ops.log(4 * math.pi * scale)

    def _log_prob(self, value, loc=None, scale=None):
        value = self._value(value)
        loc, scale = self._check_param_type(loc, scale)
        z = (value - loc) / scale
        return -math.log(math.pi) - ops.log(scale) - ops.log1p(ops.square(z))

    def _cdf(self, value, loc=None, scale=None):
        value = self._value(value)
        loc, scale = self._check_param_type(loc, scale)
        return ops.atan((value - loc) / scale) / math.pi + 0.5

    def _log_cdf(self, value, loc=None, scale=None):
        value = self._value(value)
        loc, scale = self._check_param_type(loc, scale)
        return ops.log1p(2.0 * ops.atan((value - loc) / scale) / math.pi) - math.log(2.0)

    def _kl_loss(self, dist, loc_b, scale_b, loc=None, scale=None):
        check_distribution_name(dist, "Cauchy")
        loc_b = self._other(loc_b, "loc_b")
        scale_b = self._other(scale_b, "scale_b")
        loc_a, scale_a = self._check_param_type(loc, scale)
        num = ops.square(scale_a + scale_b) + ops.square(loc_a - loc_b)
        return ops.log(num) - ops.log(4.0 * scale_a * scale_b)

    def _cross_entropy(self, dist, loc_b, scale_b, loc=None, scale=None):
        check_distribution_name(dist, "Cauchy")
        return self._entropy(loc, scale) + self._kl_loss(dist, loc_b, scale_b, loc, scale)

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        origin, sample_shape = self._sample_shape(shape, loc, scale)
        u = self._uniform(sample_shape)
        angle = math.pi * (u - 0.5)
        return self._finish_sample(loc + scale * ops.sin(angle) / ops.cos(angle), origin)


class Logistic(_LocScale):
    """Mirrors `mindspore.nn.probability.distribution.Logistic`."""

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32,
                 name="Logistic"):
        self._init_loc_scale(dict(locals()))

    def _get_dist_type(self):
        return "Logistic"

    def _mean(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    _mode = _mean

    def _sd(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[1] * (math.pi / math.sqrt(3.0))

    def _entropy(self, loc=None, scale=None):
        return ops.log(self._check_param_type(loc, scale)[1]) + 2.0

    def _z(self, value, loc, scale):
        value = self._value(value)
        loc, scale = self._check_param_type(loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -z - 2.0 * ops.softplus(-z) - ops.log(scale)

    def _cdf(self, value, loc=None, scale=None):
        return ops.sigmoid(self._z(value, loc, scale)[0])

    def _log_cdf(self, value, loc=None, scale=None):
        return -ops.softplus(-self._z(value, loc, scale)[0])

    def _survival_function(self, value, loc=None, scale=None):
        return ops.sigmoid(-self._z(value, loc, scale)[0])

    def _log_survival(self, value, loc=None, scale=None):
        return -ops.softplus(self._z(value, loc, scale)[0])

    def _sample(self, shape=(), loc=None, scale=None):
        loc, scale = self._check_param_type(loc, scale)
        origin, sample_shape = self._sample_shape(shape, loc, scale)
        u = self._uniform(sample_shape, float(np.finfo(np.float32).tiny), 1.0)
        return self._finish_sample(loc + scale * (ops.log(u) - ops.log1p(-u)), origin)
