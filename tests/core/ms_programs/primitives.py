import numpy as np
import mindspore as ms
from mindspore import Tensor, ops, Parameter
from mindspore.ops import Primitive, PrimitiveWithInfer, prim_attr_register


def show(f):
    try:
        print(f())
    except Exception as e:
        print("error", type(e).__name__)


# the base and user-defined primitives
class MyOp(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, k=2, flag=False):
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def __call__(self, x):
        return x * self.k


m = MyOp(3)
print(repr(m), m.name, m.k, m.attrs, m.init_attrs)
print(m(Tensor([1.0, 2.0])))
m.add_prim_attr("foo", 5)
print(repr(m), m.foo)
m.del_prim_attr("foo")
print(repr(m))
add = Primitive("Add")
print(repr(add), add(Tensor([1.0]), Tensor([2.0])))
print(repr(ops.MatMul(transpose_b=True)), repr(ops.StridedSlice(1, 2)), repr(ops.Print()))
print(repr(ops.ArgMaxWithValue()), repr(ops.TensorAdd()), repr(ops.CumSum()),
      repr(ops.ScatterAdd()), repr(ops.RandomChoiceWithMask()), repr(ops.Unstack()))


@ms.ops.constexpr
def plus_one(n):
    return n + 1


print(plus_one(41), plus_one.name, repr(plus_one))

x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
c = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
print(ops.DType()(x), ops.DType()(Tensor([1])), ops.Size()(x))
print(ops.ArgMaxWithValue()(x), ops.ArgMaxWithValue(axis=1, keep_dims=True)(x))
print(ops.ArgMinWithValue(axis=-1)(x))
print(ops.GatherNd()(x, Tensor(np.array([[0, 1], [1, 2]], np.int32))))
print(ops.GatherD()(x, 1, Tensor(np.zeros((2, 1, 4), np.int32))))
print(ops.Reciprocal()(Tensor([2.0, 4.0])), ops.Reciprocal()(Tensor([2, 4])))
print(ops.StridedSlice()(x, (0, 1, 0), (2, 3, 4), (1, 1, 2)))
print(ops.StridedSlice(begin_mask=1, end_mask=2)(x, (1, 1, 0), (2, 2, 4), (1, 1, 1)))
print(ops.StridedSlice(shrink_axis_mask=3)(x, (1, 2, 0), (2, 3, 4), (1, 1, 1)))
print(ops.StridedSlice(new_axis_mask=2)(x, (0, 0, 1), (1, 1, 2), (1, 1, 1)).shape)
print(ops.StridedSlice(ellipsis_mask=1)(x, (0, 1), (1, 2), (1, 1)).shape)
show(lambda: ops.StridedSlice(shrink_axis_mask=1)(c, (5, 0), (6, 1), (1, 1)))
show(lambda: ops.StridedSlice()(c, (0, 0), (1, 1), (1, 0)))
print(ops.Slice()(x, (0, 1, 1), (1, 2, -1)))
print(ops.Identity()(c), ops.Eye()(2, 3, ms.int32), ops.ReverseV2(axis=(0, -1))(x)[0, 0])
print(ops.Round()(Tensor([0.5, 1.5, -2.5, 2.4])))
print(ops.ScatterNd()(Tensor([[1], [3], [1]], ms.int32), Tensor([1.0, 2.0, 3.0]), (5,)))
p = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="p")
print(ops.ScatterNdUpdate()(p, Tensor([[0], [2]], ms.int32), Tensor(np.ones((2, 2), np.float32))))
print(p.asnumpy())
q = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="q")
print(ops.ScatterAdd()(q, Tensor([0, 0, 2], ms.int32), Tensor(np.ones((3, 2), np.float32))))
v = Parameter(Tensor(np.ones(2, np.float32)), name="v")
print(ops.AssignAdd()(v, Tensor([1.0, 2.0])), v.asnumpy())
print(ops.AddN()([Tensor([1.0]), Tensor([2.0]), Tensor([3.0])]), ops.TensorAdd()(c, c))
print(ops.CumSum()(c, 1), ops.CumSum(exclusive=True)(c, 1), ops.CumSum(reverse=True)(c, 1))
print(ops.CumSum(True, True)(c, 0))
print(ops.Unstack(axis=1)(c))
print(ops.Meshgrid()((Tensor([1, 2, 3]), Tensor([4, 5]))))
print(ops.Meshgrid(indexing="ij")((Tensor([1.0, 2.0]), Tensor([4.0, 5.0, 6.0])))[1])
print(ops.ScalarToTensor()(3), ops.ScalarToTensor()(3.5, ms.int32), ops.ScalarCast()(3.7, ms.int64))
print(ops.TupleToArray()((1, 2, 3)), ops.TupleToArray()((1.0, 2.5)))
print(ops.ReverseSequence(seq_dim=1)(Tensor(np.arange(9, dtype=np.float32).reshape(3, 3)),
                                     Tensor([1, 2, 3])))
