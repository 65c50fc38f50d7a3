import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

x = Tensor(np.array([[-3.0, -0.4, 0.3, 2.5], [1.1, -1.9, 0.05, -0.7]], np.float32))
w = Tensor(np.array([[0.5, -1.0, 2.0, 1.5], [-0.5, 1.0, 0.25, -2.0]], np.float32))
fns = [
    ("selu", ops.selu),
    ("celu", lambda t: ops.celu(t, 2.0)),
    ("mish", ops.mish),
    ("softsign", ops.softsign),
    ("hardtanh", lambda t: ops.hardtanh(t, -1.0, 2.0)),
    ("logsigmoid", ops.logsigmoid),
    ("softmin", ops.softmin),
    ("hardshrink", lambda t: ops.hardshrink(t, 0.35)),
    ("softshrink", lambda t: ops.softshrink(t, 0.35)),
    ("tanhshrink", ops.tanhshrink),
    ("threshold", lambda t: ops.threshold(t, 0.5, 9.0)),
    ("fast_gelu", ops.fast_gelu),
    ("prelu", lambda t: ops.prelu(t, Tensor(np.array([0.25, 0.5, 0.1, 2.0], np.float32)))),
    ("Mish", ops.Mish()),
    ("FastGeLU", ops.FastGeLU()),
    ("Softsign", ops.Softsign()),
]
for name, fn in fns:
    print(name, fn(x))
    if name != "selu":  # MindSpore 2.10's CPU SeLU gradient is wrong (negative for x < 0)
        print("grad", ms.grad(lambda t: (fn(t) * w).sum())(x))
