"""Math cells: `nn.MatMul`, `nn.Norm`, `nn.Moments`, `nn.ReduceLogSumExp`, `nn.Tril`,
`nn.Triu`, `nn.Range`, `nn.OneHot`, `nn.L1Regularizer`."""

import numpy as np

from cellgrad import ops
from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad.ops import functional as F
from cellgrad_nn.functional import _checks


def _axes(axis, ndim):
    """MindSpore's axis argument: () or None for every axis."""
    if axis is None or axis == ():
        return tuple(range(ndim))
    return axis


class MatMul(Cell):
    """Mirrors `mindspore.nn.MatMul`: x1 @ x2 with optional transposes of the last two axes,
    broadcasting batch dimensions."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', the type of '{name}' should be 'bool', but got "
                                f"type '{type(value).__name__}'.")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1:
            x1 = F.swapaxes(x1, -1, -2)
        if self.transpose_x2:
            x2 = F.swapaxes(x2, -1, -2)
        return F.matmul(x1, x2)


class Norm(Cell):
    """Mirrors `mindspore.nn.Norm`: the Euclidean norm over `axis` (every axis for ())."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        return F.sqrt(F.sum(F.square(x), _axes(self.axis, x.ndim), self.keep_dims))


class Moments(Cell):
    """Mirrors `mindspore.nn.Moments`: (mean, population variance) over `axis`."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        self.axis, self.keep_dims = axis, bool(keep_dims)

    def construct(self, x):
        axis = _axes(self.axis, x.ndim)
        mean = F.mean(x, axis, True)
        variance = F.mean(F.square(x - mean), axis, self.keep_dims)
        return (mean if self.keep_dims else F.squeeze(mean, axis)), variance


class ReduceLogSumExp(Cell):
    """Mirrors `mindspore.nn.ReduceLogSumExp`: log(sum(exp(x))) over `axis`, stably."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        return ops.logsumexp(x, _axes(self.axis, x.ndim), self.keep_dims)


class Tril(Cell):
    """Mirrors `mindspore.nn.Tril`: `construct(x, k=0)` keeps the k-th diagonal and below."""

    def __init__(self):
        super().__init__()

    def construct(self, x, k=0):
        return ops.tril(x, k)


class Triu(Cell):
    """Mirrors `mindspore.nn.Triu`: `construct(x, k=0)` keeps the k-th diagonal and above."""

    def __init__(self):
        super().__init__()

    def construct(self, x, k=0):
        return ops.triu(x, k)


class Range(Cell):
    """Mirrors `mindspore.nn.Range`: `construct()` gives [start, limit) by delta (or [0, start)
    without a limit); Int32 for ints, Float32 otherwise."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if limit is None:
            start, limit = 0, start
        values = (start, limit, delta)
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values):
            raise TypeError(f"For 'Range', 'start', 'limit' and 'delta' must be int or float, "
                            f"but got {values}.")
        if delta == 0:
            raise ValueError("For 'Range', the 'delta' cannot be 0.")
        dtype = np.int32 if all(isinstance(v, int) for v in values) else np.float32
        self._values = np.arange(start, limit, delta).astype(dtype)

    def construct(self):
        from cellgrad import Tensor

        return Tensor(self._values.copy())


class OneHot(Cell):
    """Mirrors `mindspore.nn.OneHot`."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=float32):
        super().__init__()
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        from cellgrad import Tensor

        on = Tensor(np.asarray(self.on_value), self.dtype)
        off = Tensor(np.asarray(self.off_value), self.dtype)
        return ops.one_hot(indices, self.depth, on, off, self.axis)


class L1Regularizer(Cell):
    """Mirrors `mindspore.nn.L1Regularizer`: scale * sum(|weights|)."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the type of 'scale' should be 'int', 'float', "
                            f"but got type '{type(scale).__name__}'.")
        if scale <= 0 or not np.isfinite(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0 and "
                             f"finite, but got {scale}.")
        self.scale = float(scale)

    def construct(self, weights):
        _checks.tensor("L1Regularizer", "weights", weights)
        return F.sum(F.abs(weights)) * self.scale
