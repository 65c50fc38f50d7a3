"""MindSpore's primitive-class forms of the nn functional ops (`ops.ReLU()(x)`,
`ops.BatchNorm(is_training=True)(x, scale, bias, mean, variance)`, ...)."""

import numpy as np

from cellgrad import seeding
from cellgrad.ops import Primitive
from cellgrad_nn.functional import (
    _checks,
    activation,
    cross_entropy,
    dropout,
    linear,
    losses,
    norm,
    softmax,
)
from cellgrad_nn.functional.encoding import one_hot


def _tensor(array):
    from cellgrad import Tensor

    return Tensor(np.array(array))


class ReLU(Primitive):
    """Mirrors `mindspore.ops.ReLU`."""

    def __call__(self, input):
        return activation.relu(input)


class ReLU6(Primitive):
    """Mirrors `mindspore.ops.ReLU6`."""

    def __call__(self, x):
        return activation.relu6(x)


class Elu(Primitive):
    """Mirrors `mindspore.ops.Elu(alpha=1.0)`."""

    def __init__(self, alpha=1.0):
        super().__init__(type(self).__name__)
        self.alpha = _checks.number("Elu", "alpha", alpha)

    def __call__(self, input_x):
        return activation.elu(input_x, self.alpha)


class GeLU(Primitive):
    """Mirrors `mindspore.ops.GeLU`: the tanh approximation, as MindSpore's primitive uses."""

    def __call__(self, input):
        return activation.gelu(input, approximate="tanh")


class FastGeLU(Primitive):
    """Mirrors `mindspore.ops.FastGeLU`."""

    def __call__(self, x):
        from cellgrad_nn.functional.activation_extra import fast_gelu

        return fast_gelu(x)


class Mish(Primitive):
    """Mirrors `mindspore.ops.Mish`."""

    def __call__(self, x):
        from cellgrad_nn.functional.activation_extra import mish

        return mish(x)


class Softsign(Primitive):
    """Mirrors `mindspore.ops.Softsign`."""

    def __call__(self, x):
        from cellgrad_nn.functional.activation_extra import softsign

        return softsign(x)


class HSwish(Primitive):
    """Mirrors `mindspore.ops.HSwish`."""

    def __call__(self, input):
        return activation.hardswish(input)


class HSigmoid(Primitive):
    """Mirrors `mindspore.ops.HSigmoid`."""

    def __call__(self, input):
        return activation.hardsigmoid(input)


class Softplus(Primitive):
    """Mirrors `mindspore.ops.Softplus`: log(1 + exp(x))."""

    def __call__(self, input):
        return activation.softplus(input)


class Softmax(Primitive):
    """Mirrors `mindspore.ops.Softmax(axis=-1)` (an int or a 1-tuple)."""

    def __init__(self, axis=-1):
        super().__init__(type(self).__name__)
        if isinstance(axis, (tuple, list)) and len(axis) == 1:
            axis = axis[0]
        self.axis = axis

    def __call__(self, input):
        return softmax.softmax(input, self.axis)


class LogSoftmax(Softmax):
    """Mirrors `mindspore.ops.LogSoftmax(axis=-1)`."""

    def __call__(self, logits):
        return softmax.log_softmax(logits, self.axis)


class BiasAdd(Primitive):
    """Mirrors `mindspore.ops.BiasAdd(data_format='NCHW')`."""

    def __init__(self, data_format="NCHW"):
        super().__init__(type(self).__name__)
        self.data_format = data_format

    def __call__(self, input_x, bias):
        return linear.bias_add_checked("BiasAdd", input_x, bias, self.data_format)


class BatchNorm(Primitive):
    """Mirrors `mindspore.ops.BatchNorm`: returns (y, batch_mean, batch_variance,
    reserve_space_1, reserve_space_2) with MindSpore 2.10's CPU values: the second and third
    are zeros, the reserve spaces hold the batch mean and biased variance in training (zeros
    otherwise). Training updates `mean`/`variance` in place with weight `momentum` on the
    batch statistics (the variance unbiased)."""

    def __init__(self, is_training=False, epsilon=1e-05, momentum=0.1, data_format="NCHW"):
        super().__init__(type(self).__name__)
        if data_format != "NCHW":
            raise ValueError(f"For 'BatchNorm', 'data_format' must be 'NCHW', got "
                             f"{data_format!r}.")
        momentum = _checks.number("BatchNorm", "momentum", momentum)
        if not 0.0 <= momentum <= 1.0:
            raise ValueError(f"For 'BatchNorm', 'momentum' must be in [0, 1], got {momentum}.")
        self.is_training, self.epsilon = bool(is_training), float(epsilon)
        self.momentum, self.data_format = momentum, data_format

    def __call__(self, input_x, scale, bias, mean, variance):
        y, m, v = norm.batch_norm_checked("BatchNorm", input_x, mean, variance, scale, bias,
                                          self.is_training, self.momentum, self.epsilon)
        zeros = np.zeros(scale.shape, np.float32)
        if not self.is_training:
            m = v = zeros
        return (y, _tensor(zeros), _tensor(zeros), _tensor(m.astype(np.float32)),
                _tensor(v.astype(np.float32)))


