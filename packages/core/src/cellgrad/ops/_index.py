"""Indexing (`Tensor.__getitem__`/`__setitem__`), gather and scatter-add, the segment sum.

The gradient of a read at an index is a scatter-add into zeros and vice versa, so the two
ops differentiate into each other and support any order of gradients.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad._errors import IndexRangeError
from cellgrad.ops._registry import define


def normalize_index(index):
    """Turn Tensors inside an index into numpy arrays; validate the index's element types."""
    if isinstance(index, tuple):
        return tuple(_index_part(i) for i in index)
    return _index_part(index)


def _index_part(i):
    if isinstance(i, TensorBuffer):
        a = i._data
        if a.dtype.kind not in "biu":
            raise IndexError(
                f"Tensor index must be an integer or bool Tensor, got dtype {i._dtype}.")
        return a
    if isinstance(i, list):
        return np.asarray([_index_part(v) for v in i]) if i else np.asarray(i, dtype=np.int64)
    if i is None or i is Ellipsis or isinstance(i, (int, np.integer, slice, np.ndarray, bool)):
        return i
    raise IndexError(
        f"Tensor index must be an int, slice, None, Ellipsis, bool, list or Tensor; "
        f"got {type(i).__name__}.")


def _is_basic(index):
    parts = index if isinstance(index, tuple) else (index,)
    return all(p is None or p is Ellipsis or isinstance(p, (int, np.integer, slice))
               and not isinstance(p, bool) for p in parts)


def getitem_index(index):
    """`normalize_index` for a read, with MindSpore's refusals of the indices that would select
    nothing (numpy's empty results): False, an empty or all-False list."""
    if index is False:
        raise IndexError("When tensor is indexed by a bool object, the value only support 'True'.")
    if isinstance(index, tuple) and any(i is False for i in index):
        raise IndexError("Bool element of tuple index must be 'True', but got 'False'.")
    if isinstance(index, list) and not any(i is not False for i in index):
        raise IndexError("When tensor is indexed by list, the list can't be empty.")
    return normalize_index(index)


def _getitem_fwd(x, index):
    try:
        out = x[index]
    except IndexError as e:
        raise IndexError(f"For 'getitem', index {index!r} is invalid for a tensor of shape "
                         f"{x.shape}: {e}") from None
    return np.asarray(out), (x.shape, index)


def _getitem_bwd(ctx, g):
    shape, index = ctx.saved
    return ctx.xp.index_add_zeros(shape, index, g)


def _index_add_zeros_fwd(g, shape, index):
    return scatter_add_numpy(shape, index, g), (index,)


def scatter_add_numpy(shape, index, g):
    """Zeros of `shape` with `g` added at `index` (repeated indices accumulate)."""
    out = np.zeros(shape, g.dtype)
    if _is_basic(index):
        out[index] += g
    else:
        np.add.at(out, index, g)
    return out


def _index_add_zeros_bwd(ctx, gg):
    (index,) = ctx.saved
    return ctx.xp.getitem(gg, index)


def _setitem_fwd(x, value, index):
    out = x.copy()
    try:
        out[index] = value
    except (IndexError, ValueError) as e:
        vshape = getattr(value, "shape", ())
        raise type(e)(f"For 'setitem', cannot assign a value of shape {vshape} to index "
                      f"{index!r} of a tensor of shape {x.shape}: {e}") from None
    return out, (index, np.shape(value))


def _setitem_bwd(ctx, g):
    # `written` counts the writes per element: a value broadcast to a repeated index gets the
    # element's gradient once, not once per repeat.
    index, vshape = ctx.saved
    xp = ctx.xp
    written = xp.index_add_zeros(g.shape, index, xp.ones_like(xp.getitem(g, index)))
    gx = g * (written == 0)
    gv = xp.getitem(g / (written + (written == 0)), index)
    return gx, gv


GETITEM = define("getitem", _getitem_fwd, _getitem_bwd)
INDEX_ADD_ZEROS = define("index_add_zeros", _index_add_zeros_fwd, _index_add_zeros_bwd)
SETITEM = define("setitem", _setitem_fwd, _setitem_bwd)


def _check_indices(op, indices, bound):
    if indices.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', the indices must be an integer Tensor, got "
                        f"dtype {indices.dtype}.")
    if indices.size and (indices.min() < -bound or indices.max() >= bound):
        # MindSpore's kernel wraps negatives once, then names the first index out of [0, bound)
        flat = indices.reshape(-1).astype(np.int64)
        flat = np.where(flat < 0, flat + bound, flat)
        first = int(flat[(flat < 0) | (flat >= bound)][0])
        raise IndexRangeError(f"For 'Gather', the 'input_indices' should be in the range "
                              f"[0, {bound}), but got {first}, error_code[58]")


def _gather_fwd(x, indices, axis=0):
    indices = np.asarray(indices)
    axis = axis % max(x.ndim, 1)
    _check_indices("gather", indices, x.shape[axis])
    index = (slice(None),) * axis + (indices,)
    return x[index], (x.shape, index)


def _segment_sum_fwd(x, segment_ids, num_segments):
    ids = np.asarray(segment_ids)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"For 'UnsortedSegmentSum', 'segment_ids' must be an integer Tensor, "
                        f"got dtype {ids.dtype}.")
    if x.shape[: ids.ndim] != ids.shape:
        raise ValueError(
            f"For 'UnsortedSegmentSum', the shape of 'segment_ids' {ids.shape} must be a prefix "
            f"of the shape of 'input_x' {x.shape}.")
    num_segments = int(num_segments)
    out = np.zeros((num_segments,) + x.shape[ids.ndim:], x.dtype)
    if ids.size and ids.max() >= num_segments:
        raise ValueError(f"For 'UnsortedSegmentSum', segment_ids value should be [0, "
                         f"{num_segments}), got {ids.max()}.")
    valid = ids >= 0  # negative ids are dropped, as MindSpore does
    np.add.at(out, ids[valid], x[valid])
    return out, (ids, valid)


def _segment_sum_bwd(ctx, g):
    ids, valid = ctx.saved
    xp = ctx.xp
    picked = xp.getitem(g, np.where(valid, ids, 0))
    mask = valid.reshape(valid.shape + (1,) * (picked.ndim - valid.ndim))
    return picked * mask


GATHER = define("gather", _gather_fwd, _getitem_bwd)
UNSORTED_SEGMENT_SUM = define("unsorted_segment_sum", _segment_sum_fwd, _segment_sum_bwd)
