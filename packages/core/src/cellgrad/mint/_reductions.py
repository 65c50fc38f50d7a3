"""mint's reductions, sorts and scans: torch's returns ((values, int64 indices) along a dim)
and defaults."""

import numpy as np

from cellgrad import numpy as mnp
from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor

__all__ = [
    "argmin", "cummin", "argsort", "sort", "topk", "bincount", "max", "min", "amax", "amin",
    "mean", "median", "kthvalue", "cummax", "std_mean", "var_mean", "count_nonzero", "norm",
    "unique", "unique_consecutive", "histc",
]


def argmin(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.argmin`."""
    return ops.argmin(input, dim, keepdim).astype(mstype.int64)


def cummin(input, dim):
    """Mirrors `mindspore.mint.cummin`: (running minimum, index of the last minimum)."""
    values, indices = ops.cummin(input, dim)
    return values, indices.astype(mstype.int64)


def argsort(input, dim=-1, descending=False, stable=False):
    """Mirrors `mindspore.mint.argsort` (a stable sort whatever `stable` says)."""
    return sort(input, dim=dim, descending=descending, stable=stable)[1]


def sort(input, *, dim=-1, descending=False, stable=False):
    """Mirrors `mindspore.mint.sort`: (values, int64 indices); equal elements keep their order."""
    values, indices = ops.sort(input, dim, descending)
    return values, indices.astype(mstype.int64)


def topk(input, k, dim=-1, largest=True, sorted=True):
    """Mirrors `mindspore.mint.topk`: (values, int64 indices)."""
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, indices.astype(mstype.int64)


def bincount(input, weights=None, minlength=0):
    """Mirrors `mindspore.mint.bincount`: int64 counts, or sums of `weights`."""
    out = mnp.bincount(input, weights, minlength)
    return out.astype(mstype.int64) if weights is None else out


def max(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.max`: the maximum when `dim` is None, (values, indices) along
    `dim`, or the elementwise maximum when `dim` is a Tensor (torch's `max(input, other)`)."""
    return _extreme("max", ops.amax, ops.argmax, ops.maximum, input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.min` (see `max`)."""
    return _extreme("min", ops.amin, _argmin, ops.minimum, input, dim, keepdim)


def _argmin(input, dim, keepdim):
    return ops.argmin(input, dim, keepdim)


def _extreme(name, reduce, arg, elementwise, input, dim, keepdim):
    if isinstance(dim, Tensor):
        return elementwise(input, dim)
    if dim is None:
        if keepdim:
            raise TypeError(f"For 'mint.{name}', 'keepdim' needs 'dim', but got dim=None.")
        return reduce(input)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"For 'mint.{name}', 'dim' must be an int or None, but got "
                        f"{type(dim).__name__}.")
    return reduce(input, dim, keepdim), arg(input, dim, keepdim).astype(mstype.int64)


def amax(input, dim=(), keepdim=False):
    """Mirrors `mindspore.mint.amax` (`dim=()` reduces every dimension)."""
    return ops.amax(input, None if dim == () else dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """Mirrors `mindspore.mint.amin` (`dim=()` reduces every dimension)."""
    return ops.amin(input, None if dim == () else dim, keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.mean`."""
    if dtype is not None:
        input = input.astype(dtype)
    return ops.mean(input, dim, keepdim)


def median(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.median`: the lower median; with `dim`, (values, indices)."""
    if dim is None:
        flat = input.reshape(-1)
        return ops.sort(flat)[0][(flat.shape[0] - 1) // 2]
    return kthvalue(input, (input.shape[dim] + 1) // 2, dim, keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    """Mirrors `mindspore.mint.kthvalue`: the k-th smallest along `dim`, (values, indices)."""
    size = input.shape[dim] if input.ndim else 1
    if not 1 <= k <= size:
        raise ValueError(f"For 'mint.kthvalue', 'k' must be in [1, {size}], but got {k}.")
    values, indices = ops.sort(input, dim)
    index = Tensor(np.array([k - 1]), mstype.int64)
    values = ops.index_select(values, dim, index)
    indices = ops.index_select(indices, dim, index).astype(mstype.int64)
    if not keepdim:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def cummax(input, dim):
    """Mirrors `mindspore.mint.cummax`: (running maximum, index of the last maximum)."""
    neg_values, indices = ops.cummin(-input, dim)
    return -neg_values, indices.astype(mstype.int64)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """Mirrors `mindspore.mint.std_mean`."""
    return (ops.std(input, dim, correction, keepdim), ops.mean(input, dim, keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """Mirrors `mindspore.mint.var_mean`."""
    return (ops.var(input, dim, correction, keepdim), ops.mean(input, dim, keepdim))


def count_nonzero(input, dim=None):
    """Mirrors `mindspore.mint.count_nonzero` (int64)."""
    return ops.sum(ops.ne(input, 0).astype(mstype.int64), dim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.norm`: 'fro' and numbers are vector norms over `dim` (all
    elements when None)."""
    if dtype is not None:
        input = input.astype(dtype)
    if p == "nuc":
        raise ValueError("For 'mint.norm', p='nuc' needs singular values, which cellgrad does not "
                         "compute yet; use p='fro' or a number.")
    return _vector_norm(input, 2 if p == "fro" else p, dim, keepdim)


def _vector_norm(x, p, dim, keepdim):
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise ValueError(f"For 'mint.norm', 'p' must be a number, 'fro' or 'nuc', but got {p!r}.")
    magnitude = ops.abs(x)
    if p == float("inf"):
        return ops.amax(magnitude, dim, keepdim)
    if p == float("-inf"):
        return ops.amin(magnitude, dim, keepdim)
    if p == 0:
        return ops.sum(ops.ne(x, 0).astype(x.dtype), dim, keepdim)
    if p == 2:
        return ops.sqrt(ops.sum(x * x, dim, keepdim))
    return ops.sum(magnitude ** p, dim, keepdim) ** (1.0 / p)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Mirrors `mindspore.mint.unique`."""
    return input.unique(sorted, return_inverse, return_counts, dim)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Mirrors `mindspore.mint.unique_consecutive`: collapses runs of equal elements (of equal
    slices along `dim`); inverse indices and counts are int64."""
    array = input.asnumpy()
    if dim is None:
        array = array.reshape(-1)
        axis = 0
    else:
        axis = dim % array.ndim
    moved = np.moveaxis(array, axis, 0).reshape(array.shape[axis], -1)
    starts = np.ones(moved.shape[0], bool)
    starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
    keep = np.flatnonzero(starts)
    out = [Tensor(np.take(array, keep, axis=axis))]
    if return_inverse:
        out.append(Tensor(np.cumsum(starts).astype(np.int64) - 1))
    if return_counts:
        out.append(Tensor(np.diff(np.append(keep, moved.shape[0])).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def histc(input, bins=100, min=0, max=0):
    """Mirrors `mindspore.mint.histc`: `bins` equal bins over [min, max] (the data's range when
    both are 0); the result has the input's dtype."""
    array = input.asnumpy()
    low, high = float(min), float(max)
    if low == high == 0:
        low, high = float(array.min()), float(array.max())
    if low > high:
        raise ValueError(f"For 'mint.histc', 'max' must be >= 'min', but got min={min}, max={max}.")
    counts, _ = np.histogram(array, bins, (low, high))
    return Tensor(counts.astype(array.dtype))
