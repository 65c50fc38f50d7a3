"""Array functions the Tensor methods need, with MindSpore's `mindspore.ops` signatures:
splitting, repeating, scattering, diagonals, `take`, `unique`, `dot`, `inverse`, bitwise ops.

Most are compositions of differentiable ops (getitem, gather, transpose, matmul, the
index-add of `_index`), so their gradients exist to any order; `scatter` and `inverse` are ops
of their own with the backward beside the forward.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor, promote_types
from cellgrad.dtype import int32, int64
from cellgrad.ops import _index
from cellgrad.ops import functional as F
from cellgrad.ops._call_errors import bad_call
from cellgrad.ops._registry import apply, define

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "diagonal", "dot", "index_add",
           "inverse", "multiply", "repeat_interleave", "reverse", "scatter", "take",
           "tensor_split", "unique"]


def _tensor(op, name, x):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _axis(op, axis, ndim):
    rank = max(ndim, 1)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For '{op}', the axis must be an int, but got {type(axis).__name__}.")
    if not -rank <= axis < rank:
        raise ValueError(f"For '{op}', the axis {axis} is out of range [{-rank}, {rank}).")
    return int(axis) % rank


def _int_array(op, name, value):
    arr = np.asarray(value._data if isinstance(value, TensorBuffer) else value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', '{name}' must hold integers, but got dtype {arr.dtype}.")
    return arr.astype(np.int64)


# ---- repeating and splitting ----
def repeat_interleave(input, repeats, axis=None):
    """Mirrors `mindspore.ops.repeat_interleave`: each element (or slice along `axis`) repeated
    `repeats` times; `axis=None` works on the flattened input."""
    _tensor("repeat_interleave", "input", input)
    if axis is None:
        input, axis = F.reshape(input, (-1,)), 0
    axis = _axis("repeat_interleave", axis, input.ndim)
    n = input.shape[axis]
    reps = _int_array("repeat_interleave", "repeats", repeats).reshape(-1)
    if reps.size not in (1, n):
        raise ValueError(f"For 'repeat_interleave', the length of 'repeats' must be the same as "
                         f"the shape of the original tensor in the 'axis' dimension, but got the "
                         f"length of 'repeats' {reps.size} and the dimension {n}.")
    if (reps < 0).any():
        raise ValueError("For 'repeat_interleave', 'repeats' must not be negative.")
    return F.gather(input, np.repeat(np.arange(n), reps if reps.size == n else reps[0]), axis)


def tensor_split(input, indices_or_sections, axis=0):
    """Mirrors `mindspore.ops.tensor_split`: `n` nearly equal parts (the first ones one longer),
    or the parts between the given indices."""
    _tensor("tensor_split", "input", input)
    axis = _axis("tensor_split", axis, input.ndim)
    n = input.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"For tensor_split, the value of 'indices_or_sections' must be more "
                             f"than zero but got {k}")
        size, extra = divmod(n, k)
        bounds = np.cumsum([0] + [size + 1] * extra + [size] * (k - extra)).tolist()
    elif isinstance(indices_or_sections, (tuple, list)):
        bounds = [0, *(int(i) for i in indices_or_sections), n]
    else:
        raise TypeError("Type of Argument `indices_or_sections` should be integer, tuple(int) or "
                        f"list(int), but got {type(indices_or_sections)}")
    lead = (slice(None),) * axis
    return tuple(input[lead + (slice(a, max(a, b)),)] for a, b in zip(bounds, bounds[1:]))


# ---- scattering and indexing ----
def _places(index, axis):
    """The output coordinates `index` writes: its own position on every other axis (no
    broadcasting, so an index smaller than the input on other axes writes only its part)."""
    where = list(np.indices(index.shape, sparse=True))
    where[axis] = index
    return tuple(where)


def _scatter_fwd(x, src, index, axis):
    out = x.copy()
    keep = np.ones(x.shape, x.dtype)
    places = _places(index, axis)
    keep[places] = 0
    out[places] = src[tuple(slice(0, s) for s in index.shape)] if np.ndim(src) else src
    return out, (keep, index, axis, np.shape(src), _last_writes(x.shape, index, axis, x.dtype))


def _last_writes(shape, index, axis, dtype):
    """1 for each element of `index` whose write stays (the last one to a place), else 0."""
    where = list(np.indices(index.shape))
    where[axis] = index
    ids = np.ravel_multi_index(tuple(where), shape).reshape(-1)
    last = np.zeros(ids.size, dtype)
    _, first_from_end = np.unique(ids[::-1], return_index=True)
    last[ids.size - 1 - first_from_end] = 1
    return last.reshape(index.shape)


def _scatter_bwd(ctx, g):
    keep, index, axis, src_shape, live = ctx.saved
    xp = ctx.xp
    if xp.IS_TENSOR:
        keep, live = make_tensor(keep), make_tensor(live)
    gx = g * keep
    if not src_shape:
        return gx, None
    gsrc = g[_places(index, axis)] * live
    if gsrc.shape != src_shape:
        gsrc = xp.index_add_zeros(src_shape, tuple(slice(0, s) for s in index.shape), gsrc)
    return gx, gsrc


SCATTER = define("tm_scatter", _scatter_fwd, _scatter_bwd)


def scatter(input, axis, index, src):
    """Mirrors `mindspore.ops.scatter`: `input` with `src` written at `index` along `axis`
    (`out[i][index[i][j]] = src[i][j]` for axis 1); `src` may be a number."""
    _tensor("scatter", "input", input)
    axis = _axis("scatter", axis, input.ndim)
    idx = _int_array("scatter", "index", index)
    if idx.ndim != input.ndim:
        raise ValueError(f"For 'scatter', 'index' of shape {idx.shape} must have the rank of "
                         f"'input' of shape {input.shape}.")
    n = input.shape[axis]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"For 'scatter', index values must be in [{-n}, {n}), got values in "
                         f"[{idx.min()}, {idx.max()}].")
    idx = np.where(idx < 0, idx + n, idx)
    if isinstance(src, TensorBuffer):
        if src.ndim != idx.ndim or any(s < i for s, i in zip(src.shape, idx.shape)):
            raise ValueError(f"For 'scatter', 'src' of shape {src.shape} must have the rank of "
                             f"'index' and be at least its shape {idx.shape}.")
        src = F.cast(src, input.dtype)
        return apply(SCATTER, (input, src), {"index": idx, "axis": axis})
    value = make_tensor(np.asarray(src, input._data.dtype))
    return apply(SCATTER, (input, value), {"index": idx, "axis": axis})


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """Mirrors `mindspore.ops.index_add`: `y` added at `indices` along `axis` (repeated indices
    accumulate). As in MindSpore the sum is also written into `x`'s memory, and a new Tensor
    (the differentiable result) is returned."""
    _tensor("index_add", "x", x)
    _tensor("index_add", "y", y)
    axis = _axis("index_add", axis, x.ndim)
    idx = _int_array("index_add", "indices", indices)
    if idx.ndim != 1 or y.ndim != x.ndim or y.shape[axis] != idx.size:
        raise ValueError(f"For 'index_add', 'indices' must be 1-D with one entry per slice of "
                         f"'y' along axis {axis}; got indices of shape {idx.shape}, y of shape "
                         f"{y.shape} and x of shape {x.shape}.")
    n = x.shape[axis]
    if check_index_bound and idx.size and (idx.min() < 0 or idx.max() >= n):
        raise RuntimeError(f"For 'IndexAdd', the indices are out of range [0, {n}): got values "
                           f"in [{idx.min()}, {idx.max()}].")
    where = (slice(None),) * axis + (idx,)
    added = apply(_index.INDEX_ADD_ZEROS, (F.cast(y, x.dtype),),
                  {"shape": tuple(x.shape), "index": where})
    out = x + added
    x._data[...] = out._data
    return out


def diagonal(input, offset=0, dim1=0, dim2=1):
    """Mirrors `mindspore.ops.diagonal`: the `offset` diagonal of the (dim1, dim2) planes,
    as a last axis."""
    if not isinstance(input, TensorBuffer):
        raise bad_call("Diagonal", (("input", input),), ("Tensor",),
                       (("offset", offset), ("dim1", dim1), ("dim2", dim2)), ("int",) * 3)
    nd = input.ndim
    if nd < 2:
        raise ValueError(f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, "
                         f"{max(nd, 1)}), but got {dim2})")
    d1, d2 = _axis("diagonal", dim1, nd), _axis("diagonal", dim2, nd)
    if d1 == d2:
        raise ValueError(f"For 'diagonal', dim1 and dim2 must differ, got {dim1} and {dim2}.")
    rest = [a for a in range(nd) if a not in (d1, d2)]
    moved = F.transpose(input, (*rest, d1, d2))
    rows, cols = input.shape[d1], input.shape[d2]
    start_r, start_c = max(-offset, 0), max(offset, 0)
    length = max(min(rows - start_r, cols - start_c), 0)
    i = np.arange(length) + start_r
    return moved[(Ellipsis, i, i - start_r + start_c)]


def take(input, index):
    """Mirrors `mindspore.ops.take`: elements of the flattened `input` at `index` (negative
    indices count from the end), in `index`'s shape."""
    _tensor("take", "input", input)
    idx = _int_array("take", "index", index)
    n = input.size
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"For 'take', index values must be in [{-n}, {n}), got values in "
                         f"[{idx.min()}, {idx.max()}].")
    return F.gather(F.reshape(input, (-1,)), np.where(idx < 0, idx + n, idx), 0)


