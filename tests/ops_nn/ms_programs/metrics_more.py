# mindspore.train metrics MAE, MSE, Dice, Perplexity, CosineSimilarity, ROC, auc, BleuScore,
# the surface distances, ConfusionMatrixMetric, OcclusionSensitivity: two updates then eval,
# set_indexes, argument errors; and LearningRateScheduler changing the optimizer's lr during Model.train.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, train
from mindspore.dataset import NumpySlicesDataset


def tr(f):
    try:
        r = f()
        print("ok", np.round(np.asarray(r, dtype=np.float64), 6).tolist())
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])


print(train.MAE is ms.MAE is nn.MAE, train.auc is nn.auc, train.rearrange_inputs is nn.rearrange_inputs)
print(train.LearningRateScheduler is ms.LearningRateScheduler,
      train.callback.LearningRateScheduler is train.LearningRateScheduler)

rng = np.random.RandomState(0)
a, b = rng.rand(4, 3).astype(np.float32), rng.rand(4, 3).astype(np.float32)
c, d = rng.rand(2, 3).astype(np.float32), rng.rand(2, 3)
for cls in (train.MAE, train.MSE, train.Dice):
    m = cls()
    m.update(Tensor(a), Tensor(b))
    m.update(c.tolist(), d)
    tr(m.eval)
    m.clear()
    tr(m.eval)
    tr(lambda: m.update(a))
    print(cls.__name__, type(m.eval() if False else cls()(a, b)).__name__)
tr(lambda: train.Dice()(a, b[:2]))
tr(lambda: train.MAE()(a, 3))
tr(lambda: train.Dice(smooth=1))
tr(lambda: train.Dice(smooth=0.0))

# set_indexes picks and orders update's inputs
m = train.MAE().set_indexes([2, 0])
m.update(Tensor(b), None, Tensor(a))
tr(m.eval)

p = train.Perplexity(ignore_label=None)
probs = np.array([[0.6, 0.4], [0.3, 0.7], [0.2, 0.8]])
p.update(probs, np.array([0, 1, 1]))
p.update(Tensor(probs), Tensor(np.array([1, 0, 1])))
tr(p.eval)
q = train.Perplexity(ignore_label=1)
q.update(probs, np.array([0, 1, 0]))
tr(q.eval)
tr(lambda: train.Perplexity(ignore_label=1.0))
tr(lambda: train.Perplexity(ignore_label=True))
tr(lambda: train.Perplexity()(probs, np.array([0, 1])))
tr(lambda: train.Perplexity().eval())

for sim, red in (("cosine", "none"), ("dot", "sum"), ("cosine", "mean")):
    s = train.CosineSimilarity(similarity=sim, reduction=red)
    s.update(a)
    s.update(Tensor(b))
    tr(s.eval)
tr(lambda: train.CosineSimilarity(zero_diagonal=False)(c))
tr(lambda: train.CosineSimilarity(similarity="x"))
tr(lambda: train.CosineSimilarity(reduction=1))
tr(lambda: train.CosineSimilarity().eval())

r = train.ROC(pos_label=1)
r.update(np.array([0.1, 0.9, 0.4, 0.3]), np.array([0, 1, 1, 0]))
r.update(Tensor(np.array([0.2, 0.8, 0.4, 0.6, 0.1])), Tensor(np.array([0, 1, 0, 1, 1])))
fpr, tpr, th = r.eval()
tr(lambda: fpr)
tr(lambda: tpr)
tr(lambda: th)
tr(lambda: train.auc(fpr, tpr))
tr(lambda: train.auc(np.array([3., 2., 1.]), np.array([1., 2., 4.])))
tr(lambda: train.auc(np.array([3., 1., 2.]), np.array([1., 2., 4.]), reorder=True))
tr(lambda: train.auc(np.array([3., 1., 2.]), np.array([1., 2., 4.])))
tr(lambda: train.auc(np.array([1.]), np.array([1.])))
tr(lambda: train.auc(np.array([1., 2.]), np.array([1., 2., 3.])))
tr(lambda: train.auc([1., 2.], [1., 2.]))
rc = train.ROC(class_num=3)
scores = np.array([[0.1, 0.8, 0.1], [0.7, 0.2, 0.1], [0.2, 0.3, 0.5], [0.3, 0.3, 0.4]])
rc.update(scores, np.array([1, 0, 2, 1]))
rc.update(scores[::-1].copy(), np.array([2, 0, 1, 1]))
for part in rc.eval():
    for arr in part:
        tr(lambda: arr)
