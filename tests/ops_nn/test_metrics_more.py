"""cellgrad.train metrics of metrics_more.py and LearningRateScheduler: values against direct
computations, accumulation over updates, set_indexes, argument errors (the recorded MindSpore
program is tests/ops_nn/ms_programs/metrics_more.py)."""

import sys

import numpy as np
import pytest
from cellgrad.dataset import NumpySlicesDataset

import cellgrad as ms
from cellgrad import Tensor, nn, train

RNG = np.random.default_rng(0)
A, B = RNG.random((5, 3)), RNG.random((5, 3))
C, D = RNG.random((3, 3)), RNG.random((3, 3))


def test_names_at_mindspore_paths():
    assert train.MAE is ms.MAE is nn.MAE
    assert train.HausdorffDistance is nn.HausdorffDistance
    assert train.ConfusionMatrixMetric is ms.ConfusionMatrixMetric
    assert nn.OcclusionSensitivity is train.OcclusionSensitivity
    assert train.auc is ms.auc and train.rearrange_inputs is nn.rearrange_inputs
    assert train.LearningRateScheduler is ms.LearningRateScheduler
    assert ms.train.callback.LearningRateScheduler is train.LearningRateScheduler
    assert not hasattr(nn, "LearningRateScheduler")


@pytest.mark.parametrize("cls, err", [(train.MAE, np.abs), (train.MSE, np.square)])
def test_error_metrics_accumulate_per_sample(cls, err):
    m = cls()
    m.update(Tensor(A), B.tolist())
    m.update(C, D.reshape(3, 3, 1))  # y is reshaped to y_pred's shape
    expected = (err(B - A).sum() + err(D - C).sum()) / 8
    assert m.eval() == pytest.approx(expected)
    assert isinstance(m.eval(), np.float64)
    m.clear()
    with pytest.raises(RuntimeError, match=f"The '{cls.__name__}' can not be calculated"):
        m.eval()
    with pytest.raises(ValueError, match="it needs 2 inputs"):
        m.update(A)
    with pytest.raises(TypeError, match="tensor, list or numpy.ndarray, but got <class 'int'>"):
        m.update(A, 3)


def test_set_indexes_rearranges_update_inputs():
    m = train.MSE().set_indexes([2, 0])
    m.update(B, None, A)
    assert m.eval() == pytest.approx(np.square(B - A).sum() / 5)


def test_dice():
    m = train.Dice(smooth=1e-5)
    m.update(A, B)
    m.update(C, D)
    one = 2 * (A * B).sum() / ((A * A).sum() + (B * B).sum() + 1e-5)
    two = 2 * (C * D).sum() / ((C * C).sum() + (D * D).sum() + 1e-5)
    assert m.eval() == pytest.approx((one + two) / 8)
    with pytest.raises(TypeError, match="The 'smooth' must be float, but got 'int'"):
        train.Dice(smooth=1)
    with pytest.raises(ValueError, match="must > 0"):
        train.Dice(smooth=0.0)
    with pytest.raises(ValueError, match="should have same shape"):
        train.Dice()(A, C)


def test_perplexity_with_ignored_label():
    probs = np.array([[0.6, 0.4], [0.3, 0.7], [0.2, 0.8]])
    m = train.Perplexity()
    m.update(probs, np.array([0, 1, 1]))
    m.update(Tensor(probs), Tensor(np.array([1, 0, 1])))
    assert m.eval() == pytest.approx(np.exp(-np.log([0.6, 0.7, 0.8, 0.4, 0.3, 0.8]).mean()))
    q = train.Perplexity(ignore_label=1)
    q.update(probs, np.array([0, 1, 0]))
    assert q.eval() == pytest.approx(np.exp(-np.log([0.6, 0.2]).mean()))
    with pytest.raises(TypeError, match="'ignore_label' should be 'int', but got type 'bool'"):
        train.Perplexity(ignore_label=True)
    with pytest.raises(RuntimeError, match="should have the same shape"):
        train.Perplexity()(probs, np.array([0, 1]))


def test_cosine_similarity_keeps_last_batch():
    m = train.CosineSimilarity()
    m.update(A)
    m.update(B)
    unit = B / np.linalg.norm(B, axis=1, keepdims=True)
    expected = unit @ unit.T
    np.fill_diagonal(expected, 0)
    np.testing.assert_allclose(m.eval(), expected)
    dot = train.CosineSimilarity(similarity="dot", reduction="sum", zero_diagonal=False)(A)
    np.testing.assert_allclose(dot, (A @ A.T).sum(axis=-1))
    with pytest.raises(ValueError, match=r"must be in '\['dot', 'cosine'\]', but got 'x'"):
        train.CosineSimilarity(similarity="x")
    with pytest.raises(RuntimeError, match="Please call the 'update' method"):
        train.CosineSimilarity().eval()


