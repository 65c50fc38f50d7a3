"""Evaluation metrics, mirroring `mindspore.train.Accuracy`, `Loss`, `Precision`, ...

A metric accumulates over `update(y_pred, y)` calls (Tensors, lists or arrays) and `eval()`
returns the result; `clear()` starts over. Labels are class indices `(N,)` or one-hot `(N, C)`.
"""

import numpy as np

from cellgrad.common.tensor import Tensor


def _numpy(owner, name, value):
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, (list, tuple, np.ndarray, int, float, np.number)):
        return np.asarray(value)
    raise TypeError(f"For '{owner}', {name} must be a Tensor, list or numpy.ndarray, but got "
                    f"{type(value).__name__}.")


class Metric:
    """Mirrors `mindspore.train.Metric`: the base of every metric."""

    def __init__(self):
        self._indexes = None

    @property
    def indexes(self):
        """Which network outputs `update` receives (`set_indexes`); None: all."""
        return self._indexes

    def set_indexes(self, indexes):
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For 'set_indexes', indexes must be a list of ints, but got "
                             f"{indexes!r}.")
        self._indexes = indexes
        return self

    def clear(self):
        raise NotImplementedError(f"{type(self).__name__} must implement clear()")

    def update(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} must implement update()")

    def eval(self):
        raise NotImplementedError(f"{type(self).__name__} must implement eval()")

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    def _two_inputs(self, inputs):
        name = f"{type(self).__name__}.update"
        if len(inputs) != 2:
            raise ValueError(f"For '{name}', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        return _numpy(name, "y_pred", inputs[0]), _numpy(name, "y", inputs[1])


def _is_onehot(y):
    """MindSpore's `_check_onehot_data`: every value 0 or 1 and each row summing to 1."""
    return bool(np.equal(y ** 2, y).all() and np.equal(y.sum(axis=1), 1).all())


def _class_labels(owner, y_pred, y):
    """Labels as class indices `(N,)`, checked against predictions `(N, C)`."""
    if y_pred.ndim != 2:
        raise ValueError(f"For '{owner}', y_pred must have shape (N, C), but got "
                         f"{y_pred.shape}.")
    if y.ndim == 2 and y.shape == y_pred.shape and _is_onehot(y):  # as MindSpore: only one-hot
        y = y.argmax(axis=1)
    if y.shape != y_pred.shape[:1]:
        raise ValueError(f"For '{owner}', y must be class indices of shape {y_pred.shape[:1]} "
                         f"or one-hot of shape {y_pred.shape}, but got {y.shape}.")
    return y.astype(np.int64, copy=False)


class Accuracy(Metric):
    """Mirrors `mindspore.train.Accuracy`: the fraction of samples classified right."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"For 'Accuracy', eval_type must be 'classification' or "
                             f"'multilabel', but got {eval_type!r}.")
        self._type = eval_type
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    def update(self, *inputs):
        y_pred, y = self._two_inputs(inputs)
        if self._class_num and y_pred.shape[-1] != self._class_num:
            raise ValueError(f"For 'Accuracy.update', class number not match, last input "
                             f"predicted data contain {self._class_num} classes, but current "
                             f"predicted data contain {y_pred.shape[-1]} classes.")
        self._class_num = y_pred.shape[-1]
        if self._type == "classification":
            right = y_pred.argmax(axis=1) == _class_labels("Accuracy.update", y_pred, y)
        else:
            if y_pred.shape != y.shape:
                raise ValueError(f"For 'Accuracy.update', multilabel y_pred and y must have the "
                                 f"same shape, but got {y_pred.shape} and {y.shape}.")
            right = (y_pred == y).reshape(len(y), -1).all(axis=1)
        self._correct_num += int(right.sum())
        self._total_num += right.size

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of "
                               "samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before "
                               "calling eval method.")
        return self._correct_num / self._total_num


class Loss(Metric):
    """Mirrors `mindspore.train.Loss`: the mean of the losses seen."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), but got "
                             f"{len(inputs)}.")
        loss = _numpy("Loss.update", "loss", inputs[0])
        if loss.ndim > 1 or (loss.ndim == 1 and loss.size != 1):
            raise ValueError(f"For 'Loss.update', the loss must be a scalar or of shape (1,), "
                             f"but got shape {loss.shape}.")
        self._sum_loss += float(loss.reshape(()))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples "
                               "is 0.")
        return self._sum_loss / self._total_num


