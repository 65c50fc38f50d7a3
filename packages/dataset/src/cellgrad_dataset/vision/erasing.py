"""Erasing and mixing: CutOut, RandomErasing, Erase, MixUpBatch, CutMixBatch, MixUp."""

import math
import numbers

import numpy as np

from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error
from cellgrad_dataset.transforms.randomness import RandomDraws
from cellgrad_dataset.vision.image import ImageOperation, check_image
from cellgrad_dataset.vision.random_geometry import _prob
from cellgrad_dataset.vision.utils import ImageBatchFormat


class CutOut(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.CutOut`: `num_patches` squares of side `length` set
    to 0, each with its top-left corner uniform in [-length, size] (clipped at the borders,
    as MindSpore's)."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        if length < 1 or num_patches < 1:
            raise ValueError(f"For 'CutOut', length and num_patches must be >= 1, but got "
                             f"{length} and {num_patches}.")
        self.length, self.num_patches, self.is_hwc = length, num_patches, is_hwc

    def _apply(self, img):
        img = check_image("CutOut", img, (3,)).copy()
        h, w = img.shape[:2] if self.is_hwc else img.shape[1:]
        n = self.length
        if n > h or n > w:
            raise pipeline_error("CutOut", f"box size is too large for image erase, got box "
                                           f"height: {n} box width: {n}, and image height: {h}, "
                                           f"image width: {w}")
        rng = self._rng()
        for _ in range(self.num_patches):
            y0, x0 = int(rng.integers(h + n + 1)) - n, int(rng.integers(w + n + 1)) - n
            ys, xs = slice(max(y0, 0), min(y0 + n, h)), slice(max(x0, 0), min(x0 + n, w))
            if self.is_hwc:
                img[ys, xs] = 0
            else:
                img[:, ys, xs] = 0
        return img


class Erase(ImageOperation):
    """Mirrors `mindspore.dataset.vision.Erase`: fill a box of an HWC image with `value`."""

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        self.top, self.left, self.height, self.width = top, left, height, width
        self.value, self.inplace = value, inplace

    def _apply(self, img):
        img = check_image("Erase", img, (3,))
        out = img if self.inplace else img.copy()
        out[self.top:self.top + self.height, self.left:self.left + self.width] = self.value
        return out


class RandomErasing(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomErasing` on a CHW image (after ToTensor): with
    probability `prob`, a box of area ~ U(scale) and aspect ~ logU(ratio) is set to `value`
    (a number, a per-channel sequence, or 'random' for N(0, 1) noise)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        self.prob, self.scale, self.ratio = _prob(prob), tuple(scale), tuple(ratio)
        if not (0 <= scale[0] <= scale[1] <= 1) or not (0 < ratio[0] <= ratio[1]):
            raise ValueError(f"For 'RandomErasing', scale must be within [0, 1] and ratio "
                             f"positive, both (min, max); got {scale!r} and {ratio!r}.")
        if not (isinstance(value, (numbers.Number, tuple, list)) or value == "random"):
            raise TypeError(f"For 'RandomErasing', value must be a number, a sequence or "
                            f"'random', but got {value!r}.")
        self.value, self.inplace, self.max_attempts = value, inplace, max_attempts

    def _apply(self, img):
        img = check_image("RandomErasing", img, (3,))
        rng = self._rng()
        if rng.random() >= self.prob:
            return img
        c, h, w = img.shape
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            area = h * w * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(*log_ratio))
            eh, ew = int(round(math.sqrt(area * aspect))), int(round(math.sqrt(area / aspect)))
            if eh < h and ew < w:
                top, left = int(rng.integers(h - eh + 1)), int(rng.integers(w - ew + 1))
                out = img if self.inplace else img.copy()
                if self.value == "random":
                    fill = rng.normal(size=(c, eh, ew))
                else:
                    fill = np.asarray(self.value, np.float64).reshape(-1, 1, 1)
                out[:, top:top + eh, left:left + ew] = fill
                return out
        return img


def _check_batch(op, images, labels):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise pipeline_error(op, f"wrong images shape: expected a batch <N,H,W,C> or "
                                 f"<N,C,H,W>, got shape {images.shape}; batch the dataset "
                                 f"before this map.")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise pipeline_error(op, f"wrong labels shape. The second column (labels) must have "
                                 f"a shape of NC or NLC where N is the batch size, labels must "
                                 f"be in one-hot format and in a batch, but got rank: "
                                 f"{labels.ndim}")
    return images, labels


class MixUpBatch(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.MixUpBatch`: lam ~ Beta(alpha, alpha); images and
    one-hot labels become lam * x + (1 - lam) * x[perm] (images keep their dtype)."""

    def __init__(self, alpha=1.0):
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, inf).")
        self.alpha = alpha

    def _apply(self, images, labels):
        images, labels = _check_batch("MixUpBatch", images, labels)
        rng = self._rng()
        lam = rng.beta(self.alpha, self.alpha)
        perm = rng.permutation(images.shape[0])
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm]
        if np.issubdtype(images.dtype, np.integer):
            mixed = np.rint(mixed)
        out_labels = lam * labels.astype(np.float32) + (1 - lam) * labels[perm]
        return mixed.astype(images.dtype), out_labels.astype(np.float32)


class CutMixBatch(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.CutMixBatch`: with probability `prob` per image, a
    box of area fraction 1 - lam (lam ~ Beta(alpha, alpha)) is pasted from another image of
    the batch and the one-hot labels are mixed by the pasted area."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        self.image_batch_format = ImageBatchFormat(image_batch_format)
        if alpha <= 0:
            raise ValueError("Input alpha is not within the required interval of (0, inf).")
        self.alpha, self.prob = alpha, _prob(prob)

    def _apply(self, images, labels):
        images, labels = _check_batch("CutMixBatch", images, labels)
        nhwc = self.image_batch_format == ImageBatchFormat.NHWC
        h, w = images.shape[1:3] if nhwc else images.shape[2:4]
        rng = self._rng()
        perm = rng.permutation(images.shape[0])
        out_images, out_labels = images.copy(), labels.astype(np.float32)
        for i, j in enumerate(perm):
            if rng.random() >= self.prob:
                continue
            lam = rng.beta(self.alpha, self.alpha)
            bh, bw = int(h * math.sqrt(1 - lam)), int(w * math.sqrt(1 - lam))
            y, x = int(rng.integers(h - bh + 1)), int(rng.integers(w - bw + 1))
            if nhwc:
                out_images[i, y:y + bh, x:x + bw] = images[j, y:y + bh, x:x + bw]
            else:
                out_images[i, :, y:y + bh, x:x + bw] = images[j, :, y:y + bh, x:x + bw]
            frac = bh * bw / float(h * w)
            out_labels[i] = (1 - frac) * labels[i] + frac * labels[j]
        return out_images, out_labels


class MixUp(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.MixUp` (the 1.x Python batch MixUp): images and
    labels of a batch mixed with the batch reversed, lam ~ Beta(alpha, alpha)."""

    def __init__(self, batch_size, alpha, is_single=True):
        self.batch_size, self.alpha, self.is_single = batch_size, alpha, is_single

    def _apply(self, images, labels):
        images, labels = _check_batch("MixUp", images, labels)
        lam = self._rng().beta(self.alpha, self.alpha)
        mixed = lam * images + (1 - lam) * images[::-1]
        return mixed.astype(images.dtype), (lam * labels + (1 - lam) * labels[::-1]).astype(
            np.float32)
