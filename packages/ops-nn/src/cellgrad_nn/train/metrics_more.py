"""More evaluation metrics, mirroring `mindspore.train.MAE`, `MSE`, `Dice`, `ROC`, `auc`, ...

Same protocol as `metrics.py`: `clear()`, `update(*inputs)` (Tensors, lists or arrays) and
`eval()`. The surface-distance metrics need SciPy (as MindSpore's do) for the distance
transforms and the binary erosion.
"""

import functools
import math
from collections import Counter

import numpy as np
from tqdm import trange

from cellgrad import nn
from cellgrad.common.tensor import Tensor
from cellgrad_nn.train.metrics import Metric


def rearrange_inputs(func):
    """Mirrors `mindspore.train.rearrange_inputs`: `update` receives the outputs that
    `set_indexes` chose, in that order."""

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        inputs = inputs if not indexes else [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


def _convert(data):
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, list):
        return np.array(data)
    if isinstance(data, np.ndarray):
        return data
    raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, "
                    f"list or numpy.ndarray, but got {type(data)}.")


def _check_type(name, value, types):
    if (isinstance(value, bool) and bool not in types) or not isinstance(value, tuple(types)):
        names = [t.__name__ for t in types]
        expected = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"The type of '{name}' should be {expected}, but got type "
                        f"'{type(value).__name__}'.")
    return value


def _check_string(name, value, allowed):
    _check_type(name, value, [str])
    if value not in allowed:
        raise ValueError(f"The '{name}' must be str and must be in '{allowed}', but got "
                         f"'{value}'.")
    return value


def _needs(owner, inputs, count, what):
    if len(inputs) != count:
        raise ValueError(f"For '{owner}.update', it needs {count} inputs ({what}), but got "
                         f"{len(inputs)}.")


_NOT_UPDATED = "Please call the 'update' method before calling 'eval' method."


def _empty(name):
    return (f"The '{name}' can not be calculated, because the number of samples is 0, please "
            f"check whether your inputs(predicted value, true value) are empty, or has called "
            f"update method before calling eval method.")


class _Error(Metric):
    """The sum of an elementwise error over the samples seen, divided by their number."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        name = type(self).__name__
        _needs(name, inputs, 2, "predicted value, true value")
        y_pred, y = _convert(inputs[0]), _convert(inputs[1])
        # float64 as under NumPy 1.x, where 0 + a float32 scalar promoted
        self._error_sum += np.float64(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(_empty(type(self).__name__))
        return self._error_sum / self._samples_num


class MAE(_Error):
    """Mirrors `mindspore.train.MAE`: mean absolute error per sample."""

    _error = staticmethod(np.abs)


class MSE(_Error):
    """Mirrors `mindspore.train.MSE`: mean squared error per sample."""

    _error = staticmethod(np.square)


class Dice(Metric):
    """Mirrors `mindspore.train.Dice`: the Dice coefficient of each batch, averaged over
    samples."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
        if not smooth > 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with "
                             f"type 'float'.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        _needs("Dice", inputs, 2, "predicted value, true value")
        y_pred, y = _convert(inputs[0]), _convert(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value "
                             f"(input[1]) should have same shape, but got predicted value shape: "
                             f"{y_pred.shape}, true value shape: {y.shape}.")
        p, t = y_pred.flatten(), y.flatten()
        self._dice_coeff_sum += 2 * float(p @ t) / float(p @ p + t @ t + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(_empty("Dice coefficient"))
        return self._dice_coeff_sum / float(self._samples_num)


class Perplexity(Metric):
    """Mirrors `mindspore.train.Perplexity`: exp of the mean negative log-probability of the
    labels."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = (None if ignore_label is None
                             else _check_type("ignore_label", ignore_label, [int]))
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        _needs("Perplexity", inputs, 2, "predicted value, label")
        pred, label = _convert(inputs[0]), _convert(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label "
                               f"(input[1]) should have the same shape, but got predicted value "
                               f"shape {pred.shape}, label shape {label.shape}.")
        label = label.reshape((label.size,))
        pred = np.squeeze(pred[np.arange(label.size)[:, None], label.astype(int)[:, None]])
        num = 0
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(pred.dtype)
            num -= np.sum(ignore)
            pred = pred * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, pred)))
        self._num_inst += num + pred.size

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether the update method has been "
                               "called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)


class CosineSimilarity(Metric):
    """Mirrors `mindspore.train.CosineSimilarity`: the similarity matrix of the last batch's
    rows."""

    def __init__(self, similarity='cosine', reduction='none', zero_diagonal=True):
        super().__init__()
        self.similarity = _check_string("similarity", similarity, ['dot', 'cosine'])
        self.reduction = _check_string("reduction", reduction, ['none', 'sum', 'mean'])
        self.zero_diagonal = _check_type("zero_diagonal", zero_diagonal, [bool])
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        data = _convert(inputs)
        if self.similarity == 'cosine':
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.transpose(1, 0))
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError(_NOT_UPDATED)
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == 'mean':
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        if self.reduction == 'sum':
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res


def _length(x):
    if x.ndim == 0:
        raise TypeError(f"Singleton array {x} cannot be considered as a valid collection.")
    return x.shape[0]


def _column_or_1d(y):
    if y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1):
        return np.ravel(y)
    raise ValueError(f"For 'auc', the input must be a 1-dimensional array, or a 2-dimensional "
                     f"array with the second dimension of 1, but got shape {y.shape}.")


def auc(x, y, reorder=False):
    """Mirrors `mindspore.train.auc`: the area under a curve by the trapezoidal rule."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', the argument 'x' and 'y' must all be np.ndarray, but got "
                        f"{type(x)}, {type(y)}")
    lengths = [_length(x), _length(y)]
    if lengths[0] != lengths[1]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{lengths}.")
    x, y = _column_or_1d(x), _column_or_1d(y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', the shape of the argument 'x' in axis 0 must be greater "
                         f"than 2, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', if the argument is False, the argument 'x' array "
                                 f"must be increasing or decreasing, but got 'x': {x}")
            direction = -1
    trapezoid = getattr(np, 'trapezoid', None) or np.trapz
    return direction * trapezoid(y, x)


