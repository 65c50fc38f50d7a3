"""`mint.nn` cells with torch-style constructors: activations and losses from one table over
`mint.nn.functional`, and the layers holding parameters (convolutions, norms, PReLU) as MindSpore
2.10's mint.nn names them (`weight`, `bias`, `running_mean`, `running_var`,
`num_batches_tracked`)."""

import inspect
import math

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.initializer import HeUniform, Uniform, initializer
from cellgrad.common.parameter import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_nn.mint import functional as F

# name -> (function, constructor parameters, the ones passed on to the function)
_ACTIVATIONS = {
    "GELU": (F.gelu, "approximate='none'", "approximate"),
    "Softmax": (F.softmax, "dim=None", "dim"),
    "LogSoftmax": (F.log_softmax, "dim=None", "dim"),
    "SiLU": (F.silu, "inplace=False", ""),
    "ReLU6": (F.relu6, "inplace=False", ""),
    "ELU": (F.elu, "alpha=1.0, inplace=False", "alpha"),
    "Hardtanh": (F.hardtanh, "min_val=-1.0, max_val=1.0, inplace=False", "min_val max_val"),
    "Threshold": (F.threshold, "threshold, value, inplace=False", "threshold value"),
    "Hardshrink": (ops.hardshrink, "lambd=0.5", "lambd"),
    "Hardsigmoid": (ops.hardsigmoid, "", ""),
    "Hardswish": (ops.hardswish, "", ""),
    "Mish": (ops.mish, "auto_prefix=True, flags=None", ""),
    "SELU": (ops.selu, "auto_prefix=True, flags=None", ""),
    "ZeroPad1d": (lambda x, padding: ops.pad(x, _pairs(padding, 1)), "padding", "padding"),
    "ZeroPad3d": (lambda x, padding: ops.pad(x, _pairs(padding, 3)), "padding", "padding"),
    "AvgPool1d": (F.avg_pool1d, "kernel_size, stride=None, padding=0, ceil_mode=False, "
                  "count_include_pad=True",
                  "kernel_size stride padding ceil_mode count_include_pad"),
    "AvgPool2d": (F.avg_pool2d, "kernel_size, stride=None, padding=0, ceil_mode=False, "
                  "count_include_pad=True, divisor_override=None",
                  "kernel_size stride padding ceil_mode count_include_pad divisor_override"),
    "AvgPool3d": (F.avg_pool3d, "kernel_size, stride=None, padding=0, ceil_mode=False, "
                  "count_include_pad=True, divisor_override=None",
                  "kernel_size stride padding ceil_mode count_include_pad divisor_override"),
    "AdaptiveMaxPool1d": (F.adaptive_max_pool1d, "output_size, return_indices=False",
                          "output_size return_indices"),
    "Unfold": (F.unfold, "kernel_size, dilation=1, padding=0, stride=1",
               "kernel_size dilation padding stride"),
    "Fold": (F.fold, "output_size, kernel_size, dilation=1, padding=0, stride=1",
             "output_size kernel_size dilation padding stride"),
    "UpsamplingNearest2d": (F.interpolate, "size=None, scale_factor=None", "size scale_factor"),
    "UpsamplingBilinear2d": (
        lambda x, size, scale_factor: F.interpolate(x, size, scale_factor, "bilinear", True),
        "size=None, scale_factor=None", "size scale_factor"),
}
_LOSSES = {
    "SmoothL1Loss": (lambda x, y, reduction, beta: ops.smooth_l1_loss(x, y, beta, reduction),
                     "reduction='mean', beta=1.0", "reduction beta"),
    "BCEWithLogitsLoss": (F.binary_cross_entropy_with_logits,
                          "weight=None, reduction='mean', pos_weight=None",
                          "weight reduction pos_weight"),
    "KLDivLoss": (F.kl_div, "reduction='mean', log_target=False", "reduction log_target"),
}


def _pairs(padding, dims):
    return (padding,) * (2 * dims) if isinstance(padding, int) else tuple(padding)


def _cell_class(name, func, params, passed, inputs):
    signature = inspect.signature(eval(f"lambda {params}: None"))  # noqa: S307
    passed = passed.split()

    def __init__(self, *args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        Cell.__init__(self)
        self._arguments = {k: v for k, v in bound.arguments.items() if k in passed}

    def construct(self, *xs):
        if len(xs) != inputs:
            raise TypeError(f"For 'mint.nn.{name}', construct takes {inputs} input(s), but got "
                            f"{len(xs)}.")
        return func(*xs, **self._arguments)

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
         *signature.parameters.values()])
    return type(name, (Cell,), {"__init__": __init__, "construct": construct,
                                "__module__": __name__,
                                "__doc__": f"Mirrors `mindspore.mint.nn.{name}`."})


globals().update({name: _cell_class(name, *entry, 1) for name, entry in _ACTIVATIONS.items()})
globals().update({name: _cell_class(name, *entry, 2) for name, entry in _LOSSES.items()})


def _tuple(value, dims):
    return (value,) * dims if isinstance(value, int) else tuple(value)


