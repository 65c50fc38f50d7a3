# Gradients exactly at the kinks of the piecewise activations.
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

x = Tensor(np.array([-2.0, -1.0, 0.0, 1.0, 3.0, 6.0, 7.0], np.float32))
for name, fn in [("hardtanh", lambda t: ops.hardtanh(t)), ("hardtanh2", lambda t: ops.hardtanh(t, -2.0, 3.0)),
                 ("relu6", ops.relu6), ("leaky_relu", lambda t: ops.leaky_relu(t, 0.1)),
                 ("relu", ops.relu), ("Hardtanh", nn.Hardtanh()), ("ReLU6", nn.ReLU6()),
                 ("LeakyReLU", nn.LeakyReLU(0.3))]:
    print(name, ms.grad(lambda t: fn(t).sum())(x))
