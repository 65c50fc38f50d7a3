"""nn.SSIM, nn.MSSSIM, nn.PSNR: values per image, integer scaling, parameters, errors."""
import numpy as np

import mindspore as ms
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE)  # 2.10 PyNative fails in ScalarCast (README: differs)

rng = np.random.default_rng(0)
a = rng.random((2, 3, 16, 16)).astype(np.float32)
b = np.clip(a + rng.normal(0, 0.1, a.shape), 0, 1).astype(np.float32)
print(nn.SSIM()(ms.Tensor(a), ms.Tensor(b)))
print(nn.SSIM(max_val=2.0, filter_size=7, filter_sigma=1.0)(ms.Tensor(a), ms.Tensor(b)))
print([(n, p.shape, p.requires_grad) for n, p in nn.SSIM().parameters_and_names()])
print(nn.PSNR()(ms.Tensor(a), ms.Tensor(b)))
print(nn.PSNR(255)(ms.Tensor((a * 255).astype(np.uint8)), ms.Tensor((b * 255).astype(np.uint8))))
print(nn.PSNR()(ms.Tensor([[[[1, 2, 3, 4], [1, 2, 3, 4]]]]),
                ms.Tensor([[[[3, 4, 5, 6], [3, 4, 5, 6]]]])))
big_a = rng.random((1, 1, 180, 180)).astype(np.float32)
big_b = np.clip(big_a + rng.normal(0, 0.05, big_a.shape), 0, 1).astype(np.float32)
print(nn.MSSSIM()(ms.Tensor(big_a), ms.Tensor(big_b)))
print(nn.MSSSIM(power_factors=(0.5, 0.5), filter_size=5)(ms.Tensor(a), ms.Tensor(b)))
print(len(list(nn.MSSSIM().parameters_and_names())))
ssim = nn.SSIM()
target = ms.Tensor(b)


def ssim_sum(x):
    return ssim(x, target).sum()


g = ms.grad(ssim_sum)(ms.Tensor(a))
print(g.shape, float(np.abs(g.asnumpy()).sum()))


def err(tag, fn):
    try:
        fn()
        print(tag, "no error")
    except Exception as e:  # noqa: BLE001
        print(tag, type(e).__name__)


err("ssim_3d", lambda: nn.SSIM()(ms.Tensor(a[0]), ms.Tensor(b[0])))
err("ssim_small", lambda: nn.SSIM()(ms.Tensor(a[:, :, :8, :8]), ms.Tensor(b[:, :, :8, :8])))
err("ssim_int", lambda: nn.SSIM()(ms.Tensor((a * 255).astype(np.int32)),
                                  ms.Tensor((b * 255).astype(np.int32))))
err("psnr_neg", lambda: nn.PSNR(-1.0))
err("psnr_str", lambda: nn.PSNR("1"))
err("ssim_k1_int", lambda: nn.SSIM(k1=1))
