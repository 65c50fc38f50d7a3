"""`mindspore.nn.probability.distribution.Distribution`: the base Cell of the distributions.

Each distribution names its parameters (`_add_parameter`) and implements some of `_prob`,
`_log_prob`, `_cdf`, `_log_cdf`, `_survival_function`, `_log_survival`, `_mean`, `_var`,
`_sd`, `_mode`, `_entropy`, `_kl_loss`, `_cross_entropy`, `_sample`; the public methods derive
the missing ones as MindSpore does (prob from log_prob, cdf from survival, ...). Every method
takes the distribution's parameters as optional trailing arguments (`dist_spec_args`) that
replace the defaults for that call.
"""

import numpy as np

from cellgrad import dtype as mstype
from cellgrad import ops
from cellgrad.common.parameter import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell

_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
              mstype.uint16, mstype.uint32, mstype.uint64)
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64)


def cast_to_tensor(t, hint_type=mstype.float32):
    """A Tensor of `hint_type` from a number, list, ndarray or Tensor (Parameters kept)."""
    if t is None:
        raise ValueError("Input cannot be None in cast_to_tensor")
    if isinstance(t, Parameter):
        return t
    if isinstance(t, bool):
        raise TypeError("Input cannot be Type Bool")
    if isinstance(t, Tensor):
        return ops.cast(t, hint_type)
    if isinstance(t, (np.ndarray, list, int, float)):
        return Tensor(np.asarray(t).astype(hint_type.np_dtype), hint_type)
    raise TypeError(f"Unable to convert input of type {type(t)} to a Tensor of type {hint_type}")


def set_param_type(args, hint_type):
    """The parameters' common float type (integer and float64 parameters compute in float32,
    as MindSpore's)."""
    if hint_type in _INT_TYPES or hint_type is None:
        hint_type = mstype.float32
    common = None
    for name, arg in args.items():
        if isinstance(arg, (Tensor, np.ndarray)):
            cur = mstype.to_dtype(arg.dtype) if isinstance(arg, np.ndarray) else arg.dtype
            if common is None:
                common = cur
            elif cur != common:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
    if common in _INT_TYPES or common == mstype.float64:
        return mstype.float32
    return hint_type if common is None else common


# MindSpore's own lists, as its type checks print them
_MS_FLOAT_NAMES = ("float16", "float32", "float64", "bfloat16", "float8_e4m3fn", "float8_e5m2",
                   "hifloat8")
_MS_INT_NAMES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def check_type(name, dtype, valid, owner):
    if dtype not in valid:
        names = (_MS_INT_NAMES if valid[0] in _INT_TYPES else ()) + _MS_FLOAT_NAMES
        listed = ", ".join(f"mindspore.{n}" for n in names)
        raise TypeError(f"For '{owner}', the '{name}' should be one of [{listed}], but got "
                        f"'mindspore.{str(dtype).lower()}'.")


def check_greater_zero(value, name):
    data = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    if not np.all(data > 0):
        raise ValueError(f"{name} must be greater than zero.")


def check_prob(p):
    data = p.asnumpy()
    if not np.all(data > 0):
        raise ValueError("Probabilities must be greater than zero")
    if not np.all(data < 1):
        raise ValueError("Probabilities must be less than one")


def check_distribution_name(name, expected):
    if name is None:
        raise ValueError("Input dist must be a constant which is not None.")
    if name != expected:
        raise ValueError(f"Expected dist input is {expected}, but got {name}.")


def _not_implemented(func, owner):
    raise NotImplementedError(f"{func} is not implemented for {owner} distribution.")


def _check_tensor(value, name):
    if not isinstance(value, Tensor):
        raise TypeError(f"For {name}, input type must be a Tensor or Parameter.")
    return value


def _squeeze_scalar(value, origin_shape):
    return ops.reshape(value, ()) if origin_shape == () else value


