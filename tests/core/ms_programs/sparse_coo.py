"""COOTensor on MindSpore's CPU: construction checks, properties, repr, conversions,
arithmetic, the coo_* functions and gradients through values."""
import mindspore as ms
import numpy as np
from mindspore import COOTensor, Tensor, ops


def attempt(fn):
    try:
        print(fn())
    except (TypeError, ValueError, AttributeError) as e:
        # the first line (MindSpore appends its C++ stack), classes without their package
        text = str(e).split("\n")[0].replace("mindspore.", "").replace("cellgrad.", "")
        print(type(e).__name__, text)


i32 = Tensor([[0, 1], [1, 2]], ms.int32)
i64 = Tensor([[0, 1], [1, 2], [2, 0]], ms.int64)
v = Tensor([1.5, -2], ms.float32)
x = COOTensor(i32, v, (3, 4))
print(repr(x))
print(x.indices, x.values, x.shape, x.dtype, x.ndim, x.size, x.itemsize)
print(x.to_tuple())
print(x.to_dense())
print(x.astype(ms.float64))
print(x.abs(), -x)
print(COOTensor(coo_tensor=x))
print(COOTensor(Tensor([[0, 1], [1, 2]], ms.int16), v, (3, 4)).itemsize)
print(COOTensor(Tensor(np.zeros((0, 2), np.int64)), Tensor(np.zeros(0, np.float32)), (3, 4)))
d34 = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(x + d34)
print(x - d34)
print(x * d34)
print(x / d34)
attempt(lambda: x * 2)
attempt(lambda: x * x)
attempt(lambda: x + Tensor(np.ones((3, 5), np.float32)))
attempt(lambda: x + x)
attempt(lambda: x.coalesce())
attempt(lambda: COOTensor(Tensor([[0, 1], [1, 2]], ms.float32), v, (3, 4)))
attempt(lambda: COOTensor(Tensor([[0, 1], [1, 2]], ms.uint8), v, (3, 4)))
attempt(lambda: COOTensor(i32, v, (3, 4, 5)))
attempt(lambda: COOTensor(i32, Tensor([1.0]), (3, 4)))
attempt(lambda: COOTensor(i32, v, [3, 4]))
attempt(lambda: COOTensor(i32, v))
attempt(lambda: COOTensor(i32[0], v, (3, 4)))
attempt(lambda: COOTensor([[0, 1]], v, (3, 4)))
attempt(lambda: COOTensor(i32, v, (3, -4)))
attempt(lambda: COOTensor(i32, v, (3, 4.0)))
attempt(lambda: COOTensor(i32, Tensor([[1.0], [2.0]]), (3, 4)))
attempt(lambda: COOTensor(i32, v, (1, 1)))
attempt(lambda: COOTensor(coo_tensor=v))
attempt(lambda: COOTensor(i32, coo_tensor=x))
attempt(lambda: COOTensor(i64, Tensor([1.0, 2, 3]), (3, 4)).to_csr())

a = COOTensor(i64, Tensor([1.5, -2, 0.5], ms.float32), (3, 4))
b = COOTensor(Tensor([[0, 0], [0, 1], [1, 2], [2, 3]], ms.int64),
              Tensor([2.0, 4, 2.25, -0.25], ms.float32), (3, 4))
for t in (0.0, 0.3):
    print(ops.coo_add(a, b, Tensor(t, ms.float32)))
print(a + b)
print(a - b)
print(a.add(b, Tensor(1.0, ms.float32)))
unsorted = COOTensor(Tensor([[1, 2], [0, 1], [2, 0]], ms.int64), a.values, (3, 4))
print(ops.coo_add(unsorted, b, Tensor(0.0, ms.float32)))
dup = COOTensor(Tensor([[2, 1], [0, 3], [0, 1], [2, 1]], ms.int64),
                Tensor([1.0, 2.0, 3, 4]), (3, 4))
print(dup.coalesce())
print(dup.to_dense())
print(ops.coo_concat((a, b), 0))
print(ops.coo_concat((a, b), 1))
for name in ("abs", "neg", "exp", "sqrt", "square", "relu", "relu6", "sigmoid", "softsign",
             "sin", "cos", "tanh", "floor", "ceil", "round", "isnan", "isinf", "isfinite",
             "log1p", "expm1", "atan", "sinh", "cosh", "inv", "tan", "asinh"):
    print(name, getattr(ops, "coo_" + name)(a).values)
pos = COOTensor(i64, Tensor([0.5, 0.25, 0.75], ms.float32), (3, 4))
for name in ("log", "acos", "asin", "atanh"):
    print(name, getattr(ops, "coo_" + name)(pos).values)
print(ops.coo_acosh(COOTensor(i64, Tensor([1.5, 2.0, 3.0], ms.float32), (3, 4))).values)
print(ops.coo_tensor_get_values(a), ops.coo_tensor_get_indices(a))
print(ops.dense_to_sparse_coo(Tensor([[0, 1.0, 0], [2, 0, -3]])))
attempt(lambda: ops.dense_to_sparse_coo(np.ones((2, 2))))

w = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(ms.grad(lambda vals: (COOTensor(i64, vals, (3, 4)).to_dense() * w).sum())(a.values))
print(ms.grad(lambda vals: (COOTensor(i64, vals, (3, 4)) * w).values.sum())(a.values))


def added(v1, v2):
    out = ops.coo_add(COOTensor(a.indices, v1, (3, 4)), COOTensor(b.indices, v2, (3, 4)),
                      Tensor(0.0, ms.float32)).values
    return (out * Tensor(np.arange(1, 1 + out.shape[0], dtype=np.float32))).sum()


print(ms.grad(added, (0, 1))(a.values, b.values))
print(ms.grad(lambda d: ops.dense_to_sparse_coo(d).values.sum() * 2)(
    Tensor([[0, 1.0, 0], [2, 0, -3]])))
