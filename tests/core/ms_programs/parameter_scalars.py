# Parameter from Python numbers and lists (MindSpore 2.10): ints are Int32, floats Float32,
# while Tensor keeps Int64 for ints. (MindSpore refuses Parameter(True); cellgrad gives a Bool.)
import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor

for value in [3, -7, 2.0, 0.5, np.float64(2.5), [1, 2], [1.0, 2.0], [[1, 2], [3, 4]]]:
    p = Parameter(value, name="p")
    print(type(value).__name__, p.dtype, p.shape, p.asnumpy().tolist())
for value in [3, 2.0, True, [1, 2]]:
    print("Tensor", repr(value), Tensor(value).dtype)
p = Parameter(3, name="count")
p.set_data(Tensor(5, ms.int64))
print(p, p.asnumpy())
w = Parameter(2.0, name="w")
print(ms.grad(lambda x: x * w * w, grad_position=None, weights=[w])(Tensor(3.0)))
