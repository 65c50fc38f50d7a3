"""`TransformedDistribution` (a distribution pushed through a bijector) and the two
distributions MindSpore builds on it: LogNormal (Exp of a Normal) and Gumbel (the inverse
GumbelCDF of a Uniform(0, 1))."""

import math

import numpy as np

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad_nn.probability import _special as S
from cellgrad_nn.probability.bijector import Bijector, Exp, GumbelCDF, Invert
from cellgrad_nn.probability.continuous import Normal, Uniform
from cellgrad_nn.probability.distribution import (
    _FLOAT_TYPES,
    Distribution,
    check_distribution_name,
    check_type,
)


class TransformedDistribution(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.TransformedDistribution`."""

    def __init__(self, bijector, distribution, seed=None, name="transformed_distribution"):
        param = dict(locals())
        owner = type(self).__name__
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For '{owner}', the type of 'bijector' should be 'Bijector', but "
                            f"got type '{type(bijector).__name__}'.")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"For '{owner}', the type of 'distribution' should be "
                            f"'Distribution', but got type '{type(distribution).__name__}'.")
        check_type("dtype", distribution.dtype, _FLOAT_TYPES, owner)
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_linear_transformation = bijector.is_constant_jacobian
        self._dtype = distribution.dtype
        self._is_scalar_batch = distribution.is_scalar_batch and bijector.is_scalar_batch
        self._batch_shape = distribution.batch_shape
        self.default_parameters = distribution.default_parameters
        self.parameter_names = distribution.parameter_names
        self.parameter_type = distribution.parameter_type
        self._broadcast_shape = None
        if self._batch_shape is not None and bijector.batch_shape is not None:
            self._broadcast_shape = tuple(np.broadcast_shapes(bijector.batch_shape,
                                                              self._batch_shape))

    @property
    def bijector(self):
        return self._bijector

    @property
    def distribution(self):
        return self._distribution

    @property
    def is_linear_transformation(self):
        return self._is_linear_transformation

    def extend_repr(self):
        return ""

    def _cdf(self, value, *args, **kwargs):
        return self._distribution("cdf", self._bijector("inverse", value), *args, **kwargs)

    def _log_cdf(self, value, *args, **kwargs):
        return ops.log(self._cdf(value, *args, **kwargs))

    def _survival_function(self, value, *args, **kwargs):
        return 1.0 - self._cdf(value, *args, **kwargs)

    def _log_survival(self, value, *args, **kwargs):
        return ops.log(self._survival_function(value, *args, **kwargs))

    def _log_prob(self, value, *args, **kwargs):
        unadjusted = self._distribution("log_prob", self._bijector("inverse", value), *args,
                                        **kwargs)
        adjusted = unadjusted + self._bijector("inverse_log_jacobian", value)
        return ops.where(unadjusted == -np.inf, unadjusted, adjusted)

    def _prob(self, value, *args, **kwargs):
        return ops.exp(self._log_prob(value, *args, **kwargs))

    def _sample(self, *args, **kwargs):
        return self._bijector("forward", self._distribution("sample", *args, **kwargs))

    def _mean(self, *args, **kwargs):
        if not self._is_linear_transformation:
            raise ValueError("mean function must be implemented for non-linear "
                             "transformation")
        return self._bijector("forward", self._distribution("mean", *args, **kwargs))


class LogNormal(TransformedDistribution):
    """Mirrors `mindspore.nn.probability.distribution.LogNormal`: exp of a Normal(loc,
    scale)."""

    def __init__(self, loc=None, scale=None, seed=0, dtype=mstype.float32, name="LogNormal"):
        super().__init__(distribution=Normal(loc, scale, dtype=dtype), bijector=Exp(),
                         seed=seed, name=name)
        self.default_parameters, self.parameter_names = [], []
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    extend_repr = Distribution.extend_repr

    def _get_dist_type(self):
        return "LogNormal"

    def _get_dist_args(self, loc=None, scale=None):
        return self._dist_args((loc, scale))

    def _mean(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean + 0.5 * ops.square(sd))

    def _mode(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean - ops.square(sd))

    def _var(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        var = ops.square(sd)
        return ops.expm1(var) * ops.exp(2.0 * mean + var)

    def _entropy(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return mean + 0.5 + ops.log(sd) + 0.5 * math.log(2 * math.pi)

    def _cdf(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        cdf = self._distribution("cdf", self._bijector("inverse", value), mean, sd)
        return ops.where(value > 0.0, cdf, ops.zeros_like(cdf))

    def _log_prob(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        unadjusted = self._distribution("log_prob", self._bijector("inverse", value), mean, sd)
        return unadjusted + self._bijector("inverse_log_jacobian", value)

    def _cross_entropy(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "LogNormal")
        return self._entropy(loc_a, scale_a) + self._kl_loss(dist, loc_b, scale_b, loc_a,
                                                              scale_a)

    def _kl_loss(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "LogNormal")
        return self._distribution("kl_loss", "Normal", loc_b, scale_b, loc_a, scale_a)

    def _sample(self, shape=(), loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        if not isinstance(shape, tuple):
            raise TypeError(f"For shape, input type must be tuple, but got {type(shape)}.")
        normal = self._distribution("sample", shape if shape else (1,), mean, sd)
        value = ops.cast(self._bijector("forward", normal), self.dtype)
        return ops.squeeze(value, 0) if shape == () else value


class Gumbel(TransformedDistribution):
    """Mirrors `mindspore.nn.probability.distribution.Gumbel` (its parameters are fixed at
    construction: the methods take none)."""

    def __init__(self, loc, scale, seed=0, dtype=mstype.float32, name="Gumbel"):
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        gumbel_cdf = GumbelCDF(loc, scale)
        super().__init__(distribution=Uniform(0.0, 1.0, dtype=dtype),
                         bijector=Invert(gumbel_cdf), seed=seed, name=name)
        self._param_values = {"loc": loc, "scale": scale, "param_dict": {"loc": loc,
                                                                       "scale": scale}}
        self._batch_shape = self._calc_batch_shape()
        self._broadcast_shape = self._batch_shape
        self._is_scalar_batch = self._check_is_scalar_batch()
        self.default_parameters, self.parameter_names = [], []
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        self._gumbel_bijector = gumbel_cdf

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    extend_repr = Distribution.extend_repr

    def _get_dist_type(self):
        return "Gumbel"

    def _get_dist_args(self):
        return self._loc, self._scale

    def _ones(self):
        return ops.ones(self._broadcast_shape, self.parameter_type)

    def _mean(self):
        return self._loc + self._scale * np.euler_gamma

    def _mode(self):
        return self._loc * ops.ones_like(self._scale)

    def _sd(self):
        return self._scale * self._ones() * math.pi / math.sqrt(6.0)

    def _entropy(self):
        return 1.0 + ops.log(self._scale * self._ones()) + np.euler_gamma

    def _log_prob(self, value):
        z = (self._value(value) - self._loc) / self._scale
        return -(z + ops.exp(-z)) - ops.log(self._scale)

    def _cdf(self, value):
        return self._gumbel_bijector("forward", self._value(value))

    def _cross_entropy(self, dist, loc_b, scale_b):
        check_distribution_name(dist, "Gumbel")
        return self._entropy() + self._kl_loss(dist, loc_b, scale_b)

    def _kl_loss(self, dist, loc_b, scale_b):
        check_distribution_name(dist, "Gumbel")
        loc_b = self._other(loc_b, "loc_b")
        scale_b = self._other(scale_b, "scale_b")
        loc, scale = self._loc, self._scale
        return (ops.log(scale_b / scale) + np.euler_gamma * (scale / scale_b - 1.0)
                + (loc - loc_b) / scale_b
                + ops.expm1((loc_b - loc) / scale_b + S.lgamma(scale / scale_b + 1.0)))

    def _sample(self, shape=()):
        origin = tuple(shape) + tuple(self._broadcast_shape)
        sample_shape = origin if origin else (1,)
        uniform = ops.cast(self._distribution("sample", sample_shape), self.dtype)
        value = self._bijector("forward", uniform)
        return ops.reshape(value, ()) if origin == () else value