print(ops.LinSpace()(Tensor(1.0), Tensor(10.0), 5))
print(ops.Unique()(Tensor([3, 1, 3, 2, 1], ms.int32)))
print(ops.Erf()(Tensor([-1.0, 0.0, 0.5, 2.0])), ops.ACos()(Tensor([0.5, -1.0])))
print(ops.Mod()(Tensor([-7.0, 7.0, -7.5]), Tensor([3.0, -3.0, 2.0])))
print(ops.Mod()(Tensor([-7, 7], ms.int32), Tensor([3, -3], ms.int32)))
print(ops.Depend()(c, x).shape, ops.Partial()(ops.add, c)(c))
index, mask = ops.RandomChoiceWithMask(count=4)(Tensor(np.array([[True, False], [True, True]])))
print(index.shape, index.dtype, mask)
ops.Print()("x:", c, 3, 2.5, True, (1, 2), Tensor(3, ms.int32), Parameter(Tensor([1.0]), name="w"))
for bad in (lambda: ops.GatherNd()(c, Tensor([[2, 0]])), lambda: ops.Unique()(c),
            lambda: ops.AddN()([Tensor([1.0]), Tensor([2])]), lambda: ops.Size()(3),
            lambda: ops.ScalarCast()(3.7, ms.int32), lambda: ops.TupleToArray()([1, 2]),
            lambda: ops.ReverseV2(axis=1), lambda: ops.CumSum()(Tensor([True]), 0),
            lambda: ops.RandomChoiceWithMask(count=0), lambda: ops.Erf()(Tensor([1, 2]))):
    show(bad)

# gradients
w = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32))
print(ms.grad(lambda a, b: ops.Mod()(a, b).sum(), (0, 1))(Tensor([-7.5, 7.0, 5.5]),
                                                        Tensor([2.0, -3.0, 2.0])))
print(ms.grad(lambda a: (ops.CumSum(True, True)(a, 1) * w).sum())(c))
print(ms.grad(lambda a: (ops.ArgMaxWithValue(axis=1)(a)[1] * Tensor([1.0, 2.0])).sum())(c))
print(ms.grad(lambda a: (ops.ScatterNd()(Tensor([[1], [0], [1]], ms.int32), a, (3, 3))
                         * Tensor(np.arange(9, dtype=np.float32).reshape(3, 3))).sum())(
    Tensor(np.ones((3, 3), np.float32))))
print(ms.grad(lambda a: (ops.GatherNd()(a, Tensor([[0, 1], [1, 2], [0, 1]], ms.int32))
                         * Tensor([1.0, 2.0, 3.0])).sum())(c))
print(ms.grad(lambda a: (ops.StridedSlice(0, 0, 0, 0, 1)(a, (1, 0), (2, 3), (1, 2))
                         * Tensor([1.0, 2.0])).sum())(c))
print(ms.grad(lambda a: (ops.ReverseSequence(seq_dim=1)(a, Tensor([2, 3], ms.int32)) * w).sum())(c))
print(ms.grad(lambda a: (ops.Meshgrid()((a, Tensor([1.0, 2.0]))))[0].sum())(Tensor([1.0, 2.0])))
print(ms.grad(lambda a: ops.AddN()([a, a, a]).sum())(c), ms.grad(lambda a: ops.Reciprocal()(a).sum())(c))
print(ms.grad(lambda a: ops.ACos()(a * 0.1).sum())(c), ms.grad(lambda a: ops.Erf()(a).sum())(c))
print(ms.grad(lambda a: (ops.Slice()(a, (0, 1), (2, 2)) * w[:, :2]).sum())(c))
print(ms.grad(lambda a: ops.GatherD()(a, 1, Tensor([[0, 0], [2, 1]], ms.int32)).sum())(c))
print(ms.grad(lambda a: ops.Unstack(axis=1)(a)[2].sum())(c), ms.grad(lambda a: ops.Round()(a).sum())(c))
