import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

v = Tensor(np.arange(2 * 2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 2, 3, 4, 5) / 7)
for args in [((1, 1, 2, 2, 2), (1, 1, 1, 2, 2), "VALID"),
             ((1, 1, 2, 3, 2), (1, 1, 2, 2, 3), "SAME"),
             ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1), "valid"),
             ((1, 1, 3, 2, 4), (1, 1, 1, 3, 1), "SAME")]:
    out = ops.ExtractVolumePatches(*args)(v)
    print(out.shape, out.dtype)
    print(out)
    print(ms.grad(lambda x, a=args, o=out: (ops.ExtractVolumePatches(*a)(x) * o).sum())(v))
for args in [((1, 1, 2, 2), (1, 1, 1, 1, 1), "VALID"),
             ((2, 1, 2, 2, 2), (1, 1, 1, 1, 1), "VALID"),
             ((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), "X")]:
    try:
        ops.ExtractVolumePatches(*args)
    except ValueError as e:
        print(type(e).__name__, str(e).splitlines()[0])

idx = Tensor([[0, 1], [1, 2], [1, 3], [2, 2], [3, 0], [2, 3]], ms.int64)
val = Tensor([1.5, 2.0, 3.0, 4.0, 5.0, 6.0], ms.float32)
shape = Tensor([4, 4], ms.int64)
for start, size in [([0, 1], [2, 3]), ([1, 2], [5, 5]), ([3, 3], [1, 1]), ([0, 0], [4, 4])]:
    out = ops.SparseSlice()(idx, val, shape, Tensor(start, ms.int64), Tensor(size, ms.int64))
    print(out)