tr(lambda: train.ROC(class_num=2)(scores, np.array([1, 0, 2, 1])))
tr(lambda: train.ROC(class_num=2.0))
tr(lambda: train.ROC()(np.array([0.1, 0.9]), np.array([1, 1])))
tr(lambda: train.ROC()(np.array([0.1, 0.9]), np.array([0, 0])))
tr(lambda: train.ROC().eval())

bl = train.BleuScore()
cand = [["i", "have", "a", "pen", "on", "my", "desk"]]
refs = [[["i", "have", "a", "pen", "in", "my", "desk"], ["there", "is", "a", "pen", "on", "the", "desk"]]]
bl.update(cand, refs)
bl.update([["the", "cat", "is", "on", "the", "mat"]], [[["there", "is", "a", "cat", "on", "the", "mat"]]])
tr(bl.eval)
tr(lambda: train.BleuScore(n_gram=2, smooth=True)([["a", "b", "c"]], [[["a", "b", "d", "e"]]]))
tr(lambda: train.BleuScore()([["a", "b"]], [[["c", "d"]]]))
tr(lambda: train.BleuScore(n_gram=5))
tr(lambda: train.BleuScore(smooth=1))
tr(lambda: train.BleuScore()([["a"]], []))

img_a = np.zeros((8, 8))
img_a[2:6, 2:6] = 1
img_b = np.zeros((8, 8))
img_b[3:7, 1:5] = 1
img_b[0, 7] = 2
for cls, kw in ((train.HausdorffDistance, {}), (train.HausdorffDistance, {"directed": True}),
                (train.HausdorffDistance, {"percentile": 50.0, "distance_metric": "taxicab"}),
                (train.HausdorffDistance, {"crop": False, "distance_metric": "chessboard"}),
                (train.MeanSurfaceDistance, {}), (train.MeanSurfaceDistance, {"symmetric": True}),
                (train.MeanSurfaceDistance, {"distance_metric": "chessboard"}),
                (train.RootMeanSquareDistance, {}),
                (train.RootMeanSquareDistance, {"symmetric": True, "distance_metric": "taxicab"})):
    h = cls(**kw)
    h.update(img_b, img_b, 2)
    h.update(Tensor(img_a), Tensor(img_b), 1)
    tr(h.eval)
    tr(lambda: cls(**kw)(img_a, np.zeros((8, 8)), 1))
    tr(lambda: cls()(img_a, img_b, 3))
    tr(lambda: cls()(img_a, img_b, "1"))
    tr(lambda: cls()(img_a, img_b[:4], 1))
    tr(lambda: cls()(img_a, img_b))
    tr(lambda: cls(distance_metric="l2"))
    tr(cls().eval)
tr(lambda: train.HausdorffDistance(percentile=1))
tr(lambda: train.HausdorffDistance(percentile=150.0)(img_a, img_b, 1))
tr(lambda: train.MeanSurfaceDistance(symmetric=1))

# ConfusionMatrixMetric: one-hot (N, C, ...) predictions and labels
yp = (rng.rand(3, 2, 4, 4) > 0.5).astype(np.float32)
yt = (rng.rand(3, 2, 4, 4) > 0.5).astype(np.float32)
yp2 = (rng.rand(2, 2, 4, 4) > 0.4).astype(np.float32)
yt2 = (rng.rand(2, 2, 4, 4) > 0.6).astype(np.float32)
for name in ("sensitivity", "Specificity", "precision", "npv", "miss rate", "fall_out", "fdr",
             "for", "pt", "ts", "accuracy", "ba", "f1_score", "mcc", "fm", "bm", "mk"):
    for kw in ({}, {"calculation_method": True}, {"calculation_method": True, "decrease": "sum"},
               {"skip_channel": False, "calculation_method": True}):
        cm = train.ConfusionMatrixMetric(metric_name=name, **kw)
        cm.update(yp, yt)
        cm.update(Tensor(yp2), Tensor(yt2))
        print(name, kw, end=" ")
        tr(cm.eval)
