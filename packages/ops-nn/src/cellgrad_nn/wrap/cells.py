"""`nn.WithLossCell`, `nn.WithEvalCell`, `nn.TrainOneStepCell`: a network joined to its loss
and one optimizer step per call."""

import contextlib

import numpy as np

import cellgrad
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad.ops import functional as F
from cellgrad_nn._kernels import lowp
from cellgrad_nn.train import parallel


class WithLossCell(Cell):
    """Mirrors `mindspore.nn.WithLossCell`: `loss_fn(backbone(data), label)`."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        _check_cell("WithLossCell", "backbone", backbone)
        _check_cell("WithLossCell", "loss_fn", loss_fn, callable_ok=True)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """Mirrors `mindspore.nn.WithEvalCell`: `(loss, outputs, label)` for evaluation; with
    `add_cast_fp32` the outputs and label are cast to float32 first."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        _check_cell("WithEvalCell", "network", network)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = bool(add_cast_fp32)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:  # floating values only, as MindSpore's mixed_precision_cast
            label, outputs = _to_float32(label), _to_float32(outputs)
        return self._loss_fn(outputs, label), outputs, label


def _to_float32(t):
    if isinstance(t, Tensor) and t.dtype.is_floating and t.dtype != cellgrad.float32:
        return F.cast(t, cellgrad.float32)
    return t


class TrainOneStepCell(Cell):
    """Mirrors `mindspore.nn.TrainOneStepCell`: computes the loss and the gradients of the
    optimizer's parameters in one forward and backward, scales them by `sens`, and lets the
    optimizer update the parameters; returns the loss (and the gradients with
    `return_grad`)."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        _check_cell("TrainOneStepCell", "network", network)
        if not isinstance(optimizer, Cell) or not hasattr(optimizer, "parameters"):
            raise TypeError(f"For 'TrainOneStepCell', 'optimizer' must be an nn.Optimizer, but "
                            f"got {type(optimizer).__name__}.")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        # In data-parallel mode (cellgrad-distributed) the gradients are all-reduced across
        # processes, started during the backward pass inside the reducer's scope.
        reducer = parallel.grad_reducer(self.weights)
        self.grad_reducer = _identity if reducer is None else reducer
        self._backward_scope = parallel.backward_scope(self.grad_reducer)
        self._value_and_grad = cellgrad.value_and_grad(network, None, self.weights)
        self._value_and_grad_sens = cellgrad.value_and_grad(network, None, self.weights,
                                                            sens_param=True)

    def construct(self, *inputs):
        # the optimizer may update each parameter as its gradient completes (bit for bit the
        # same step, while it is in cache): not when a reducer changes the gradients first
        early = None if self.grad_reducer is not _identity else getattr(
            self.optimizer, "_updates_in_backward", _no_early)(self.network, self.return_grad)
        with self._backward_scope(), early or contextlib.nullcontext():
            if isinstance(self.sens, (int, float)) and self.sens == 1.0:
                loss, grads = self._value_and_grad(*inputs)
            else:
                loss, grads = self._value_and_grad_sens(*inputs, _sens_tensor(self.sens))
        grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return (loss, grads) if self.return_grad else loss


def _identity(grads):
    return grads


def _no_early(network, keep_grads):
    return None


def _sens_tensor(sens):
    """The sensitivity as a scalar float32 Tensor (it fills the loss's shape)."""
    return sens if isinstance(sens, Tensor) else Tensor(np.float32(sens))


def unscale(grads, factor):
    """Divide the gradients by `factor` in place (they are fresh arrays of this step)."""
    for g in grads:
        data = g.asnumpy()
        data /= np.asarray(factor, data.dtype)
    return grads


def unscale_all_finite(grads, factor):
    """`unscale(grads, factor)`, then whether every gradient is finite: one pass over float32
    gradients (`lowp.unscale_finite`), numpy's otherwise."""
    arrays = [g.asnumpy() for g in grads]
    finite = lowp.unscale_finite(arrays, factor)
    if finite is None:
        with np.errstate(invalid="ignore", over="ignore"):
            unscale(grads, factor)
        finite = all(np.isfinite(a).all() for a in arrays)
    return finite


def _check_cell(owner, name, value, callable_ok=False):
    if isinstance(value, Cell) or (callable_ok and callable(value)):
        return
    raise TypeError(f"For '{owner}', '{name}' must be a Cell, but got {type(value).__name__}.")
