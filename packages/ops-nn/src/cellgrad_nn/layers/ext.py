"""MindSpore 2.10's `*Ext` cells (the torch-style forms behind `mint.nn`): `AvgPool1d/2d/3dExt`,
`MaxPool2dExt`, `DropoutExt`, `Dropout2dExt`, `EmbeddingExt`, `LayerNormExt`, `LogSoftmaxExt`,
`PReLUExt`, and the loss `L1LossExt`. MindSpore's CPU build registers no kernel for most of
them (Ascend-only there); here they compute what their mint counterparts compute."""

import numbers

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.initializer import Normal, initializer
from cellgrad.common.parameter import Parameter
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_nn.mint import functional as MF


class _AvgPoolExt(Cell):
    _func = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input):
        return type(self)._func(input, self.kernel_size, self.stride, self.padding,
                                self.ceil_mode, self.count_include_pad, self.divisor_override)


class AvgPool1dExt(_AvgPoolExt):
    """Mirrors `mindspore.nn.AvgPool1dExt` (`mint.nn.AvgPool1d`)."""

    _func = staticmethod(lambda x, k, s, p, ceil, include, _: MF.avg_pool1d(x, k, s, p, ceil,
                                                                          include))

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2dExt(_AvgPoolExt):
    """Mirrors `mindspore.nn.AvgPool2dExt` (`mint.nn.AvgPool2d`)."""

    _func = staticmethod(MF.avg_pool2d)


class AvgPool3dExt(_AvgPoolExt):
    """Mirrors `mindspore.nn.AvgPool3dExt` (`mint.nn.AvgPool3d`)."""

    _func = staticmethod(MF.avg_pool3d)


class MaxPool2dExt(Cell):
    """Mirrors `mindspore.nn.MaxPool2dExt` (`mint.nn.MaxPool2d`): (output[, argmax])."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input):
        return ops.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              self.return_indices, self.ceil_mode)


class _DropoutExt(Cell):
    _func = None

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"For '{type(self).__name__}', the 'p' must be a number in [0, 1], "
                             f"but got {p!r}.")
        self.p, self.inplace = p, inplace

    def construct(self, input):
        if not self.training or self.p == 0:
            return input
        out = type(self)._func(input, self.p)
        if self.inplace:
            input.assign_value(out)
            return input
        return out


class DropoutExt(_DropoutExt):
    """Mirrors `mindspore.nn.DropoutExt`: zeroes each element with probability p in training
    and scales the rest by 1 / (1 - p); the identity in eval mode."""

    _func = staticmethod(lambda x, p: ops.dropout(x, p=p, training=True))


class Dropout2dExt(_DropoutExt):
    """Mirrors `mindspore.nn.Dropout2dExt`: whole channels of (N, C, H, W) input dropped."""

    _func = staticmethod(lambda x, p: ops.dropout2d(x, p=p, training=True))


class EmbeddingExt(Cell):
    """Mirrors `mindspore.nn.EmbeddingExt` (`mint.nn.Embedding`): a (num_embeddings,
    embedding_dim) `weight` initialized N(0, 1), the `padding_idx` row zero."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        for name, value, kind in (("sparse", sparse, bool), ("num_embeddings", num_embeddings, int),
                                  ("embedding_dim", embedding_dim, int)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'EmbeddingExt', the type of '{name}' should be "
                                f"'{kind.__name__}', but got '{type(value).__name__}'.")
        if sparse:
            raise ValueError("For Embedding, the scenerio, where `sparse` is True, has not be "
                             "supported.")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.dtype = mstype.float32 if dtype is None else dtype
        self.padding_idx = padding_idx
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"For 'EmbeddingExt', the 'padding_idx' must be in range "
                             f"[{-num_embeddings}, {num_embeddings}), but got {padding_idx}.")
        if _weight is None:
            data = initializer(Normal(1.0, 0.0), (num_embeddings, embedding_dim),
                               self.dtype).init_data().asnumpy().copy()
            if padding_idx is not None:
                data[padding_idx] = 0
            weight = Tensor(data, self.dtype)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError("For Embedding, shape of weight should be match with "
                                 "num_embeddings and embedding_dim, but got weight.shape: "
                                 f"{_weight.shape}, and (num_embeddings, embedding_dim): "
                                 f"({num_embeddings}, {embedding_dim})")
            weight = _weight
        self.weight = Parameter(weight, name="weight", requires_grad=not _freeze)
        if max_norm is not None and not isinstance(max_norm, float):
            raise TypeError(f"For 'EmbeddingExt', the type of 'max_norm' should be 'float', but "
                            f"got '{type(max_norm).__name__}'.")
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq = scale_grad_by_freq

    def construct(self, input):
        return ops.embedding(input, self.weight, self.padding_idx, self.max_norm,
                             self.norm_type, self.scale_grad_by_freq)

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, "
                f"norm_type={self.norm_type}, scale_grad_by_freq={self.scale_grad_by_freq}, "
                f"dtype={self.dtype}")


class LayerNormExt(Cell):
    """Mirrors `mindspore.nn.LayerNormExt` (`mint.nn.LayerNorm`): `weight` ones and `bias`
    zeros of `normalized_shape`."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError("For 'LayerNormExt', the type of 'normalized_shape' must be "
                            f"tuple[int] or list[int], but got {normalized_shape} and the type "
                            f"is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                             "containing at least one element, but got normalized_shape = "
                             f"{normalized_shape}")
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        ms_dtype = mstype.float32 if dtype is None else dtype
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(Tensor(np.ones(self.normalized_shape), ms_dtype),
                                    name="weight")
            if bias:
                self.bias = Parameter(Tensor(np.zeros(self.normalized_shape), ms_dtype),
                                      name="bias")

    def construct(self, input):
        return MF.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LogSoftmaxExt(Cell):
    """Mirrors `mindspore.nn.LogSoftmaxExt` (`mint.nn.LogSoftmax`); `dim=None` picks torch's
    implicit dimension (0 for 0-, 1- and 3-D input, else 1)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, x):
        return MF.log_softmax(x, dim=self.dim)


class PReLUExt(Cell):
    """Mirrors `mindspore.nn.PReLUExt` (`mint.nn.PReLU`): a `weight` of `num_parameters`
    slopes filled with `init`."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        data = np.full((num_parameters,), init, np.float32)
        self.weight = Parameter(Tensor(data, dtype), name="weight")

    def construct(self, input):
        return ops.prelu(input, self.weight)


class L1LossExt(Cell):
    """Mirrors `mindspore.nn.L1LossExt`: |logits - labels| reduced by 'mean', 'sum' or 'none'."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"For 'L1LossExt', the 'reduction' must be in ['mean', 'sum', "
                             f"'none'], but got {reduction}.")
        self.reduction = reduction

    def construct(self, logits, labels):
        return ops.l1_loss(logits, labels, self.reduction)