cm = train.ConfusionMatrixMetric(calculation_method=False)
cm.update(np.eye(3)[[0, 1, 2, 1]], np.eye(3)[[0, 2, 2, 1]])
tr(cm.eval)
tr(lambda: train.ConfusionMatrixMetric()(yp, yt[:, :, :3]))
tr(lambda: train.ConfusionMatrixMetric(metric_name="xx")(yp, yt))
tr(lambda: train.ConfusionMatrixMetric(calculation_method=True, decrease="mean_batch")(yp, yt))
tr(lambda: train.ConfusionMatrixMetric(calculation_method=True)(np.ones((3, 3)), np.ones((3, 3))))
tr(lambda: train.ConfusionMatrixMetric()(yp, yt * 0.5))
tr(lambda: train.ConfusionMatrixMetric()(np.ones(3), np.ones(3)))
tr(lambda: train.ConfusionMatrixMetric(decrease="x"))
tr(lambda: train.ConfusionMatrixMetric(skip_channel=1))
tr(lambda: train.ConfusionMatrixMetric(calculation_method=True).eval())


# OcclusionSensitivity: score drops of a fixed linear classifier on a 1x4x4 image
clf = nn.Dense(16, 3, weight_init=Tensor(np.arange(48, dtype=np.float32).reshape(3, 16) / 50 - 0.4),
               bias_init="zeros")
seq = nn.SequentialCell([nn.Flatten(), clf])
image = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) / 10
for kw in ({}, {"margin": 1, "n_batch": 3}, {"b_box": [-1, -1, 1, 2, 0, 3], "pad_val": 1.0}):
    occ = train.OcclusionSensitivity(**kw)
    occ.update(seq, image, np.array(2))
    occ.update(seq, Tensor(image), Tensor(np.array(1)))
    tr(occ.eval)
tr(lambda: train.OcclusionSensitivity()(seq, np.concatenate([image, image]), np.array(1)))
tr(lambda: train.OcclusionSensitivity()(seq, image, np.array([1, 2])))
tr(lambda: train.OcclusionSensitivity()(lambda t: t, image, np.array(1)))
tr(lambda: train.OcclusionSensitivity()(seq, image))
tr(lambda: train.OcclusionSensitivity(b_box=[0, 1])(seq, image, np.array(1)))
tr(lambda: train.OcclusionSensitivity(b_box=[0, 0, 0, 1, 0, 4])(seq, image, np.array(1)))
tr(lambda: train.OcclusionSensitivity(b_box=[0, 0, 2, 1, 0, 1])(seq, image, np.array(1)))
tr(lambda: train.OcclusionSensitivity(pad_val=0))
tr(lambda: train.OcclusionSensitivity(margin=1.0))
tr(lambda: train.OcclusionSensitivity(b_box=(0, 1)))
tr(lambda: train.OcclusionSensitivity().eval())

# LearningRateScheduler: halve the lr every 2 steps
net = nn.Dense(3, 1, weight_init=Tensor(np.array([[0.1, -0.2, 0.3]], np.float32)),
               bias_init="zeros")
opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
seen = []


def lr_function(lr, cur_step_num):
    seen.append((round(lr, 6), cur_step_num))
    return lr * 0.5 if cur_step_num % 2 == 0 else lr


x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
y = x.sum(axis=1, keepdims=True)
model = train.Model(net, nn.MSELoss(), opt)
model.train(2, NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(2),
            callbacks=[train.LearningRateScheduler(lr_function)], dataset_sink_mode=False)
print(seen)
print(round(float(opt.learning_rate.asnumpy()), 6), opt.learning_rate.dtype)
print(np.round(net.weight.asnumpy(), 4).tolist())

# boolean masks: HausdorffDistance compares them with the label index, the others take them
mask_a, mask_b = (img_a > 0), (img_b == 1)
for cls in (train.HausdorffDistance, train.MeanSurfaceDistance, train.RootMeanSquareDistance):
    tr(lambda: cls()(mask_a, mask_b, 0))
    tr(lambda: cls()(mask_a, mask_b, 1))
