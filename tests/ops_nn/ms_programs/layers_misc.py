# nn.Roll and nn.Unfold have no CPU kernel in MindSpore 2.10: test_layers_misc.py checks them.
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

x4 = Tensor(np.arange(2 * 8 * 2 * 3, dtype=np.float32).reshape(2, 8, 2, 3) / 10)
x2 = Tensor(np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [0.5, 0.25, 2.0]], np.float32))


def show(name, fn):
    try:
        out = fn()
        if isinstance(out, tuple):
            for o in out:
                print(name, o.shape, o.dtype, o)
        else:
            print(name, out.shape, out.dtype, out)
    except (RuntimeError, TypeError, ValueError) as e:
        print(name, type(e).__name__)


show("PixelShuffle", lambda: nn.PixelShuffle(2)(x4))
show("PixelUnshuffle", lambda: nn.PixelUnshuffle(2)(Tensor(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4))))
show("ChannelShuffle", lambda: nn.ChannelShuffle(4)(x4))
show("Unflatten", lambda: nn.Unflatten(1, (2, 4))(x4))
show("CentralCrop", lambda: nn.CentralCrop(0.5)(Tensor(np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8))))
show("MatMul", lambda: nn.MatMul()(x2, x2))
show("MatMul t", lambda: nn.MatMul(True, True)(x2, x2))
show("Norm", lambda: nn.Norm()(x2))
show("Norm axis", lambda: nn.Norm(1, True)(x2))
show("Moments", lambda: nn.Moments()(x2))
show("Moments axis", lambda: nn.Moments(0, True)(x2))
show("ReduceLogSumExp", lambda: nn.ReduceLogSumExp(1)(x2))
show("ReduceLogSumExp k", lambda: nn.ReduceLogSumExp((0, 1), True)(x2))
show("Tril", lambda: nn.Tril()(x2, 0))
show("Tril -1", lambda: nn.Tril()(x2, -1))
show("Triu", lambda: nn.Triu()(x2, 1))
show("Range", lambda: nn.Range(1, 8, 2)())
show("Range f", lambda: nn.Range(0.5, 2.0, 0.5)())
show("Range one", lambda: nn.Range(5)())
show("OneHot", lambda: nn.OneHot(depth=4)(Tensor(np.array([1, 3, 0], np.int32))))
show("OneHot axis0", lambda: nn.OneHot(0, 3, 5.0, -1.0)(Tensor(np.array([2, 0], np.int32))))
show("L1Regularizer", lambda: nn.L1Regularizer(0.5)(x2))
show("Linear", lambda: nn.Linear(3, 2, weight_init="ones", bias_init="zeros")(x2))
print([(p.name, p.shape) for p in nn.Linear(3, 2).get_parameters()], nn.Linear(3, 2))
show("BiDense", lambda: nn.BiDense(3, 2, 4, weight_init="ones", bias_init="zeros")(x2, x2[:, :2]))
print([(p.name, p.shape) for p in nn.BiDense(3, 2, 4).get_parameters()], nn.BiDense(3, 2, 4))
d = nn.Dropout1d(0.5); d.set_train(False)
show("Dropout1d eval", lambda: d(x4[:, :, 0]))
d3 = nn.Dropout3d(0.5); d3.set_train(False)
show("Dropout3d eval", lambda: d3(ops.expand_dims(x4, 2)))
e = nn.EmbeddingLookup(5, 3, param_init="ones")
print([(p.name, p.shape) for p in e.get_parameters()], e)
show("EmbeddingLookup", lambda: e(Tensor(np.array([[0, 4], [2, 2]], np.int32))))
g = ms.grad(lambda a: (nn.PixelShuffle(2)(a) * Tensor(np.arange(96, dtype=np.float32).reshape(2, 2, 4, 6))).sum())(x4)
print(g[0, :, 0])
g2 = ms.grad(lambda a: nn.Norm(1)(a).sum() + nn.ReduceLogSumExp(0)(a).sum() + nn.Moments(1)(a)[1].sum())(x2)
print(g2)
