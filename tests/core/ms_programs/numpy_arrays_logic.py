import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor
vals = [Tensor(np.array([1, -2, 0], np.int32)), Tensor(np.array([1.5, -2.0, np.nan], np.float32)), Tensor(np.array([True, False, True])),
        Tensor(np.array([1, 2, 0], np.int64)), Tensor(np.array([1.0, np.inf, -0.0], np.float16)), 2, 1.5, True, [1, 0, 2], [0.5, 1.0, 2.0]]
fns = ['equal', 'greater', 'greater_equal', 'less', 'logical_and', 'logical_or']
for f in fns:
    for i, a in enumerate(vals):
        for j, b in enumerate(vals):
            try:
                r = getattr(mnp, f)(a, b)
                print(f, i, j, r.dtype, r.asnumpy().tolist())
            except Exception as e:
                print(f, i, j, 'ERR', type(e).__name__)
for f in ['isfinite', 'isnan', 'isinf', 'logical_not', 'signbit']:
    for i, a in enumerate(vals):
        try:
            r = getattr(mnp, f)(a)
            print(f, i, r.dtype, r.asnumpy().tolist())
        except Exception as e:
            print(f, i, 'ERR', type(e).__name__)
for i, a in enumerate(vals[:2] + vals[3:7] + vals[8:]):
    for j, b in enumerate(vals[:2] + vals[3:7] + vals[8:]):
        try:
            print('in1d', i, j, mnp.in1d(a, b).asnumpy().tolist(), mnp.setdiff1d(a, b).asnumpy().tolist(), mnp.array_equal(a, b).asnumpy().tolist(), mnp.array_equiv(a, b).asnumpy().tolist())
        except Exception as e:
            print('in1d', i, j, 'ERR', type(e).__name__)
