import numpy as np
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor
rng = np.random.default_rng(1)
def p(*a):
    print(*[x.asnumpy().tolist() if isinstance(x, Tensor) else ([y.asnumpy().tolist() for y in x] if isinstance(x, (list, tuple)) else x) for x in a])
for i in range(25):
    a, b = float(rng.integers(-5, 5)), float(rng.integers(1, 9))
    n = int(rng.integers(1, 7)); ep = bool(i % 2)
    p('lin', a, b, n, ep, mnp.linspace(a, b, n, ep), mnp.linspace(int(a), int(b), n, ep, dtype=ms.int32))
    p('log', mnp.logspace(a / 2, b / 3, n, ep, base=float(rng.integers(2, 5))))
    if n > 1 or not ep:
        p('geo', mnp.geomspace(b, b * 7, n, ep))
    st = float(rng.integers(1, 4)) * (0.3 if i % 3 else 1)
    p('arange', mnp.arange(a, b + 6, st), mnp.arange(int(a), int(b) + 3, 2), mnp.arange(b))
    M = int(rng.integers(0, 9))
    p('win', M, mnp.bartlett(M), mnp.blackman(M), mnp.hamming(M), mnp.hanning(M))
    p('tri', mnp.tril_indices(n, i % 3 - 1, n + 1), mnp.triu_indices(n, -(i % 3)))
    x = Tensor(rng.normal(size=(2, 3)).astype(np.float32))
    p('lin2', mnp.linspace(x, x * 2 + 1, n, ep, axis=i % 3 - 1))
    p('hbe', mnp.histogram_bin_edges(x, n), mnp.histogram_bin_edges(x, n, (float(a), float(a) + b)))
    p('vander', mnp.vander(x[0], n), mnp.vander(Tensor(np.array([1, 2, -3], np.int32)), n, True))
    p('tri', mnp.tri(n, n + 1, i % 3 - 1), mnp.eye(n, n + 2, i % 4 - 1))
