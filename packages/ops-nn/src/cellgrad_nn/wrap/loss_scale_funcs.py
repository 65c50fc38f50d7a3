"""The module-level helpers of `mindspore.nn.wrap.loss_scale` (and `cell_wrapper.grad_scale`)
that loss-scaling code imports: the gradient (un)scaling functions, the overflow checks and
the `AllFinite` primitive."""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.sparse_tensor import RowTensorInner
from cellgrad.common.tensor import Tensor
from cellgrad.ops.composite import MultitypeFuncGraph
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional.device_prims import FloatStatus, _NPUStatus

_RECIPROCAL, _FLOAT_STATUS, _IS_FINITE = ops.Reciprocal(), FloatStatus(), ops.IsFinite()


def reciprocal(input):
    """Mirrors `mindspore.nn.wrap.loss_scale.reciprocal` (`ops.Reciprocal()`): 1 / input."""
    return _RECIPROCAL(input)


def grad_overflow(*args):
    """Mirrors `mindspore.nn.wrap.loss_scale.grad_overflow` (`ops.FloatStatus()`): [1.] when
    the tensor holds a NaN or an infinity, else [0.]."""
    return _FLOAT_STATUS(*args)


def ascend_grad_overflow(input):
    """Mirrors `mindspore.nn.wrap.loss_scale.ascend_grad_overflow` (`ops.IsFinite()`)."""
    return _IS_FINITE(input)


class AllFinite(Primitive):
    """Mirrors `mindspore.amp.AllFinite` (MindSpore runs it on Ascend only): True (a bool
    scalar tensor) when any of the gradients holds a NaN or an infinity, so
    `~AllFinite()(grads)` is the all-finite status."""

    def __init__(self):
        super().__init__("AllFinite")

    def __call__(self, *args):
        grads = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        for i, grad in enumerate(grads):
            if not isinstance(grad, Tensor):
                raise TypeError(f"For primitive[AllFinite], every input gradient must be a "
                                f"Tensor, but got {type(grad).__name__} at position {i}.")
        overflow = any(not np.isfinite(g.asnumpy()).all() for g in grads)
        return Tensor(overflow, mstype.bool_)


def tensor_grad_scale(scale, grad):
    """Mirrors `mindspore.nn.wrap.loss_scale.tensor_grad_scale`: grad / scale in grad's
    dtype."""
    return grad * ops.cast(reciprocal(scale), grad.dtype)


def tensor_grad_scale_row_tensor(scale, grad):
    """Mirrors `mindspore.nn.wrap.loss_scale.tensor_grad_scale_row_tensor`: a RowTensor's
    values divided by scale."""

    return RowTensorInner(grad.indices, grad.values * ops.cast(reciprocal(scale),
                                                               grad.values.dtype),
                          grad.dense_shape)


def tensor_grad_scale_pipeline(scale, grad, accu_grad):
    """Mirrors `mindspore.nn.wrap.loss_scale.tensor_grad_scale_pipeline`: the accumulated
    gradient divided by scale; the accumulator is zeroed."""
    new_grad = accu_grad * reciprocal(scale)
    ops.assign(accu_grad, ops.zeros_like(accu_grad))
    return new_grad


def tensor_shard_grad_scale_pipeline(scale, grad, accu_grad):
    """Mirrors `mindspore.nn.wrap.loss_scale.tensor_shard_grad_scale_pipeline`: grad divided by
    scale; the accumulator is zeroed."""
    new_grad = grad * reciprocal(scale)
    ops.assign(accu_grad, ops.zeros_like(accu_grad))
    return new_grad


def cell_wrapper_grad_scale(scale, grad):
    """Mirrors `mindspore.nn.wrap.cell_wrapper.grad_scale`: scale * grad, the gradient buffer
    zeroed (the pipeline cell's accumulator clear)."""
    new_grad = scale * grad
    ops.assign(grad, ops.zeros_like(grad))
    return new_grad


grad_scale = MultitypeFuncGraph("grad_scale")
grad_scale.register("Tensor", "Tensor", "Tensor")(tensor_grad_scale_pipeline)
shard_grad_scale = MultitypeFuncGraph("shard_grad_scale")
shard_grad_scale.register("Tensor", "Tensor", "Tensor")(tensor_shard_grad_scale_pipeline)


class NPUGetFloatStatusV2(_NPUStatus):
    """Mirrors `mindspore.amp.NPUGetFloatStatusV2` (Ascend's overflow register: calling it
    raises RuntimeError on the CPU, as in MindSpore; `AllFinite` or `ops.isfinite` check the
    gradients here)."""


class NPUClearFloatStatusV2(_NPUStatus):
    """Mirrors `mindspore.amp.NPUClearFloatStatusV2` (Ascend only: calling it raises
    RuntimeError on the CPU, as in MindSpore)."""