def _binary_clf_curve(preds, target, pos_label=1):
    """False and true positives at each distinct score, scores descending."""
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds)
    preds, target = preds[order], target[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    target = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(target, axis=0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]


def _curve_inputs(y_pred, y, class_num, pos_label):
    if y_pred.ndim not in (y.ndim, y.ndim + 1):
        raise ValueError(f"For 'ROC', predicted value (input[0]) and true value (input[1]) must "
                         f"have same dimensions, or the dimension of predicted value equal the "
                         f"dimension of true value add 1, but got predicted value ndim: "
                         f"{y_pred.ndim}, true value ndim: {y.ndim}.")
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', when predicted value (input[0]) and true value "
                             f"(input[1]) have the same shape, the 'class_num' must be 1, but got "
                             f"{class_num}.")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if pos_label is not None:
        raise ValueError(f"For 'ROC', when the dimension of predicted value (input[0]) equals the "
                         f"dimension of true value (input[1]) add 1, the 'pos_label' must be "
                         f"None, but got {pos_label}.")
    if class_num != y_pred.shape[1]:
        raise ValueError(f"For 'ROC', the 'class_num' must equal the number of classes from "
                         f"predicted value (input[0]), but got 'class_num' {class_num}, the number "
                         f"of classes from predicted value {y_pred.shape[1]}.")
    return y_pred.reshape(class_num, -1), y.flatten(), class_num, pos_label