class _PerClass(Metric):
    """Counts per class for precision, recall and F-beta (classification)."""

    def __init__(self, eval_type="classification"):
        super().__init__()
        if eval_type != "classification":
            raise ValueError(f"For '{type(self).__name__}', cellgrad supports eval_type "
                             f"'classification', but got {eval_type!r}.")
        self._type = eval_type
        self.eps = np.finfo(np.float64).eps
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = self._predicted = self._actual = 0

    def update(self, *inputs):
        y_pred, y = self._two_inputs(inputs)
        name = f"{type(self).__name__}.update"
        y = _class_labels(name, y_pred, y)
        c = y_pred.shape[1]
        if self._class_num and c != self._class_num:
            raise ValueError(f"For '{name}', class number not match, last input predicted data "
                             f"contain {self._class_num} classes, but current predicted data "
                             f"contain {c} classes.")
        self._class_num = c
        pred = y_pred.argmax(axis=1)
        self._true_positives = self._true_positives + np.bincount(y[pred == y], minlength=c)
        self._predicted = self._predicted + np.bincount(pred, minlength=c)
        self._actual = self._actual + np.bincount(y, minlength=c)

    def _check(self):
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated, because the "
                               f"number of samples is 0, please check whether your inputs "
                               f"(predicted value, true value) are empty, or has called update "
                               f"method before calling eval method.")


class Precision(_PerClass):
    """Mirrors `mindspore.train.Precision`: per-class precision (`average=True`: the mean)."""

    def eval(self, average=False):
        self._check()
        result = self._true_positives / (self._predicted + self.eps)
        return float(result.mean()) if average else result


class Recall(_PerClass):
    """Mirrors `mindspore.train.Recall`: per-class recall (`average=True`: the mean)."""

    def eval(self, average=False):
        self._check()
        result = self._true_positives / (self._actual + self.eps)
        return float(result.mean()) if average else result


class Fbeta(_PerClass):
    """Mirrors `mindspore.train.Fbeta`: per-class F-beta score."""

    def __init__(self, beta):
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"For 'Fbeta', beta must be a positive number, but got {beta!r}.")
        self.beta = float(beta)
        super().__init__()

    def eval(self, average=False):
        self._check()
        b2 = self.beta * self.beta
        result = (1 + b2) * self._true_positives / (
            b2 * self._actual + self._predicted + self.eps)
        return float(result.mean()) if average else result


class F1(Fbeta):
    """Mirrors `mindspore.train.F1`: F-beta with beta 1."""

    def __init__(self):
        super().__init__(1.0)


class TopKCategoricalAccuracy(Metric):
    """Mirrors `mindspore.train.TopKCategoricalAccuracy`: label among the k best scores."""

    def __init__(self, k):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', k must be a positive int, but got "
                             f"{k!r}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    def update(self, *inputs):
        y_pred, y = self._two_inputs(inputs)
        y = _class_labels("TopKCategoricalAccuracy.update", y_pred, y)
        score = y_pred[np.arange(len(y)), y][:, None]
        # The label's rank in a stable descending sort: ties go to the lower class index.
        lower = np.arange(y_pred.shape[1]) < y[:, None]
        better = ((y_pred > score) | ((y_pred == score) & lower)).sum(axis=1)
        self._correct_num += int((better < self.k).sum())
        self._samples_num += len(y)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' can not be calculated, because the "
                               "number of samples is 0.")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Mirrors `mindspore.train.Top1CategoricalAccuracy`."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Mirrors `mindspore.train.Top5CategoricalAccuracy`."""

    def __init__(self):
        super().__init__(5)


class ConfusionMatrix(Metric):
    """Mirrors `mindspore.train.ConfusionMatrix`: rows are true classes, columns predicted."""

    NORMALIZE = ("no_norm", "target", "prediction", "all")

    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"For 'ConfusionMatrix', num_classes must be a positive int, but "
                             f"got {num_classes!r}.")
        if normalize not in self.NORMALIZE:
            raise ValueError(f"For 'ConfusionMatrix', normalize must be one of "
                             f"{list(self.NORMALIZE)}, but got {normalize!r}.")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    def update(self, *inputs):
        y_pred, y = self._two_inputs(inputs)
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.shape == y.shape and np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        y, y_pred = y.reshape(-1).astype(np.int64), y_pred.reshape(-1).astype(np.int64)
        if y.shape != y_pred.shape:
            raise ValueError(f"For 'ConfusionMatrix.update', y_pred and y must give the same "
                             f"number of labels, but got {y_pred.size} and {y.size}.")
        n = self.num_classes
        if y.size and (min(y.min(), y_pred.min()) < 0 or max(y.max(), y_pred.max()) >= n):
            raise ValueError(f"For 'ConfusionMatrix.update', labels must be in [0, {n}), but got "
                             f"values in [{min(y.min(), y_pred.min())}, "
                             f"{max(y.max(), y_pred.max())}].")
        self.confusion_matrix += np.bincount(y * n + y_pred, minlength=n * n).reshape(n, n)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        axis = {"target": 1, "prediction": 0, "all": None}[self.normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = matrix / matrix.sum(axis=axis, keepdims=axis is not None)
        return np.nan_to_num(matrix)


# The names `get_metric_fn` knows (with metrics_more's: see metrics_select)
BY_NAME = {"accuracy": Accuracy, "acc": Accuracy, "loss": Loss, "precision": Precision,
           "recall": Recall, "F1": F1, "f1": F1, "top_1_accuracy": Top1CategoricalAccuracy,
           "top_5_accuracy": Top5CategoricalAccuracy, "topk": TopKCategoricalAccuracy,
           "confusion_matrix": ConfusionMatrix}
