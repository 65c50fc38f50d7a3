import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

img = Tensor(np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2) / 3)
offsets = {True: Tensor([[0.3, -0.6], [-1.2, 0.9]], ms.float32),
           False: Tensor([[1.7, -2.4], [3.5, 4.6]], ms.float32)}
for centered in (True, False):
    for normalized in (True, False):
        for size in ([2, 3], [3, 2], [4, 4], [1, 1]):
            out = ops.ExtractGlimpse(centered, normalized, False, "zero")(
                img, Tensor(size, ms.int32), offsets[normalized])
            print(centered, normalized, size, out.shape, out.dtype)
            print(out)
noisy = ops.ExtractGlimpse(False, False, True, "uniform")(
    img, Tensor([3, 3], ms.int32), Tensor([[-1.0, -1.0], [4.0, 5.0]]))
print(noisy[1])
for kw in [dict(noise="bad"), dict(uniform_noise=True, noise="zero")]:
    try:
        ops.ExtractGlimpse(**kw)
    except ValueError as e:
        print(type(e).__name__, str(e).splitlines()[0])
