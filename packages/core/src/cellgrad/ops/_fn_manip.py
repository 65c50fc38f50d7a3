"""Array manipulation functions of `mindspore.ops`: stacking and splitting spellings, flips
and rotations, axis moves, diagonal embeddings, the `*_scatter` writes, `narrow`, `expand`,
index fills and in-place-named updates, padding, space/batch reshuffles, combinatorics.

All are compositions of differentiable core ops (gather, concat, where, index-add), so they
differentiate to any order wherever MindSpore's do.
"""

import builtins
import itertools
import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import int32, int64, to_dtype
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops._index import INDEX_ADD_ZEROS
from cellgrad.ops._registry import apply

_slice = builtins.slice


def _const(arr, dtype=None):
    arr = np.asarray(arr)
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def _axis(op, axis, ndim):
    axis = C.integer(op, "axis", axis)
    rank = max(ndim, 1)
    if not -rank <= axis < rank:
        raise ValueError(f"For '{op}', the 'axis' must be in range of [{-rank}, {rank}), but got "
                         f"{axis}.")
    return axis % rank


def _seq(op, tensors):
    if isinstance(tensors, TensorBuffer) or not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"For '{op}', the input must be a non-empty list or tuple of Tensors, "
                        f"but got {type(tensors).__name__}.")
    F._need_tensor(op, *tensors)
    return list(tensors)


def _spread(src, shape, index):
    """Zeros of `shape` holding `src` at `index` (differentiable in `src`)."""
    return apply(INDEX_ADD_ZEROS, (src,), {"shape": tuple(shape), "index": index})


def _write(op, input, src, index):
    """`input` with `src` written at the numpy `index` (both differentiable)."""
    F._need_tensor(op, input, src)
    mask = np.zeros(input.shape, bool)
    mask[index] = True
    want = np.empty(input.shape, np.int8)[index].shape
    if tuple(src.shape) != want:
        raise ValueError(f"For {op}, src shape should be equal to the slice size,but got src "
                         f"shape {tuple(src.shape)} and slice shape {want}")
    spread = _spread(F.cast(src, input.dtype), input.shape, index)
    return F.where(_const(mask), spread, input)


# ---- atleast, stacks and splits ----
def _atleast(op, n, inputs):
    def one(x):
        F._need_tensor(op, x)
        shape = tuple(x.shape)
        if len(shape) >= n:
            return x
        if n == 3:
            new = shape + (1,) if len(shape) == 2 else ((1,) + shape + (1,) if shape else
                                                         (1, 1, 1))
        else:
            new = (1,) * (n - len(shape)) + shape
        return F.reshape(x, new)

    if isinstance(inputs, (list, tuple)):
        return tuple(one(x) for x in inputs)
    return one(inputs)


def atleast_1d(inputs):
    """Mirrors `mindspore.ops.atleast_1d`: a Tensor (or each of a sequence) of at least 1-D."""
    return _atleast("atleast_1d", 1, inputs)


def atleast_2d(inputs):
    """Mirrors `mindspore.ops.atleast_2d`: a 1-D (n,) becomes (1, n)."""
    return _atleast("atleast_2d", 2, inputs)


def atleast_3d(inputs):
    """Mirrors `mindspore.ops.atleast_3d`: (n,) becomes (1, n, 1), (m, n) becomes (m, n, 1)."""
    return _atleast("atleast_3d", 3, inputs)


def _common(tensors):
    from cellgrad._core._buffer import promote_types

    dt = tensors[0].dtype
    for t in tensors[1:]:
        dt = promote_types(dt, t.dtype) if hasattr(t, "dtype") else dt
    return [t if t.dtype == dt else F.cast(t, dt) for t in tensors]


def hstack(tensors):
    """Mirrors `mindspore.ops.hstack`: concatenated along axis 1 (axis 0 for 1-D)."""
    ts = [F.reshape(t, (1,)) if t.ndim == 0 else t for t in _seq("hstack", tensors)]
    return F.concat(_common(ts), 0 if ts[0].ndim == 1 else 1)


def vstack(inputs):
    """Mirrors `mindspore.ops.vstack`: concatenated along axis 0 (1-D inputs as rows)."""
    return F.concat(_common(list(atleast_2d(_seq("vstack", inputs)))), 0)


