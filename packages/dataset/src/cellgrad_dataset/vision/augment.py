"""Policy augmentations: AutoAugment, RandAugment, TrivialAugmentWide, UniformAugment,
RandomSelectSubpolicy. The operations and magnitude bins are torchvision's, which
MindSpore's C++ kernels follow; AutoAugment's policies are MindSpore's (its documentation)."""

import math

import numpy as np

from cellgrad_dataset.transforms.randomness import RandomDraws
from cellgrad_dataset.vision.adjust import (
    AdjustBrightness,
    AdjustContrast,
    AdjustSaturation,
    AdjustSharpness,
    AutoContrast,
    Equalize,
    Invert,
    Posterize,
    Solarize,
)
from cellgrad_dataset.vision.color import _uint8_rgb
from cellgrad_dataset.vision.geometry import Rotate, affine_matrix
from cellgrad_dataset.vision.image import ImageOperation, check_inter, fill_tuple, hw, warp_affine
from cellgrad_dataset.vision.utils import AutoAugmentPolicy, Inter


def _bins(name, num_bins, img_hw):
    """The magnitude of each bin for one operation (and whether it takes a random sign)."""
    h, w = img_hw
    lin = np.linspace
    table = {
        "ShearX": (lin(0.0, 0.3, num_bins), True), "ShearY": (lin(0.0, 0.3, num_bins), True),
        "TranslateX": (lin(0.0, 150.0 / 331.0 * w, num_bins), True),
        "TranslateY": (lin(0.0, 150.0 / 331.0 * h, num_bins), True),
        "Rotate": (lin(0.0, 30.0, num_bins), True),
        "Brightness": (lin(0.0, 0.9, num_bins), True), "Color": (lin(0.0, 0.9, num_bins), True),
        "Contrast": (lin(0.0, 0.9, num_bins), True), "Sharpness": (lin(0.0, 0.9, num_bins), True),
        "Posterize": (8 - np.round(np.arange(num_bins) / ((num_bins - 1) / 4)), False),
        "Solarize": (lin(255.0, 0.0, num_bins), False),
    }
    return table.get(name, (np.zeros(num_bins), False))


def apply_op(img, name, magnitude, interpolation, fill):
    """One augmentation operation at `magnitude` on a uint8 RGB image."""
    if name in ("ShearX", "ShearY", "TranslateX", "TranslateY"):
        # as MindSpore's ApplyAugment: the shear magnitude read as radians; the translations
        # in pixels (torchvision's meaning)
        shear = (math.degrees(magnitude), 0.0) if name == "ShearX" else \
            (0.0, math.degrees(magnitude)) if name == "ShearY" else (0.0, 0.0)
        shift = (magnitude, 0.0) if name == "TranslateX" else \
            (0.0, magnitude) if name == "TranslateY" else (0.0, 0.0)
        m = affine_matrix(hw(img), 0.0, shift, 1.0, shear)
        return warp_affine(name, img, m, hw(img), interpolation, fill)
    if name == "Rotate":
        return Rotate(magnitude, interpolation, fill_value=fill)(img)
    simple = {"Brightness": lambda: AdjustBrightness(1.0 + magnitude),
              "Color": lambda: AdjustSaturation(1.0 + magnitude),
              "Contrast": lambda: AdjustContrast(1.0 + magnitude),
              "Sharpness": lambda: AdjustSharpness(1.0 + magnitude),
              "Posterize": lambda: Posterize(int(magnitude)),
              "Solarize": lambda: Solarize(float(magnitude)),
              "AutoContrast": AutoContrast, "Equalize": Equalize, "Invert": Invert}
    if name == "Identity":
        return img
    return simple[name]()(img)


class _Augment(ImageOperation, RandomDraws):
    def _op_at_bin(self, img, name, bin_index, num_bins):
        mags, signed = _bins(name, num_bins, hw(img))
        magnitude = float(mags[bin_index])
        if signed and self._rng().random() < 0.5:
            magnitude = -magnitude
        return apply_op(img, name, magnitude, self.interpolation, self.fill_value)


