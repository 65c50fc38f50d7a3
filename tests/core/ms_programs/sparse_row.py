"""RowTensor: construction, the copy form, properties, repr, errors."""
import mindspore as ms
import numpy as np
from mindspore import RowTensor, Tensor
from mindspore.common.sparse_tensor import RowTensorInner

x = RowTensor(Tensor([0, 2]), Tensor([[1, 2], [3, 4]], ms.float32), (3, 2))
print(repr(x))
print(x)
print(x.indices, x.values, x.dense_shape)
print(x.indices.dtype, x.values.dtype, x._dtype, type(x.dense_shape).__name__)
print(RowTensor(row_tensor=x))
print(RowTensorInner(Tensor([1], ms.int32), Tensor([[5, 6]], ms.int32), (4, 2)))
print(RowTensor(Tensor([0, 2]), Tensor([[[1, 2]], [[3, 4]]], ms.float64), (5, 1, 2)))
print(RowTensor(Tensor([0, 2]), Tensor([1, 2], ms.float16), (3,)))
print(RowTensor(Tensor([0, 1]), Tensor(np.ones((2, 8), bool)), (3, 8)))
print(RowTensor(Tensor(np.arange(7)), Tensor(np.arange(28, dtype=np.int32).reshape(7, 4)),
                (9, 4)))
print(RowTensor(Tensor(np.arange(10)), Tensor(np.ones((10, 3), np.float32)), (12, 3)))
print(RowTensor(Tensor(np.arange(20)), Tensor(np.arange(20, dtype=np.float32) - 5), (21,)))
print(RowTensor(Tensor(np.arange(29)), Tensor(np.arange(29, dtype=np.int64) - 3), (30,)))
print(RowTensor(Tensor(np.zeros(0, np.int64)), Tensor(np.zeros((0, 3), np.float32)), (1, 3)))
v = Tensor(np.array([np.nan, np.inf, -np.inf, 1e-30, 123456789.0], np.float32))
print(RowTensor(Tensor(np.arange(5)), v, (6,)))
for bad in ({"row_tensor": 5}, {"indices": Tensor([0]), "row_tensor": x}):
    try:
        RowTensor(**bad)
    except TypeError as e:
        print("TypeError", e)
# the rows-gradient scaling mindcv and model_zoo write for RowTensor gradients
y = RowTensorInner(x.indices, x.values * 0.5, x.dense_shape)
print(y.values, y.dense_shape)
