import mindspore as ms
import numpy as np

c = ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 4))
print(c.fold(ms.Tensor([3, 3], ms.int32), [2, 2]))
print(c.fold(ms.Tensor([4, 4], ms.int32), [2, 2], 1, 0, 2))
print(c.fold(ms.Tensor([3, 3], ms.int32), kernel_size=2, stride=1, padding=0, dilation=1))
c4 = c.reshape(1, 1, 4, 4)
print(c4.col2im(ms.Tensor([3, 3], ms.int32), [2, 2], [1, 1], [0, 0], [1, 1]))
print(c4.col2im(ms.Tensor([2, 2], ms.int32), [2, 2], [1, 1], [1, 1], [2, 2]))
print(ms.grad(lambda t: (t.fold(ms.Tensor([3, 3], ms.int32), [2, 2]) ** 2).sum())(c))
