"""The density-only distributions of `mindspore.nn.probability.distribution`: HalfNormal,
Laplace and StudentT (MindSpore 2.10 gives them prob/log_prob only)."""

import math

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad_nn.probability import _special as S
from cellgrad_nn.probability.distribution import (
    _FLOAT_TYPES,
    Distribution,
    check_greater_zero,
    check_type,
)


class _MeanSd(Distribution):
    def __init__(self, mean, sd, seed, dtype, name, param):
        param["param_dict"] = {"mean": mean, "sd": sd}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")


class HalfNormal(_MeanSd):
    """Mirrors `mindspore.nn.probability.distribution.HalfNormal`: the Normal density folded
    onto value >= 0."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="HalfNormal"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _prob(self, value, mean=None, sd=None):
        value = self._value(value)
        mean, sd = self._check_param_type(mean, sd)
        pdf = math.sqrt(2.0 / math.pi) / sd * ops.exp(-0.5 * ops.square((value - mean) / sd))
        return pdf * ops.cast(value >= 0, self.dtype)


class Laplace(_MeanSd):
    """Mirrors `mindspore.nn.probability.distribution.Laplace`."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32, name="Laplace"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _log_prob(self, value, mean=None, sd=None):
        value = self._value(value)
        mean, sd = self._check_param_type(mean, sd)
        return -1.0 * ops.abs((value - mean) / sd) - ops.log(2.0 * sd)


class StudentT(Distribution):
    """Mirrors `mindspore.nn.probability.distribution.StudentT`."""

    def __init__(self, df=None, mean=None, sd=None, seed=None, dtype=mstype.float32,
                 name="StudentT"):
        param = dict(locals())
        param["param_dict"] = {"df": df, "mean": mean, "sd": sd}
        check_type("dtype", dtype, _FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._df_value = self._add_parameter(df, "df")
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")
        if self._df_value is not None:
            check_greater_zero(self._df_value, "Degrees of freedom")

    def _log_prob(self, value, df=None, mean=None, sd=None):
        value = self._value(value)
        df, mean, sd = self._check_param_type(df, mean, sd)
        y = (value - mean) / sd
        unnormalized = -0.5 * (df + 1.0) * ops.log1p(y ** 2.0 / df)
        normalization = (ops.log(ops.abs(sd)) + 0.5 * ops.log(df) + 0.5 * math.log(math.pi)
                         + S.lgamma(0.5 * df) - S.lgamma(0.5 * (df + 1.0)))
        return unnormalized - normalization