def row_stack(tensors):
    """Mirrors `mindspore.ops.row_stack`: `vstack`."""
    return vstack(tensors)


def column_stack(tensors):
    """Mirrors `mindspore.ops.column_stack`: 1-D inputs as columns, concatenated on axis 1."""
    ts = [F.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in _seq("column_stack", tensors)]
    return F.concat(_common(ts), 1)


def dstack(tensors):
    """Mirrors `mindspore.ops.dstack`: concatenated along axis 2 (inputs made 3-D)."""
    return F.concat(_common(list(atleast_3d(_seq("dstack", tensors)))), 2)


def _nsplit(op, input, indices_or_sections, axis, least):
    from cellgrad.ops._tm_array import tensor_split

    F._need_tensor(op, input)
    if input.ndim < least:
        raise ValueError(f"For '{op}', the input must be at least {least}-D, but got "
                         f"{input.ndim}-D.")
    return tensor_split(input, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """Mirrors `mindspore.ops.hsplit`: `tensor_split` along axis 1 (axis 0 for 1-D)."""
    return _nsplit("hsplit", input, indices_or_sections, 0 if input.ndim == 1 else 1, 1)


def vsplit(input, indices_or_sections):
    """Mirrors `mindspore.ops.vsplit`: `tensor_split` along axis 0."""
    return _nsplit("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    """Mirrors `mindspore.ops.dsplit`: `tensor_split` along axis 2."""
    return _nsplit("dsplit", input, indices_or_sections, 2, 3)


# ---- flips, rotations, axis moves ----
def fliplr(input):
    """Mirrors `mindspore.ops.fliplr`: reversed along axis 1 (needs 2-D or more)."""
    if input.ndim < 2:
        raise ValueError(f"For 'ReverseV2', the 'axis[0]' must be in range of [-{input.ndim}, "
                         f"{input.ndim}), but got 1 with type 'int'.")
    return F.flip(input, (1,))


def flipud(input):
    """Mirrors `mindspore.ops.flipud`: reversed along axis 0."""
    return F.flip(input, (0,))


def rot90(input, k, dims):
    """Mirrors `mindspore.ops.rot90`: rotated by 90 degrees `k` times in the plane `dims`, from
    the first axis towards the second."""
    F._need_tensor("rot90", input)
    d0, d1 = (_axis("rot90", d, input.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"For `rot90`, rotation dims must be different, but get dim0={dims[0]},"
                           f" dim1={dims[1]}.")
    k = C.integer("rot90", "k", k) % 4
    perm = list(builtins.range(input.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    if k == 1:
        return F.transpose(F.flip(input, (d1,)), tuple(perm))
    if k == 2:
        return F.flip(input, (d0, d1))
    if k == 3:
        return F.flip(F.transpose(input, tuple(perm)), (d1,))
    return input


def moveaxis(x, source, destination):
    """Mirrors `mindspore.ops.moveaxis`: axes `source` moved to `destination`."""
    F._need_tensor("moveaxis", x)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"For 'moveaxis', 'source' and 'destination' must have the same number "
                         f"of elements, but got {len(src)} and {len(dst)}.")
    src = [_axis("moveaxis", a, x.ndim) for a in src]
    dst = [_axis("moveaxis", a, x.ndim) for a in dst]
    order = [a for a in builtins.range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return F.transpose(x, tuple(order))


def movedim(x, source, destination):
    """Mirrors `mindspore.ops.movedim`: `moveaxis`."""
    return moveaxis(x, source, destination)


def swapdims(input, dim0, dim1):
    """Mirrors `mindspore.ops.swapdims`: `swapaxes`."""
    return F.swapaxes(input, dim0, dim1)


# ---- diagonals ----
def _diag_index(rows, cols, offset):
    n = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    r = np.arange(n) + max(0, -offset)
    return r, r + offset


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Mirrors `mindspore.ops.diag_embed`: the last axis of `input` laid on the `offset`
    diagonal of the (dim1, dim2) planes of a new tensor."""
    F._need_tensor("diag_embed", input)
    offset = C.integer("diag_embed", "offset", offset)
    n = input.shape[-1] + builtins.abs(offset)
    rank = input.ndim + 1
    d1, d2 = (_axis("diag_embed", d, rank) for d in (dim1, dim2))
    if d1 == d2:
        raise ValueError("For 'diag_embed', 'dim1' must not be equal to 'dim2'.")
    r, c = _diag_index(n, n, offset)
    batch = tuple(input.shape[:-1])
    out = _spread(input, batch + (n, n), (Ellipsis, r, c))
    rest = [a for a in builtins.range(rank) if a not in (d1, d2)]
    perm = [0] * rank
    for pos, a in enumerate(rest + [d1, d2]):
        perm[a] = pos
    return F.transpose(out, tuple(perm))


def diagflat(input, offset=0):
    """Mirrors `mindspore.ops.diagflat`: `input` flattened onto the `offset` diagonal."""
    F._need_tensor("diagflat", input)
    return diag_embed(F.reshape(input, (-1,)), C.integer("diagflat", "offset", offset))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """Mirrors `mindspore.ops.diagonal_scatter`: `input` with its `offset` diagonal of the
    (dim1, dim2) planes replaced by `src` (the diagonal as the last axis)."""
    F._need_tensor("diagonal_scatter", input, src)
    d1, d2 = (_axis("diagonal_scatter", d, input.ndim) for d in (dim1, dim2))
    r, c = _diag_index(input.shape[d1], input.shape[d2], C.integer("diagonal_scatter",
                                                                   "offset", offset))
    moved = moveaxis(input, (d1, d2), (-2, -1))
    out = _write("diagonal_scatter", moved, src, (Ellipsis, r, c))
    return moveaxis(out, (-2, -1), (d1, d2))


def select_scatter(input, src, axis, index):
    """Mirrors `mindspore.ops.select_scatter`: `input` with the slice at `index` of `axis`
    replaced by `src`."""
    F._need_tensor("select_scatter", input)
    axis = _axis("select_scatter", axis, input.ndim)
    index = C.integer("select_scatter", "index", index) % input.shape[axis]
    return _write("select_scatter", input, src, (_slice(None),) * axis + (index,))


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """Mirrors `mindspore.ops.slice_scatter`: `input` with `input[start:end:step]` on `axis`
    replaced by `src`."""
    F._need_tensor("slice_scatter", input)
    axis = _axis("slice_scatter", axis, input.ndim)
    return _write("slice_scatter", input, src, (_slice(None),) * axis + (_slice(start, end, step),))


# ---- views, expand, narrow ----
def narrow(input, axis, start, length):
    """Mirrors `mindspore.ops.narrow`: `length` elements of `axis` from `start`."""
    F._need_tensor("narrow", input)
    axis = _axis("narrow", axis, input.ndim)
    n = input.shape[axis]
    start = C.integer("narrow", "start", start)
    length = C.integer("narrow", "length", length)
    if not -n <= start <= n:
        raise ValueError(f"For 'narrow', 'start' must be in range of [{-n}, {n}], but got "
                         f"{start}.")
    start %= n if n else 1
    if not 0 <= length <= n - start:
        raise ValueError(f"The input value must be in range of [0, {n - start}], but got "
                         f"{length} with type 'int'.")
    return input[(_slice(None),) * axis + (_slice(start, start + length),)]


def expand(input_x, size):
    """Mirrors `mindspore.ops.expand`: broadcast to the shape in the int Tensor `size` (-1
    keeps a dimension)."""
    if not isinstance(size, TensorBuffer):
        raise TypeError(f"For Primitive[Expand], the type of input argument[shape] must be Tensor "
                        f"but got {type(size).__name__}.")
    shape = tuple(int(s) for s in size._data.reshape(-1))
    lead = len(shape) - input_x.ndim
    shape = tuple(input_x.shape[i - lead] if s == -1 and i >= lead else s
                  for i, s in enumerate(shape))
    return F.broadcast_to(input_x, shape)


def expand_as(input, other):
    """Mirrors `mindspore.ops.expand_as`: broadcast to `other`'s shape."""
    F._need_tensor("expand_as", input, other)
    return F.broadcast_to(input, tuple(other.shape))


def view_as(input, other):
    """Mirrors `mindspore.ops.view_as`: reshaped to `other`'s shape."""
    F._need_tensor("view_as", input, other)
    return F.reshape(input, tuple(other.shape))


def ravel(input):
    """Mirrors `mindspore.ops.ravel`: flattened to 1-D."""
    F._need_tensor("ravel", input)
    return F.reshape(input, (-1,))


def numel(input):
    """Mirrors `mindspore.ops.numel`: the number of elements (an int)."""
    F._need_tensor("numel", input)
    return int(input._data.size)


def t(input):
    """Mirrors `mindspore.ops.t`: a 2-D Tensor transposed (1-D returned as is)."""
    F._need_tensor("t", input)
    if input.ndim > 2:
        raise ValueError(f"For 't', the input must be 1-D or 2-D, but got {input.ndim}-D.")
    return F.transpose(input, (1, 0)) if input.ndim == 2 else input


def slice(input_x, begin, size):
    """Mirrors `mindspore.ops.slice`: `size` elements from `begin` on each axis (-1: to the
    end)."""
    from cellgrad.ops._prim_index import Slice

    return Slice()(input_x, begin, size)


def tensor_slice(input, begin, size):
    """Mirrors `mindspore.ops.tensor_slice`: `slice`."""
    return slice(input, begin, size)


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """Mirrors `mindspore.ops.strided_slice`: `ops.StridedSlice` with these masks."""
    from cellgrad.ops._prim_index import StridedSlice

    return StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                        shrink_axis_mask)(input_x, begin, end, strides)


def subtract(input, other, *, alpha=1):
    """Mirrors `mindspore.ops.subtract`: `input - alpha * other`."""
    return F.sub(input, other if alpha == 1 else F.mul(other, alpha))


def reshape_(input, shape):
    """Mirrors `mindspore.ops.reshape_`: `reshape`."""
    return F.reshape(input, shape)


def shape_(x):
    """Mirrors `mindspore.ops.shape_`: the shape as a tuple."""
    return F.shape(x)


def dyn_shape(input_x):
    """Mirrors `mindspore.ops.dyn_shape`: the shape as an Int64 Tensor."""
    F._need_tensor("dyn_shape", input_x)
    return _const(np.array(input_x.shape, np.int64), int64)


def vander(x, N=None):
    """Mirrors `mindspore.ops.vander`: columns of decreasing powers of the 1-D `x` (integer
    inputs give Int64)."""
    F._need_tensor("vander", x)
    if x.ndim != 1:
        raise ValueError(f"For 'vander', 'x' must be 1-D, but got {x.ndim}-D.")
    n = x.shape[0] if N is None else C.integer("vander", "N", N)
    if n < 0:
        raise ValueError(f"For 'vander', 'N' must be non-negative, but got {n}.")
    base = x if x.dtype.is_floating_point else F.cast(x, int64)
    powers = _const(np.arange(n - 1, -1, -1).astype(base._data.dtype), base.dtype)
    return F.pow(F.reshape(base, (-1, 1)), powers)


# ---- index fills and in-place-named updates (MindSpore's functions return new Tensors) ----
def _index_vector(op, index):
    idx = C.indices(op, "index", index)
    if idx.ndim > 1:
        raise ValueError(f"For '{op}', 'index' must be 0-D or 1-D, but got {idx.ndim}-D.")
    return idx.reshape(-1).astype(np.int64)


def index_fill(x, axis, index, value):
    """Mirrors `mindspore.ops.index_fill`: `x` with the slices at `index` of `axis` set to
    `value` (a number or a 0-D Tensor, cast to `x`'s dtype)."""
    F._need_tensor("index_fill", x)
    if isinstance(axis, TensorBuffer):
        axis = int(axis._data)
    axis = _axis("index_fill", axis, x.ndim)
    idx = _index_vector("index_fill", index)
    n = x.shape[axis] if x.ndim else 1
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise ValueError(f"For 'index_fill', the index must be in [{-n}, {n}), but got values in "
                         f"[{idx.min()}, {idx.max()}].")
    mask = np.zeros(x.shape, bool)
    mask[(_slice(None),) * axis + (idx % n,)] = True
    if isinstance(value, TensorBuffer):
        if value.ndim:
            raise ValueError(f"For 'index_fill', 'value' must be a 0-D Tensor, but got shape "
                             f"{tuple(value.shape)}.")
        fill = F.cast(value, x.dtype)
    elif isinstance(value, numbers.Number) and not isinstance(value, bool):
        fill = _const(np.asarray(value).astype(x._data.dtype), x.dtype)
    else:
        raise TypeError(f"For 'index_fill', 'value' must be a number or a Tensor, but got "
                        f"{type(value).__name__}.")
    return F.where(_const(mask), fill, x)


def _rows(op, x, indices):
    if isinstance(indices, numbers.Integral):
        indices = (indices,)
    rows = np.asarray(C.int_tuple(op, "indices", indices), np.int64)
    n = x.shape[0]
    if rows.size and (rows.min() < -n or rows.max() >= n):
        raise ValueError(f"For '{op}', the value of indices must be in [{-n}, {n}), but got "
                         f"{indices}.")
    return rows % n


def _inplace_rows(op, x, v, indices, combine):
    F._need_tensor(op, x, v)
    rows = _rows(op, x, indices)
    want = (rows.size,) + tuple(x.shape[1:])
    if tuple(v.shape) != want:
        raise ValueError(f"For '{op}', the shape of 'v' must be {want}, but got "
                         f"{tuple(v.shape)}.")
    v = F.cast(v, x.dtype)
    if combine == "update":
        return _write(op, x, v, (rows,)) if len(set(rows.tolist())) == rows.size else \
            _write(op, x, v[_last_of(rows)], (np.unique(rows),))
    spread = _spread(v, x.shape, (rows,))
    return x + spread if combine == "add" else x - spread


def _last_of(rows):
    last = {r: i for i, r in enumerate(rows.tolist())}
    return _const(np.array([last[r] for r in sorted(last)], np.int64))


def inplace_add(x, v, indices):
    """Mirrors `mindspore.ops.inplace_add`: `x` with `v` added to the rows `indices` (a new
    Tensor, as MindSpore 2.10 returns)."""
    return _inplace_rows("InplaceAdd", x, v, indices, "add")


def inplace_sub(x, v, indices):
    """Mirrors `mindspore.ops.inplace_sub`: `x` with `v` subtracted from the rows `indices`."""
    return _inplace_rows("InplaceSub", x, v, indices, "sub")


def inplace_update(x, v, indices):
    """Mirrors `mindspore.ops.inplace_update`: `x` with the rows `indices` replaced by `v`."""
    return _inplace_rows("InplaceUpdate", x, v, indices, "update")


def inplace_index_add(var, indices, updates, axis):
    """Mirrors `mindspore.ops.inplace_index_add`: `updates` added to the slices `indices` of
    `axis` of the Parameter `var`, in place; returns `var`'s new value."""
    F._need_tensor("inplace_index_add", var, updates)
    axis = _axis("inplace_index_add", axis, var.ndim)
    idx = _index_vector("inplace_index_add", indices)
    n = var.shape[axis]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise ValueError(f"For 'InplaceIndexAdd', the indices must be in [0, {n}), but got "
                         f"values in [{idx.min()}, {idx.max()}].")
    want = var.shape[:axis] + (idx.size,) + var.shape[axis + 1:]
    if tuple(updates.shape) != tuple(want):
        raise ValueError(f"For 'InplaceIndexAdd', the shape of 'updates' must be {tuple(want)}, "
                         f"but got {tuple(updates.shape)}.")
    np.add.at(var._data, (_slice(None),) * axis + (idx,),
              updates._data.astype(var._data.dtype))
    return make_tensor(var._data.copy(), None, 0, var.dtype)


def put_(input, index, source, accumulate=False):
    """Mirrors `mindspore.ops.put_`: `source` written (or added, `accumulate`) at the flat
    `index` of `input`, in place; returns `input`. MindSpore 2.10's CPU build has no kernel."""
    F._need_tensor("put_", input, index, source)
    idx = C.indices("put_", "index", index).reshape(-1).astype(np.int64)
    n = input._data.size
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError(f"For 'put_', index values must be in [{-n}, {n}), but got values in "
                         f"[{idx.min()}, {idx.max()}].")
    src = source._data.reshape(-1).astype(input._data.dtype)
    if src.size != idx.size:
        raise ValueError(f"For 'put_', 'source' must have as many elements as 'index' "
                         f"({idx.size}), but got {src.size}.")
    flat = input._data.reshape(-1)
    if accumulate:
        np.add.at(flat, idx % n, src)
    else:
        flat[idx % n] = src
    if not input._data.flags.c_contiguous:
        input._data[...] = flat.reshape(input.shape)
    return input


def zero_(input):
    """Mirrors `mindspore.ops.zero_`: fills `input` with zeros in place; returns it."""
    F._need_tensor("zero_", input)
    input._data[...] = 0
    return input


# ---- padding and block reshuffles ----
def padding(x, pad_dim_size=8):
    """Mirrors `mindspore.ops.padding`: the last axis (of size 1) widened to `pad_dim_size`
    with zeros after the value."""
    F._need_tensor("padding", x)
    pad = C.integer("padding", "pad_dim_size", pad_dim_size)
    if x.ndim < 1 or x.shape[-1] != 1:
        raise ValueError(f"For 'Padding', the last dimension of 'x' must be 1, but got shape "
                         f"{tuple(x.shape)}.")
    if pad <= 0:
        raise ValueError(f"For 'Padding', 'pad_dim_size' must be positive, but got {pad}.")
    return _spread(x, tuple(x.shape[:-1]) + (pad,), (Ellipsis, _slice(0, 1)))


def mirror_pad(input_x, paddings, mode):
    """Mirrors `MirrorPad(mode)(input_x, paddings)`: 'REFLECT' or 'SYMMETRIC' padding by the
    (n, 2) `paddings` (differentiable: a gather of the input)."""
    F._need_tensor("MirrorPad", input_x)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"For 'MirrorPad', 'mode' must be 'REFLECT' or 'SYMMETRIC', but got "
                         f"{mode!r}.")
    pads = paddings._data if isinstance(paddings, TensorBuffer) else np.asarray(paddings)
    if pads.shape != (input_x.ndim, 2):
        raise ValueError(f"For 'MirrorPad', 'paddings' must have shape ({input_x.ndim}, 2), but "
                         f"got {pads.shape}.")
    out = input_x
    np_mode = "reflect" if mode == "REFLECT" else "symmetric"
    for axis, (lo, hi) in enumerate(pads.tolist()):
        n = input_x.shape[axis]
        limit = n - 1 if mode == "REFLECT" else n
        if lo < 0 or hi < 0 or lo > limit or hi > limit:
            raise ValueError(f"For 'MirrorPad', paddings of axis {axis} must be in [0, {limit}] "
                             f"in mode {mode}, but got ({lo}, {hi}).")
        if lo or hi:
            idx = np.pad(np.arange(n), (lo, hi), mode=np_mode)
            out = F.gather(out, _const(idx), axis)
    return out


