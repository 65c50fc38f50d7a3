import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

logits = Tensor(np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0], [3.0, 0.0, -2.0]], np.float32))
dense_labels = Tensor(np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.2, 0.3, 0.5]], np.float32))
sparse = Tensor(np.array([2, 0, 1], np.int32))
loss, dlogits = ops.SoftmaxCrossEntropyWithLogits()(logits, dense_labels)
print("SoftmaxCrossEntropyWithLogits", loss, dlogits)
print("grad", ms.grad(lambda t: ops.SoftmaxCrossEntropyWithLogits()(t, dense_labels)[0].sum())(
    logits))
print("Sparse", ops.SparseSoftmaxCrossEntropyWithLogits()(logits, sparse))
print("Sparse is_grad", ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(logits, sparse))
print("Sparse grad", ms.grad(lambda t: ops.SparseSoftmaxCrossEntropyWithLogits()(t, sparse))(
    logits))
for red in ("none", "mean", "sum"):
    print("NLLLoss", red, ops.NLLLoss(red)(ops.log_softmax(logits, 1), sparse,
                                           Tensor(np.array([1.0, 0.5, 2.0], np.float32))))
print("OneHot", ops.OneHot()(sparse, 4, Tensor(1.0, ms.float32), Tensor(0.0, ms.float32)))
print("one_hot", ops.one_hot(Tensor(np.array([[0, 3], [1, -1]], np.int32)), 4,
                             Tensor(2.0, ms.float32), Tensor(-1.0, ms.float32), axis=1))
a = Tensor(np.array([3.0, 4.0], np.float32))
b = Tensor(np.array([[12.0, 0.0], [0.0, 5.0]], np.float32))
print("clip_by_global_norm", ops.clip_by_global_norm((a, b), 2.0))
print("clip_by_global_norm no-op", ops.clip_by_global_norm((a, b), 100.0))
print("clip_by_norm", ops.clip_by_norm(a, 1.0), ops.clip_by_norm((a, b), 3.0))
print("BinaryCrossEntropy", ops.BinaryCrossEntropy("none")(
    Tensor(np.array([0.1, 0.9, 0.4], np.float32)), Tensor(np.array([0.0, 1.0, 1.0], np.float32))))
print("BCEWithLogitsLoss", ops.BCEWithLogitsLoss("sum")(
    Tensor(np.array([[-3.0, 0.5], [10.0, -20.0]], np.float32)),
    Tensor(np.array([[0.0, 1.0], [1.0, 1.0]], np.float32)),
    Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([1.0, 3.0], np.float32))))
print("SmoothL1Loss", ops.SmoothL1Loss(beta=2.0)(Tensor(np.array([0.0, 1.0, 5.0], np.float32)),
                                                 Tensor(np.array([1.5, 1.0, 0.0], np.float32))))
print("KLDivLoss", ops.KLDivLoss("sum")(Tensor(np.array([-1.0, -2.0, -0.5], np.float32)),
                                        Tensor(np.array([0.2, 0.0, 0.8], np.float32))))
