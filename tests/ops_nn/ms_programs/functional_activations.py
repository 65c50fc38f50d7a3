import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

x = Tensor(np.array([[-3.5, -1.0, -0.25, 0.3], [0.75, 2.0, 4.5, 7.0]], np.float32))
w = Tensor(np.array([[0.5, -1.0, 2.0, 1.5], [-0.5, 1.0, 0.25, -2.0]], np.float32))

fns = [
    ("relu", ops.relu),
    ("relu6", ops.relu6),
    ("leaky_relu", lambda t: ops.leaky_relu(t, 0.1)),
    ("elu", ops.elu),
    ("gelu", ops.gelu),
    ("gelu_tanh", lambda t: ops.gelu(t, approximate="tanh")),
    ("silu", ops.silu),
    ("softplus", ops.softplus),
    ("softplus_beta", lambda t: ops.softplus(t, beta=2, threshold=5)),
    ("hardswish", ops.hardswish),
    ("hardsigmoid", ops.hardsigmoid),
    ("softmax", ops.softmax),
    ("softmax_axis0", lambda t: ops.softmax(t, 0)),
    ("log_softmax", ops.log_softmax),
    ("ReLU", ops.ReLU()),
    ("GeLU", ops.GeLU()),
    ("Softmax", ops.Softmax(axis=0)),
    ("LogSoftmax", ops.LogSoftmax()),
    ("HSwish", ops.HSwish()),
    ("Softplus", ops.Softplus()),
]
for name, fn in fns:
    out = fn(x)
    g = ms.grad(lambda t: (fn(t) * w).sum())(x)
    print(name, out.dtype, out.shape)
    print(out)
    print("grad", g)
