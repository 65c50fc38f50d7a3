"""`mindspore.mint.optim`: MindSpore 2.10's mint optimizers are its `experimental.optim` ones
(the same PyTorch formulas); only `SGD`'s weight-decay default is spelled `0` and `FusedAdamW`
names AdamW's fused kernel (one numpy update here either way)."""

from cellgrad_nn.experimental.adam import Adam, AdamW
from cellgrad_nn.experimental.sgd import SGD as _SGD

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]


class FusedAdamW(AdamW):
    """Mirrors `mindspore.mint.optim.FusedAdamW`: `AdamW`'s update."""


class SGD(_SGD):
    """Mirrors `mindspore.mint.optim.SGD`."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        super().__init__(params, lr, momentum, dampening, weight_decay, nesterov,
                         maximize=maximize)
