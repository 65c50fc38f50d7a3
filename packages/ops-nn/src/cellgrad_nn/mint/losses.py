"""`mint.nn` cells of MindSpore 2.10 that are their own classes over `mint.nn.functional`
(`mint.nn.CrossEntropyLoss`), and `mint.nn.LayerNorm`, which is `nn.LayerNormExt` itself."""

from cellgrad.nn import Cell
from cellgrad_nn.layers.ext import LayerNormExt as LayerNorm  # noqa: F401 - the same class


class CrossEntropyLoss(Cell):
    """Mirrors `mindspore.mint.nn.CrossEntropyLoss`: `mint.nn.functional.cross_entropy` with
    the constructor's weight, ignore_index, reduction and label_smoothing."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def construct(self, input, target):
        from cellgrad_nn.mint.functional import cross_entropy

        return cross_entropy(input, target, self.weight, self.ignore_index, self.reduction,
                             self.label_smoothing)
