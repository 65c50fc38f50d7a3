"""Joining and splitting functions of `mindspore.numpy.array_ops` (concatenate, *stack, split,
array_split, ...), on the recorded concat and split ops."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad.numpy._common import (
    MAX_NUMPY_DIMS,
    axis_in_range,
    check_tensor,
    expand,
    promote_all,
)
from cellgrad.numpy._shapes import ravel
from cellgrad.ops import functional as F


def concatenate(arrays, axis=0):
    """Mirrors `mindspore.numpy.concatenate`: dtypes promote; `axis=None` joins raveled
    inputs; a single Tensor is treated as the sequence of its rows."""
    if arrays is None:
        raise TypeError("For 'concatenate', expect Union[Tensor, tuple(Tensor), list(Tensor)], "
                        "but got None.")
    if isinstance(arrays, TensorBuffer):
        if axis is None or axis >= MAX_NUMPY_DIMS:
            return ravel(arrays)
        ndim = arrays.ndim
        axis = axis_in_range("concatenate", axis, ndim - 1)
        shape = tuple(arrays.shape)
        perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, ndim))
        new_shape = shape[1:axis + 1] + (shape[0] * shape[axis + 1],) + shape[axis + 2:]
        return F.reshape(F.transpose(arrays, perm), new_shape)
    arrays = tuple(arrays)
    if not arrays:
        raise ValueError("For 'concatenate', need at least one Tensor to concatenate.")
    check_tensor("concatenate", *arrays)
    if axis is None or axis >= MAX_NUMPY_DIMS:
        return F.concat(promote_all([ravel(a) for a in arrays]), -1)
    axis = axis_in_range("concatenate", axis, arrays[0].ndim)
    if len(arrays) == 1:
        return arrays[0]
    return F.concat(promote_all(arrays), axis)


def append(arr, values, axis=None):
    """Mirrors `mindspore.numpy.append`."""
    check_tensor("append", arr, values)
    if axis is None:
        arr, values = ravel(arr), ravel(values)
    else:
        axis_in_range("append", axis, arr.ndim)
    if arr.ndim != values.ndim:
        raise ValueError(f"For 'append', all tensors must have same number of dimensions, got "
                         f"{arr.ndim} and {values.ndim}.")
    return concatenate((arr, values), axis)


def _stack_sequence(op, tup, widen, axis):
    """column_stack/vstack/hstack/dstack: a Tensor passes through; a sequence is widened
    and concatenated (one dtype required, as MindSpore's Concat kernel)."""
    if isinstance(tup, TensorBuffer):
        return tup
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"For '{op}', Tensor or, list or tuple of tensors are required, but "
                        f"got {type(tup).__name__}.")
    if not tup:
        raise ValueError(f"For '{op}', need at least one tensor to concatenate.")
    check_tensor(op, *tup)
    parts = [widen(t) for t in tup]
    return F.concat(parts, axis(parts) if callable(axis) else axis)


def column_stack(tup):
    """Mirrors `mindspore.numpy.column_stack`: 1-D inputs become columns."""
    return _stack_sequence("column_stack", tup,
                           lambda t: F.reshape(t, (-1, 1)) if t.ndim < 2 else t, 1)


def vstack(tup):
    """Mirrors `mindspore.numpy.vstack`."""
    return _stack_sequence("vstack", tup, lambda t: expand(t, 2), 0)


def hstack(tup):
    """Mirrors `mindspore.numpy.hstack`."""
    return _stack_sequence("hstack", tup, lambda t: expand(t, 1),
                           lambda parts: 0 if parts[0].ndim <= 1 else 1)


def dstack(tup):
    """Mirrors `mindspore.numpy.dstack`: 1-D (N,) becomes (1, N, 1), 2-D (M, N) (M, N, 1)."""
    def widen(t):
        t = expand(t, 2)
        return F.expand_dims(t, 2) if t.ndim == 2 else t

    return _stack_sequence("dstack", tup, widen, 2)


def stack(arrays, axis=0):
    """Mirrors `mindspore.numpy.stack` (dtypes promote; a Tensor stacks its rows)."""
    if isinstance(arrays, TensorBuffer):
        ndim = arrays.ndim
        axis %= ndim
        perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, ndim))
        return F.transpose(arrays, perm)
    if not isinstance(arrays, (list, tuple)):
        raise ValueError(f"For 'stack', input arrays must be Tensor, tuple, or list, but got "
                         f"{type(arrays).__name__}.")
    if not arrays:
        raise ValueError("For 'stack', need at least one Tensor to stack.")
    check_tensor("stack", *arrays)
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) > 1:
        raise ValueError(f"For 'stack', all input arrays must have the same shape, got "
                         f"{[tuple(a.shape) for a in arrays]}.")
    ndim = arrays[0].ndim + 1
    axis = axis_in_range("stack", axis, ndim)
    return concatenate(tuple(F.expand_dims(a, axis) for a in arrays), axis)


def _split(x, indices_or_sections, op, axis):
    check_tensor(op, x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For '{op}', 'axis' must be an int, but got {type(axis).__name__}.")
    axis = axis_in_range(op, axis, x.ndim)
    length = x.shape[axis]
    ios = indices_or_sections
    if isinstance(ios, int) and not isinstance(ios, bool):
        if ios <= 0:
            raise ValueError(f"For '{op}', the number of sections must be positive, got {ios}.")
        if ios > length:
            raise ValueError(f"For '{op}', empty tensor encountered: {ios} sections of an axis "
                             f"of length {length}.")
        if length % ios and op != "array_split":
            raise ValueError(f"For '{op}', x_shape[{axis}] must be divisible by output_num = "
                             f"{ios}, but got {length}.")
        base, extra = divmod(length, ios)
        sizes = [base + 1] * extra + [base] * (ios - extra)
        return tuple(F.split(x, sizes, axis)) if ios > 1 else (x,)
    if isinstance(ios, (list, tuple)) and all(
            isinstance(i, int) and not isinstance(i, bool) for i in ios):
        cuts = [i + length if i < 0 else i for i in ios] + [length]
        sizes = []
        for begin, end in zip([0] + cuts[:-1], cuts):
            if min(end, length) <= begin:
                raise ValueError(f"For '{op}', empty sub-tensor encountered: indices "
                                 f"{list(ios)} of an axis of length {length}.")
            sizes.append(min(end, length) - begin)
        return list(F.split(x, sizes, axis)) if len(sizes) > 1 else [x]
    raise TypeError(f"For '{op}', 'indices_or_sections' should be integer, tuple(int) or "
                    f"list(int), but got {ios!r}.")


def split(x, indices_or_sections, axis=0):
    """Mirrors `mindspore.numpy.split`: equal sections (a tuple) or cut points (a list)."""
    return _split(x, indices_or_sections, "split", axis)


def array_split(x, indices_or_sections, axis=0):
    """Mirrors `mindspore.numpy.array_split`: like split, sections may differ by one."""
    return _split(x, indices_or_sections, "array_split", axis)


def vsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.vsplit` (axis 0)."""
    return _split(x, indices_or_sections, "split", 0)


def hsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.hsplit` (axis 1)."""
    return _split(x, indices_or_sections, "split", 1)


def dsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.dsplit` (axis 2)."""
    return _split(x, indices_or_sections, "split", 2)
