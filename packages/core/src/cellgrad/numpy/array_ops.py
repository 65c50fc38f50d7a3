"""Mirrors `mindspore.numpy.array_ops`: reshaping, joining, splitting, rearranging and indexing
Tensors. Every function is built on cellgrad's recorded ops (reshape, transpose, concat, split,
gather, where, ...), so gradients flow wherever the values come from the inputs."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad.numpy._common import (
    axis_in_range,
    check_tensor,
    to_tensor,
)
from cellgrad.numpy._joining import (  # noqa: F401 (re-exported)
    append,
    array_split,
    column_stack,
    concatenate,
    dsplit,
    dstack,
    hsplit,
    hstack,
    split,
    stack,
    vsplit,
    vstack,
)
from cellgrad.numpy._selection import (  # noqa: F401 (re-exported)
    argwhere,
    choose,
    intersect1d,
    piecewise,
    repeat,
    select,
    take,
    take_along_axis,
    unique,
    unravel_index,
    where,
)
from cellgrad.numpy._shapes import (  # noqa: F401 (re-exported)
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_arrays,
    broadcast_to,
    expand_dims,
    flip,
    fliplr,
    flipud,
    moveaxis,
    ravel,
    reshape,
    roll,
    rollaxis,
    rot90,
    squeeze,
    swapaxes,
    tile,
    transpose,
)
from cellgrad.ops import functional as F

__all__ = [
    "append", "apply_along_axis", "apply_over_axes", "argwhere", "array_split", "array_str",
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays", "broadcast_to", "choose",
    "column_stack", "concatenate", "dsplit", "dstack", "expand_dims", "flip", "fliplr", "flipud",
    "hsplit", "hstack", "intersect1d", "moveaxis", "piecewise", "ravel", "repeat", "reshape",
    "roll", "rollaxis", "rot90", "select", "size", "split", "squeeze", "stack", "swapaxes",
    "take", "take_along_axis", "tile", "transpose", "unique", "unravel_index", "vsplit",
    "vstack", "where",
]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Mirrors `mindspore.numpy.apply_along_axis`: `func1d` on each 1-D slice along `axis`."""
    check_tensor("apply_along_axis", arr)
    ndim, shape = arr.ndim, tuple(arr.shape)
    axis = axis_in_range("apply_along_axis", axis, ndim)
    flat = F.reshape(moveaxis(arr, axis, -1), (-1, shape[axis]))
    stacked = stack([func1d(flat[i], *args, **kwargs) for i in range(flat.shape[0])])
    res = F.reshape(stacked, shape[:axis] + shape[axis + 1:] + tuple(stacked.shape[1:]))
    extra = res.ndim - ndim + 1
    if extra >= 1:
        res = moveaxis(res, tuple(range(ndim - 1, res.ndim)), tuple(range(axis, axis + extra)))
    return res


def apply_over_axes(func, a, axes):
    """Mirrors `mindspore.numpy.apply_over_axes`: `func(a, axis=...)` over each axis in turn,
    the reduced axis kept."""
    a = to_tensor(a, op="apply_over_axes")
    res = a
    for axis in (axes,) if isinstance(axes, int) else axes:
        res = func(res, axis=axis)
        if res.ndim != a.ndim:
            res = F.expand_dims(res, axis)
        if res.ndim != a.ndim:
            raise ValueError("For 'apply_over_axes', function is not returning a tensor of the "
                             "correct shape.")
    return res


def size(a, axis=None):
    """Mirrors `mindspore.numpy.size`: the number of elements (along `axis`), an int."""
    a = to_tensor(a, op="size")
    if axis is None:
        return a.size
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For 'size', axis argument should be integer, but got "
                        f"{type(axis).__name__}.")
    return a.shape[axis_in_range("size", axis, a.ndim)]


def array_str(a):
    """Mirrors `mindspore.numpy.array_str`: the Tensor's printed form."""
    if not isinstance(a, TensorBuffer):
        raise TypeError(f"For 'array_str', expect input to be tensor, but got "
                        f"{type(a).__name__}.")
    return str(a)