class AutoAugment(_Augment):
    """Mirrors `mindspore.dataset.vision.AutoAugment`: one of the policy's 25 sub-policies,
    each of its two operations applied with its probability."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        self.policy = AutoAugmentPolicy(policy)
        self.interpolation = check_inter("AutoAugment", interpolation)
        self.fill_value = fill_tuple("AutoAugment", fill_value)

    def _apply(self, img):
        img = _uint8_rgb("AutoAugment", img)
        rng = self._rng()
        sub = POLICIES[self.policy][int(rng.integers(len(POLICIES[self.policy])))]
        for name, prob, bin_index in sub:
            if rng.random() < prob:
                img = self._op_at_bin(img, name, bin_index or 0, 10)
        return img


_RAND_OPS = ("Identity", "Brightness", "Color", "Contrast", "Sharpness", "ShearX", "ShearY",
             "TranslateX", "TranslateY", "Rotate", "Posterize", "Solarize", "AutoContrast",
             "Equalize")


class RandAugment(_Augment):
    """Mirrors `mindspore.dataset.vision.RandAugment`: `num_ops` operations drawn uniformly,
    each at bin `magnitude` of `num_magnitude_bins`."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        if not 0 <= magnitude < num_magnitude_bins or num_magnitude_bins < 2 or num_ops < 0:
            raise ValueError(f"For 'RandAugment', need num_ops >= 0, num_magnitude_bins >= 2 "
                             f"and 0 <= magnitude < num_magnitude_bins; got {num_ops}, "
                             f"{magnitude}, {num_magnitude_bins}.")
        self.num_ops, self.magnitude = num_ops, magnitude
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = check_inter("RandAugment", interpolation)
        self.fill_value = fill_tuple("RandAugment", fill_value)

    def _apply(self, img):
        img = _uint8_rgb("RandAugment", img)
        for _ in range(self.num_ops):
            name = _RAND_OPS[int(self._rng().integers(len(_RAND_OPS)))]
            img = self._op_at_bin(img, name, self.magnitude, self.num_magnitude_bins)
        return img


class TrivialAugmentWide(_Augment):
    """Mirrors `mindspore.dataset.vision.TrivialAugmentWide`: one operation at a random bin
    (wider magnitude ranges)."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        if num_magnitude_bins < 2:
            raise ValueError(f"For 'TrivialAugmentWide', num_magnitude_bins must be >= 2, but "
                             f"got {num_magnitude_bins}.")
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = check_inter("TrivialAugmentWide", interpolation)
        self.fill_value = fill_tuple("TrivialAugmentWide", fill_value)

    def _apply(self, img):
        img = _uint8_rgb("TrivialAugmentWide", img)
        rng = self._rng()
        name = _RAND_OPS[int(rng.integers(len(_RAND_OPS)))]
        return self._op_at_bin(img, name, int(rng.integers(self.num_magnitude_bins)),
                               self.num_magnitude_bins)


class UniformAugment(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.UniformAugment`: `num_ops` of the transforms, drawn
    without replacement, applied in the drawn order."""

    def __init__(self, transforms, num_ops=2):
        if not transforms or not all(callable(t) for t in transforms):
            raise TypeError(f"For 'UniformAugment', transforms must be a non-empty list of "
                            f"transforms, but got {transforms!r}.")
        if not 1 <= num_ops <= len(transforms):
            raise ValueError(f"For 'UniformAugment', num_ops must be in [1, "
                             f"{len(transforms)}], but got {num_ops}.")
        self.transforms, self.num_ops = list(transforms), num_ops

    def _apply(self, img):
        for i in self._rng().choice(len(self.transforms), self.num_ops, replace=False):
            img = np.asarray(self.transforms[i](img))
        return img


class RandomSelectSubpolicy(ImageOperation, RandomDraws):
    """Mirrors `mindspore.dataset.vision.RandomSelectSubpolicy`: one sub-policy (a list of
    (transform, prob)) drawn uniformly, each transform applied with its probability."""

    def __init__(self, policy):
        if not policy or not all(isinstance(sub, (list, tuple)) and sub for sub in policy):
            raise TypeError(f"For 'RandomSelectSubpolicy', policy must be a non-empty list of "
                            f"non-empty lists of (transform, prob), but got {policy!r}.")
        self.policy = policy

    def _apply(self, img):
        rng = self._rng()
        for transform, prob in self.policy[int(rng.integers(len(self.policy)))]:
            if rng.random() < prob:
                img = np.asarray(transform(img))
        return img


