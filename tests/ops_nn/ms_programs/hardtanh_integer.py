"""ops.hardtanh / nn.Hardtanh on integer and bool Tensors: the dtype is kept and the bounds are
cast to it (an int bound wraps for unsigned dtypes, a float bound truncates and saturates)."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops

for dt in (ms.int32, ms.int64, ms.int8, ms.uint8, ms.int16, ms.float16, ms.bool_):
    x = Tensor(np.array([[71, -25, 2, -94]]), dt) if dt != ms.bool_ else Tensor([True, False])
    for lo, hi in ((-50, 50), (-1.0, 1.0), (-2.5, 60.5)):
        o = ops.hardtanh(x, lo, hi)
        print(dt, lo, hi, o.dtype, o)
print(nn.Hardtanh(-50, 50)(Tensor(np.array([71, -3]), ms.int32)))