class LayerNorm(Primitive):
    """Mirrors `mindspore.ops.LayerNorm`: returns (y, mean, variance), the statistics with the
    normalised axes kept as size 1."""

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-07):
        super().__init__(type(self).__name__)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = float(epsilon)

    def __call__(self, input_x, gamma, beta):
        _checks.floating("LayerNorm", "input_x", input_x)
        rank = input_x.ndim
        a = _checks.axis("LayerNorm", self.begin_norm_axis, rank, "begin_norm_axis")
        p = _checks.axis("LayerNorm", self.begin_params_axis, rank, "begin_params_axis")
        y, m, v = norm.layer_norm_checked("LayerNorm", input_x, gamma, beta, a, p, self.epsilon)
        return y, _tensor(m.astype(input_x._data.dtype)), _tensor(v.astype(input_x._data.dtype))


class OneHot(Primitive):
    """Mirrors `mindspore.ops.OneHot(axis=-1)(indices, depth, on_value, off_value)`."""

    def __init__(self, axis=-1):
        super().__init__(type(self).__name__)
        self.axis = axis

    def __call__(self, indices, depth, on_value, off_value):
        return one_hot(indices, depth, on_value, off_value, self.axis)


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Mirrors `mindspore.ops.SoftmaxCrossEntropyWithLogits`: (per-sample loss, dlogits)."""

    def __call__(self, logits, labels):
        _checks.floating(self.name, "logits", logits)
        if logits.ndim != 2:
            raise ValueError(f"For '{self.name}', 'logits' must be 2-D (N, C), got "
                             f"{_checks.describe(logits)}.")
        loss = cross_entropy.softmax_cross_entropy(logits, labels, sparse=False)
        grad = softmax.softmax_array(logits._data, 1) - labels._data.astype(logits._data.dtype)
        return loss, _tensor(grad)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mirrors `mindspore.ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=False)`: the mean
    loss, or with `is_grad` the gradient (softmax - one_hot) / N."""

    def __init__(self, is_grad=False):
        super().__init__(type(self).__name__)
        self.is_grad = bool(is_grad)

    def __call__(self, logits, labels):
        loss = cross_entropy.softmax_cross_entropy(logits, labels, sparse=True,
                                                   reduction="mean")
        if not self.is_grad:
            return loss
        x = logits._data
        grad = softmax.softmax_array(x, 1)
        grad[np.arange(x.shape[0]), labels._data.astype(np.intp)] -= 1
        return _tensor(grad / x.shape[0])


class _Reduction(Primitive):
    def __init__(self, reduction="mean"):
        super().__init__(type(self).__name__)
        self.reduction = _checks.reduction(type(self).__name__, reduction)


class BinaryCrossEntropy(_Reduction):
    """Mirrors `mindspore.ops.BinaryCrossEntropy(reduction='mean')`."""

    def __call__(self, input, target, weight=None):
        return losses.binary_cross_entropy(input, target, weight, self.reduction)


class BCEWithLogitsLoss(_Reduction):
    """Mirrors `mindspore.ops.BCEWithLogitsLoss(reduction='mean')`."""

    def __call__(self, input, target, weight=None, posWeight=None):
        return losses.binary_cross_entropy_with_logits(input, target, weight, posWeight,
                                                       self.reduction)


class NLLLoss(_Reduction):
    """Mirrors `mindspore.ops.NLLLoss`: (loss, total_weight) for (N, C) log-probabilities."""

    def __init__(self, reduction="mean", ignore_index=-100):
        super().__init__(reduction)
        self.ignore_index = ignore_index

    def __call__(self, logits, labels, weight):
        if _checks.tensor(self.name, "logits", logits).ndim not in (1, 2):
            raise ValueError(f"For '{self.name}', 'logits' must be 1-D or 2-D, got "
                             f"{_checks.describe(logits)}.")
        loss = cross_entropy.nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        y = labels._data.astype(np.intp)
        keep = y != self.ignore_index
        total = weight._data[np.where(keep, y, 0)][keep].sum(dtype=weight._data.dtype)
        return loss, _tensor(np.asarray(total))


