"""Loss cells (`nn.MSELoss`, `nn.SoftmaxCrossEntropyWithLogits`, ...) and `nn.LossBase`."""

from cellgrad.nn import Cell
from cellgrad.ops import functional as F
from cellgrad_nn.functional import cross_entropy as ce
from cellgrad_nn.functional import losses as fl

REDUCTIONS = ("mean", "sum", "none")


class LossBase(Cell):
    """Mirrors `mindspore.nn.LossBase`: subclasses compute an elementwise loss and return
    `self.get_loss(loss, weights)`, which weights it and applies `reduction`."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in REDUCTIONS:
            raise ValueError(f"For '{type(self).__name__}', the 'reduction' must be in "
                             f"{list(REDUCTIONS)}, but got {reduction}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """Every axis of `x`, as a tuple."""
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        """`x * weights`, reduced by mean or sum unless `reduction` is 'none'."""
        if not (isinstance(weights, (int, float)) and weights == 1.0):
            x = x * weights
        if self.reduction == "mean":
            return F.mean(x)
        if self.reduction == "sum":
            return F.sum(x)
        return x

    def construct(self, logits, labels):
        raise NotImplementedError(f"{type(self).__name__} must define construct")


class MSELoss(LossBase):
    """Mirrors `mindspore.nn.MSELoss`."""

    def construct(self, logits, labels):
        return fl.mse_loss(logits, labels, self.reduction)


class L1Loss(LossBase):
    """Mirrors `mindspore.nn.L1Loss`."""

    def construct(self, logits, labels):
        return fl.l1_loss(logits, labels, self.reduction)


class SmoothL1Loss(LossBase):
    """Mirrors `mindspore.nn.SmoothL1Loss` (no reduction by default, as MindSpore)."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be a positive number, but got "
                             f"{beta!r}.")
        self.beta = float(beta)

    def construct(self, logits, labels):
        return fl.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class KLDivLoss(LossBase):
    """Mirrors `mindspore.nn.KLDivLoss`: `logits` are log-probabilities."""

    def __init__(self, reduction="mean"):
        if reduction not in REDUCTIONS + ("batchmean",):
            raise ValueError(f"For 'KLDivLoss', the 'reduction' must be in "
                             f"{list(REDUCTIONS + ('batchmean',))}, but got {reduction}.")
        super().__init__("mean" if reduction == "batchmean" else reduction)
        self.reduction = reduction

    def construct(self, logits, labels):
        return fl.kl_div(logits, labels, self.reduction)


class BCELoss(LossBase):
    """Mirrors `mindspore.nn.BCELoss`: `logits` are probabilities."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return fl.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Mirrors `mindspore.nn.BCEWithLogitsLoss`: sigmoid and binary cross-entropy, stable."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits, labels):
        return fl.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight,
                                                   self.reduction)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Mirrors `mindspore.nn.SoftmaxCrossEntropyWithLogits`: labels are class indices when
    `sparse`, else probabilities; one fused op for softmax and cross-entropy."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', 'sparse' must be a bool, but "
                            f"got {sparse!r}.")
        self.sparse = sparse

    def construct(self, logits, labels):
        return ce.softmax_cross_entropy(logits, labels, self.sparse, self.reduction)


class CrossEntropyLoss(LossBase):
    """Mirrors `mindspore.nn.CrossEntropyLoss`: class indices or probabilities, `weight`,
    `ignore_index`, `label_smoothing`."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be in [0, 1], but "
                             f"got {label_smoothing}.")
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        return ce.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                self.label_smoothing)


class NLLLoss(LossBase):
    """Mirrors `mindspore.nn.NLLLoss`: `logits` are log-probabilities."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits, labels):
        return ce.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)
