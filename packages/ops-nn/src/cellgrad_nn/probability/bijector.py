"""`mindspore.nn.probability.bijector`: invertible maps with log-Jacobians (Exp,
PowerTransform, ScalarAffine, Softplus, GumbelCDF, Invert), each a Cell; differentiable, as
compositions of ops. Calling a bijector on a Distribution gives the TransformedDistribution."""

import numpy as np

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell

_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64)


class Bijector(Cell):
    """Mirrors `mindspore.nn.probability.bijector.Bijector`."""

    def __init__(self, is_constant_jacobian=False, is_injective=True, name=None, dtype=None,
                 param=None):
        super().__init__()
        owner = type(self).__name__
        if not isinstance(name, str):
            raise TypeError(f"For '{owner}', the type of 'name' should be 'str', but got type "
                            f"'{type(name).__name__}'.")
        for label, flag in (("is_constant_jacobian", is_constant_jacobian),
                            ("is_injective", is_injective)):
            if not isinstance(flag, bool):
                raise TypeError(f"For '{name}', the type of '{label}' should be 'bool', but got "
                                f"type '{type(flag).__name__}'.")
        if dtype is not None and dtype not in _FLOAT_TYPES:
            raise TypeError(f"For '{owner}', the 'dtype' should be a float type, but got "
                            f"{dtype}.")
        self._name = name
        self._dtype = dtype
        param = param or {}
        self._param_values = {k: v for k, v in param.items()
                            if k != "param" and not (k == "self" or k.startswith("_"))}
        self.default_parameters, self.parameter_names = [], []
        self.common_dtype = None
        if "bijector" not in param:
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return self._param_values

    @property
    def is_constant_jacobian(self):
        return self._is_constant_jacobian

    @property
    def is_injective(self):
        return self._is_injective

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def is_scalar_batch(self):
        return self._is_scalar_batch

    def _calc_batch_shape(self):
        param_dict = self._param_values.get("param_dict")
        if param_dict is None:
            return None
        shape = ()
        for value in param_dict.values():
            if value is None:
                return None
            if isinstance(value, bool):
                raise TypeError("Input cannot be Type Bool")
            shape = np.broadcast_shapes(shape, np.shape(
                value.asnumpy() if isinstance(value, Tensor) else value))
        return tuple(shape)

    def _check_is_scalar_batch(self):
        param_dict = self._param_values.get("param_dict")
        if param_dict is None:
            return False
        return all(v is None or isinstance(v, (int, float)) for v in param_dict.values())

    def _add_parameter(self, value, name):
        if isinstance(value, bool) or value is None:
            raise TypeError(f"{name} cannot be type {type(value)}")
        value_t = value if isinstance(value, Tensor) else Tensor(value)
        if self.dtype is None:
            if self.common_dtype is None:
                self.common_dtype = value_t.dtype
            elif value_t.dtype != self.common_dtype:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
            if value_t.dtype not in _FLOAT_TYPES:
                raise TypeError(f"For '{type(self).__name__}', the 'dtype of {name}' should be a "
                                f"float type, but got {value_t.dtype}.")
        elif value_t.dtype != self.dtype:
            raise TypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        return value_t

    def _check_value_dtype(self, value):
        if not isinstance(value, Tensor):
            raise TypeError("For input value of bijector, input type must be a Tensor or "
                            "Parameter.")
        if self.dtype is None:
            if not (value.dtype.is_floating_point):
                raise TypeError(f"For input value of bijector , the type must be or be subclass "
                                f"of Float, but got {value.dtype}")
        elif value.dtype != self.dtype:
            raise TypeError(f"For input value of bijector, the dtype must be {self.dtype}, but "
                            f"got {value.dtype}.")
        return value

    def extend_repr(self):
        if self.is_scalar_batch:
            return ", ".join(f"{n} = {v}" for n, v in zip(self.parameter_names,
                                                        self.default_parameters))
        return f"batch_shape = {self.batch_shape}"

    def cast_param_by_value(self, value, para):
        return ops.cast(para, value.dtype)

    def shape_mapping(self, shape):
        return tuple(np.broadcast_shapes(tuple(shape), self.batch_shape or ()))

    def forward(self, value, *args, **kwargs):
        return self._forward(value, *args, **kwargs)

    def inverse(self, value, *args, **kwargs):
        return self._inverse(value, *args, **kwargs)

    def forward_log_jacobian(self, value, *args, **kwargs):
        return self._forward_log_jacobian(value, *args, **kwargs)

    def inverse_log_jacobian(self, value, *args, **kwargs):
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def __call__(self, *args, **kwargs):
        from cellgrad_nn.probability.distribution import Distribution

        if args and isinstance(args[0], Distribution):
            from cellgrad_nn.probability.transformed import TransformedDistribution

            return TransformedDistribution(self, args[0])
        return super().__call__(*args, **kwargs)

    def construct(self, name, *args, **kwargs):
        """Mirrors `Bijector.construct`: the method called `name`."""
        if name in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
            return getattr(self, name)(*args, **kwargs)
        raise Exception("Invalid name")


