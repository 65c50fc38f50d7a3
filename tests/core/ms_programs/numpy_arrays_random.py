import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor
rng = np.random.default_rng(0)
modes = ['constant', 'edge', 'wrap', 'reflect', 'symmetric', 'maximum', 'minimum', 'mean', 'linear_ramp']
for trial in range(60):
    nd = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 4, nd))
    x = rng.integers(-9, 9, shape).astype(np.float32)
    mode = modes[trial % len(modes)]
    widths = tuple((int(rng.integers(0, 5)), int(rng.integers(0, 5))) for _ in shape)
    kw = {}
    if mode in ('reflect', 'symmetric') and trial % 2:
        kw['reflect_type'] = 'odd'
    if mode in ('maximum', 'minimum', 'mean') and trial % 3 == 0:
        kw['stat_length'] = int(rng.integers(1, 3))
    if mode == 'reflect' and min(shape) == 1:
        continue
    try:
        r = mnp.pad(Tensor(x), widths, mode=mode, **kw)
        print(trial, mode, shape, widths, kw, r.shape)
        print(r.asnumpy().ravel().tolist())
    except Exception as e:
        print(trial, mode, 'ERR', type(e).__name__)
for trial in range(30):
    shape = tuple(int(s) for s in rng.integers(1, 5, 2))
    x = Tensor(rng.integers(-9, 9, shape).astype(np.float32))
    k = int(rng.integers(-5, 6))
    print('rot90', k, mnp.rot90(x, k).asnumpy().ravel().tolist())
    s = int(rng.integers(-7, 8))
    print('roll', s, mnp.roll(x, s, 1).asnumpy().ravel().tolist(), mnp.roll(x, (s, 1), (0, 1)).asnumpy().ravel().tolist())
    idx = Tensor(rng.integers(-8, 8, 5))
    print('take', mnp.take(x, idx).asnumpy().tolist(), mnp.take(x, idx, 1, 'wrap').asnumpy().ravel().tolist())
    print('diag', k, mnp.diag(x, k).asnumpy().tolist(), mnp.trace(x, k).asnumpy().tolist())
    print('tri', mnp.tril(x, k).asnumpy().ravel().tolist(), mnp.triu(x, k).asnumpy().ravel().tolist())
    print('unravel', [t.asnumpy().tolist() for t in mnp.unravel_index(Tensor(rng.integers(-30, 30, 4)), shape, 'CF'[trial % 2])])
