"""Image-quality measures as Cells: `nn.SSIM`, `nn.MSSSIM`, `nn.PSNR` (MindSpore's, which
follow TensorFlow's `tf.image.ssim`: an 11x11 Gaussian window, valid convolution, each channel
on its own, integer images scaled by their dtype's maximum)."""

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.dtype import float16, float32, float64, uint8
from cellgrad.nn import Cell, CellList
from cellgrad_nn.layers.conv import Conv2d
from cellgrad_nn.layers.pool import AvgPool2d

__all__ = ["SSIM", "MSSSIM", "PSNR"]


def _window(size, sigma):
    """The normalized Gaussian window as a (1, 1, size, size) float32 weight."""
    x, y = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x.astype(np.float32) ** 2 + y.astype(np.float32) ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)[None, None]


def _gauss_conv(size, sigma):
    conv = Conv2d(1, 1, size, weight_init=Tensor(_window(size, sigma)), pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


def _check_value(cls, name, value, types, positive=True):
    if isinstance(value, bool) or not isinstance(value, types):
        raise TypeError(f"For '{cls}', the type of '{name}' should be "
                        f"{' or '.join(t.__name__ for t in types)}, but got "
                        f"{type(value).__name__}.")
    if positive and value <= 0:
        raise ValueError(f"For '{cls}', the '{name}' must be greater than 0, but got {value}.")
    return value


def _check_4d(cls, name, img):
    if img.ndim != 4:
        raise ValueError(f"For '{cls}', the dimension of '{name}' must be 4d, but got "
                         f"{img.ndim}.")


def _same(cls, img1, img2):
    if img1.dtype != img2.dtype or img1.shape != img2.shape:
        raise TypeError(f"For '{cls}', 'img1' and 'img2' must have the same dtype and shape, "
                        f"but got {img1.dtype}{list(img1.shape)} and "
                        f"{img2.dtype}{list(img2.shape)}.")


def _as_float(img, max_val):
    """MindSpore's scaling: images of an integer dtype by its maximum, `max_val` alike."""
    np_type = img.asnumpy().dtype
    dtype_max = float(np.iinfo(np_type).max) if np.issubdtype(np_type, np.integer) else 1.0
    scaled = ops.cast(img, float32)
    if dtype_max > 1.0:
        scaled = scaled * (1.0 / dtype_max)
    value = float(max_val) / dtype_max if dtype_max > 1.0 else float(max_val)
    return scaled, value


def _ssim_and_cs(c1, c2, img1, img2, conv):
    """Per-image, per-channel mean SSIM and contrast-structure terms, shape (N, C)."""
    n, c, h, w = img1.shape

    def blur(x):
        out = conv(ops.reshape(x, (n * c, 1, h, w)))
        return ops.reshape(out, (n, c) + out.shape[2:])

    mu1, mu2 = blur(img1), blur(img2)
    mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
    sigma1_sq = blur(img1 * img1) - mu1_sq
    sigma2_sq = blur(img2 * img2) - mu2_sq
    sigma12 = blur(img1 * img2) - mu1_mu2
    v1 = 2 * sigma12 + c2
    v2 = sigma1_sq + sigma2_sq + c2
    ssim = ((2 * mu1_mu2 + c1) * v1) / ((mu1_sq + mu2_sq + c1) * v2)
    return ops.mean(ssim, (2, 3)), ops.mean(v1 / v2, (2, 3))


class SSIM(Cell):
    """Mirrors `mindspore.nn.SSIM`: the structural similarity of each image pair, shape (N,)."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _check_value("SSIM", "max_val", max_val, (int, float))
        self.filter_size = _check_value("SSIM", "filter_size", filter_size, (int,))
        self.filter_sigma = _check_value("SSIM", "filter_sigma", filter_sigma, (float,))
        self.k1 = _check_value("SSIM", "k1", k1, (float,), positive=False)
        self.k2 = _check_value("SSIM", "k2", k2, (float,), positive=False)
        self.conv = _gauss_conv(filter_size, filter_sigma)

    def construct(self, img1, img2):
        if img1.dtype not in (float32, float16):
            raise TypeError(f"For 'SSIM', the type of 'img1' should be in [Float32, Float16], "
                            f"but got {img1.dtype}.")
        _check_4d("SSIM", "img1", img1)
        for axis in (2, 3):
            if img1.shape[axis] < self.filter_size:
                raise ValueError(f"For 'SSIM', the 'img1 shape[{axis}]' should be >= "
                                 f"'filter_size' = {self.filter_size}, but got "
                                 f"{img1.shape[axis]}.")
        _same("SSIM", img1, img2)
        img1, max_val = _as_float(img1, self.max_val)
        img2, _ = _as_float(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = _ssim_and_cs(c1, c2, img1, img2, self.conv)
        return ops.mean(ssim, -1)


class MSSSIM(Cell):
    """Mirrors `mindspore.nn.MSSSIM`: SSIM over `len(power_factors)` scales, shape (N,)."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self.max_val = _check_value("MSSSIM", "max_val", max_val, (int, float))
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"For 'MSSSIM', the type of 'power_factors' should be tuple or "
                            f"list, but got {type(power_factors).__name__}.")
        self.filter_size = _check_value("MSSSIM", "filter_size", filter_size, (int,))
        self.filter_sigma = _check_value("MSSSIM", "filter_sigma", filter_sigma, (float,))
        self.k1 = _check_value("MSSSIM", "k1", k1, (float,), positive=False)
        self.k2 = _check_value("MSSSIM", "k2", k2, (float,), positive=False)
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_gauss_conv(filter_size, filter_sigma)
                                          for _ in range(self.level)])
        self.weight_tensor = Tensor(np.asarray(power_factors, np.float32))
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2, pad_mode="valid")

    def construct(self, img1, img2):
        _check_4d("MSSSIM", "img1", img1)
        _check_4d("MSSSIM", "img2", img2)
        if img1.dtype not in (float64, float32, float16, uint8):
            raise TypeError(f"For 'MSSSIM', the type of 'img1' should be in [Float64, Float32, "
                            f"Float16, UInt8], but got {img1.dtype}.")
        _same("MSSSIM", img1, img2)
        img1, max_val = _as_float(img1, self.max_val)
        img2, _ = _as_float(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mcs = []
        for i in range(self.level):
            sim, cs = _ssim_and_cs(c1, c2, img1, img2, self.multi_convs_list[i])
            mcs.append(ops.relu(cs))
            img1, img2 = self.avg_pool(img1), self.avg_pool(img2)
        stacked = ops.stack(mcs[:-1] + [ops.relu(sim)], -1)
        return ops.mean(ops.prod(ops.pow(stacked, self.weight_tensor), -1), -1)


class PSNR(Cell):
    """Mirrors `mindspore.nn.PSNR`: the peak signal-to-noise ratio of each pair, shape (N,)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_value("PSNR", "max_val", max_val, (int, float))

    def construct(self, img1, img2):
        _check_4d("PSNR", "img1", img1)
        _check_4d("PSNR", "img2", img2)
        _same("PSNR", img1, img2)
        img1, max_val = _as_float(img1, self.max_val)
        img2, _ = _as_float(img2, self.max_val)
        mse = ops.mean(ops.square(img1 - img2), (-3, -2, -1))
        return 10 * ops.log(max_val ** 2 / mse) / float(np.log(10.0))