def test_roc_and_auc():
    fpr, tpr, th = train.ROC(pos_label=1)(np.array([0.1, 0.9, 0.4, 0.3]),
                                          np.array([0, 1, 1, 0]))
    np.testing.assert_allclose(fpr, [0, 0, 0, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 1, 1, 1])
    np.testing.assert_allclose(th, [1.9, 0.9, 0.4, 0.3, 0.1])
    assert train.auc(fpr, tpr) == pytest.approx(1.0)
    assert train.auc(np.array([3., 2., 1.]), np.array([1., 2., 4.])) == pytest.approx(4.5)
    with pytest.raises(ValueError, match="must be increasing or decreasing"):
        train.auc(np.array([3., 1., 2.]), np.array([1., 2., 4.]))
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[2, 3\]"):
        train.auc(np.array([1., 2.]), np.array([1., 2., 3.]))
    with pytest.raises(TypeError, match="must all be np.ndarray"):
        train.auc([1., 2.], [1., 2.])
    with pytest.raises(ValueError, match="there is no negative samples"):
        train.ROC()(np.array([0.1, 0.9]), np.array([1, 1]))
    with pytest.raises(ValueError, match="'class_num' must equal the number of classes"):
        train.ROC(class_num=2)(np.ones((4, 3)), np.zeros(4))


def test_bleu_score():
    m = train.BleuScore(n_gram=1)
    m.update([["a", "b", "c", "d"]], [[["a", "b", "x", "d"]]])
    assert float(m.eval()) == pytest.approx(0.75)
    # shorter candidate than reference: brevity penalty exp(1 - r/c)
    short = train.BleuScore(n_gram=1)([["a", "b"]], [[["a", "b", "c", "d"]]])
    assert float(short) == pytest.approx(np.exp(1 - 2))
    assert float(train.BleuScore()([["a", "b"]], [[["c", "d"]]])) == 0.0
    with pytest.raises(ValueError, match="'n_gram' should range from 1 to 4, but got 5"):
        train.BleuScore(n_gram=5)


def squares():
    a = np.zeros((8, 8))
    a[2:6, 2:6] = 1
    b = np.zeros((8, 8))
    b[3:7, 3:7] = 1
    return a, b


def test_surface_distances_of_shifted_squares():
    pytest.importorskip("scipy")
    a, b = squares()
    # the edges of two 4x4 squares shifted by (1, 1)
    assert train.HausdorffDistance()(a, b, 1) == pytest.approx(np.sqrt(2))
    assert train.HausdorffDistance(distance_metric="chessboard")(a, b, 1) == 1
    assert train.HausdorffDistance(distance_metric="taxicab", crop=False)(a, b, 1) == 2
    msd = train.MeanSurfaceDistance(distance_metric="chessboard")(a, b, 1)
    # of a's 12 edge pixels, (3, 5) and (5, 3) lie on b's edge, the other 10 are 1 away
    assert msd == pytest.approx(10 / 12)
    assert train.HausdorffDistance()(a, np.zeros((8, 8)), 1) == np.inf
    rms = train.RootMeanSquareDistance(distance_metric="chessboard")(a, b, 1)
    assert rms == pytest.approx(10 / 12)  # MindSpore's non-symmetric value has no root
    with pytest.raises(TypeError, match="label index type"):
        train.RootMeanSquareDistance()(a, b, "1")
    with pytest.raises(ValueError, match="must be int or float"):
        train.MeanSurfaceDistance()(a, b, "1")
    with pytest.raises(ValueError, match="but 3 is not"):
        train.HausdorffDistance()(a, b, 3)
    with pytest.raises(TypeError, match="'percentile' should be 'float'"):
        train.HausdorffDistance(percentile=1)
    # as MindSpore: before any update these two give inf, HausdorffDistance an error
    assert train.MeanSurfaceDistance().eval() == np.inf
    with pytest.raises(RuntimeError, match="Please call the 'update' method"):
        train.HausdorffDistance().eval()


def test_surface_distances_say_scipy_is_needed(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    a, b = squares()
    with pytest.raises(ImportError, match="For 'HausdorffDistance', SciPy is needed"):
        train.HausdorffDistance()(a, b, 1)


def fit(lr_function, epochs=2):
    net = nn.Dense(3, 1, weight_init=Tensor(np.array([[0.1, -0.2, 0.3]], np.float32)),
                   bias_init="zeros")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    data = NumpySlicesDataset({"x": x, "y": x.sum(axis=1, keepdims=True)}, shuffle=False)
    train.Model(net, nn.MSELoss(), opt).train(
        epochs, data.batch(2), callbacks=[train.LearningRateScheduler(lr_function)])
    return opt


def test_learning_rate_scheduler_sets_the_optimizer_lr():
    seen = []

    def halve_every_two(lr, step):
        seen.append((round(lr, 6), step))
        return lr * 0.5 if step % 2 == 0 else lr

    opt = fit(halve_every_two)
    assert seen == [(0.1, 1), (0.1, 2), (0.05, 3), (0.05, 4), (0.025, 5), (0.025, 6),
                    (0.0125, 7), (0.0125, 8)]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.00625)
    assert opt.learning_rate.dtype == ms.float32


