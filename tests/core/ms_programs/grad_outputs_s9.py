# grad / value_and_grad / GradOperation of functions whose outputs or inputs are not all
# Tensors (MindSpore 2.10 PyNative: Python scalars, strings and None are constants; lists,
# tuples and dict values are summed; non-Tensor inputs have no place in the result).
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn
from mindspore.ops import GradOperation

x = Tensor(np.array([1.0, 2.0], np.float32))
xd = Tensor(np.array([1.0, 2.0], np.float64))
k = Tensor(4)


class Const(nn.Cell):
    def construct(self, a, b):
        return 3


class Add(nn.Cell):
    def construct(self, a, b):
        return a + b


class Mixed(nn.Cell):
    def construct(self, a, b, c):
        return a * c + b


class Used(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p1 = Parameter(Tensor(2.0, ms.float32), name="p1")
        self.p2 = Parameter(Tensor(3.0, ms.float32), name="p2")
        self.p3 = Parameter(Tensor(5.0, ms.float32), name="p3")

    def construct(self, a):
        return a * self.p2 * 10 + a * self.p1


def show(tag, f):
    try:
        print(tag, f())
    except Exception as e:  # noqa: BLE001
        print(tag, type(e).__name__)


show("const all", lambda: GradOperation(get_all=True)(Const())(x, k))
show("const grad", lambda: ms.grad(Const(), (0, 1))(xd, k))
show("const vag", lambda: ms.value_and_grad(Const(), (0, 1))(xd, k))
show("scalars", lambda: GradOperation(get_all=True, sens_param=True)(Add())(3, 4, 7))
show("dict", lambda: ms.grad(lambda t: {"a": t * 2, "b": 3})(x))
show("tuple list", lambda: ms.grad(lambda t: (t * 2, [t * 3, 1]))(x))
show("tuple str", lambda: ms.grad(lambda t: (t * 2, "abc"))(x))
show("none", lambda: ms.grad(lambda t: None)(x))
show("bool", lambda: ms.grad(lambda t: True)(x))
show("float int input", lambda: ms.grad(lambda t: 2.5)(Tensor([1, 2])))
show("vag tuple int", lambda: ms.value_and_grad(lambda t: (t * 2, 5))(x))
show("mixed all", lambda: GradOperation(get_all=True)(Mixed())(Tensor([1.0]), 3, Tensor([2.0])))
show("mixed first int", lambda: GradOperation()(Mixed())(3, Tensor([1.0]), Tensor([2.0])))
show("mixed pos", lambda: ms.grad(Mixed(), (0, 1))(Tensor([1.0]), 3, Tensor([2.0])))
show("by list", lambda: GradOperation(get_by_list=True)(Used())(Tensor(1.0, ms.float32)))
show("by list fn", lambda: GradOperation(get_all=True, get_by_list=True)(lambda t: t * 2)(x))
