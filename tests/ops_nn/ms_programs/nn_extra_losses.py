# TripletMarginWithDistanceLoss, nn.CTCLoss (batched and unbatched), SampledSoftmaxLoss with
# fixed samples, MultiFieldEmbeddingLookup's SUM / MEAN / MAX.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, ops
a = Tensor(np.array([[1., 2.], [3., 4.]], np.float32)); p = Tensor(np.array([[1., 0.], [3., 5.]], np.float32)); n = Tensor(np.array([[0., 0.], [2., 2.]], np.float32))
print(nn.TripletMarginWithDistanceLoss()(a, p, n))
print(nn.TripletMarginWithDistanceLoss(swap=True, reduction='none', margin=2.0)(a, p, n))
print(nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: ops.abs(u - v).sum(-1), reduction='sum', margin=3.0)(a, p, n))
T, C, N = 5, 3, 2
lp = Tensor(np.log(np.random.RandomState(0).dirichlet(np.ones(C), (T, N))).astype(np.float32))
tg = Tensor(np.array([[1, 2], [2, 2]], np.int32)); il = Tensor(np.array([5, 4], np.int32)); tl = Tensor(np.array([2, 1], np.int32))
print(nn.CTCLoss()(lp, tg, il, tl), nn.CTCLoss(reduction='none')(lp, tg, il, tl), nn.CTCLoss(reduction='sum')(lp, tg, il, tl))
print(nn.CTCLoss(reduction='none')(lp[:, 0], Tensor(np.array([1, 2], np.int32)), Tensor(np.array([5], np.int32)), Tensor(np.array([2], np.int32))))
w = Tensor(np.random.RandomState(1).randn(7, 3).astype(np.float32)); b = Tensor(np.random.RandomState(2).randn(7).astype(np.float32))
lab = Tensor(np.array([0, 3], np.int32)); lg = Tensor(np.random.RandomState(3).randn(2, 3).astype(np.float32))
sv = (Tensor(np.array([1, 5, 6], np.int32)), Tensor(np.array([[0.4], [0.5]], np.float32)), Tensor(np.array([0.3, 0.3, 0.3], np.float32)))
print(nn.SampledSoftmaxLoss(3, 7, sampled_values=sv)(w, b, lab, lg))
print(nn.SampledSoftmaxLoss(3, 7, sampled_values=sv, reduction='mean')(w, b, lab, lg))
lab2 = Tensor(np.array([[0, 2], [3, 4]], np.int32))
sv2 = (Tensor(np.array([1, 5, 6], np.int32)), Tensor(np.array([[0.4, 0.2], [0.5, 0.1]], np.float32)), Tensor(np.array([0.3, 0.2, 0.1], np.float32)))
print(nn.SampledSoftmaxLoss(3, 7, num_true=2, sampled_values=sv2)(w, b, lab2, lg))
ids = Tensor(np.array([[1, 2, 3], [4, 0, 0]], np.int32)); vals = Tensor(np.array([[1., -1., 2.], [0.5, 0., 0.]], np.float32)); fields = Tensor(np.array([[0, 1, 1], [2, 0, 0]], np.int32))
for op in ('SUM', 'MEAN', 'MAX'):
    m = nn.MultiFieldEmbeddingLookup(10, 2, 3, param_init='ones', operator=op)
    print(op, m(ids, vals, fields))
print([(q.name, q.shape) for q in nn.MultiFieldEmbeddingLookup(10, 2, 3).get_parameters()])
