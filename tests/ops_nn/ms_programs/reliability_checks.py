"""Issue 21: which misuse MindSpore refuses and with which class (the messages differ), what
the layers give for an empty batch, and pooling shapes with ceil_mode."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


def x(*shape, dtype=np.float32):
    n = int(np.prod(shape))
    return Tensor((((np.arange(n) * 7) % 11) - 5).reshape(shape).astype(dtype) * 0.25)


def classes(name, make, only_runtime=False):
    try:
        out = make()
        if hasattr(out, "asnumpy"):
            out.asnumpy()  # MindSpore's kernels report range errors when the result is read
        print(name, "accepted")
    except Exception as e:  # noqa: BLE001 - the class is what is printed
        if only_runtime:  # cellgrad's are also the ValueError/IndexError it raised before
            print(name, "RuntimeError", isinstance(e, RuntimeError))
            return
        print(name, "ValueError", isinstance(e, ValueError), "TypeError", isinstance(e, TypeError),
              "RuntimeError", isinstance(e, RuntimeError))


# construction / entry checks
classes("Conv2d stride=0", lambda: nn.Conv2d(3, 8, 3, stride=0))
classes("Conv2d kernel 0", lambda: nn.Conv2d(3, 8, 0))
classes("Conv2d group 0", lambda: nn.Conv2d(3, 8, 3, group=0))
classes("Conv1d stride 0", lambda: nn.Conv1d(3, 8, 3, stride=0))
classes("Conv2dTranspose stride 0", lambda: nn.Conv2dTranspose(1, 1, 3, stride=0))
classes("MaxPool2d stride -1", lambda: nn.MaxPool2d(2, stride=-1))
classes("AvgPool2d kernel 0", lambda: nn.AvgPool2d(kernel_size=0))
classes("AvgPool2d divisor 0", lambda: nn.AvgPool2d(2, pad_mode="pad", divisor_override=0))
classes("MaxPool3d stride -1", lambda: nn.MaxPool3d(2, -1))
classes("max_pool2d stride 0", lambda: ops.max_pool2d(x(1, 1, 8, 8), 2, stride=0))
classes("avg_pool2d stride 0", lambda: ops.avg_pool2d(x(1, 1, 8, 8), 2, stride=0))
classes("Dense in 2.5", lambda: nn.Dense(2.5, 2))
classes("Dense out 0", lambda: nn.Dense(3, 0))
classes("MaxPool2d kernel 2.5", lambda: nn.MaxPool2d(2.5))
classes("Dropout p 1.5", lambda: nn.Dropout(p=1.5))
classes("Dropout p str", lambda: nn.Dropout(p="a"))
classes("BatchNorm2d 0", lambda: nn.BatchNorm2d(0))
classes("GroupNorm 3 of 4", lambda: nn.GroupNorm(3, 4))
# shape and range errors MindSpore raises as RuntimeError
classes("matmul shapes", lambda: ops.matmul(x(2, 3), x(4, 5)), True)
classes("Conv2d channels", lambda: nn.Conv2d(3, 8, 3)(x(1, 4, 8, 8)), True)
classes("gather index", lambda: ops.gather(x(4, 3), Tensor(np.array([5], np.int32)), 0), True)
classes("Embedding index", lambda: nn.Embedding(4, 3)(Tensor(np.array([5], np.int32))), True)
classes("cross_entropy label", lambda: ops.cross_entropy(x(2, 3),
                                                         Tensor(np.array([0, 5], np.int32))), True)
dense = nn.Dense(3, 2)
classes("SGD gradient count", lambda: nn.SGD(dense.trainable_params(), 0.1)((x(2, 3),)), True)
classes("LayerNorm axis 5", lambda: nn.LayerNorm((8,), begin_norm_axis=5)(x(2, 3, 8, 8)), True)
# no silent dtype promotion
classes("Dense float64", lambda: nn.Dense(3, 2)(x(1, 3, dtype=np.float64)))
classes("Dense int32", lambda: nn.Dense(3, 2)(x(1, 3, dtype=np.int32)))
classes("Conv2d float16", lambda: nn.Conv2d(1, 2, 3)(x(1, 1, 8, 8, dtype=np.float16)))
classes("Conv1d float64", lambda: nn.Conv1d(1, 2, 3)(x(1, 1, 8, dtype=np.float64)))
print("Dense float64 weights", nn.Dense(3, 2, dtype=ms.float64)(x(1, 3, dtype=np.float64)).dtype)
classes("Tensor + str", lambda: Tensor([1.0]) + "abc")
classes("grad(5)", lambda: ms.grad(5)(Tensor([1.0])))
classes("grad weights=123", lambda: ms.grad(lambda t: t * 2, None, 123)(Tensor([1.0])))

# empty batches
for name, cell, shape in [
        ("Conv1d", nn.Conv1d(3, 4, 3), (0, 3, 8)),
        ("Conv2d", nn.Conv2d(3, 8, 3), (0, 3, 8, 8)),
        ("Conv3d", nn.Conv3d(3, 4, 3), (0, 3, 4, 4, 4)),
        ("Conv2dTranspose", nn.Conv2dTranspose(3, 4, 3), (0, 3, 4, 4)),
        ("Dense", nn.Dense(3, 2), (0, 3)),
        ("AvgPool1d", nn.AvgPool1d(2, 2), (0, 3, 8)),
        ("AvgPool2d", nn.AvgPool2d(2, 2), (0, 3, 8, 8)),
        ("BatchNorm1d", nn.BatchNorm1d(3), (0, 3)),
        ("BatchNorm2d", nn.BatchNorm2d(3), (0, 3, 8, 8)),
        ("GroupNorm", nn.GroupNorm(2, 4), (0, 4, 3, 3)),
        ("ReLU", nn.ReLU(), (0, 3)),
        ("Softmax", nn.Softmax(), (0, 3)),
        ("GELU", nn.GELU(), (0, 3)),
        ("Flatten", nn.Flatten(), (0, 3, 2))]:
    y = cell(Tensor(np.zeros(shape, np.float32)))
    print("empty", name, y.shape, y.dtype)

# ceil_mode shapes (no window wholly outside the input)
for k, s, p, size in [(1, 4, 0, 8), (3, 2, 1, 8), (2, 3, 0, 7), (3, 3, 1, 10), (5, 4, 2, 9)]:
    xx = x(1, 1, size, size)
    a = nn.MaxPool2d(k, s, pad_mode="pad", padding=p, ceil_mode=True)(xx)
    b = nn.AvgPool2d(k, s, pad_mode="pad", padding=p, ceil_mode=True)(xx)
    print("ceil", k, s, p, size, a.shape, b.shape)
    print(a)
    print(b)
print("max_pool2d ceil", ops.max_pool2d(x(1, 1, 8, 8), 1, 4, ceil_mode=True))
