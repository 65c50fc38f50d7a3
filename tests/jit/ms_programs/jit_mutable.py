# ms.jit with ms.mutable scalar arguments (new values, no new graph in MindSpore; plan inputs in
# cellgrad) and a helper reading a module global that changes between calls.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn

SHIFT = 0.5


def shifted(x):
    return x + SHIFT


@ms.jit
def scale(x, a, k):
    return shifted(x * a) - k


x = Tensor(np.array([[1.0, -2.0, 3.5], [0.25, 4.0, -1.5]], np.float32))
for a, k in [(2.0, 1), (0.5, 3), (-1.25, 0)]:
    out = scale(x, ms.mutable(a), ms.mutable(k))
    print(out.dtype, out.shape)
    print(out)

xi = Tensor(np.array([1, 2, 3], np.int32))
for a in (2.5, 3):
    out = scale(xi, ms.mutable(a), ms.mutable(1))
    print(out.dtype, out)


class Dense2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x, s):
        return self.fc(x) * s


net = Dense2()
jnet = ms.jit(net.construct)
for s in (1.0, -0.5, 4.0):
    print(jnet(x, ms.mutable(s)))

m = ms.mutable(2.5)
print(type(m).__name__, m, m + 1, ms.mutable(True).__class__.__name__)