def unique(input):
    """Mirrors `mindspore.ops.unique`: `(values, idx)`, the values in order of first appearance
    and, per element, the index of its value (Int64 for Int64 input, else Int32)."""
    _tensor("unique", "input", input)
    flat = input._data.reshape(-1)
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_dtype = int64 if input.dtype is int64 else int32
    return (make_tensor(flat[np.sort(first)].copy(), None, 0, input.dtype),
            make_tensor(rank[inverse.reshape(-1)].reshape(input.shape).astype(
                idx_dtype.np_dtype), None, 0, idx_dtype))


def dot(input, other):
    """Mirrors `mindspore.ops.dot`: contracts the last axis of `input` with the second-to-last
    of `other` (both at least 2-D), as numpy's dot."""
    _tensor("dot", "input", input)
    _tensor("dot", "other", other)
    if input.ndim < 2 or other.ndim < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got "
                         f"'len(x1_shape)': ({input.ndim}) and 'len(x2_shape)': ({other.ndim}).")
    k = input.shape[-1]
    if other.shape[-2] != k:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': "
                         f"{k} and 'x2_row': {other.shape[-2]}.")
    perm = (other.ndim - 2, *range(other.ndim - 2), other.ndim - 1)
    right = F.reshape(F.transpose(other, perm), (k, -1))
    out = F.matmul(F.reshape(input, (-1, k)), right)
    return F.reshape(out, input.shape[:-1] + other.shape[:-2] + other.shape[-1:])


