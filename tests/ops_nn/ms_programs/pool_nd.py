import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

x5 = Tensor(((np.arange(2 * 2 * 4 * 5 * 5) * 37) % 23).astype(np.float32).reshape(2, 2, 4, 5, 5)
            * 0.25 - 2)
x3 = Tensor(((np.arange(2 * 3 * 9) * 11) % 17).astype(np.float32).reshape(2, 3, 9) * 0.5 - 3)


def weights(shape):
    return Tensor((np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 7) - 2.5)


def show(name, fn, inp):
    out = fn(inp)
    first = out[0] if isinstance(out, tuple) else out
    print(name, first.shape, first.dtype)
    print(first)
    if isinstance(out, tuple):
        print("indices", out[1].shape, out[1].dtype)
        print(out[1])
    w = weights(first.shape)

    def loss(t):
        o = fn(t)
        return ((o[0] if isinstance(o, tuple) else o) * w).sum()

    print("grad", ms.grad(loss)(inp))


cells = [
    ("MaxPool3d valid", nn.MaxPool3d(2, 2), x5),
    ("MaxPool3d same", nn.MaxPool3d(3, 2, "same"), x5),
    ("MaxPool3d pad", nn.MaxPool3d(3, (1, 2, 2), "pad", 1), x5),
    ("MaxPool3d pad ceil", nn.MaxPool3d(2, 2, "pad", 1, ceil_mode=True), x5),
    ("MaxPool3d indices dilation", nn.MaxPool3d(2, 1, "pad", (0, 1, 1), 2, return_indices=True),
     x5),
    ("MaxPool3d unbatched", nn.MaxPool3d(2, 2), x5[0]),
    ("AvgPool3d valid", nn.AvgPool3d(2, 2), x5),
    ("AvgPool3d same", nn.AvgPool3d(3, 2, "same"), x5),
    ("AvgPool3d pad", nn.AvgPool3d(3, (1, 2, 2), "pad", 1), x5),
    ("AvgPool3d pad exclude", nn.AvgPool3d(3, 2, "pad", (1, 0, 1), count_include_pad=False), x5),
    ("AvgPool3d pad ceil", nn.AvgPool3d(2, 2, "pad", 1, ceil_mode=True), x5),
    ("AvgPool3d divisor", nn.AvgPool3d(2, 1, "pad", 0, divisor_override=3), x5),
    ("MaxPool1d valid", nn.MaxPool1d(3, 2), x3),
    ("MaxPool1d same", nn.MaxPool1d(4, 3, "same"), x3),
    ("MaxPool1d pad", nn.MaxPool1d(3, 2, "pad", 1), x3),
    ("MaxPool1d pad indices", nn.MaxPool1d(2, 2, "pad", 1, 2, True, True), x3),
    ("MaxPool1d unbatched", nn.MaxPool1d(3, 2), x3[0]),
    ("AvgPool1d valid", nn.AvgPool1d(3, 2), x3),
    ("AvgPool1d same", nn.AvgPool1d(4, 3, "same"), x3),
    ("AvgPool1d whole", nn.AvgPool1d(9, 1, "same"), x3),
    ("AvgPool1d pad", nn.AvgPool1d(3, 2, "pad", 1), x3),
    ("AvgPool1d pad exclude ceil", nn.AvgPool1d(2, 2, "pad", 1, True, False), x3),
    ("AdaptiveAvgPool1d", nn.AdaptiveAvgPool1d(3), x3),
    ("AdaptiveMaxPool1d", nn.AdaptiveMaxPool1d(3), x3),
    ("AdaptiveAvgPool3d", nn.AdaptiveAvgPool3d((2, 3, None)), x5),
    ("AdaptiveMaxPool3d", nn.AdaptiveMaxPool3d((2, 3, 2)), x5),
    ("AdaptiveMaxPool3d indices", nn.AdaptiveMaxPool3d(2, True), x5),
]
for name, cell, inp in cells:
    print(cell)
    show(name, cell, inp)

functions = [
    ("max_pool3d", lambda t: ops.max_pool3d(t, 2, 2, 1, 1, False, True), x5),
    ("max_pool3d ceil", lambda t: ops.max_pool3d(t, 3, 2, 1, ceil_mode=True), x5),
    ("avg_pool3d", lambda t: ops.avg_pool3d(t, 2, 2, 1, False, False), x5),
    ("avg_pool3d divisor", lambda t: ops.avg_pool3d(t, (1, 2, 3), 1, 0, divisor_override=2), x5),
    ("avg_pool1d", lambda t: ops.avg_pool1d(t, 3, 2, 1, True, False), x3),
    ("adaptive_avg_pool1d", lambda t: ops.adaptive_avg_pool1d(t, 3), x3),
    ("adaptive_max_pool1d", lambda t: ops.adaptive_max_pool1d(t, 3), x3),
    ("adaptive_avg_pool3d", lambda t: ops.adaptive_avg_pool3d(t, (3, 2, 4)), x5),
    ("adaptive_max_pool3d", lambda t: ops.adaptive_max_pool3d(t, (3, 2, 4), True), x5),
    ("MaxPool3D", ops.MaxPool3D(2, 2, "same"), x5),
    ("MaxPool3D pad", ops.MaxPool3D(3, 2, "pad", (1, 0, 1), True), x5),
    ("AvgPool3D", ops.AvgPool3D(3, 2, "same"), x5),
    ("AvgPool3D pad", ops.AvgPool3D(2, 2, "pad", 1, False, False), x5),
    ("AdaptiveAvgPool3D", ops.AdaptiveAvgPool3D((1, 2, 3)), x5),
]
for name, fn, inp in functions:
    show(name, fn, inp)
