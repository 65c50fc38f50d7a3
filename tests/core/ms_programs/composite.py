import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.ops import composite as C
from mindspore.ops import functional as F


def show(label, f, message=True):
    try:
        print(label, f())
    except Exception as e:  # the class and (where cellgrad words it alike) the message
        print(label, type(e).__name__, str(e).split("\n")[0][:60] if message else "")


x = Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
add = C.MultitypeFuncGraph("add")


@add.register("Number", "Number")
def _add_scalar(a, b):
    return a + b


@add.register("Tensor", "Tensor")
def _add_tensor(a, b):
    return ops.add(a, b)


@add.register("Tensor", "Number")
def _scale(a, b):
    return a * b


@add.register("Tuple", "Bool")
def _first(a, b):
    return a[0] if b else a[-1]


print(add(1, 2), add(1.5, 2), add(True, 2), add(np.int32(3), 4))
print(add(x, x), add(x, 2), add(Parameter(x, name="p"), 0.5))
print(add((1, 2), True), add((1, 2), False))
show("no match", lambda: add("a", "b"))
show("arity", lambda: add(1))
show("ndarray", lambda: add(np.ones(2), 1))
show("dict", lambda: add({"a": 1}, 1))

class Twice(nn.Cell):
    def construct(self, v):
        return v * 2


kinds = C.MultitypeFuncGraph("kinds")
for name in ("Tensor", "Int", "Float", "Bool", "String", "None", "List", "Function", "TypeType"):
    kinds.register(name)(lambda v, name=name: name)
for v in (x, 3, 2.5, np.float32(1), False, "s", None, [1], (lambda: 0), Twice(), ms.float32, int):
    print(kinds(v), end=" ")
print()

single = C.MultitypeFuncGraph("single")
single.register("Tensor")(lambda v: ("only", v))
print(single("anything"))

square = C.MultitypeFuncGraph("square")


@square.register("Tensor")
def _square_tensor(v):
    return ops.square(v)


@square.register("Number")
def _square_number(v):
    return v * v


nested = ((Tensor(1.0), Tensor(2.0)), [3, (Tensor(4.0),)])
print(C.HyperMap()(square, nested))
print(C.HyperMap(square)(nested), C.HyperMap(square, False)([1, 2]))
print(C.HyperMap()(lambda a, b: a + b, (1, [2, 3]), (10, [20, 30])), C.HyperMap()(lambda a: a * 2, 5))
print(C.HyperMap()(F.partial(ops.mul, 2.0), (x, (x,))))
print(C.HyperMap()(C.HyperMap(square), (1, 2)), C.HyperMap()(lambda a, b: a + b, (1, 2, 3), (10, 20)))
show("hypermap lambda", lambda: C.HyperMap(lambda a: a), False)
print(C.Map()(square, (1, 2, x)), C.Map(square)([3, 4]), C.Map()(lambda a, b: a + b, [1, 2], (3, 4)))
show("map lambda", lambda: C.Map(lambda a: a), False)
print(ops.HyperMap is C.HyperMap, ops.MultitypeFuncGraph is C.MultitypeFuncGraph, C.GradOperation is ops.GradOperation)

print(C.ones_like(x), C.ones_like((x, Tensor([1, 2]))), C.ones_like([x, (Tensor([True]),)]))
print(C.ones_like(3), C.ones_like(True), C.ones_like(None), C.ones_like((2, None)))
show("ones_like float", lambda: C.ones_like(3.5))
show("ones_like str", lambda: C.ones_like("a"))
print(C.zeros_like(x), C.zeros_like(3), C.zeros_like(2.5), C.zeros_like(True), C.zeros_like("a"))
print(C.zeros_like((x, 1)), C.zeros_like(None), C.zeros_like(ms.int32))
show("zeros_like list", lambda: C.zeros_like([x]))


def f(a):
    return a
print(C.add_flags(f, a=True, b=1) is f, f._func_graph_flags, C.add_flags(c=2)(f) is f, f._func_graph_flags)

print(C.matmul(x, x.T), C.matmul(x, x.T, ms.float16), C.matmul(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])))
print(C.mm(x, x.T), C.dot(x, x.T), C.vecdot(x, x), C.vecdot(x, x, axis=0))
print(C.repeat_elements(x, 2, 1), C.sequence_mask(Tensor([1, 3, 2]), 4), C.count_nonzero(x))
print(C.cummin(Tensor([[3.0, 1, 2], [0, 5, -1]]), 1), C.tensor_dot(x, x.T, 1))
print(C.laplace((2, 3), Tensor(1.0), Tensor(2.0), seed=5).shape, C.uniform((2,), Tensor(0.0), Tensor(1.0)).dtype)

grad_all = C.GradOperation(get_all=True)
print(grad_all(lambda a, b: (a * b).sum())(x, x + 1))
