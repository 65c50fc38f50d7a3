import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, ops

x = Tensor(np.array([[1., 3., 6.], [2., 7., 1.]], np.float32))
print(ops.diff(x), ops.diff(x, 1, 0), x.diff())
print(ops.diff(Tensor([1, 4, 9], ms.int32)), ops.diff(Tensor([True, False, True])))
print(ops.diff_ext(x, 2, 1))
print(ops.logspace(0.1, 1.0, 5))
print(ops.LogSpace(steps=4, base=2)(Tensor(1., ms.float32), Tensor(4., ms.float32)))
p = Parameter(Tensor(np.array([5., 6.], np.float32)), name="p")
print(ops.assign_sub(p, Tensor(np.array([1., 2.], np.float32))), p.asnumpy())
xx = Tensor(np.array([[1, 8, 5, 2, 7], [4, 9, 1, 3, 5]], np.float32))
print(ops.intopk(xx, Tensor(np.array([1, 3], np.int32)), 3))
y = Tensor(np.array([[1., -0.3, 6.], [0.2, -7., 1.]], np.float32))
print(y.hardshrink(0.5), y.soft_shrink(0.5))
print(ops.DataFormatVecPermute()(Tensor(np.array([1, 2, 3, 4], np.int32))))
print(ops.coalesce(Tensor(np.array([[0, 0, 1], [1, 1, 2]], np.int64)),
                   Tensor(np.array([1, 5, 4], np.float32)), Tensor(np.array([3, 3], np.int64))))
print(ops.WhileLoop()(lambda v: v < 10, lambda v: v + 3, 1),
      ops.ForiLoop()(0, 4, lambda i, v: v + i, Tensor(1.)),
      ops.Scan()(lambda c, v: (c + v, c * v), 0, [1, 2, 3]))
print(ops.tuple_setitem((1, 2, 3), 1, 9), ops.list_setitem([1, 2, 3], 1, 9),
      ops.tuple_reversed((1, 2, 3)), ops.reduced_shape((2, 3, 4), (1,)),
      ops.make_slice(1, 5, 2), ops.typeof(x), ops.typeof(1), ops.switch(False, 1, 2))
print(ops.broadcast_gradient_args((2, 1, 3), (4, 3)))
i64 = np.int64
print(ops.EditDistance()(Tensor(np.array([[0, 0, 0], [1, 0, 1], [1, 1, 1]], i64)),
                         Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.array([2, 2, 2], i64)),
                         Tensor(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1]], i64)),
                         Tensor(np.array([1, 3, 2, 1], np.float32)),
                         Tensor(np.array([2, 2, 2], i64))))
for bad in [lambda: ops.diff(x, 2), lambda: ops.diff(x, 1.5),
            lambda: ops.logspace(0, 4, 5, base=2, dtype=ms.int32),
            lambda: ops.assign_sub(p, 1), lambda: ops.InTopK(1.5),
            lambda: ops.gumbel_softmax(x, -1.0)]:
    try:
        bad()
    except (TypeError, ValueError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