class SmoothL1Loss(Primitive):
    """Mirrors `mindspore.ops.SmoothL1Loss(beta=1.0, reduction='none')`."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(type(self).__name__)
        self.beta = beta
        self.reduction = _checks.reduction("SmoothL1Loss", reduction)

    def __call__(self, prediction, target):
        return losses.smooth_l1_loss(prediction, target, self.beta, self.reduction)


class KLDivLoss(Primitive):
    """Mirrors `mindspore.ops.KLDivLoss(reduction='mean')` ('none', 'mean', 'batchmean',
    'sum')."""

    def __init__(self, reduction="mean"):
        super().__init__(type(self).__name__)
        self.reduction = reduction

    def __call__(self, logits, labels):
        return losses.kl_div(logits, labels, self.reduction)


class Dropout(Primitive):
    """Mirrors `mindspore.ops.Dropout(keep_prob=0.5, Seed0=0, Seed1=0)`: (output, mask), the
    mask 0/1 in the input's dtype. Nonzero seeds give the instance a reproducible sequence."""

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):
        super().__init__(type(self).__name__)
        self.keep_prob = dropout.check_keep_prob("Dropout", keep_prob)
        self.seed0, self.seed1 = Seed0, Seed1

        # Nonzero seeds give the instance its own stream, as a MindSpore primitive has.
        self._rng = seeding.fixed_generator(Seed0, Seed1) if (Seed0 or Seed1) else None

    def __call__(self, x):
        _checks.floating(self.name, "x", x)
        mask = dropout.keep_mask(x.shape, self.keep_prob, rng=self._rng)
        out = dropout.apply_mask(x, mask, self.keep_prob)
        return out, _tensor(mask.astype(x._data.dtype))


class Dropout2D(Primitive):
    """Mirrors `mindspore.ops.Dropout2D(keep_prob=0.5)`: zeroes whole channels of an
    (N, C, H, W) input; returns (output, Bool mask of the input's shape)."""

    _spatial = 2
    _TYPES = "{Tensor[BFloat16], Tensor[Float16], Tensor[Float32], Tensor[Float64], " \
             "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8]}"

    def __init__(self, keep_prob=0.5):
        super().__init__(type(self).__name__)
        if not isinstance(keep_prob, float):
            raise TypeError(f"For '{self.name}', the type of 'keep_prob' should be 'float', but "
                            f"got type '{type(keep_prob).__name__}'.")
        if not 0.0 <= keep_prob <= 1.0:
            raise ValueError(f"For '{self.name}', the 'keep_prob' must be in range of [0.0, 1.0],"
                             f" but got {keep_prob} with type 'float'.")
        self.keep_prob = keep_prob

    def __call__(self, x):
        from cellgrad._core._buffer import TensorBuffer

        if not isinstance(x, TensorBuffer) or str(x.dtype) not in self._TYPES \
                or x._data.dtype.kind == "u":
            got = f"Tensor[{x.dtype}]" if isinstance(x, TensorBuffer) else type(x).__name__
            raise TypeError(f"For primitive[{self.name}], the input argument[x] must be a type "
                            f"of {self._TYPES}, but got {got}.")
        rank = self._spatial + 2
        if x.ndim != rank:
            raise ValueError(f"For primitive[{self.name}], the rank of input  must be equal to "
                             f"{rank} , but got {x.ndim}.")
        kp = self.keep_prob
        mask = np.ones(x.shape[:2] + (1,) * self._spatial, bool) if kp == 1.0 else (
            dropout.keep_mask(x.shape[:2] + (1,) * self._spatial, kp))
        full = _tensor(np.broadcast_to(mask, x.shape).copy())
        if x.dtype.is_floating:
            # keep_prob 0 drops every channel (MindSpore's kernel: zeros and an all-False mask)
            return dropout.apply_mask(x, mask, kp if kp > 0 else 1.0), full
        # integer inputs: MindSpore's kernel scales in float32 and truncates toward zero
        data = x._data.astype(np.float32) / np.float32(kp) if kp > 0 else x._data * 0
        return _tensor(np.trunc(data * mask).astype(x._data.dtype)), full


class Dropout3D(Dropout2D):
    """Mirrors `mindspore.ops.Dropout3D(keep_prob=0.5)` for (N, C, D, H, W) inputs."""

    _spatial = 3
