# Primitive classes over existing functional ops: CeLU, SeLU, HShrink, SoftShrink, GLU, Gelu,
# FastGelu, PReLU, Dense, MultiMarginLoss, CTCLossV2, soft_shrink, lrn, ChannelShuffle's error.
import numpy as np
import mindspore as ms
from mindspore import ops, Tensor
x = Tensor(np.array([[-1.5, 0.3, 2.0, -0.2]], np.float32))
for p in [ops.CeLU(0.7), ops.SeLU(), ops.HShrink(0.5), ops.SoftShrink(0.4), ops.GLU(), ops.Gelu(), ops.FastGelu()]:
    print(type(p).__name__, p(x))
try:
    ops.ChannelShuffle(2)(x.reshape(1, 4, 1))
except TypeError as e:
    print('TypeError', str(e).splitlines()[0])
print(ops.ChannelShuffle(2)(Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 2, 1))).reshape(-1))
print(ops.soft_shrink(x, 0.4))
print(ops.PReLU()(x.reshape(1, 2, 2), Tensor(np.array([0.1, 0.3], np.float32))))
print(ops.Dense()(x, Tensor(np.arange(12, dtype=np.float32).reshape(3, 4)), Tensor(np.ones(3, np.float32))))
z = Tensor(np.array([[0.1, 0.9, 0.5, -0.3], [1.0, 0.2, 0.4, 0.3]], np.float32))
print(ops.MultiMarginLoss()(z, Tensor(np.array([2, 0], np.int64))), ops.MultiMarginLoss(2, 0.5, 'sum')(z, Tensor(np.array([1, 3], np.int64)), Tensor(np.array([1., 2., 1., 1.], np.float32))))
T, C, N = 5, 3, 2
lp = Tensor(np.log(np.random.RandomState(0).dirichlet(np.ones(C), (T, N))).astype(np.float32))
tg = Tensor(np.array([[1, 2], [2, 2]], np.int64)); il = Tensor(np.array([5, 4], np.int64)); tl = Tensor(np.array([2, 1], np.int64))
l, a = ops.CTCLossV2()(lp, tg, il, tl)
print(l, a.shape)
print(ops.lrn(Tensor(np.arange(8, dtype=np.float32).reshape(1, 4, 2, 1) / 4), 1))