def test_confusion_matrix_metric():
    pred = np.eye(3)[[0, 1, 2, 1]]
    true = np.eye(3)[[0, 2, 2, 1]]
    # skip_channel keeps all 3 classes: tp 3, fp 1, tn 7, fn 1 summed over samples and classes
    for name, expected in (("sensitivity", 3 / 4), ("precision", 3 / 4), ("fall out", 1 / 8),
                           ("accuracy", 10 / 12), ("f1", 6 / 8),
                           ("mcc", (21 - 1) / np.sqrt(4 * 4 * 8 * 8))):
        m = train.ConfusionMatrixMetric(metric_name=name)
        m.update(pred[:2], true[:2])
        m.update(Tensor(pred[2:]), Tensor(true[2:]))
        np.testing.assert_allclose(m.eval(), [expected])
    # per sample (4-d inputs): the metric per (sample, class), averaged over classes then samples
    yp = np.zeros((2, 2, 2, 2))
    yp[:, 0, 0, 0] = yp[:, 1, 1, 1] = 1
    yt = np.zeros((2, 2, 2, 2))
    yt[:, 0, 0, :] = 1
    m = train.ConfusionMatrixMetric(metric_name="recall", calculation_method=True)
    m.update(yp, yt)
    assert m.eval() == pytest.approx(0.5)  # class 1 has no positives: nan, skipped
    with pytest.raises(NotImplementedError, match="The metric is not implemented."):
        train.ConfusionMatrixMetric(metric_name="xx")(pred, true)
    with pytest.raises(ValueError, match="must be a binarized ndarray"):
        train.ConfusionMatrixMetric()(pred, true * 0.5)
    with pytest.raises(ValueError, match="'decrease' must be str and must be in"):
        train.ConfusionMatrixMetric(decrease="x")
    with pytest.raises(RuntimeError, match="'ConfusionMatrixMetric' can not be calculated"):
        train.ConfusionMatrixMetric(calculation_method=True).eval()


def test_occlusion_sensitivity_of_a_linear_classifier():
    weight = np.arange(32, dtype=np.float32).reshape(2, 16) / 40 - 0.3
    clf = nn.SequentialCell([nn.Flatten(), nn.Dense(16, 2, weight_init=Tensor(weight),
                                                   bias_init="zeros")])
    image = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4) / 10
    occ = train.OcclusionSensitivity(margin=1)
    occ.update(clf, image, np.array(1))
    # the patch of pixel (i, j) is rows i-1..i, columns j-1..j ([idx - margin, idx + margin)),
    # and a linear score drops by the sum of weight * pixel over it
    def drops(cls):
        contrib = (weight[cls] * image.reshape(-1)).reshape(4, 4)
        return np.array([[contrib[max(0, i - 1):i + 1, max(0, j - 1):j + 1].sum()
                          for j in range(4)] for i in range(4)])

    np.testing.assert_allclose(occ.eval(), drops(1), rtol=1e-5, atol=1e-5)
    box = train.OcclusionSensitivity(margin=1, b_box=[0, 0, 1, 2, 0, 3])(clf, image,
                                                                        np.array(0))
    np.testing.assert_allclose(box, drops(0)[1:3], rtol=1e-5, atol=1e-5)
    with pytest.raises(RuntimeError, match="the shape at index 0 of the predicted value"):
        occ.update(clf, np.concatenate([image, image]), np.array(1))
    with pytest.raises(TypeError, match="'model' should be 'Cell', but got type 'function'"):
        occ.update(lambda t: t, image, np.array(1))
    with pytest.raises(TypeError, match=r"'margin' should be one of '\['int', 'list'\]'"):
        train.OcclusionSensitivity(margin=1.0)
    with pytest.raises(ValueError, match="maximum bounding box must be smaller than image size"):
        train.OcclusionSensitivity(b_box=[0, 0, 0, 1, 0, 4])(clf, image, np.array(1))


def test_metrics_by_name_in_model_eval():
    assert set(train.names()) >= {"mae", "mse", "dice", "roc", "auc", "bleu_score", "topk",
                                  "cosine_similarity", "occlusion_sensitivity", "perplexity",
                                  "hausdorff_distance", "mean_surface_distance",
                                  "root_mean_square_distance", "confusion_matrix",
                                  "confusion_matrix_metric"}
    assert isinstance(train.get_metric_fn("mae"), train.MAE)
    # as MindSpore, "auc" names the function: its arguments are the curve's
    assert train.get_metric_fn("auc", np.array([0., 1.]), np.array([1., 1.])) == 1.0
    net = nn.Dense(3, 1, weight_init=Tensor(np.array([[0.1, -0.2, 0.3]], np.float32)),
                   bias_init="zeros")
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    y = x.sum(axis=1, keepdims=True)
    data = NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    result = train.Model(net, nn.MSELoss(), metrics={"mae", "mse"}).eval(data)
    pred = x @ np.array([0.1, -0.2, 0.3], np.float32)[:, None]
    assert result["mae"] == pytest.approx(np.abs(pred - y).sum() / 8, rel=1e-5)
    assert result["mse"] == pytest.approx(np.square(pred - y).sum() / 8, rel=1e-5)
