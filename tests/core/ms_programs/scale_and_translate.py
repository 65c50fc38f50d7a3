import mindspore as ms
import numpy as np
from mindspore import Tensor, ops

img = Tensor(np.sin(np.arange(2 * 5 * 7 * 2, dtype=np.float32)).reshape(2, 5, 7, 2))
cases = [([8, 11], [1.6, 1.5], [0.3, -0.7]), ([3, 4], [0.6, 0.55], [0.0, 1.2]),
         ([5, 7], [1.0, 1.0], [1.0, -2.0])]
for kt in ["lanczos1", "lanczos3", "lanczos5", "gaussian", "box", "triangle", "keyscubic",
           "mitchellcubic"]:
    for aa in (True, False):
        for size, scale, tr in cases:
            args = (Tensor(size, ms.int32), Tensor(scale, ms.float32), Tensor(tr, ms.float32))
            out = ops.ScaleAndTranslate(kt, aa)(img, *args)
            print(kt, aa, out.shape, out.dtype)
            print(out[:, :3, :3, 0])
            grad = ms.grad(lambda x, k=kt, a=aa, g=args: (ops.ScaleAndTranslate(k, a)(x, *g)
                                                           ** 2).sum())(img)
            print(grad.asnumpy()[0, :, :, 1].round(4) + 0.0)  # + 0.0: 0. rather than -0.
for kw in [dict(kernel_type="cubic"), dict(antialias=1), dict(kernel_type=3)]:
    try:
        ops.ScaleAndTranslate(**kw)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