class PowerTransform(Bijector):
    """Mirrors `mindspore.nn.probability.bijector.PowerTransform`: Y = (1 + c X)^(1/c), or
    exp(X) for c = 0."""

    def __init__(self, power=0.0, name="PowerTransform"):
        param = dict(locals())
        param["param_dict"] = {"power": power}
        super().__init__(name=name, param=param)
        self._power = self._add_parameter(power, "power")
        if np.any(self._power.asnumpy() < 0):
            raise ValueError("Power must be greater than or equal to zero.")

    @property
    def power(self):
        return self._power

    def _local(self, x):
        p = self.cast_param_by_value(x, self.power)
        shape = tuple(np.broadcast_shapes(tuple(x.shape), tuple(p.shape)))
        p, x = ops.broadcast_to(p, shape), ops.broadcast_to(x, shape)
        is_zero = p == 0
        return x, p, is_zero, ops.where(is_zero, ops.ones_like(p), p)

    def _forward(self, x):
        x, p, is_zero, safe = self._local(self._check_value_dtype(x))
        return ops.where(is_zero, ops.exp(x), ops.exp(ops.log1p(x * safe) / safe))

    def _inverse(self, y):
        y, p, is_zero, safe = self._local(self._check_value_dtype(y))
        return ops.where(is_zero, ops.log(y), ops.expm1(ops.log(y) * safe) / safe)

    def _forward_log_jacobian(self, x):
        x, p, is_zero, safe = self._local(self._check_value_dtype(x))
        return ops.where(is_zero, x, (1.0 / safe - 1) * ops.log1p(x * safe))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        return (self.cast_param_by_value(y, self.power) - 1) * ops.log(y)


class Exp(PowerTransform):
    """Mirrors `mindspore.nn.probability.bijector.Exp`: Y = exp(X)."""

    def __init__(self, name="Exp"):
        super().__init__(name=name)

    def extend_repr(self):
        return "exp" if self.is_scalar_batch else f"batch_shape = {self.batch_shape}"

    # power 0: the exp branch alone (PowerTransform's other branch would warn on x < -1)
    def _forward(self, x):
        return ops.exp(self._check_value_dtype(x))

    def _inverse(self, y):
        return ops.log(self._check_value_dtype(y))

    def _forward_log_jacobian(self, x):
        return self._check_value_dtype(x) * 1.0


class ScalarAffine(Bijector):
    """Mirrors `mindspore.nn.probability.bijector.ScalarAffine`: Y = scale * X + shift."""

    def __init__(self, scale=1.0, shift=0.0, name="ScalarAffine"):
        param = dict(locals())
        param["param_dict"] = {"scale": scale, "shift": shift}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name, dtype=None,
                         param=param)
        self._scale = self._add_parameter(scale, "scale")
        self._shift = self._add_parameter(shift, "shift")

    @property
    def scale(self):
        return self._scale

    @property
    def shift(self):
        return self._shift

    def _forward(self, x):
        x = self._check_value_dtype(x)
        return (self.cast_param_by_value(x, self.scale) * x
                + self.cast_param_by_value(x, self.shift) * ops.ones_like(x))

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        return (y - self.cast_param_by_value(y, self.shift)) / self.cast_param_by_value(
            y, self.scale)

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        return ops.log(ops.abs(self.cast_param_by_value(x, self.scale)))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        return -1.0 * ops.log(ops.abs(self.cast_param_by_value(y, self.scale)))


