"""Segmentation and imbalance loss cells: `nn.DiceLoss`, `nn.MultiClassDiceLoss`,
`nn.FocalLoss`, with MindSpore's formulas."""

from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad.ops import functional as F
from cellgrad_nn.functional.softmax import log_softmax
from cellgrad_nn.loss.losses import LossBase


def _gather(x, dim, index):
    from cellgrad import ops

    return ops.gather_elements(x, dim, index)


def _tensors(cell, logits, labels):
    for name, t in (("logits", logits), ("labels", labels)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{cell}', the '{name}' must be a Tensor, but got "
                            f"{type(t).__name__}.")


class DiceLoss(LossBase):
    """Mirrors `mindspore.nn.DiceLoss`: 1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)
    (MindSpore adds `smooth` to the denominator only)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
        if smooth <= 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with "
                             f"type 'float'.")
        self.smooth = smooth

    def construct(self, logits, label):
        _tensors("DiceLoss", logits, label)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For 'DiceLoss', the 'logits' shape {tuple(logits.shape)} must be "
                             f"equal to the 'labels' shape {tuple(label.shape)}.")
        x, y = F.reshape(logits, (-1,)), F.reshape(label, (-1,))
        union = F.sum(x * x) + F.sum(y * y)
        return 1 - (2 * F.sum(x * y)) / (union + self.smooth)


class MultiClassDiceLoss(LossBase):
    """Mirrors `mindspore.nn.MultiClassDiceLoss`: the mean over classes (dimension 1) of the
    binary dice loss of each class after `activation`, optionally weighted, skipping
    `ignore_indiex` (MindSpore's spelling)."""

    _ACTIVATIONS = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        if weights is not None:
            if not isinstance(weights, Tensor):
                raise TypeError(f"For 'MultiClassDiceLoss', the type of 'weights' should be "
                                f"'Tensor', but got type '{type(weights).__name__}'.")
            if weights.ndim != 2:
                raise ValueError(f"For 'MultiClassDiceLoss', the dimension of 'weights' must be "
                                 f"2, but got {weights.ndim}.")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool)
                                          or not isinstance(ignore_indiex, int)):
            raise TypeError(f"For 'MultiClassDiceLoss', the type of 'ignore_indiex' should be "
                            f"'int', but got type '{type(ignore_indiex).__name__}'.")
        if isinstance(activation, str):
            if activation not in self._ACTIVATIONS:
                raise ValueError(f"For 'MultiClassDiceLoss', the 'activation' must be in "
                                 f"{list(self._ACTIVATIONS)}, but got {activation}.")
            from cellgrad_nn.layers.activation import get_activation

            activation = get_activation(activation)
        elif activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"For 'MultiClassDiceLoss', the 'activation' must be str or Cell, "
                            f"but got {type(activation)}.")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation
        self.binarydiceloss = DiceLoss(smooth=1e-5)

    def construct(self, logits, label):
        _tensors("MultiClassDiceLoss", logits, label)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For 'MultiClassDiceLoss', the 'logits_shape' must be equal to "
                             f"'label_shape', but got {tuple(logits.shape)} and "
                             f"{tuple(label.shape)}.")
        for name, t in (("logits", logits), ("labels", label)):
            if t.ndim < 2:
                raise ValueError(f"For 'MultiClassDiceLoss', the '{name}' dimension must be "
                                 f"greater than 1, but got {t.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        classes = label.shape[1]
        total = 0
        for i in range(classes):
            if i == self.ignore_indiex:
                continue
            loss = self.binarydiceloss(logits[:, i], label[:, i])
            if self.weights is not None:
                loss = loss * self.weights[i]
            total = total + loss
        return total / classes


class FocalLoss(LossBase):
    """Mirrors `mindspore.nn.FocalLoss`: -(1 - p)^gamma log p over the classes of dimension
    1, labels given as class indices (one channel) or per-class targets."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        if isinstance(gamma, bool) or not isinstance(gamma, float):
            raise TypeError(f"For 'FocalLoss', the type of 'gamma' should be 'float', but got "
                            f"type '{type(gamma).__name__}'.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'FocalLoss', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if weight is not None and weight.ndim != 1:
            raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, but got "
                             f"{weight.ndim}.")
        self.weight, self.gamma = weight, gamma

    def construct(self, logits, labels):
        _tensors("FocalLoss", logits, labels)
        self._check(logits, labels)
        n, c = logits.shape[0], logits.shape[1]
        x = F.reshape(logits, (n, c, -1))
        y = F.reshape(labels, (n, labels.shape[1], -1))
        log_p = log_softmax(x, 1)
        by_index = labels.shape[1] == 1
        if by_index:
            index = F.cast(y, "int64")
            log_p = F.squeeze(_gather(log_p, 1, index), 1)
        p = F.exp(log_p)
        if self.weight is not None:
            w = F.broadcast_to(F.reshape(self.weight, (1, -1, 1)), (n, c, x.shape[2]))
            if by_index:
                w = F.squeeze(_gather(w, 1, index), 1)
            log_p = log_p * w
        modulation = F.pow(1.0 - p, self.gamma)
        loss = -modulation * log_p if by_index else -modulation * y * log_p
        return self.get_loss(F.mean(loss, 1 if by_index else -1))

    def _check(self, logits, labels):
        for name, t in (("logits", logits), ("labels", labels)):
            if not 2 <= t.ndim <= 4:
                raise ValueError(f"For 'FocalLoss', the dimensions of '{name}' must be in "
                                 f"[2, 4], but got dimension of '{name}' {t.ndim}.")
        if logits.ndim != labels.ndim:
            raise ValueError(f"For 'FocalLoss', the dimensions of 'logits' and 'labels' must be "
                             f"equal, but got {logits.ndim} and {labels.ndim}.")
        if logits.shape[1] == 1:
            raise ValueError(f"For 'FocalLoss', the 'logits'.shape[1] cannot be one, but got "
                             f"{logits.shape[1]}.")
        if labels.shape[1] not in (1, logits.shape[1]):
            raise ValueError(f"For 'FocalLoss', the 'labels'.shape[1] must be one or equal to "
                             f"'logits'.shape[1]: {logits.shape[1]}, but got {labels.shape[1]}.")
        if str(labels.dtype) not in ("Int32", "Int64", "Float16", "Float32"):
            raise TypeError(f"For 'FocalLoss', the 'labels' type must be in [Int32, Int64, "
                            f"Float16, Float32], but got {labels.dtype}.")