class ROC(Metric):
    """Mirrors `mindspore.train.ROC`: false/true positive rates and thresholds of the last
    batch (per class when predictions have a class axis)."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        self.class_num = None if class_num is None else _check_type("class_num", class_num,
                                                                    [int])
        self.pos_label = None if pos_label is None else _check_type("pos_label", pos_label,
                                                                    [int])
        self.clear()

    def clear(self):
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        _needs("ROC", inputs, 2, "predicted value, true value")
        self.y_pred, self.y, self.class_num, self.pos_label = _curve_inputs(
            _convert(inputs[0]), _convert(inputs[1]), self.class_num, self.pos_label)
        self._is_update = True

    def _roc_eval(self, y_pred, y, class_num, pos_label):
        if class_num == 1:
            fps, tps, thresholds = _binary_clf_curve(y_pred, y, pos_label=pos_label)
            tps = np.squeeze(np.hstack([np.zeros(1, dtype=tps.dtype), tps]))
            fps = np.squeeze(np.hstack([np.zeros(1, dtype=fps.dtype), fps]))
            thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
            if fps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no negative samples in true value, "
                                 "false positive value is meaningless.")
            if tps[-1] <= 0:
                raise ValueError("For 'ROC.eval', there is no positive samples in true value, "
                                 "true positive value is meaningless.")
            return fps / fps[-1], tps / tps[-1], thresholds
        fpr, tpr, thresholds = [], [], []
        for c in range(class_num):
            res = self._roc_eval(*_curve_inputs(y_pred[:, c], y, 1, c))
            fpr.append(res[0])
            tpr.append(res[1])
            thresholds.append(res[2])
        return fpr, tpr, thresholds

    def eval(self):
        if not self._is_update:
            raise RuntimeError(_NOT_UPDATED)
        return self._roc_eval(np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num,
                              self.pos_label)


class BleuScore(Metric):
    """Mirrors `mindspore.train.BleuScore`: corpus BLEU of candidate token lists against their
    references."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        self.n_gram = _check_type("n_gram", n_gram, [int])
        if self.n_gram > 4 or self.n_gram < 1:
            raise ValueError(f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, "
                             f"but got {n_gram}.")
        self.smooth = _check_type("smooth", smooth, [bool])
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._precision_scores = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    def _count_ngram(self, tokens, n_gram):
        counter = Counter()
        for i in range(1, n_gram + 1):
            for j in range(len(tokens) - i + 1):
                counter[tuple(tokens[j:i + j])] += 1
        return counter

    @rearrange_inputs
    def update(self, *inputs):
        _needs("BleuScore", inputs, 2, "candidate_corpus, reference_corpus")
        candidate_corpus, reference_corpus = inputs
        if len(candidate_corpus) != len(reference_corpus):
            raise ValueError(f"For 'BleuScore.update', 'translate_corpus' (inputs[0]) and "
                             f"'reference_corpus' (inputs[1]) should be equal in length, but got "
                             f"{len(candidate_corpus)}, {len(reference_corpus)}")
        for candidate, references in zip(candidate_corpus, reference_corpus):
            self._c += len(candidate)
            ref_lens = [len(ref) for ref in references]
            diffs = [abs(len(candidate) - n) for n in ref_lens]
            self._r += ref_lens[diffs.index(min(diffs))]
            translation = self._count_ngram(candidate, self.n_gram)
            reference = Counter()
            for ref in references:
                reference |= self._count_ngram(ref, self.n_gram)
            clipped = translation & reference
            for gram in clipped:
                self._numerator[len(gram) - 1] += clipped[gram]
            for gram in translation:
                self._denominator[len(gram) - 1] += translation[gram]
        self._trans_len = np.array(self._c)
        self._ref_len = np.array(self._r)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError(_NOT_UPDATED)
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.full(self.n_gram, 1.0 / self.n_gram)
                                       * np.log(precision)))
        brevity = (np.array(1.0) if self._c > self._r
                   else np.exp(1 - (self._ref_len / self._trans_len)))
        return brevity * geometric_mean


def _ndimage(owner):
    try:
        from scipy import ndimage
    except ImportError as err:  # SciPy is optional: only these metrics need it
        raise ImportError(f"For '{owner}', SciPy is needed for the distance transforms: "
                          f"pip install scipy.") from err
    return ndimage


_DISTANCES = ["euclidean", "chessboard", "taxicab"]


