# ops.cumsum casts to `dtype` before summing; Tensor.cumsum sums bool/int8/int16/uint8 as int32
# and casts afterwards (xcit's Fourier position encoding counts a bool mask this way)
import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

mask = Tensor(np.zeros((1, 3, 4)).astype(bool))
not_mask = ~mask
print(not_mask.cumsum(1, dtype=ms.float32))
print(not_mask.cumsum(2, dtype=ms.float32))
print(ops.cumsum(not_mask, 1, dtype=ms.float32))
i8 = Tensor(np.full((1, 4), 100, np.int8))
print(ops.cumsum(i8, 1))
print(ops.cumsum(i8, 1, dtype=ms.int32))
print(i8.cumsum(1), i8.cumsum(1, dtype=ms.int8))
f = Tensor(np.full((1, 4), 1.5, np.float32))
print(ops.cumsum(f, 1, dtype=ms.int32), f.cumsum(1, dtype=ms.int32))
print(ops.cumsum(Tensor(np.full((1, 4), 200, np.uint8)), 1, dtype=ms.float16))
for dt in [np.bool_, np.int8, np.int16, np.uint8, np.uint16, np.int64, np.float16]:
    t = Tensor(np.ones((2, 3), dt))
    print(t.cumsum(1).dtype, t.cumsum().dtype, t.cumsum(1, dtype=ms.float32).dtype,
          t.cumsum(0, dtype=ms.int8))
for bad in [lambda: ops.cumsum(not_mask, 1), lambda: ops.CumSum()(not_mask, 1)]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, str(e).splitlines()[0])