def space_to_batch_nd(input_x, block_size, paddings):
    """Mirrors `mindspore.ops.space_to_batch_nd`: the spatial axes (after N, C) zero-padded by
    `paddings` and split into `block_size` blocks moved to the batch axis."""
    F._need_tensor("space_to_batch_nd", input_x)
    m = len(paddings)
    block = (block_size,) * m if isinstance(block_size, int) else tuple(block_size)
    inner = tuple(input_x.shape[:-m])
    padded = inner + tuple(s + lo + hi for s, (lo, hi) in zip(input_x.shape[-m:], paddings))
    x = _spread(input_x, padded, (Ellipsis,) + tuple(_slice(lo, lo + s) for s, (lo, _) in
                                                       zip(input_x.shape[-m:], paddings)))
    shape = tuple(x.shape)
    lead, spatial = shape[:-m], shape[-m:]
    for s, b in zip(spatial, block):
        if s % b:
            raise ValueError(f"For 'space_to_batch_nd', the padded spatial size {s} must be "
                             f"divisible by the block size {b}.")
    split = lead + tuple(v for s, b in zip(spatial, block) for v in (s // b, b))
    x = F.reshape(x, split)
    k = len(lead)
    block_axes = [k + 2 * i + 1 for i in builtins.range(m)]
    rest = [k + 2 * i for i in builtins.range(m)]
    x = F.transpose(x, tuple(block_axes) + tuple(builtins.range(k)) + tuple(rest))
    return F.reshape(x, (int(np.prod(block)) * lead[0],) + lead[1:] +
                     tuple(s // b for s, b in zip(spatial, block)))


def batch_to_space_nd(input_x, block_shape, crops):
    """Mirrors `mindspore.ops.batch_to_space_nd`: the inverse of `space_to_batch_nd`, then
    `crops` cut from the spatial axes."""
    F._need_tensor("batch_to_space_nd", input_x)
    m = len(crops)
    block = (block_shape,) * m if isinstance(block_shape, int) else tuple(block_shape)
    nb = int(np.prod(block))
    shape = tuple(input_x.shape)
    if shape[0] % nb:
        raise ValueError(f"For 'batch_to_space_nd', the batch size {shape[0]} must be divisible "
                         f"by the product of 'block_shape' {nb}.")
    lead, spatial = (shape[0] // nb,) + shape[1:-m], shape[-m:]
    x = F.reshape(input_x, block + lead + spatial)
    k = len(lead)
    order = list(builtins.range(m, m + k))
    for i in builtins.range(m):
        order += [m + k + i, i]
    x = F.reshape(F.transpose(x, tuple(order)), lead + tuple(s * b for s, b in zip(spatial,
                                                                                  block)))
    index = (_slice(None),) * k + tuple(_slice(lo, s * b - hi) for (lo, hi), s, b
                                                in zip(crops, spatial, block))
    return x[index]


# ---- combinatorics, search and uniqueness ----
def cartesian_prod(*inputs):
    """Mirrors `mindspore.ops.cartesian_prod`: rows of every combination of the 1-D inputs."""
    F._need_tensor("cartesian_prod", *inputs)
    if len(inputs) == 1:
        return inputs[0]
    grids = F.meshgrid(*inputs, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """Mirrors `mindspore.ops.combinations`: rows of the length-`r` combinations of the 1-D
    `input`'s elements."""
    F._need_tensor("combinations", input)
    if input.ndim != 1:
        raise ValueError(f"For 'combinations', the input must be 1-D, but got {input.ndim}-D.")
    r = C.integer("combinations", "r", r)
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = np.array(list(pick(builtins.range(input.shape[0]), r)), np.int64)
    if rows.size == 0:
        return _const(np.zeros((0,) if r else (0,), input._data.dtype), input.dtype)
    return F.gather(input, _const(rows), 0)


def _tri_indices(op, row, col, offset, dtype, lower):
    row, col, offset = (C.integer(op, n, v) for n, v in (("row", row), ("col", col),
                                                           ("offset", offset)))
    dt = to_dtype(dtype)
    if dt not in (int32, int64):
        raise TypeError(f"For '{op}', 'dtype' must be Int32 or Int64, but got {dt}.")
    if row < 0 or col < 0:
        raise ValueError(f"For '{op}', 'row' and 'col' must be non-negative, but got {row} and "
                         f"{col}.")
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _const(np.stack([r, c]).astype(dt.np_dtype).reshape(2, -1), dt)


def tril_indices(row, col, offset=0, *, dtype=int64):
    """Mirrors `mindspore.ops.tril_indices`: the (2, n) coordinates of the lower triangle."""
    return _tri_indices("tril_indices", row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=int64):
    """Mirrors `mindspore.ops.triu_indices`: the (2, n) coordinates of the upper triangle."""
    return _tri_indices("triu_indices", row, col, offset, dtype, False)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Mirrors `mindspore.ops.searchsorted`: insertion points of `values` in the last axis of
    `sorted_sequence` (Int64, or Int32 with `out_int32`); `side='right'` is `right=True`."""
    F._need_tensor("searchsorted", sorted_sequence)
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got "
                             f"{side!r}.")
        if right and side == "left":
            raise ValueError("For 'searchsorted', 'side' and 'right' disagree.")
        right = side == "right"
    seq = sorted_sequence._data
    if sorter is not None:
        order = sorter._data if isinstance(sorter, TensorBuffer) else np.asarray(sorter)
        seq = np.take_along_axis(seq, order.astype(np.int64), -1)
    vals = values._data if isinstance(values, TensorBuffer) else np.asarray(values)
    if seq.ndim > 1 and seq.shape[:-1] != vals.shape[:-1]:
        raise ValueError(f"For 'searchsorted', the leading dimensions of 'sorted_sequence' "
                         f"{seq.shape[:-1]} and 'values' {vals.shape[:-1]} must match.")
    how = "right" if right else "left"
    if seq.ndim <= 1:
        out = np.searchsorted(seq.reshape(-1), vals, side=how)
    else:
        flat_s, flat_v = seq.reshape(-1, seq.shape[-1]), vals.reshape(-1, vals.shape[-1])
        out = np.stack([np.searchsorted(s, v, side=how) for s, v in zip(flat_s, flat_v)])
        out = out.reshape(vals.shape)
    dt = int32 if out_int32 else int64
    return _const(np.asarray(out).astype(dt.np_dtype), dt)


def bucketize(input, boundaries, *, right=False):
    """Mirrors `mindspore.ops.bucketize`: the bucket of each element by the sorted list
    `boundaries` (Int32; `right` puts values equal to a boundary in the upper bucket)."""
    F._need_tensor("bucketize", input)
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list of numbers, but got "
                        f"{type(boundaries).__name__}.")
    b = np.asarray(boundaries, np.float64)
    out = np.searchsorted(b, input._data, side="right" if right else "left")
    return _const(out.astype(np.int32), int32)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Mirrors `mindspore.ops.reverse_sequence`: the first `seq_lengths[i]` elements along
    `seq_dim` of each batch entry `i` (along `batch_dim`) reversed."""
    from cellgrad.ops._prim_index import ReverseSequence

    return ReverseSequence(seq_dim, batch_dim)(x, seq_lengths)


def argwhere(input):
    """Mirrors `mindspore.ops.argwhere`: the Int64 coordinates of the non-zero elements."""
    from cellgrad.ops import nonzero

    return nonzero(input)


def msort(input):
    """Mirrors `mindspore.ops.msort`: sorted along axis 0."""
    return F.sort(input, 0)[0]


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Mirrors `mindspore.ops.unique_consecutive`: runs of equal elements (or slices along
    `dim`) kept once, with Int64 inverse indices and run lengths when asked."""
    F._need_tensor("unique_consecutive", input)
    x = input._data
    if dim is None:
        flat = x.reshape(-1)
        change = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else \
            np.zeros(0, bool)
        values = flat[change]
        inverse_shape = x.shape
    else:
        dim = _axis("unique_consecutive", dim, x.ndim)
        moved = np.moveaxis(x, dim, 0).reshape(x.shape[dim], -1)
        change = np.concatenate([[True], np.any(moved[1:] != moved[:-1], axis=1)])
        values = np.moveaxis(np.moveaxis(x, dim, 0)[change], 0, dim)
        inverse_shape = (x.shape[dim],)
    inverse = np.cumsum(change) - 1
    counts = np.diff(np.append(np.flatnonzero(change), change.size))
    out = [_const(np.ascontiguousarray(values), input.dtype)]
    if return_inverse:
        out.append(_const(inverse.reshape(inverse_shape).astype(np.int64), int64))
    if return_counts:
        out.append(_const(counts.astype(np.int64), int64))
    return out[0] if len(out) == 1 else tuple(out)


def unique_with_pad(x, pad_num):
    """Mirrors `mindspore.ops.unique_with_pad`: the unique values of the 1-D `x` in order of
    first appearance, padded with `pad_num` to `x`'s length, and each element's index in
    them."""
    F._need_tensor("unique_with_pad", x)
    if x.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', 'x' must be 1-D, but got {x.ndim}-D.")
    data = x._data
    _, first, inverse = np.unique(data, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    y = np.full(data.shape, pad_num, data.dtype)
    y[:order.size] = data[np.sort(first)]
    return (_const(y, x.dtype), _const(rank[inverse].astype(data.dtype), x.dtype))


__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "column_stack",
    "dstack", "hsplit", "vsplit", "dsplit", "fliplr", "flipud", "rot90", "moveaxis", "movedim",
    "swapdims", "diag_embed", "diagflat", "diagonal_scatter", "select_scatter", "slice_scatter",
    "narrow", "expand", "expand_as", "view_as", "ravel", "numel", "t", "slice", "tensor_slice",
    "strided_slice", "subtract", "reshape_", "shape_", "dyn_shape", "vander", "index_fill",
    "inplace_add", "inplace_sub", "inplace_update", "inplace_index_add", "put_", "zero_",
    "padding", "mirror_pad", "space_to_batch_nd", "batch_to_space_nd", "cartesian_prod",
    "combinations", "reverse_sequence", "tril_indices", "triu_indices", "searchsorted",
    "bucketize", "argwhere", "msort", "unique_consecutive", "unique_with_pad",
]