_THRESHOLD = float(np.log(np.finfo(np.float32).eps) + 1)
_TINY = float(np.exp(_THRESHOLD))


def _softplus(x):
    too_small = x < _THRESHOLD
    too_large = x > -_THRESHOLD
    safe = ops.where(ops.logical_or(too_small, too_large), ops.ones_like(x), x)
    y = ops.log(ops.exp(safe) + 1.0)
    return ops.where(too_small, ops.exp(x), ops.where(too_large, x, y))


def _inverse_softplus(x):
    too_small = x < _TINY
    too_large = x > -_THRESHOLD
    safe = ops.where(ops.logical_or(too_small, too_large), ops.ones_like(x), x)
    y = safe + ops.log(ops.abs(ops.expm1(-1 * safe)))
    return ops.where(too_small, ops.log(x), ops.where(too_large, x, y))


class Softplus(Bijector):
    """Mirrors `mindspore.nn.probability.bijector.Softplus`: Y = log(1 + exp(kX)) / k."""

    def __init__(self, sharpness=1.0, name="Softplus"):
        param = dict(locals())
        param["param_dict"] = {"sharpness": sharpness}
        super().__init__(name=name, dtype=None, param=param)
        self._sharpness = self._add_parameter(sharpness, "sharpness")

    @property
    def sharpness(self):
        return self._sharpness

    def _forward(self, x):
        x = self._check_value_dtype(x)
        k = self.cast_param_by_value(x, self.sharpness)
        return _softplus(k * x) / k

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        k = self.cast_param_by_value(y, self.sharpness)
        return _inverse_softplus(k * y) / k

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        k = self.cast_param_by_value(x, self.sharpness)
        return -_softplus(-(k * x))  # log(sigmoid(kx))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        scaled = self.cast_param_by_value(y, self.sharpness) * y
        return scaled - _inverse_softplus(scaled)


class GumbelCDF(Bijector):
    """Mirrors `mindspore.nn.probability.bijector.GumbelCDF`: Y = exp(-exp(-(X - loc) /
    scale))."""

    def __init__(self, loc=0.0, scale=1.0, name="GumbelCDF"):
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        super().__init__(name=name, param=param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        if not np.all(self._scale.asnumpy() > 0):
            raise ValueError("scale must be greater than zero.")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def _loc_scale(self, x):
        return self.cast_param_by_value(x, self.loc), self.cast_param_by_value(x, self.scale)

    def _forward(self, x):
        x = self._check_value_dtype(x)
        loc, scale = self._loc_scale(x)
        return ops.exp(-1 * ops.exp(-((x - loc) / scale)))

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        loc, scale = self._loc_scale(y)
        return loc - scale * ops.log(-1 * ops.log(y))

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        loc, scale = self._loc_scale(x)
        z = (x - loc) / scale
        return -z - ops.exp(-z) - ops.log(scale)

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        scale = self.cast_param_by_value(y, self.scale)
        return ops.log(scale / (-1.0 * y * ops.log(y)))


class Invert(Bijector):
    """Mirrors `mindspore.nn.probability.bijector.Invert`: the inverse of `bijector`."""

    def __init__(self, bijector, name=""):
        param = dict(locals())
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For 'Invert', the type of 'bijector' should be 'Bijector', but got "
                            f"type '{type(bijector).__name__}'.")
        name = name or "Invert" + bijector.name
        param["name"] = name
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian,
                         is_injective=bijector.is_injective, name=name, dtype=bijector.dtype,
                         param=param)
        self._bijector = bijector
        self._batch_shape = bijector.batch_shape
        self._is_scalar_batch = bijector.is_scalar_batch

    @property
    def bijector(self):
        return self._bijector

    def extend_repr(self):
        return ""

    def inverse(self, y):
        return self._bijector("forward", y)

    def forward(self, x):
        return self._bijector("inverse", x)

    def inverse_log_jacobian(self, y):
        return self._bijector("forward_log_jacobian", y)

    def forward_log_jacobian(self, x):
        return self._bijector("inverse_log_jacobian", x)