class _SurfaceDistance(Metric):
    """Edges of the label-`label_idx` masks of prediction and truth, and the distances from
    one edge set to the other."""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        super().__init__()
        self.distance_metric_list = list(_DISTANCES)
        self.distance_metric = _check_string("distance_metric", distance_metric, _DISTANCES)
        self.symmetric = _check_type("symmetric", symmetric, [bool])
        self.clear()
        # As MindSpore: None, not False, until the first clear(), so eval() before any update
        # gives inf rather than the "call update first" error.
        self._is_update = None

    def clear(self):
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    # MindSpore words the checks of each surface-distance metric a little differently
    _NEEDS = "it needs 3 inputs (predicted value, true value, label index), but got {}"
    _LABEL_TYPE = (ValueError, "the label index (input[2]) must be int or float, but got {}.")
    _LABEL_IN = "must be in predicted value (input[0]) or true value (input[1]), but {} is not."
    _COMPARE_BOOL = False  # boolean masks are taken as they are
    _SHAPE = ("the size of predicted value (input[0]) and true value (input[1]) must be greater "
              "than 0, in addition to that, predicted value and true value must have the same "
              "shape, but got predicted value size: {}, shape: {}, true value size: {}, "
              "shape: {}.")

    def _masks(self, inputs):
        name = f"For '{type(self).__name__}.update', "
        if len(inputs) != 3:
            raise ValueError(name + self._NEEDS.format(len(inputs)))
        y_pred, y, label_idx = _convert(inputs[0]), _convert(inputs[1]), inputs[2]
        if not isinstance(label_idx, (int, float)):
            raise self._LABEL_TYPE[0](name + self._LABEL_TYPE[1].format(type(label_idx)))
        if label_idx not in y_pred and label_idx not in y:
            raise ValueError(f"{name}the label index (input[2]) "
                             f"{self._LABEL_IN.format(label_idx)}")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(name + self._SHAPE.format(y_pred.size, y_pred.shape, y.size,
                                                       y.shape))
        if y_pred.dtype != bool or self._COMPARE_BOOL:
            y_pred = y_pred == label_idx
        if y.dtype != bool or self._COMPARE_BOOL:
            y = y == label_idx
        return y_pred, y

    def _edges(self, mask):
        return _ndimage(type(self).__name__).binary_erosion(mask) ^ mask

    def _surface_distance(self, y_pred_edges, y_edges):
        if not np.any(y_pred_edges):
            return np.array([])
        if not np.any(y_edges):
            return np.full(y_edges.shape, np.inf)[y_pred_edges]
        ndimage = _ndimage(type(self).__name__)
        if self.distance_metric == "euclidean":
            dis = ndimage.distance_transform_edt(~y_edges)
        else:
            dis = ndimage.distance_transform_cdt(~y_edges, metric=self.distance_metric)
        return dis[y_pred_edges]

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = self._edges(y_pred), self._edges(y)
        self._is_update = True


class MeanSurfaceDistance(_SurfaceDistance):
    """Mirrors `mindspore.train.MeanSurfaceDistance`: mean distance from the predicted edge
    to the true edge (`symmetric`: the mean of both directions)."""

    def eval(self):
        if self._is_update is False:
            raise RuntimeError(_NOT_UPDATED)
        forward = self._surface_distance(self._y_pred_edges, self._y_edges)
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return forward.mean()
        backward = self._surface_distance(self._y_edges, self._y_pred_edges)
        if backward.shape == (0,):
            return np.inf
        return np.mean((forward.mean(), backward.mean()))


class RootMeanSquareDistance(_SurfaceDistance):
    """Mirrors `mindspore.train.RootMeanSquareDistance`: mean squared edge-to-edge distance
    (`symmetric`: the root of the mean of both directions, as MindSpore computes it)."""

    _NEEDS = "it needs 3 inputs(predicted value, true value, label index), but got {}."
    _LABEL_TYPE = (TypeError, "the label index (input[2]) must be int or float, but got label "
                              "index type: {}.")
    _LABEL_IN = "should be in predicted value (input[0]) or true value (input[1]), but {} is not."
    _SHAPE = ("the size of predicted value (input[0]) and true value (input[1]) should be greater "
              "than 0, in addition to that, predicted value and true value should have the same "
              "shape, but got predicted value size: {}, shape: {}, true value size: {}, "
              "shape: {}. ")

    def eval(self):
        if self._is_update is False:
            raise RuntimeError(_NOT_UPDATED)
        forward = self._surface_distance(self._y_pred_edges, self._y_edges)
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return (forward ** 2).mean()
        backward = self._surface_distance(self._y_edges, self._y_pred_edges)
        if backward.shape == (0,):
            return np.inf
        return np.sqrt(np.mean(((forward ** 2).mean(), (backward ** 2).mean())))


