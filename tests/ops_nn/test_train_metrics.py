"""cellgrad.train metrics: values against brute force, label forms, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cellgrad as ms
from cellgrad import Tensor


def scores_and_labels(n, c, seed):
    rng = np.random.default_rng(seed)
    return rng.random((n, c)).astype(np.float32), rng.integers(0, c, n)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 30), c=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_counts_match_brute_force(n, c, seed):
    y_pred, y = scores_and_labels(n, c, seed)
    pred = y_pred.argmax(1)
    cm = ms.train.ConfusionMatrix(c)
    cm.update(Tensor(y_pred), Tensor(y))
    want = np.zeros((c, c))
    for t, p in zip(y, pred):
        want[t, p] += 1
    np.testing.assert_array_equal(cm.eval(), want)
    acc = ms.train.Accuracy()
    acc.update(y_pred, y)
    assert acc.eval() == pytest.approx(np.mean(pred == y))
    precision, recall = ms.train.Precision(), ms.train.Recall()
    precision.update(y_pred, y)
    recall.update(y_pred, y)
    eps = np.finfo(np.float64).eps
    np.testing.assert_allclose(precision.eval(), np.diag(want) / (want.sum(0) + eps))
    np.testing.assert_allclose(recall.eval(), np.diag(want) / (want.sum(1) + eps))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 20), c=st.integers(2, 6), k=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_top_k_is_the_label_among_the_k_first_of_a_stable_descending_sort(n, c, k, seed):
    y_pred, y = scores_and_labels(n, c, seed)
    y_pred = np.round(y_pred, 1)  # ties
    order = np.argsort(-y_pred, axis=1, kind="stable")[:, :k]
    m = ms.train.TopKCategoricalAccuracy(k)
    m.update(Tensor(y_pred), Tensor(y))
    assert m.eval() == pytest.approx(np.mean([t in row for t, row in zip(y, order)]))


def test_one_hot_labels_equal_index_labels_and_metrics_accumulate():
    y_pred, y = scores_and_labels(12, 4, 0)
    a, b = ms.train.Accuracy(), ms.train.Accuracy()
    a.update(y_pred[:6], y[:6])
    a.update(y_pred[6:], y[6:])
    b.update(y_pred, np.eye(4)[y])
    assert a.eval() == b.eval()


def test_f1_is_the_harmonic_mean_of_precision_and_recall():
    y_pred, y = scores_and_labels(40, 3, 1)
    p, r, f = ms.train.Precision(), ms.train.Recall(), ms.train.F1()
    for m in (p, r, f):
        m.update(y_pred, y)
    want = 2 * p.eval() * r.eval() / (p.eval() + r.eval())
    np.testing.assert_allclose(f.eval(), want, rtol=1e-6)


def test_loss_metric_is_the_mean_and_metric_call_is_clear_update_eval():
    loss = ms.train.Loss()
    for v in (1.0, 2.0, 6.0):
        loss.update(Tensor(np.float32(v)))
    assert loss.eval() == 3.0
    assert ms.train.Accuracy()(np.array([[0.2, 0.8]]), np.array([1])) == 1.0


def test_confusion_matrix_normalizations_and_binary_thresholds():
    cm = ms.train.ConfusionMatrix(2, normalize="target", threshold=0.5)
    cm.update(np.array([0.2, 0.7, 0.9, 0.4]), np.array([0, 1, 0, 0]))
    np.testing.assert_allclose(cm.eval(), [[2 / 3, 1 / 3], [0.0, 1.0]])


@pytest.mark.parametrize("call, error, message", [
    (lambda: ms.train.Accuracy().eval(), RuntimeError, "number of samples is 0"),
    (lambda: ms.train.Accuracy().update(np.zeros((2, 3))), ValueError,
     r"For 'Accuracy.update', it needs 2 inputs \(predicted value, true value\), but got 1"),
    (lambda: ms.train.Accuracy().update(np.zeros((2, 3)), np.zeros(3)), ValueError,
     r"y must be class indices of shape \(2,\) or one-hot of shape \(2, 3\), but got \(3,\)"),
    (lambda: ms.train.Accuracy(eval_type="x"), ValueError, "eval_type must be"),
    (lambda: ms.train.ConfusionMatrix(3).update(np.zeros((1, 3)), np.array([5])), ValueError,
     r"labels must be in \[0, 3\)"),
    (lambda: ms.train.ConfusionMatrix(0), ValueError, "num_classes must be a positive int"),
    (lambda: ms.train.TopKCategoricalAccuracy(0), ValueError, "k must be a positive int"),
    (lambda: ms.train.Loss().update(np.zeros(3)), ValueError, r"got shape \(3,\)"),
    (lambda: ms.train.get_metric_fn("nope"), KeyError, "Unknown Metric Function"),
    (lambda: ms.train.Accuracy().update("a", "b"), TypeError,
     "y_pred must be a Tensor, list or numpy.ndarray, but got str"),
])
def test_bad_use_is_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_metrics_are_reachable_where_mindspore_has_them():
    assert ms.Accuracy is ms.train.Accuracy is ms.nn.Accuracy
    assert set(ms.train.names()) >= {"accuracy", "loss", "precision", "recall", "F1"}
