"""Mirrors `mindspore.boost.grad_accumulation`: gradients summed over several steps, then one
optimizer update."""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad.ops import assign, zeros_like
from cellgrad.ops.composite import HyperMap, MultitypeFuncGraph
from cellgrad.parameter import Parameter

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = MultitypeFuncGraph("gradient_accumulation_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def cumulative_grad_process(accumulation_step, cumulative_grad, grad):
    """cumulative_grad += grad / accumulation_step, in place."""
    cumulative_grad.asnumpy()[...] += (grad / accumulation_step).asnumpy()
    return cumulative_grad


gradient_clear_op = MultitypeFuncGraph("gradient_clear_op")


@gradient_clear_op.register("Tensor")
def clear_grad(cumulative_grad):
    """Set the accumulated gradient to zero, in place."""
    return assign(cumulative_grad, zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """Mirrors `mindspore.boost.GradientAccumulation`: `construct(loss, grads)` adds
    grads / max_accumulation_step to the accumulated gradients and, every
    `max_accumulation_step` calls, runs `optimizer` on them and clears them."""

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__()
        if isinstance(max_accumulation_step, bool) or not isinstance(max_accumulation_step, int) \
                or max_accumulation_step < 1:
            raise ValueError(f"For 'GradientAccumulation', 'max_accumulation_step' must be a "
                             f"positive int, but got {max_accumulation_step!r}.")
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(np.int32(0)), name="accumulation_step")

    def construct(self, loss, grads):
        self.hyper_map(lambda acc, g: gradient_accumulation_op(self._max_accumulation_step,
                                                               acc, g),
                       self._grad_accumulation, grads)
        step = self._accumulation_step.asnumpy()
        step += 1
        if step >= self._max_accumulation_step:
            self.optimizer(self._grad_accumulation)
            step[...] = 0
        if step == 0:
            self.hyper_map(gradient_clear_op, self._grad_accumulation)
        return loss
