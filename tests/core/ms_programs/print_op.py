"""ops.Print and ops.print_: strings, numbers and tensors mixed, as MindSpore prints them."""
import sys

sys.stdout.reconfigure(line_buffering=True)  # MindSpore prints from C++: keep the order

import numpy as np
import mindspore as ms
from mindspore import Parameter, Tensor, ops


def show(*args):
    sys.stdout.flush()
    ops.Print()(*args)
    sys.stdout.flush()


print("== strings and tensors")
show("x:", Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
show("a", "b", Tensor([1, 2, 3], ms.int32))
print("== 0-d tensors and dtypes")
show(Tensor(3, ms.int32), Tensor(2.5, ms.float32), Tensor(True, ms.bool_))
show(Tensor(1.5, ms.float16), Tensor(7, ms.int64), Tensor(7, ms.uint8), Tensor(2.25, ms.float64))
show(Tensor([True, False]), Tensor([1.0, -2.5], ms.float64), Tensor([1, 2], ms.int8))
print("== python scalars")
show(3, 2.5, True, "s")
show(-1, 0.1, False)
print("== lists and tuples of tensors")
show([Tensor([1, 2], ms.int32), Tensor([3.0], ms.float32)])
show((Tensor([1.0]), "in tuple", 3))
print("== parameter")
show("w", Parameter(Tensor(np.ones((2, 2), np.float32)), name="w"))
print("== bigger tensors")
show(Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7))
show(Tensor(np.arange(2000, dtype=np.int32)))
print("== print_")
sys.stdout.flush()
out = ops.print_("value:", Tensor([1.0, 2.0]), 5)
sys.stdout.flush()
print("returns", out)
sys.stdout.flush()
out = ops.Print()("ret")
sys.stdout.flush()
print("Print returns", out)
print("== under jit")


@ms.jit
def traced(x):
    ops.Print()("in jit:", x, 2)
    return x * 2


sys.stdout.flush()
y = traced(Tensor([1.0, 3.0]))
y.asnumpy()  # graph prints are asynchronous: wait for them
sys.stdout.flush()
print("jit result", y)


@ms.jit
def traced_values(a, b, c, d, e, f, g):
    ops.Print()(a, b, c, d, e, f, g, 0.1, 1.0, -3, False, 1e10)
    return a


traced_values(Tensor(np.float32(1 / 3)), Tensor(True), Tensor(np.float64(2 / 3)),
              Tensor(np.array([1 / 3, -2.5, np.nan, np.inf], np.float32)),
              Tensor(np.array([1.5, 2], np.float16)), Tensor(np.array([7], np.int32)),
              Tensor(np.array([[1e-8, 1e8]], np.float64))).asnumpy()
sys.stdout.flush()


@ms.jit
def traced_sequences(a):
    ops.Print()("tuple", (a, a), [a, 1])
    return a


traced_sequences(Tensor([1.0, 2.0])).asnumpy()
sys.stdout.flush()


class InCell(ms.nn.Cell):
    def construct(self, x):
        ops.Print()("in cell", x, ops.reshape(x * 2, (2, 1)))
        return x


print("== Cell in PyNative mode")
sys.stdout.flush()
InCell()(Tensor([1.0, 2.0])).asnumpy()
sys.stdout.flush()
print("== Cell in GRAPH_MODE")
ms.set_context(mode=ms.GRAPH_MODE)
sys.stdout.flush()
InCell()(Tensor([1.0, 2.0])).asnumpy()
sys.stdout.flush()
print("== top level in GRAPH_MODE")
sys.stdout.flush()
ops.Print()("top", Tensor([1.0, 2.0]), Tensor(2.5))
sys.stdout.flush()
ms.set_context(mode=ms.PYNATIVE_MODE)
print("== helpers called from jit, Parameters")


def helper(v):
    ops.print_("helper", v, [v, 5])


@ms.jit
def calls_helper(x):
    helper(x)
    return x


calls_helper(Tensor(np.array([[1, -2]], np.int32))).asnumpy()
helper(Tensor(np.array([3], np.int32)))
w = Parameter(Tensor(np.array([0.5, 1.5], np.float32)), name="w")


@ms.jit
def prints_parameter():
    ops.Print()(w)
    return w + 0


ops.Print()(w)
prints_parameter().asnumpy()