class HausdorffDistance(_SurfaceDistance):
    """Mirrors `mindspore.train.HausdorffDistance`: the largest (or `percentile`) edge-to-edge
    distance, both directions unless `directed`; `crop` first cuts both masks to their
    bounding box."""

    _NEEDS = "it needs 3 inputs (predicted value, true value, label index), but got {}."
    # MindSpore tests `dtype is not bool`, always true: boolean masks are compared too
    _COMPARE_BOOL = True
    _SHAPE = ("the size of predicted value (input[0]) and true value (input[1]) must be greater "
              "than 0, in addition to that, predicted value and true value should have the same "
              "shape, but got predicted value size: {}, shape: {}, true value size: {}, "
              "shape: {}.")

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        Metric.__init__(self)
        self.distance_metric = _check_string("distance_metric", distance_metric, _DISTANCES)
        self.percentile = (None if percentile is None
                           else _check_type("percentile", percentile, [float]))
        self.directed = directed if directed is None else _check_type("directed", directed,
                                                                      [bool])
        self.crop = crop if crop is None else _check_type("crop", crop, [bool])
        self.clear()

    def clear(self):
        self.y_pred_edges = 0
        self.y_edges = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        self._is_update = True
        y_pred, y = self._masks(inputs)
        if self.crop:
            both = y_pred | y
            if not np.any(both):
                self.y_pred_edges, self.y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(int(i.min()), int(i.max()) + 1) for i in np.nonzero(both))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self.y_pred_edges, self.y_edges = self._edges(y_pred), self._edges(y)

    def _hausdorff(self, y_pred_edges, y_edges):
        distance = self._surface_distance(y_pred_edges, y_edges)
        if distance.shape == (0,):
            return np.inf
        if not self.percentile:
            return distance.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distance, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must "
                         f"be [0, 100], but got {self.percentile}.")

    def eval(self):
        if not self._is_update:
            raise RuntimeError(_NOT_UPDATED)
        hd = self._hausdorff(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._hausdorff(self.y_edges, self.y_pred_edges))


_CM_NAMES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_CM_ALIAS = {alias: key for key, aliases in _CM_NAMES.items() for alias in aliases}


def _rate(num, den):
    return np.where(den > 0, num / den, np.array(float("nan")))


