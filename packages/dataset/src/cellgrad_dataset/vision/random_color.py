"""Random pixel transforms: RandomColorAdjust, RandomGrayscale, RandomInvert, RandomColor,
RandomSharpness, RandomAdjustSharpness, RandomAutoContrast, RandomEqualize,
RandomPosterize, RandomSolarize, RandomLighting."""

import numbers

import numpy as np

from cellgrad_dataset.transforms.randomness import RandomDraws
from cellgrad_dataset.vision.adjust import (
    AdjustBrightness,
    AdjustContrast,
    AdjustHue,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    Invert,
    Posterize,
    Solarize,
)
from cellgrad_dataset.vision.color import Grayscale, _uint8_rgb
from cellgrad_dataset.vision.image import ImageOperation, check_image
from cellgrad_dataset.vision.random_geometry import _prob, _range


class RandomColorAdjust(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomColorAdjust`: brightness, contrast and
    saturation factors ~ U(max(0, 1 - v), 1 + v) (or the (min, max) given), hue ~ U(-h, h),
    applied in a random order."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        self.brightness = _range("RandomColorAdjust", "brightness", brightness, 1.0, 0.0)
        self.contrast = _range("RandomColorAdjust", "contrast", contrast, 1.0, 0.0)
        self.saturation = _range("RandomColorAdjust", "saturation", saturation, 1.0, 0.0)
        self.hue = _range("RandomColorAdjust", "hue", hue)
        if not -0.5 <= self.hue[0] <= self.hue[1] <= 0.5:
            raise ValueError(f"Input hue is not within the required interval of [-0.5, 0.5]: "
                             f"{hue!r}.")

    def _apply(self, img):
        img = _uint8_rgb("RandomColorAdjust", img)
        rng = self._rng()
        steps = [(AdjustBrightness, self.brightness, (1, 1)),
                 (AdjustContrast, self.contrast, (1, 1)),
                 (AdjustSaturation, self.saturation, (1, 1)), (AdjustHue, self.hue, (0, 0))]
        for i in rng.permutation(4):
            op, span, identity = steps[i]
            if tuple(span) != identity:
                img = op(float(rng.uniform(*span)))(img)
        return img


class _WithProb(ImageOperation, RandomDraws):
    """Apply `self._op` with probability `prob`."""

    def _apply(self, img):
        img = check_image(type(self).__name__, img)
        return self._op(img) if self._rng().random() < self.prob else img


class RandomGrayscale(_WithProb):
    """Mirrors `mindspore.dataset.vision.RandomGrayscale`: greyscale with the input's channel
    count, with probability `prob`."""

    def __init__(self, prob=0.1):
        self.prob = _prob(prob)

    def _op(self, img):
        return Grayscale(3 if img.ndim == 3 and img.shape[2] == 3 else 1)(img)


class RandomInvert(_WithProb):
    """Mirrors `mindspore.dataset.vision.RandomInvert`."""

    def __init__(self, prob=0.5):
        self.prob, self._op = _prob(prob), Invert()


class RandomEqualize(_WithProb):
    """Mirrors `mindspore.dataset.vision.RandomEqualize`."""

    def __init__(self, prob=0.5):
        self.prob, self._op = _prob(prob), Equalize()


class RandomAutoContrast(_WithProb):
    """Mirrors `mindspore.dataset.vision.RandomAutoContrast`."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        self._op = AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore, self.prob = cutoff, ignore, _prob(prob)


class RandomAdjustSharpness(_WithProb):
    """Mirrors `mindspore.dataset.vision.RandomAdjustSharpness`."""

    def __init__(self, degree, prob=0.5):
        self._op = AdjustSharpness(degree)
        self.degree, self.prob = degree, _prob(prob)


class RandomColor(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomColor`: saturation factor ~ U(degrees)."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range("RandomColor", "degrees", degrees)

    def _apply(self, img):
        return AdjustSaturation(float(self._rng().uniform(*self.degrees)))(img)


class RandomSharpness(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomSharpness`: sharpness factor ~ U(degrees)."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = _range("RandomSharpness", "degrees", degrees)

    def _apply(self, img):
        return AdjustSharpness(float(self._rng().uniform(*self.degrees)))(img)


class RandomPosterize(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomPosterize`: bits ~ uniform integers in
    [min, max]."""

    def __init__(self, bits=(8, 8)):
        bits = (bits, bits) if isinstance(bits, numbers.Number) else tuple(bits)
        if not 1 <= bits[0] <= bits[1] <= 8:
            raise ValueError(f"Input bits is not within the required interval of [1, 8]: "
                             f"{bits!r}.")
        self.bits = bits

    def _apply(self, img):
        return Posterize(int(self._rng().integers(self.bits[0], self.bits[1] + 1)))(img)


class RandomSolarize(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomSolarize`: a threshold range drawn from
    `threshold` (two sorted uniform integers)."""

    def __init__(self, threshold=(0, 255)):
        if not 0 <= threshold[0] <= threshold[1] <= 255:
            raise ValueError(f"Input threshold is not within the required interval of [0, 255]: "
                             f"{threshold!r}.")
        self.threshold = tuple(threshold)

    def _apply(self, img):
        lo, hi = sorted(self._rng().integers(self.threshold[0], self.threshold[1] + 1, 2))
        return Solarize((int(lo), int(hi)))(img)


_EIGVAL = np.array([0.2175, 0.0188, 0.0045])
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                    [-0.5836, -0.6948, 0.4203]])


class RandomLighting(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomLighting`: AlexNet's PCA lighting noise, the
    weights ~ N(0, alpha), on uint8 (0-255) or float images."""

    def __init__(self, alpha=0.05):
        if alpha < 0:
            raise ValueError("Input alpha is not within the required interval of [0, inf).")
        self.alpha = alpha

    def _apply(self, img):
        img = check_image("RandomLighting", img, (3,))
        shift = _EIGVEC @ (self._rng().normal(0, self.alpha, 3) * _EIGVAL)
        if img.dtype == np.uint8:
            return np.clip(np.rint(img + shift * 255.0), 0, 255).astype(np.uint8)
        return (img + shift).astype(img.dtype)
