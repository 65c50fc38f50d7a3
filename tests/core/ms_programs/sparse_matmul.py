"""SparseTensorDenseMatmul, SparseToDense, SparseTensorDenseAdd on MindSpore's CPU: values,
adjoints, gradients with respect to the values and the dense operand, errors; and the
gradient an embedding lookup gives its table in PyNative (dense, not a RowTensor)."""
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


def attempt(fn):
    try:
        print(fn())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).split("\n")[0])


i64 = Tensor([[0, 1], [1, 2], [2, 0]], ms.int64)
v = Tensor([1.5, -2, 3], ms.float32)
d42 = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
m = ops.SparseTensorDenseMatmul()
print(m, m.adjoint_st, m.adjoint_dt)
print(m(i64, v, (3, 4), d42))
print(m(i64.astype(ms.int32), v, (3, 4), d42))
print(m(i64, v, Tensor(np.array([3, 4])), d42))
print(m(i64, Tensor([1, 2, 3], ms.int32), (3, 4), Tensor(np.ones((4, 2), np.int32))))
print(m(i64, Tensor([1.0, 2, 3], ms.float64), (3, 4), Tensor(np.ones((4, 2)))))
w32 = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
print(ms.grad(lambda vals, d: (m(i64, vals, (3, 4), d) * w32).sum(), (0, 1))(v, d42))
m2 = ops.SparseTensorDenseMatmul(adjoint_st=True, adjoint_dt=True)
print(m2)
d23 = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
print(m2(i64, v, (3, 4), d23))
w42 = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
print(ms.grad(lambda vals, d: (m2(i64, vals, (3, 4), d) * w42).sum(), (0, 1))(v, d23))
m3 = ops.SparseTensorDenseMatmul(adjoint_dt=True)
print(m3(i64, v, (3, 4), Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))))
dup = Tensor([[0, 1], [0, 1], [2, 3]], ms.int64)
print(m(dup, v, (3, 4), d42))
attempt(lambda: m(i64, v, (3, 4), Tensor(np.ones((4, 2), np.float64))))
attempt(lambda: m(Tensor([[0, 9]], ms.int64), Tensor([1.0]), (3, 4), d42))
attempt(lambda: m(Tensor([[5, 1]], ms.int64), Tensor([1.0]), (3, 4), d42))

print(ops.SparseToDense()(i64, v, (3, 4)))
d34 = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
print(ops.SparseTensorDenseAdd()(i64, v, Tensor(np.array([3, 4], np.int64)), d34))
print(ms.grad(lambda vals: (ops.SparseToDense()(i64, vals, (3, 4)) * d34).sum())(v))

table = Parameter(Tensor(np.ones((5, 2), np.float32)), name="table")
g = ms.grad(lambda ids: ops.gather(table, ids, 0).sum(), None, [table])(Tensor([1, 1, 3]))
print(type(g[0]).__name__, g[0])

cell = nn.SparseTensorDenseMatmul(adjoint_st=True)
print(cell.adj_st, cell.adj_dt, cell(i64, v, (3, 4), Tensor(np.ones((3, 2), np.float32))))
print(nn.SparseToDense()(ms.COOTensor(i64, v, (3, 4))))
