"""Regression and likelihood loss cells: `nn.HuberLoss`, `MAELoss`, `RMSELoss`,
`PoissonNLLLoss`, `GaussianNLLLoss`."""

from cellgrad.ops import functional as F
from cellgrad_nn.functional import losses as fl
from cellgrad_nn.functional import margin_losses as fm
from cellgrad_nn.loss.losses import LossBase, MSELoss


class HuberLoss(LossBase):
    """Mirrors `mindspore.nn.HuberLoss`."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return fl.huber_loss(logits, labels, self.reduction, self.delta)


class MAELoss(LossBase):
    """Mirrors `mindspore.nn.MAELoss`: |logits - labels|, reduced."""

    def construct(self, logits, label):
        return self.get_loss(F.abs(logits - label))


class RMSELoss(LossBase):
    """Mirrors `mindspore.nn.RMSELoss`: sqrt of the mean squared error."""

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        return F.sqrt(self.MSELoss(logits, label))


class PoissonNLLLoss(LossBase):
    """Mirrors `mindspore.nn.PoissonNLLLoss`."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):
        return fm.poisson_nll_loss(input, target, self.log_input, self.full, self.eps,
                                   self.reduction)


class GaussianNLLLoss(LossBase):
    """Mirrors `mindspore.nn.GaussianNLLLoss`."""

    def __init__(self, *, full=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        self.full, self.eps = full, eps

    def construct(self, logits, labels, var):
        return fm.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)
