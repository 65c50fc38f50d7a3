import numpy as np

import mindspore as ms
from mindspore import mint

x = ms.Tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32))
i = ms.Tensor(np.array([[1, 5, 3], [4, 2, 6]], np.int32))
print(mint.max(x))
values, indices = mint.max(x, dim=1)
print(values, indices, indices.dtype)
print(mint.max(x, 0, True))
print(mint.min(x, 1))
print(mint.max(x, ms.Tensor(np.full((2, 3), 3.0, np.float32))))
print(mint.ones((2, 3)), mint.ones(2, dtype=ms.int32), mint.zeros((2,)).dtype)
print(mint.broadcast_to(x[0], (2, 3)))
print(mint.sum(i, dim=1, keepdim=True), mint.sum(i, dim=1).dtype)
print(mint.mean(i).dtype)
print(mint.unique_consecutive(ms.Tensor(np.array([1, 1, 2, 2, 3, 1], np.int64)), True, True))
print(mint.unique_consecutive(ms.Tensor(np.array([1, 1, 2], np.int64))))
print(mint.where(x > 2, x, 0.0))
print(mint.clamp(x, 2, 4))
print(mint.div(i, 2), mint.div(x, 2, rounding_mode="floor"))
print(mint.flatten(x), mint.squeeze(x[None], 0).shape)
print(mint.mul(i, 2.5))
print(mint.gather(x, 1, ms.Tensor(np.array([[0, 0], [1, 0]], np.int64))))
print(mint.transpose(x, 0, 1), mint.permute(x, (1, 0)).shape, mint.tile(x, (2,)).shape)
print(mint.all(x > 0, 1), mint.any(x > 5))
print(mint.isclose(x, x + 1e-6))