def _inverse_fwd(a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For 'inverse', the input must be square matrices (..., n, n), got "
                         f"shape {a.shape}.")
    if a.dtype.kind != "f":
        raise TypeError(f"For 'inverse', the input must be Float32 or Float64, got {a.dtype}.")
    out = np.linalg.inv(a).astype(a.dtype, copy=False)
    return out, (out,)


def _inverse_bwd(ctx, g):
    # d(A^-1) = -A^-1 dA A^-1, so dA = -A^-T g A^-T
    xp = ctx.xp
    inv_t = xp.swapaxes(ctx.saved[0], -1, -2)
    return -xp.matmul(xp.matmul(inv_t, g), inv_t)


INVERSE = define("tm_inverse", _inverse_fwd, _inverse_bwd)


def inverse(input):
    """Mirrors `mindspore.ops.inverse`: the inverse of each square matrix (singular matrices
    raise numpy's LinAlgError)."""
    _tensor("inverse", "input", input)
    return apply(INVERSE, (input,))


# ---- elementwise spellings ----
def _bitwise(op, fn, input, other):
    _tensor(op, "input", input)
    if isinstance(other, TensorBuffer):
        dt = promote_types(input.dtype, other.dtype)
        b = other._data
    else:
        dt, b = input.dtype, other
    if dt.kind not in (0, 1):
        raise TypeError(f"For '{op}', the inputs must be bool or integer Tensors, but got "
                        f"{input.dtype}" + (f" and {other.dtype}." if isinstance(
                            other, TensorBuffer) else "."))
    return make_tensor(fn(input._data, b).astype(dt.np_dtype, copy=False), None, 0, dt)


def bitwise_and(input, other):
    """Mirrors `mindspore.ops.bitwise_and` (bool and integer Tensors)."""
    return _bitwise("bitwise_and", np.bitwise_and, input, other)


def bitwise_or(input, other):
    """Mirrors `mindspore.ops.bitwise_or` (bool and integer Tensors)."""
    return _bitwise("bitwise_or", np.bitwise_or, input, other)


def bitwise_xor(input, other):
    """Mirrors `mindspore.ops.bitwise_xor` (bool and integer Tensors)."""
    return _bitwise("bitwise_xor", np.bitwise_xor, input, other)


def multiply(input, other):
    """Mirrors `mindspore.ops.multiply`: `input * other`."""
    return F.mul(input, other)


def reverse(x, axis):
    """Mirrors `mindspore.ops.reverse`: `x` flipped along the axes in `axis`."""
    return F.flip(x, axis)
