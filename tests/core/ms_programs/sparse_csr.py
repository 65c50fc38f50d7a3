"""CSRTensor on MindSpore's CPU: construction checks, properties, repr, conversions,
arithmetic, the csr_* functions MindSpore's CPU runs without AKG, gradients through values."""
import mindspore as ms
import numpy as np
from mindspore import CSRTensor, Tensor, ops


def attempt(fn):
    try:
        print(fn())
    except (TypeError, ValueError, AttributeError) as e:
        # the first line (MindSpore appends its C++ stack), classes without their package
        text = str(e).split("\n")[0].replace("mindspore.", "").replace("cellgrad.", "")
        print(type(e).__name__, text)


indptr = Tensor([0, 2, 2, 3], ms.int32)
cols = Tensor([1, 3, 0], ms.int32)
v = Tensor([1.0, 2, 3], ms.float32)
x = CSRTensor(indptr, cols, v, (3, 4))
print(repr(x))
print(x.indptr, x.indices, x.values, x.shape, x.dtype, x.ndim, x.size, x.itemsize)
print(x.to_tuple())
print(x.to_dense())
print(ops.csr_to_dense(x))
print(ops.csr_to_coo(x))
print(x.astype(ms.float64), x.abs(), -x)
print(CSRTensor(csr_tensor=x))
print(CSRTensor(Tensor([0, 1, 2], ms.int64), Tensor([0, 1], ms.int16),
                Tensor([[1, 2], [3, 4]], ms.int32), (2, 4, 2)))
print(x * 2.0)
print(x * Tensor(3.0))
y = CSRTensor(Tensor([0, 1, 2, 2], ms.int32), Tensor([1, 2], ms.int32), Tensor([10.0, 20]),
              (3, 4))
print(x + y)
print(x - y)
print(x.add(y, Tensor(2.0), Tensor(-1.0)))
print(ops.csr_add(x, y, Tensor(0.5), Tensor(1.0)))
# MindSpore's CPU kernel writes the softmax into its input's values: a tensor of its own
print(ops.csr_softmax(CSRTensor(indptr, cols, Tensor([1.0, 2, 3]), (3, 4)), ms.float32))
print(ops.dense_to_sparse_csr(Tensor([[0, 1.0, 0], [2, 0, -3]])))
for name in ("abs", "neg", "exp", "square", "relu", "sigmoid", "sin", "tanh", "floor",
             "isnan", "log1p", "inv"):
    print(name, getattr(ops, "csr_" + name)(x).values)
print(ops.csr_tensor_get_indptr(x), ops.csr_tensor_get_values(x),
      ops.csr_tensor_get_dense_shape(x))
attempt(lambda: x + Tensor(np.ones((3, 4), np.float32)))
attempt(lambda: x + CSRTensor(indptr, cols, v, (3, 5)))
attempt(lambda: CSRTensor([0, 1], cols, v, (3, 4)))
attempt(lambda: CSRTensor(indptr, cols, v, [3, 4]))
attempt(lambda: CSRTensor(indptr, cols, v, (3, -4)))
attempt(lambda: CSRTensor(indptr, cols, v, (3, 4.0)))
attempt(lambda: CSRTensor(indptr, cols, v, (1, 2)))
attempt(lambda: CSRTensor(indptr, cols, v, (4, 4)))
attempt(lambda: CSRTensor(indptr, cols[:2], v, (3, 4)))
attempt(lambda: CSRTensor(indptr, cols, v, (3, 4, 2)))
attempt(lambda: CSRTensor(indptr, Tensor([[1, 3, 0]], ms.int32), v, (3, 4)))
attempt(lambda: CSRTensor(indptr.astype(ms.float32), cols, v, (3, 4)))
attempt(lambda: CSRTensor(indptr, cols.astype(ms.uint8), v, (3, 4)))
attempt(lambda: CSRTensor(csr_tensor=v))
attempt(lambda: CSRTensor(indptr, csr_tensor=x))
attempt(lambda: ops.csr_to_dense(v))
attempt(lambda: ops.dense_to_sparse_csr(np.ones((2, 2))))

w = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(ms.grad(lambda vals: (CSRTensor(indptr, cols, vals, (3, 4)).to_dense() * w).sum())(v))
print(ms.grad(lambda d: ops.dense_to_sparse_csr(d).values.sum() * 2)(
    Tensor([[0, 1.0, 0], [2, 0, -3]])))
print(Tensor([[0, 1.0, 0], [2, 0, -3]]).to_coo())
print(Tensor([[0, 1.0, 0], [2, 0, -3]]).to_csr())
