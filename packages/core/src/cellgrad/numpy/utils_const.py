"""Mirrors `mindspore.numpy.utils_const`: the compile-time shape and axis helpers
`mindspore.numpy` is built from (MindSpore's tests import some of them). On cellgrad they are
plain Python over tuples, evaluated eagerly as MindSpore's constexpr evaluation does."""

import operator
from itertools import accumulate


def _infer_out_shape(*shapes):
    """The broadcast shape of `shapes`; ValueError when they do not broadcast."""
    shape_out = []
    max_len = max(len(it) for it in shapes)
    for i in range(max_len):
        items = [it[i - max_len + len(it)] if i - max_len + len(it) >= 0 else 1 for it in shapes]
        max_size = 0 if 0 in items else max(items)
        if any(item not in (1, max_size) for item in items):
            raise ValueError(f"operands could not be broadcast together with shapes {*shapes,}")
        shape_out.append(max_size)
    return tuple(shape_out)


def _can_broadcast(*shapes):
    """Whether `shapes` broadcast together."""
    try:
        _infer_out_shape(*shapes)
    except ValueError:
        return False
    return True


def _check_axis_in_range(axis, ndim):
    """`axis` normalised into [0, ndim); TypeError / ValueError as MindSpore's."""
    if not isinstance(axis, int):
        raise TypeError(f"axes should be integers, not {type(axis)}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis - axis // ndim * ndim


def _canonicalize_axis(axis, ndim):
    """An int axis or sequence of axes made non-negative (a sequence comes back sorted, as a
    tuple); ValueError for an axis out of range or a repeated axis."""
    if isinstance(axis, int):
        axis = [axis]
    for ax in axis:
        _check_axis_in_range(ax, ndim)
    axis = tuple(ax + ndim if ax < 0 else ax for ax in axis)
    if not all(axis.count(el) <= 1 for el in axis):
        raise ValueError(f"duplicate axes in {axis}.")
    return tuple(sorted(axis)) if len(axis) > 1 else axis[0]


def _check_element_int(lst):
    """True when every element of `lst` is an int; TypeError naming the first that is not."""
    for item in lst:
        if not isinstance(item, int):
            raise TypeError(f"Each element in {lst} should be integer, but got {type(item)}.")
    return True


def _check_shape_aligned(shape1, shape2):
    """ValueError unless the last dimensions agree (an inner product's requirement)."""
    if shape1[-1] != shape2[-1]:
        raise ValueError(f"shapes {shape1} {shape2} not aligned: {shape1[-1]} (dim 0) != "
                         f"{shape2[-1]} (dim 0)")


def _is_shape_empty(shp):
    """Whether a shape holds no elements; TypeError for anything but a tuple or list (as
    MindSpore's unknown-shape check raises)."""
    if not isinstance(shp, (tuple, list)):
        raise TypeError(f"The input of IsDimUnKnown should be tuple but got {shp!r}")
    return 0 in shp


def _expanded_shape(ndim, axis_size, axis):
    """A shape of `ndim` ones with `axis_size` at `axis`."""
    return tuple(axis_size if i == axis else 1 for i in range(ndim))


def _add_unit_axes(shape, ndim, append=False):
    """`shape` padded with ones to `ndim` dimensions, in front (or behind when `append`)."""
    if isinstance(shape, int):
        shape = (shape,)
    ndim_diff = ndim - len(shape)
    if ndim_diff > 0:
        shape = list(shape) + [1] * ndim_diff if append else [1] * ndim_diff + list(shape)
    return tuple(shape)


def _tile_size(shape, out_shape, ndim):
    """Per-dimension repeats that tile `shape` up to `out_shape`."""
    size = [1] * ndim
    for idx, (i, j) in enumerate(zip(shape, out_shape)):
        if i != j:
            size[idx] = j
    return tuple(size)


def _broadcast_tuples(tup1, tup2):
    """Two int-or-sequence arguments (roll's shift and axis) broadcast to one length."""
    tup1 = (tup1,) if isinstance(tup1, int) else tup1
    tup2 = (tup2,) if isinstance(tup2, int) else tup2
    if not isinstance(tup1, (tuple, list)) or not isinstance(tup2, (tuple, list)):
        raise TypeError("input shift and axis must be tuple or list or int.")
    if not (len(tup1) == len(tup2) or len(tup1) == 1 or len(tup2) == 1):
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape")
    if len(tup1) == len(tup2):
        return tup1, tup2
    if len(tup1) == 1:
        return tup1 * len(tup2), tup2
    return tup1, tup2 * len(tup1)


def _seq_prod(seq1, seq2):
    """The element-wise product of two sequences."""
    return tuple(x * y for x, y in zip(seq1, seq2))


def _tuple_slice(tup, start, end):
    return tup[start:end]


def _cumprod(x):
    return tuple(accumulate(x, operator.mul))


def _iota(dtype, num, increasing=True):
    """A 1-D Tensor [0, 1, ..., num-1] (reversed unless `increasing`) of `dtype`."""
    from cellgrad.common.tensor import Tensor

    if num <= 0:
        raise ValueError("zero shape Tensor is not currently supported.")
    values = range(int(num)) if increasing else range(int(num) - 1, -1, -1)
    return Tensor(list(values), dtype)


def _empty(dtype, shape):
    """An uninitialised Tensor of `dtype` and `shape` (zeros on cellgrad)."""
    from cellgrad.common.tensor import Tensor

    return Tensor(dtype=dtype, shape=shape)


def _abs(arg):
    return abs(arg)


def _max(*args):
    return max(*args)


def _min(*args):
    return min(*args)


def _in(x, y):
    return x in y
