"""Tensor.max / Tensor.min: the (dim, keepdim) overload gives (values, indices)."""
import numpy as np

import mindspore as ms

x = ms.Tensor(np.array([[1., 5., 2.], [7., 0., 3.]], np.float32))
print(x.max(1))
print(x.max(axis=1))
print(x.max())
print(x.max(1, True))
print(x.min(0))
print(x.min(axis=0))
print(x.max(dim=1))
print(x.min(dim=0, keepdim=True))
print(x.max(1, keepdims=True))
print(x.max(axis=(0, 1)))
print(x.max(axis=0, return_indices=True))
print(ms.grad(lambda a: a.max(1)[0].sum())(x))