POLICIES = {
    AutoAugmentPolicy.IMAGENET: [
        (('Posterize', 0.4, 8), ('Rotate', 0.6, 9)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
        (('Posterize', 0.6, 7), ('Posterize', 0.6, 6)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Equalize', 0.4, None), ('Rotate', 0.8, 8)),
        (('Solarize', 0.6, 3), ('Equalize', 0.6, None)),
        (('Posterize', 0.8, 5), ('Equalize', 1.0, None)),
        (('Rotate', 0.2, 3), ('Solarize', 0.6, 8)),
        (('Equalize', 0.6, None), ('Posterize', 0.4, 6)),
        (('Rotate', 0.8, 8), ('Color', 0.4, 0)),
        (('Rotate', 0.4, 9), ('Equalize', 0.6, None)),
        (('Equalize', 0.0, None), ('Equalize', 0.8, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Rotate', 0.8, 8), ('Color', 1.0, 2)),
        (('Color', 0.8, 8), ('Solarize', 0.8, 7)),
        (('Sharpness', 0.4, 7), ('Invert', 0.6, None)),
        (('ShearX', 0.6, 5), ('Equalize', 1.0, None)),
        (('Color', 0.4, 0), ('Equalize', 0.6, None)),
        (('Equalize', 0.4, None), ('Solarize', 0.2, 4)),
        (('Solarize', 0.6, 5), ('AutoContrast', 0.6, None)),
        (('Invert', 0.6, None), ('Equalize', 1.0, None)),
        (('Color', 0.6, 4), ('Contrast', 1.0, 8)),
        (('Equalize', 0.8, None), ('Equalize', 0.6, None)),
    ],
    AutoAugmentPolicy.CIFAR10: [
        (('Invert', 0.1, None), ('Contrast', 0.2, 6)),
        (('Rotate', 0.7, 2), ('TranslateX', 0.3, 9)),
        (('Sharpness', 0.8, 1), ('Sharpness', 0.9, 3)),
        (('ShearY', 0.5, 8), ('TranslateY', 0.7, 9)),
        (('AutoContrast', 0.5, None), ('Equalize', 0.9, None)),
        (('ShearY', 0.2, 7), ('Posterize', 0.3, 7)),
        (('Color', 0.4, 3), ('Brightness', 0.6, 7)),
        (('Sharpness', 0.3, 9), ('Brightness', 0.7, 9)),
        (('Equalize', 0.6, None), ('Equalize', 0.5, None)),
        (('Contrast', 0.6, 7), ('Sharpness', 0.6, 5)),
        (('Color', 0.7, 7), ('TranslateX', 0.5, 8)),
        (('Equalize', 0.8, None), ('Invert', 0.1, None)),
        (('TranslateY', 0.4, 3), ('Sharpness', 0.2, 6)),
        (('Brightness', 0.9, 6), ('Color', 0.2, 8)),
        (('Solarize', 0.5, 2), ('Invert', 0.0, None)),
        (('TranslateY', 0.9, 9), ('TranslateY', 0.7, 9)),
        (('Equalize', 0.2, None), ('Equalize', 0.6, None)),
        (('Color', 0.9, 9), ('Equalize', 0.6, None)),
        (('AutoContrast', 0.8, None), ('Solarize', 0.2, 8)),
        (('Brightness', 0.1, 3), ('Color', 0.7, 0)),
        (('Solarize', 0.4, 5), ('AutoContrast', 0.9, None)),
        (('AutoContrast', 0.9, None), ('Solarize', 0.8, 3)),
        (('TranslateY', 0.7, 9), ('AutoContrast', 0.9, None)),
        (('Equalize', 0.3, None), ('AutoContrast', 0.4, None)),
        (('Equalize', 0.2, None), ('AutoContrast', 0.6, None)),
    ],
    AutoAugmentPolicy.SVHN: [
        (('ShearX', 0.9, 4), ('Invert', 0.2, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.6, None), ('Solarize', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('AutoContrast', 0.8, None)),
        (('ShearY', 0.9, 8), ('Invert', 0.4, None)),
        (('ShearY', 0.9, 5), ('Solarize', 0.2, 6)),
        (('Invert', 0.9, None), ('AutoContrast', 0.8, None)),
        (('Equalize', 0.6, None), ('Rotate', 0.9, 3)),
        (('ShearX', 0.9, 4), ('Solarize', 0.3, 3)),
        (('ShearY', 0.8, 8), ('Invert', 0.7, None)),
        (('Equalize', 0.9, None), ('TranslateY', 0.6, 6)),
        (('Invert', 0.9, None), ('Equalize', 0.6, None)),
        (('Contrast', 0.3, 3), ('Rotate', 0.8, 4)),
        (('Invert', 0.8, None), ('TranslateY', 0.0, 2)),
        (('ShearY', 0.7, 6), ('Solarize', 0.4, 8)),
        (('Invert', 0.6, None), ('Rotate', 0.8, 4)),
        (('ShearY', 0.3, 7), ('TranslateX', 0.9, 3)),
        (('ShearX', 0.1, 6), ('Invert', 0.6, None)),
        (('Solarize', 0.7, 2), ('TranslateY', 0.6, 7)),
        (('ShearY', 0.8, 4), ('Invert', 0.8, None)),
        (('ShearX', 0.7, 9), ('TranslateY', 0.8, 3)),
        (('ShearY', 0.8, 5), ('AutoContrast', 0.7, None)),
        (('ShearX', 0.7, 2), ('Invert', 0.1, None)),
    ],
}
