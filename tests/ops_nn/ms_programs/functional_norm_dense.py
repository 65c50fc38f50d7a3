import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter, ops

x = Tensor(((np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) - 10) ** 2) / 17)
gamma = Tensor(np.array([1.0, 0.5, 2.0], np.float32))
beta = Tensor(np.array([0.0, 0.1, -0.2], np.float32))
mean = Parameter(Tensor(np.array([0.5, 1.0, 1.5], np.float32)), name="mean")
var = Parameter(Tensor(np.array([1.0, 2.0, 0.5], np.float32)), name="var")
up = Tensor(np.linspace(-1, 1, 24).reshape(2, 3, 2, 2).astype(np.float32))

for training in (True, False):
    y = ops.batch_norm(x, mean, var, gamma, beta, training=training, momentum=0.3)
    print("batch_norm training", training, y.dtype)
    print(y)
    print("running", mean.value(), var.value())
    gx, gw, gb = ms.grad(lambda a, w, b: (ops.batch_norm(a, Tensor(np.zeros(3, np.float32)),
                                                         Tensor(np.ones(3, np.float32)), w, b,
                                                         training) * up).sum(),
                         (0, 1, 2))(x, gamma, beta)
    print("grads", gx, gw, gb)

outs = ops.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.2)(x, gamma, beta, mean, var)
# outputs 1 and 2 are left unwritten by MindSpore's CPU kernel (arbitrary values): not printed
for o in (outs[0], outs[3], outs[4]):
    print("BatchNorm", o)
print("moving", mean.value(), var.value())

x2 = Tensor(np.array([[1.0, 2.0, 4.0, 8.0], [0.5, -0.5, 1.5, 3.0], [2.0, 2.0, 1.0, 0.0]],
                     np.float32))
y, m, v = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
    x2, Tensor(np.array([1.0, 2.0, 0.5, 1.0], np.float32)), Tensor(np.zeros(4, np.float32)))
print("LayerNorm", y, m, v)
g = ms.grad(lambda a: (ops.LayerNorm()(a, Tensor(np.ones(4, np.float32)),
                                       Tensor(np.zeros(4, np.float32)))[0] * a).sum())(x2)
print("LayerNorm grad", g)
print("group_norm", ops.group_norm(Tensor(np.arange(24, dtype=np.float32).reshape(2, 4, 3) ** 0.5),
                                   2, Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)),
                                   Tensor(np.array([0.0, 0.1, 0.2, 0.3], np.float32))))

w = Tensor(np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.6, -0.7, 0.8]], np.float32))
b = Tensor(np.array([0.25, -0.5], np.float32))
print("dense", ops.dense(x2, w, b))
print("dense grads", ms.grad(lambda a, ww, bb: (ops.dense(a, ww, bb) ** 2).sum(),
                             (0, 1, 2))(x2, w, b))
print("bias_add", ops.bias_add(x, beta))
print("bias_add grad", ms.grad(lambda a, bb: (ops.bias_add(a, bb) * up).sum(), (0, 1))(x, beta))
print("BiasAdd NHWC", ops.BiasAdd(data_format="NHWC")(x2, Tensor(np.array([0.25, -0.5, 1.0, 2.0], np.float32))))
