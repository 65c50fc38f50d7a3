"""Margin and ranking loss cells: `nn.MarginRankingLoss`, `CosineEmbeddingLoss`,
`SoftMarginLoss`, `MultiMarginLoss`, `MultiLabelSoftMarginLoss`, `MultilabelMarginLoss`,
`TripletMarginLoss`, `HingeEmbeddingLoss`."""

from cellgrad_nn.functional import losses as fl
from cellgrad_nn.functional import margin_losses as fm
from cellgrad_nn.loss.losses import LossBase


class MarginRankingLoss(LossBase):
    """Mirrors `mindspore.nn.MarginRankingLoss`."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return fl.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """Mirrors `mindspore.nn.CosineEmbeddingLoss`."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        return fl.cosine_embedding_loss(logits_x1, logits_x2, labels, self.margin,
                                        self.reduction)


class SoftMarginLoss(LossBase):
    """Mirrors `mindspore.nn.SoftMarginLoss`."""

    def construct(self, logits, labels):
        return fm.soft_margin_loss(logits, labels, self.reduction)


class MultiMarginLoss(LossBase):
    """Mirrors `mindspore.nn.MultiMarginLoss`."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        self.p, self.margin, self.weight = p, margin, weight

    def construct(self, x, target, weight=None):
        return fm.multi_margin_loss(x, target, self.p, self.margin,
                                    self.weight if weight is None else weight, self.reduction)


class MultiLabelSoftMarginLoss(LossBase):
    """Mirrors `mindspore.nn.MultiLabelSoftMarginLoss`."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        return fm.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class MultilabelMarginLoss(LossBase):
    """Mirrors `mindspore.nn.MultilabelMarginLoss`."""

    def construct(self, x, target):
        return fm.multilabel_margin_loss(x, target, self.reduction)


class TripletMarginLoss(LossBase):
    """Mirrors `mindspore.nn.TripletMarginLoss`."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=None):
        return fm.triplet_margin_loss(x, positive, negative,
                                      self.margin if margin is None else margin, self.p,
                                      self.eps, self.swap, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """Mirrors `mindspore.nn.HingeEmbeddingLoss`."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, logits, labels):
        return fm.hinge_embedding_loss(logits, labels, self.margin, self.reduction)