# numerator and denominator of each metric from tp, fp, tn, fn, p (= tp + fn), n (= fp + tn)
_CM_FRACTIONS = {
    "tpr": lambda tp, fp, tn, fn, p, n: (tp, p),
    "tnr": lambda tp, fp, tn, fn, p, n: (tn, n),
    "ppv": lambda tp, fp, tn, fn, p, n: (tp, tp + fp),
    "npv": lambda tp, fp, tn, fn, p, n: (tn, tn + fn),
    "fnr": lambda tp, fp, tn, fn, p, n: (fn, p),
    "fpr": lambda tp, fp, tn, fn, p, n: (fp, n),
    "fdr": lambda tp, fp, tn, fn, p, n: (fp, fp + tp),
    "for": lambda tp, fp, tn, fn, p, n: (fn, fn + tn),
    "pt": lambda tp, fp, tn, fn, p, n: (
        np.sqrt(_rate(tp, p) * (1.0 - _rate(tn, n))) + _rate(tn, n) - 1.0,
        _rate(tp, p) + _rate(tn, n) - 1.0),
    "ts": lambda tp, fp, tn, fn, p, n: (tp, tp + fn + fp),
    "acc": lambda tp, fp, tn, fn, p, n: (tp + tn, p + n),
    "ba": lambda tp, fp, tn, fn, p, n: (_rate(tp, p) + _rate(tn, n), 2.0),
    "f1": lambda tp, fp, tn, fn, p, n: (tp * 2.0, tp * 2.0 + fn + fp),
    "mcc": lambda tp, fp, tn, fn, p, n: (
        tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
    "fm": lambda tp, fp, tn, fn, p, n: (np.sqrt(_rate(tp, tp + fp) * _rate(tp, p)), 1.0),
    "bm": lambda tp, fp, tn, fn, p, n: (_rate(tp, p) + _rate(tn, n) - 1.0, 1.0),
    # MindSpore's markedness takes npv without the zero guard
    "mk": lambda tp, fp, tn, fn, p, n: (_rate(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0),
}


def _confusion_metric(metric_name, matrix):
    """The named metric of `(..., 4)` counts tp, fp, tn, fn (nan where undefined)."""
    key = _CM_ALIAS.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    if matrix.ndim == 1:
        matrix = np.expand_dims(matrix, 0)
    if matrix.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of "
                         f"confusion_matrix must be 4, but got {matrix.shape[-1]}.")
    tp, fp, tn, fn = (matrix[..., i] for i in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        num, den = _CM_FRACTIONS[key](tp, fp, tn, fn, tp + fn, fp + tn)
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / den, np.array(float("nan")))
        return num / den


def _mean_over(not_nans, chart, axis):
    not_nans = not_nans.sum(axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        return not_nans, np.where(not_nans > 0, chart.sum(axis=axis) / not_nans, np.zeros(1))


def _decrease(chart, decrease):
    """Reduce a (batch, class) chart, skipping nans; returns (chart, count of non-nans)."""
    nans = np.isnan(chart)
    not_nans = (~nans).astype(float)
    chart[nans] = 0
    if decrease == "mean":
        not_nans, chart = _mean_over(not_nans, chart, 1)
        not_nans = (not_nans > 0).astype(float)
        not_nans, chart = _mean_over(not_nans, chart, 0)
    elif decrease == "sum":
        not_nans, chart = not_nans.sum(axis=(0, 1)), np.sum(chart, axis=(0, 1))
    elif decrease == "mean_batch":
        # MindSpore's table holds the function itself for "mean_batch", not its result
        raise TypeError("cannot unpack non-iterable function object")
    elif decrease == "sum_batch":
        not_nans, chart = not_nans.sum(axis=0), chart.sum(axis=0)
    elif decrease == "mean_channel":
        not_nans, chart = _mean_over(not_nans, chart, 1)
    elif decrease == "sum_channel":
        not_nans, chart = not_nans.sum(axis=1), chart.sum(axis=1)
    return chart, not_nans


def _confusion_counts(owner, y_pred, y, skip_channel, calculation_method):
    """tp, fp, tn, fn per (sample, class) of binarized `(N, C, ...)` inputs; whether a
    per-sample metric can be taken (not for `(N, C)` or `(N, C, 1)` inputs)."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError(f"For '{owner}.update', the true value (input[1]) must be a binarized "
                         f"ndarray.")
    if y_pred.ndim < 2:
        raise ValueError(f"For '{owner}.update', the predicted value (input[0]) must have at "
                         f"least 2 dimensions, but got {y_pred.ndim}.")
    if y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1):
        calculation_method = False
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    y, y_pred = y.astype(float), y_pred.astype(float)
    if y.shape != y_pred.shape:
        raise ValueError(f"The 'y_shape' should be = y_pred_shape: {y_pred.shape}, but got "
                         f"{y.shape}.")
    batch, classes = y_pred.shape[:2]
    y_pred, y = y_pred.reshape(batch, classes, -1), y.reshape(batch, classes, -1)
    tp = ((y_pred + y) == 2).astype(float).sum(axis=2)
    tn = ((y_pred + y) == 0).astype(float).sum(axis=2)
    p = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - p - tn, tn, p - tp], axis=-1), calculation_method


class ConfusionMatrixMetric(Metric):
    """Mirrors `mindspore.train.ConfusionMatrixMetric`: a metric of tp/fp/tn/fn counts of
    binarized (one-hot) predictions; `calculation_method=True` averages it per sample
    (reduced by `decrease`), False takes it of the counts summed over all updates."""

    DECREASE = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel",
                "sum_channel"]

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False,
                 decrease="mean"):
        super().__init__()
        self.skip_channel = _check_type("skip_channel", skip_channel, [bool])
        self.calculation_method = _check_type("calculation_method", calculation_method, [bool])
        self.metric_name = _check_type("metric_name", metric_name, [str])
        self.decrease = _check_string("decrease", decrease, self.DECREASE)
        # MindSpore's per-sample switch turns off for good at the first (N, C) input
        self._per_sample = calculation_method
        self.clear()

    def clear(self):
        self._total_num = 0
        self._class_num = 0
        self._total_tp = 0.0
        self._total_fp = 0.0
        self._total_tn = 0.0
        self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs):
        _needs("ConfusionMatrixMetric", inputs, 2, "predicted value, true value")
        counts, self._per_sample = _confusion_counts(
            "ConfusionMatrix", _convert(inputs[0]), _convert(inputs[1]), self.skip_channel,
            self._per_sample)
        if self.calculation_method:
            if self._per_sample:
                score, not_nans = _decrease(_confusion_metric(self.metric_name, counts),
                                            self.decrease)
            else:  # as MindSpore: the counts themselves, unpacked as (score, count)
                score, not_nans = counts
            not_nans = int(not_nans.item())
            self._total_num += score.item() * not_nans
            self._class_num += not_nans
        else:
            counts, _ = _decrease(counts, "sum")
            self._total_tp += counts[0].item()
            self._total_fp += counts[1].item()
            self._total_tn += counts[2].item()
            self._total_fn += counts[3].item()

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError(_empty("ConfusionMatrixMetric"))
            return self._total_num / self._class_num
        counts = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _confusion_metric(self.metric_name, counts)


def _bounding_box(b_box, im_shape):
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and "
                         f"lower for all dimensions (except batch number), and the length of "
                         f"'b_box' must be twice as long as predicted value's (except batch "
                         f"number), but got 'b_box' length {len(b_box)}, predicted value length "
                         f"(except batch number) {len(im_shape)}.")
    b_min, b_max = np.array(b_box[::2]), np.array(b_box[1::2])
    b_min[b_min < 0] = 0
    b_max[b_max < 0] = im_shape[b_max < 0] - 1
    if np.any(b_max >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than "
                         "image size for all values.")
    if np.any(b_min > b_max):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than "
                         "maximum bounding box for all values.")
    return b_min, b_max


def _occluded_scores(model, images, ids, sensitivity_im):
    scores = model(Tensor(np.vstack(images))).asnumpy()
    ids = np.expand_dims(ids, 1)
    scores = scores[np.arange(ids.shape[0])[:, None], ids]
    return np.vstack(scores) if sensitivity_im.size == 0 else np.vstack((sensitivity_im, scores))


class OcclusionSensitivity(Metric):
    """Mirrors `mindspore.train.OcclusionSensitivity`: how much a classifier's score for
    `label` drops when a `2 * margin` patch around each pixel of one image is set to
    `pad_val`."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        self.pad_val = _check_type("pad_val", pad_val, [float])
        self.margin = _check_type("margin", margin, [int, list])
        self.n_batch = _check_type("n_batch", n_batch, [int])
        self.b_box = b_box if b_box is None else _check_type("b_box", b_box, [list])
        self.clear()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs "
                             f"(classification model, predicted value, label), but got "
                             f"{len(inputs)}.")
        model, y_pred, label = inputs[0], _convert(inputs[1]), _convert(inputs[2])
        _check_type("model", model, [nn.Cell])
        if y_pred.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the "
                               f"predicted value (input[1]) must be 1, but got "
                               f"{y_pred.shape[0]}.")
        if np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label "
                               f"(input[2]) must be same as the batches, but got the label number "
                               f"{np.prod(label.shape)}, and batches {y_pred.shape[0]}.")
        im_shape = np.array(y_pred.shape[1:])
        b_min, b_max = _bounding_box(self.b_box, im_shape)
        self._baseline = model(Tensor(y_pred)).asnumpy()[0, label].item()
        images, ids = [], []
        sensitivity_im = np.empty(0, dtype=float)
        out_shape = im_shape if self.b_box is None else b_max - b_min + 1
        count = np.prod(out_shape)
        for i in trange(count):  # MindSpore shows the passes as a progress bar
            idx = np.unravel_index(i, out_shape)
            if b_min is not None:
                idx += b_min
            lo = [max(0, k - self.margin) for k in idx]
            hi = [min(size, k + self.margin) for k, size in zip(idx, im_shape)]
            occluded = y_pred.copy()
            occluded[(...,) + tuple(slice(a, b) for a, b in zip(lo, hi))] = self.pad_val
            images.append(occluded)
            ids.append(label)
            if len(images) == self.n_batch or i == count - 1:
                sensitivity_im = _occluded_scores(model, images, ids, sensitivity_im)
                images, ids = [], []
        self._sensitivity_im = sensitivity_im.reshape(out_shape)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError(_NOT_UPDATED)
        return self._baseline - np.squeeze(self._sensitivity_im)


# the names `get_metric_fn` knows for this module's metrics (as MindSpore's, "auc" included)
BY_NAME = {"dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore,
           "cosine_similarity": CosineSimilarity, "occlusion_sensitivity": OcclusionSensitivity,
           "hausdorff_distance": HausdorffDistance, "mae": MAE, "mse": MSE,
           "mean_surface_distance": MeanSurfaceDistance,
           "root_mean_square_distance": RootMeanSquareDistance, "perplexity": Perplexity,
           "confusion_matrix_metric": ConfusionMatrixMetric}
