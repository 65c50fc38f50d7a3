import numpy as np
import mindspore as ms
from mindspore import Tensor
from mindspore.train import (Accuracy, ConfusionMatrix, F1, Fbeta, Loss, Precision, Recall,
                             TopKCategoricalAccuracy, Top1CategoricalAccuracy, get_metric_fn)

y_pred = Tensor(np.array([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1], [0.3, 0.3, 0.4], [0.2, 0.5, 0.3],
                          [0.6, 0.3, 0.1]], np.float32))
y = Tensor(np.array([1, 0, 1, 2, 0], np.int32))
onehot = Tensor(np.eye(3, dtype=np.float32)[[1, 0, 1, 2, 0]])

acc = Accuracy()
acc.update(y_pred, y)
print("accuracy", acc.eval())
acc.update(y_pred, onehot)
print("accuracy twice", acc.eval())
acc.clear()
acc.update(y_pred[:2], y[:2])
print("accuracy after clear", acc.eval())

for metric in (Precision(), Recall(), F1(), Fbeta(2.0)):
    metric.update(y_pred, y)
    print(type(metric).__name__, np.round(metric.eval(), 4))
p = Precision()
p.update(y_pred, y)
print("precision average", round(float(p.eval(average=True)), 4))

for k in (1, 2, 3):
    m = TopKCategoricalAccuracy(k)
    m.update(y_pred, y)
    print("top", k, m.eval())
t = Top1CategoricalAccuracy()
t.update(y_pred, y)
print("top1", t.eval())

loss = Loss()
loss.update(Tensor(np.array(0.5, np.float32)))
loss.update(Tensor(np.array(1.5, np.float32)))
print("loss", loss.eval())

cm = ConfusionMatrix(num_classes=3)
cm.update(y_pred, y)
print(cm.eval())
for norm in ("target", "prediction", "all"):
    cm = ConfusionMatrix(num_classes=3, normalize=norm)
    cm.update(y_pred, y)
    print(norm, np.round(cm.eval(), 4).tolist())
print(type(get_metric_fn("accuracy")).__name__, type(get_metric_fn("loss")).__name__)
try:
    Accuracy().eval()
except RuntimeError as e:
    print("RuntimeError")