class _Conv(Cell):
    _dims = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        super().__init__()
        name = type(self).__name__
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For 'mint.nn.{name}', 'in_channels' ({in_channels}) and "
                             f"'out_channels' ({out_channels}) must be divisible by 'groups' "
                             f"({groups}).")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"For 'mint.nn.{name}', 'padding_mode' must be 'zeros', 'reflect', "
                             f"'replicate' or 'circular', but got {padding_mode!r}.")
        if padding_mode != "zeros" and isinstance(padding, str):
            raise ValueError(f"For 'mint.nn.{name}', padding_mode={padding_mode!r} needs integer "
                             f"padding, but got {padding!r}.")
        dims = self._dims
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple(kernel_size, dims)
        self.stride, self.dilation = _tuple(stride, dims), _tuple(dilation, dims)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, dims)
        self.padding_mode = padding_mode
        dtype = dtype or mstype.float32
        shape = (out_channels, in_channels // groups, *self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        if bias:
            bound = 1 / math.sqrt(in_channels // groups * int(np.prod(self.kernel_size)))
            self.bias = Parameter(initializer(Uniform(bound), (out_channels,), dtype),
                                  name="bias")
        else:
            self.bias = None

    def construct(self, input):
        padding = self.padding
        if self.padding_mode != "zeros":
            pads = tuple(p for size in reversed(padding) for p in (size, size))
            input = ops.pad(input, pads, mode=self.padding_mode)
            padding = 0
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._dims - 1]
        return conv(input, self.weight, self.bias, self.stride, padding, self.dilation,
                    self.groups)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")


class Conv1d(_Conv):
    """Mirrors `mindspore.mint.nn.Conv1d`."""

    _dims = 1


class Conv2d(_Conv):
    """Mirrors `mindspore.mint.nn.Conv2d`."""

    _dims = 2


class Conv3d(_Conv):
    """Mirrors `mindspore.mint.nn.Conv3d`."""

    _dims = 3


class _BatchNorm(Cell):
    _ndims = (4,)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        dtype = dtype or mstype.float32
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = Parameter(Tensor(np.ones(num_features), dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(Tensor(np.zeros(num_features), dtype), name="bias",
                              requires_grad=affine)
        if track_running_stats:
            self.running_mean = Parameter(Tensor(np.zeros(num_features), dtype),
                                          name="running_mean", requires_grad=False)
            self.running_var = Parameter(Tensor(np.ones(num_features), dtype),
                                         name="running_var", requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, mstype.int64),
                                                 name="num_batches_tracked", requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ndims:
            raise ValueError(f"For 'mint.nn.{type(self).__name__}', expected a "
                             f"{' or '.join(f'{n}-D' for n in self._ndims)} input, but got "
                             f"shape {input.shape}.")
        training = self.training or not self.track_running_stats
        if self.training and self.track_running_stats:
            self.num_batches_tracked.set_data(self.num_batches_tracked + 1)
        mean, var = self.running_mean, self.running_var
        if mean is None:
            mean = ops.zeros((self.num_features,), input.dtype)
            var = ops.ones((self.num_features,), input.dtype)
        return F.batch_norm(input, mean, var, self.weight, self.bias, training, self.momentum,
                            self.eps)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Mirrors `mindspore.mint.nn.BatchNorm1d`."""

    _ndims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Mirrors `mindspore.mint.nn.BatchNorm2d`."""

    _ndims = (4,)


class BatchNorm3d(_BatchNorm):
    """Mirrors `mindspore.mint.nn.BatchNorm3d`."""

    _ndims = (5,)


class GroupNorm(Cell):
    """Mirrors `mindspore.mint.nn.GroupNorm`."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"For 'mint.nn.GroupNorm', 'num_channels' ({num_channels}) must be "
                             f"divisible by 'num_groups' ({num_groups}).")
        dtype = dtype or mstype.float32
        self.num_groups, self.num_channels, self.eps, self.affine = (num_groups, num_channels,
                                                                     eps, affine)
        self.weight = Parameter(Tensor(np.ones(num_channels), dtype), name="weight",
                                requires_grad=affine)
        self.bias = Parameter(Tensor(np.zeros(num_channels), dtype), name="bias",
                              requires_grad=affine)

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return (f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
                f"eps={self.eps}, affine={self.affine}")


class PReLU(Cell):
    """Mirrors `mindspore.mint.nn.PReLU`."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Parameter(Tensor(np.full(num_parameters, init), dtype or mstype.float32),
                                name="weight")

    def construct(self, input):
        return F.prelu(input, self.weight)


class ConvTranspose2d(Cell):
    """Mirrors `mindspore.mint.nn.ConvTranspose2d` (zero padding only)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        super().__init__()
        if padding_mode != "zeros":
            raise ValueError(f"For 'mint.nn.ConvTranspose2d', only padding_mode='zeros' is "
                             f"supported (as torch), but got {padding_mode!r}.")
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For 'mint.nn.ConvTranspose2d', 'in_channels' ({in_channels}) and "
                             f"'out_channels' ({out_channels}) must be divisible by 'groups' "
                             f"({groups}).")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = _tuple(kernel_size, 2)
        self.stride, self.padding = _tuple(stride, 2), _tuple(padding, 2)
        self.output_padding, self.dilation = _tuple(output_padding, 2), _tuple(dilation, 2)
        dtype = dtype or mstype.float32
        shape = (in_channels, out_channels // groups, *self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        # torch computes the fan-in of a transposed weight from its dim 1
        bound = 1 / math.sqrt(out_channels // groups * int(np.prod(self.kernel_size)))
        self.bias = Parameter(initializer(Uniform(bound), (out_channels,), dtype),
                              name="bias") if bias else None

    def construct(self, input):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


class MaxUnpool2d(Cell):
    """Mirrors `mindspore.mint.nn.MaxUnpool2d` (`output_size` is given at call time)."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)
