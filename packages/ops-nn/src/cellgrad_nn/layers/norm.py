"""Normalisation layers: `nn.BatchNorm1d/2d/3d`, `nn.InstanceNorm1d/2d/3d`, `nn.LayerNorm`,
`nn.GroupNorm`."""

from cellgrad import Parameter
from cellgrad._errors import ValueRangeError
from cellgrad.common.initializer import initializer
from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad_nn.functional.norm import (
    batch_norm_checked,
    group_norm,
    instance_norm_checked,
    layer_norm_checked,
)
from cellgrad_nn.functional.primitives import LayerNorm as LayerNormPrim
from cellgrad_nn.layers import _checks


class _BatchNorm(Cell):
    """The moving statistics are Parameters named `mean`/`variance` (`<cell>.moving_mean` once
    nested, as MindSpore names them); `momentum` is the fraction of them kept per update."""

    RANKS: tuple = ()
    LAYOUT = ""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=float32):
        super().__init__()
        name = type(self).__name__
        self.num_features = _checks.positive_int(name, "num_features", num_features)
        self.eps = _checks.number_in(name, "eps", eps, 0, float("inf"), low_open=True)
        self.momentum = _checks.number_in(name, "momentum", momentum, 0.0, 1.0)
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', cellgrad supports data_format 'NCHW', but got "
                             f"{data_format!r}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise TypeError(f"For '{name}', 'use_batch_statistics' must be a bool or None, but "
                            f"got {use_batch_statistics!r}.")
        self.use_batch_statistics = use_batch_statistics
        self.affine = affine
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype),
                                     name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        name = type(self).__name__
        _checks.input_tensor(name, x, self.RANKS, self.LAYOUT)
        _checks.channels(name, x, 1, self.num_features, "num_features")
        training = self.training if self.use_batch_statistics is None \
            else self.use_batch_statistics
        # MindSpore's momentum keeps that fraction of the moving statistics. They are updated
        # in place: read from _params, not as the cast copy a `to_float` cell's attribute gives.
        params = self._params
        return batch_norm_checked(name, x, params["moving_mean"], params["moving_variance"],
                                  self.gamma, self.beta, training, 1.0 - self.momentum,
                                  self.eps)[0]

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """Mirrors `mindspore.nn.BatchNorm1d`: inputs (N, C) or (N, C, L)."""

    RANKS = (2, 3)
    LAYOUT = "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    """Mirrors `mindspore.nn.BatchNorm2d`: inputs (N, C, H, W)."""

    RANKS = (4,)
    LAYOUT = "(N, C, H, W)"


class BatchNorm3d(Cell):
    """Mirrors `mindspore.nn.BatchNorm3d`: inputs (N, C, D, H, W), normalised by a BatchNorm2d
    child `bn2d` over (N, C, D * H, W), so its Parameters are `bn2d.gamma`, ... as in
    MindSpore."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics, "NCHW",
                                dtype)

    def construct(self, x):
        _checks.input_tensor("BatchNorm3d", x, (5,), "(N, C, D, H, W)")
        _checks.channels("BatchNorm3d", x, 1, self.bn2d.num_features, "num_features")
        n, c, d, h, w = x.shape
        return self.bn2d(x.reshape((n, c, d * h, w))).reshape((n, c, d, h, w))


class LayerNorm(Cell):
    """Mirrors `mindspore.nn.LayerNorm`: normalise over the axes from `begin_norm_axis`."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNorm', 'normalized_shape' must be a tuple or list, but "
                            f"got {type(normalized_shape).__name__}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype),
                               name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")
        # MindSpore's attribute: subclasses call `self.layer_norm(x, gamma, beta)` (mindcv's
        # ConvNextLayerNorm does).
        self.layer_norm = LayerNormPrim(begin_norm_axis, begin_params_axis, epsilon)

    def construct(self, x):
        ndim = x.ndim
        for name in ("begin_norm_axis", "begin_params_axis"):
            axis = getattr(self, name)
            if ndim and not -ndim <= axis < ndim:
                raise ValueRangeError(f"For 'LayerNorm', the input's rank is {ndim}, while the "
                                      f"'{name}' value should be in the range [{-ndim}, {ndim}), "
                                      f"but got {axis}.")
        norm_axis = self.begin_norm_axis % ndim if ndim else 0
        params_axis = self.begin_params_axis % ndim if ndim else 0
        if tuple(x.shape[params_axis:]) != self.normalized_shape:
            raise ValueError(f"For 'LayerNorm', the input's dimensions from begin_params_axis="
                             f"{self.begin_params_axis} must be normalized_shape="
                             f"{self.normalized_shape}, but got input {_checks.describe(x)}.")
        return layer_norm_checked("LayerNorm", x, self.gamma, self.beta, norm_axis,
                                  params_axis, self.epsilon)[0]

    def extend_repr(self):
        # MindSpore prints "gammaParameter" without '=': kept, so printed nets compare equal.
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis="
                f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, "
                f"gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Mirrors `mindspore.nn.GroupNorm`: normalise each of `num_groups` groups of channels."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=float32):
        super().__init__()
        self.num_groups = _checks.positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = _checks.positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', num_channels={num_channels} must be divisible "
                             f"by num_groups={num_groups}.")
        self.eps = eps
        self.affine = affine
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        _checks.input_tensor("GroupNorm", x, (2, 3, 4, 5), "(N, C, ...)")
        _checks.channels("GroupNorm", x, 1, self.num_channels, "num_channels")
        return group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    """MindSpore's InstanceNorm (a GPU kernel there; here on the batch-norm kernels): every
    call, in training and in evaluation, normalises each sample's channels with their own
    statistics. The moving statistics are kept as Parameters (`mean`, `variance`) and, as in
    MindSpore's kernel, never updated."""

    RANK = 0

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=float32):
        super().__init__()
        name = type(self).__name__
        for arg, value, kind in (("num_features", num_features, int), ("eps", eps, float),
                                 ("momentum", momentum, float), ("affine", affine, bool)):
            if type(value) is not kind and not (kind is int and isinstance(value, int) and
                                               not isinstance(value, bool)):
                raise TypeError(f"For '{name}', the '{arg}' must be {kind.__name__}, but got "
                                f"{type(value).__name__} {value!r}.")
        if num_features < 1:
            raise ValueError(f"For '{name}', the 'num_features' must be at least 1, but got "
                             f"{num_features}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For '{name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype), name="beta",
                              requires_grad=affine)

    def construct(self, x):
        name = type(self).__name__
        layout = ("(N, C, L)", "(N, C, H, W)", "(N, C, D, H, W)")[self.RANK - 1]
        _checks.input_tensor(name, x, (self.RANK + 2,), layout)
        _checks.channels(name, x, 1, self.num_features, "num_features")
        return instance_norm_checked(name, x, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class InstanceNorm1d(_InstanceNorm):
    """Mirrors `mindspore.nn.InstanceNorm1d`: inputs (N, C, L)."""

    RANK = 1


class InstanceNorm2d(_InstanceNorm):
    """Mirrors `mindspore.nn.InstanceNorm2d`: inputs (N, C, H, W)."""

    RANK = 2


class InstanceNorm3d(_InstanceNorm):
    """Mirrors `mindspore.nn.InstanceNorm3d`: inputs (N, C, D, H, W)."""

    RANK = 3
