"""Transforms made of transforms: Compose, RandomApply, RandomChoice, RandomOrder."""

from cellgrad_dataset.transforms.base import PyTensorOperation, TensorOperation
from cellgrad_dataset.transforms.randomness import RandomDraws


def _check_transforms(op, transforms):
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise TypeError(f"For '{op}', transforms must be a non-empty list of transforms, but "
                        f"got {transforms!r}.")
    bad = [t for t in transforms if not callable(t)]
    if bad:
        raise TypeError(f"For '{op}', every transform must be callable, but got {bad[0]!r}.")
    return list(transforms)


def _run(transforms, values):
    for t in transforms:
        out = t(*values)
        values = tuple(out) if isinstance(out, tuple) else (out,)
    return values[0] if len(values) == 1 else values


class Compose(TensorOperation, PyTensorOperation):
    """Mirrors `mindspore.dataset.transforms.Compose`: the transforms in order, each given
    what the previous returned."""

    def __init__(self, transforms):
        PyTensorOperation.__init__(self)
        self.transforms = _check_transforms("Compose", transforms)

    def __call__(self, *input_tensor_list):
        return _run(self.transforms, input_tensor_list)

    @staticmethod
    def reduce(operations):
        """Mirrors `Compose.reduce`: the operations list as `map` runs it."""
        return list(operations)


class RandomApply(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.transforms.RandomApply`: all the transforms with
    probability `prob`, else none."""

    def __init__(self, transforms, prob=0.5):
        self.transforms = _check_transforms("RandomApply", transforms)
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"Input prob is not within the required interval of [0.0, 1.0], "
                             f"got {prob}.")
        self.prob = prob

    def __call__(self, *input_tensor_list):
        if self._rng().random() < self.prob:
            return _run(self.transforms, input_tensor_list)
        return input_tensor_list[0] if len(input_tensor_list) == 1 else input_tensor_list


class RandomChoice(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.transforms.RandomChoice`: one of the transforms, uniformly."""

    def __init__(self, transforms):
        self.transforms = _check_transforms("RandomChoice", transforms)

    def __call__(self, *input_tensor_list):
        t = self.transforms[int(self._rng().integers(len(self.transforms)))]
        return _run([t], input_tensor_list)


class RandomOrder(TensorOperation, RandomDraws):
    """Mirrors `mindspore.dataset.transforms.RandomOrder`: all the transforms, in a random
    order."""

    def __init__(self, transforms):
        self.transforms = _check_transforms("RandomOrder", transforms)

    def __call__(self, *input_tensor_list):
        order = self._rng().permutation(len(self.transforms))
        return _run([self.transforms[i] for i in order], input_tensor_list)


def not_random(function):
    """Mirrors `mindspore.dataset.transforms.not_random`: marks a Python function as
    deterministic (MindSpore uses the mark for caching)."""
    function.random = False
    return function
