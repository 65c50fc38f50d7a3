"""`nn.Rprop` (resilient backpropagation) with MindSpore's update formula."""

import numpy as np

from cellgrad_nn.optim import _checks
from cellgrad_nn.optim.optimizer import Optimizer


class Rprop(Optimizer):
    """Mirrors `mindspore.nn.Rprop`: each element's step grows by etaplus while its gradient
    keeps its sign and shrinks by etaminus when it flips (that step then makes no move),
    clipped to `step_sizes`; param -= sign(g) * step. Steps start at the learning rate."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, pair in (("etas", etas), ("step_sizes", step_sizes)):
            if not isinstance(pair, tuple):
                raise TypeError(f"For Rprop, {name} must be a tuple, but got {type(pair)}.")
            if len(pair) != 2:
                raise ValueError(f"For Rprop, {name} must be a tuple with the size of 2, but "
                                 f"got {len(pair)}.")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal "
                             f"step size, but got {step_sizes[0]} > {step_sizes[1]}.")
        _checks.in_range("Rprop", "etaminus", etas[0], 0.0, 1.0)
        _checks.of_type("Rprop", "etaplus", etas[1])
        if etas[1] <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus "
                             f"{etas[1]}.")
        _checks.of_type("Rprop", "min_step_sizes", step_sizes[0])
        _checks.of_type("Rprop", "max_step_sizes", step_sizes[1])
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._state("prev")
        self.step_size = self._state("step_size")

    def _update(self, i, param, grad, lr):
        prev, step = self.prev[i].asnumpy(), self.step_size[i].asnumpy()
        if int(self.global_step.asnumpy()[0]) == 0:
            step[...] = lr
        dtype = param.dtype.type
        trend = np.sign(grad * prev)
        factor = np.where(trend > 0, dtype(self.etaplus),
                          np.where(trend < 0, dtype(self.etaminus), dtype(1.0)))
        np.clip(step * factor, self.step_size_min, self.step_size_max, out=step)
        moved = np.where(trend < 0, dtype(0.0), grad)
        param -= np.sign(moved) * step
        prev[...] = moved
