import mindspore as ms
import numpy as np
from mindspore import mint

F = mint.nn.functional
x = ms.Tensor(np.linspace(-2, 2, 24, dtype=np.float32).reshape(2, 3, 2, 2))
v = ms.Tensor(np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3))
print(F.relu(v), F.softmax(v), F.silu(v), F.sigmoid(v), F.tanh(v))
print(F.glu(ms.Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4))))
print(F.binary_cross_entropy(F.sigmoid(v), v * 0 + 0.5))
print(F.binary_cross_entropy_with_logits(v, v * 0 + 1.0))
print(F.linear(v, v, None))
print(F.group_norm(x, 3))
print(F.interpolate(x, scale_factor=2.0).shape, F.dropout(v, training=False))
print(mint.nn.SmoothL1Loss()(v, v * 0))
print(mint.erf(v), mint.erfinv(v / 4), mint.erfc(v))
print(F.prelu(v, ms.Tensor(np.array([0.25], np.float32))), F.flatten(x).shape)
print(F.pixel_shuffle(ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)), 2))