class Distribution(Cell):
    """Mirrors `mindspore.nn.probability.distribution.Distribution`."""

    def __init__(self, seed, dtype, name, param):
        super().__init__()
        if seed is None:
            seed = 0
        if not isinstance(name, str):
            raise TypeError(f"For '{type(self).__name__}', the type of 'name' should be 'str', "
                            f"but got type '{type(name).__name__}'.")
        # MindSpore's classes: TypeError for a non-int (a bool with the range message),
        # ValueError for a negative int
        if not isinstance(seed, int):
            raise TypeError(f"For '{name}', the 'seed' must be int, but got "
                            f"'{type(seed).__name__}'")
        if isinstance(seed, bool) or seed < 0:
            raise (TypeError if isinstance(seed, bool) else ValueError)(
                f"For '{name}', the 'seed' must be int and must >= 0, but got '{seed}' with type "
                f"'{type(seed).__name__}'.")
        self._name = name
        self._seed = seed
        self._dtype = dtype
        self._param_values = {k: v for k, v in param.items()
                            if not (k == "self" or k.startswith("_"))}
        self.default_parameters = []
        self.parameter_names = []
        if "distribution" not in self._param_values:
            param_dict = self._param_values.get("param_dict", {})
            self.parameter_type = set_param_type(param_dict, dtype)
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
            self._broadcast_shape = self._batch_shape

    # ---- properties ----
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def seed(self):
        return self._seed

    @property
    def parameters(self):
        return self._param_values

    @property
    def is_scalar_batch(self):
        return self._is_scalar_batch

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def broadcast_shape(self):
        return self._broadcast_shape

    # ---- parameters ----
    def _add_parameter(self, value, name):
        value_t = None if value is None else cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        return value_t

    def _check_is_scalar_batch(self):
        return all(v is None or isinstance(v, (int, float))
                   for v in self._param_values.get("param_dict", {}).values())

    def _calc_batch_shape(self):
        shape = ()
        for value in self._param_values.get("param_dict", {}).values():
            if value is None:
                return None
            shape = np.broadcast_shapes(shape, np.shape(value.asnumpy() if isinstance(
                value, Tensor) else value))
        return tuple(shape)

    def _check_param_type(self, *args):
        """The parameters of this call: given ones (Tensors) or the defaults, broadcast to a
        common shape and cast to `parameter_type`."""
        out = []
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is not None:
                _check_tensor(arg, name)
            elif default is not None:
                arg = default
            else:
                raise TypeError(f"the type {name} must be subclass of Tensor. It can not be "
                                f"None since it is not specified during initialization.")
            out.append(ops.cast(arg, self.parameter_type))
        if len(out) == 1:
            return out[0]
        shape = tuple(np.broadcast_shapes(*(tuple(t.shape) for t in out)))
        return tuple(ops.broadcast_to(t, shape) for t in out)

    def _check_value(self, value, name):
        return _check_tensor(value, name)

    def _other(self, value, name):
        """Parameter `name` of the other distribution of a kl_loss/cross_entropy, as a Tensor
        of this distribution's parameter dtype."""
        return ops.cast(self._check_value(value, name), self.parameter_type)

    def _value(self, value, dtype=None):
        self._check_value(value, "value")
        return ops.cast(value, self.dtype if dtype is None else dtype)

    # ---- the public methods, each from what the subclass implements ----
    def _has(self, name):
        return hasattr(self, name)

    def prob(self, value, *args, **kwargs):
        if self._has("_prob"):
            return self._prob(value, *args, **kwargs)
        if self._has("_log_prob"):
            return ops.exp(self._log_prob(value, *args, **kwargs))
        return _not_implemented("prob", self.name)

    def log_prob(self, value, *args, **kwargs):
        if self._has("_log_prob"):
            return self._log_prob(value, *args, **kwargs)
        if self._has("_prob"):
            return ops.log(self._prob(value, *args, **kwargs))
        return _not_implemented("log_prob", self.name)

    def cdf(self, value, *args, **kwargs):
        if self._has("_cdf"):
            return self._cdf(value, *args, **kwargs)
        if self._has("_log_cdf"):
            return ops.exp(self._log_cdf(value, *args, **kwargs))
        if self._has("_survival_function"):
            return 1.0 - self._survival_function(value, *args, **kwargs)
        if self._has("_log_survival"):
            return 1.0 - ops.exp(self._log_survival(value, *args, **kwargs))
        return _not_implemented("cdf", self.name)

    def _any_cdf(self):
        return any(self._has(n) for n in ("_cdf", "_log_cdf", "_survival_function",
                                          "_log_survival"))

    def log_cdf(self, value, *args, **kwargs):
        if not self._any_cdf():
            return _not_implemented("log_cdf", self.name)
        if self._has("_log_cdf"):
            return self._log_cdf(value, *args, **kwargs)
        return ops.log(self.cdf(value, *args, **kwargs))

    def survival_function(self, value, *args, **kwargs):
        if not self._any_cdf():
            return _not_implemented("survival_function", self.name)
        if self._has("_survival_function"):
            return self._survival_function(value, *args, **kwargs)
        if self._has("_log_survival"):
            return ops.exp(self._log_survival(value, *args, **kwargs))
        return 1.0 - self.cdf(value, *args, **kwargs)

    def log_survival(self, value, *args, **kwargs):
        if not self._any_cdf():  # MindSpore's message names log_cdf here
            return _not_implemented("log_cdf", self.name)
        if self._has("_log_survival"):
            return self._log_survival(value, *args, **kwargs)
        return ops.log(self.survival_function(value, *args, **kwargs))

    def kl_loss(self, dist, *args, **kwargs):
        return self._kl_loss(dist, *args, **kwargs)

    def _kl_loss(self, *args, **kwargs):
        return _not_implemented("kl_loss", self.name)

    def mean(self, *args, **kwargs):
        return self._mean(*args, **kwargs)

    def _mean(self, *args, **kwargs):
        return _not_implemented("mean", self.name)

    def mode(self, *args, **kwargs):
        return self._mode(*args, **kwargs)

    def _mode(self, *args, **kwargs):
        return _not_implemented("mode", self.name)

    def sd(self, *args, **kwargs):
        if self._has("_sd"):
            return self._sd(*args, **kwargs)
        if self._has("_var"):
            return ops.sqrt(self._var(*args, **kwargs))
        return _not_implemented("sd", self.name)

    def var(self, *args, **kwargs):
        if self._has("_var"):
            return self._var(*args, **kwargs)
        if self._has("_sd"):
            return ops.square(self._sd(*args, **kwargs))
        return _not_implemented("var", self.name)

    def entropy(self, *args, **kwargs):
        return self._entropy(*args, **kwargs)

    def _entropy(self, *args, **kwargs):
        return _not_implemented("entropy", self.name)

    def cross_entropy(self, dist, *args, **kwargs):
        if self._has("_cross_entropy"):
            return self._cross_entropy(dist, *args, **kwargs)
        return _not_implemented("cross_entropy", self.name)

    def sample(self, *args, **kwargs):
        return self._sample(*args, **kwargs)

    def _sample(self, *args, **kwargs):
        return _not_implemented("sample", self.name)

    def get_dist_args(self, *args, **kwargs):
        return self._get_dist_args(*args, **kwargs)

    def _get_dist_args(self, *args, **kwargs):
        return _not_implemented("get_dist_args", self.name)

    def get_dist_type(self):
        return self._get_dist_type()

    def _get_dist_type(self):
        return _not_implemented("get_dist_type", self.name)

    def construct(self, name, *args, **kwargs):
        """Mirrors `Distribution.construct`: the method called `name`."""
        if name in ("prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival",
                    "kl_loss", "mean", "mode", "sd", "var", "entropy", "cross_entropy",
                    "sample", "get_dist_args", "get_dist_type"):
            return getattr(self, name)(*args, **kwargs)
        return _not_implemented(name, self.name)

    # ---- helpers the subclasses share ----
    def _dist_args(self, given):
        """`get_dist_args`: each given Tensor, or the default."""
        out = []
        for value, name, default in zip(given, self.parameter_names, self.default_parameters):
            out.append(_check_tensor(value, name) if value is not None else default)
        return tuple(out)

    def _sample_shape(self, shape, *params):
        if not isinstance(shape, tuple):
            raise TypeError(f"For shape, input type must be tuple, but got {type(shape)}.")
        batch = tuple(np.broadcast_shapes(*(tuple(p.shape) for p in params)))
        origin = shape + batch
        return origin, (origin if origin else (1,))

    def _seed_arg(self):
        return self.seed if self.seed else None

    def _uniform(self, shape, low=0.0, high=1.0):
        return ops.uniform(shape, Tensor(low, mstype.float32), Tensor(high, mstype.float32),
                           self._seed_arg())

    def _finish_sample(self, value, origin):
        return _squeeze_scalar(ops.cast(ops.stop_gradient(value), self.dtype), origin)

    def extend_repr(self):
        if self.is_scalar_batch:
            return ", ".join(f"{n} = {d}" for n, d in zip(self._repr_names(),
                                                         self.default_parameters))
        return f"batch_shape = {self._broadcast_shape}"

    def _repr_names(self):
        return self.parameter_names
