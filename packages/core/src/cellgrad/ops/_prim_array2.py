"""Array Primitive classes of `mindspore.ops` over the functions of `_fn_manip`/`_fn_array`:
index writes (IndexAdd, IndexFill, IndexPut, Inplace*, MaskedScatter, FillDiagonal), shape and
layout (Expand, Roll, Tril/Triu, Diag, Pack, SplitV, SpaceToBatch/BatchToSpace, SpaceToDepth,
PadV3, MirrorPad, Padding), search (SearchSorted, Bucketize, Lower/UpperBound, NthElement,
UniqueConsecutive, UniqueWithPad, NonZero, UnravelIndex) and shapes (Rank, TensorShape)."""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import int32, int64, to_dtype
from cellgrad.ops import _fn_manip as M
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register


def _const(arr, dtype=None):
    arr = np.asarray(arr)
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def _ints(value):
    if isinstance(value, TensorBuffer):
        return tuple(int(v) for v in value._data.reshape(-1))
    if isinstance(value, numbers.Integral):
        return (int(value),)
    return tuple(int(v) for v in value)


# ---- index writes ----
class IndexAdd(Primitive):
    """Mirrors `mindspore.ops.IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x,
    indices, y)`: `y` added to the slices `indices` of `axis` (a new Tensor)."""

    @prim_attr_register
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        C.integer("IndexAdd", "axis", axis)

    def __call__(self, input_x, indices, y):
        from cellgrad.ops._tm_array import index_add

        return index_add(input_x, indices, y, self.axis)


class IndexFill(Primitive):
    """Mirrors `mindspore.ops.IndexFill()(x, dim, index, value)`: `ops.index_fill`."""

    def __call__(self, x, dim, index, value):
        return M.index_fill(x, dim, index, value)


class IndexPut(Primitive):
    """Mirrors `mindspore.ops.IndexPut(accumulate=0)(x1, x2, indices)`: `x1` with `x2` written
    (or added, `accumulate=1`) at the tuple of index Tensors `indices`."""

    @prim_attr_register
    def __init__(self, accumulate=0):
        C.integer("IndexPut", "accumulate", accumulate)
        if accumulate not in (0, 1):
            raise ValueError(f"For 'IndexPut', 'accumulate' must be 0 or 1, but got "
                             f"{accumulate}.")

    def __call__(self, x1, x2, indices):
        return _index_put(x1, x2, indices, bool(self.accumulate))


def _index_put(x1, x2, indices, accumulate):
    F._need_tensor("IndexPut", x1, x2)
    if not isinstance(indices, (tuple, list)) or not indices:
        raise TypeError("For 'IndexPut', 'indices' must be a non-empty tuple or list of "
                        "Tensors.")
    index = tuple(C.indices("IndexPut", "indices", i).astype(np.int64) for i in indices)
    shape = np.broadcast_shapes(*(i.shape for i in index)) + tuple(x1.shape[len(index):])
    values = F.broadcast_to(F.cast(x2, x1.dtype), shape)
    spread = M._spread(values, x1.shape, index)
    if accumulate:
        return x1 + spread
    mask = np.zeros(x1.shape, bool)
    mask[index] = True
    return F.where(_const(mask), spread, x1)


class _InplaceRows(Primitive):
    @prim_attr_register
    def __init__(self, indices):
        C.int_tuple(type(self).__name__, "indices", _ints(indices), allow_tensor=False)

    def __call__(self, x, v):
        return self._fn(x, v, self.indices)


class InplaceAdd(_InplaceRows):
    """Mirrors `mindspore.ops.InplaceAdd(indices)(x, v)`: `ops.inplace_add`."""

    _fn = staticmethod(M.inplace_add)


class InplaceSub(_InplaceRows):
    """Mirrors `mindspore.ops.InplaceSub(indices)(x, v)`: `ops.inplace_sub`."""

    _fn = staticmethod(M.inplace_sub)


class InplaceUpdate(_InplaceRows):
    """Mirrors `mindspore.ops.InplaceUpdate(indices)(x, v)`: `ops.inplace_update`."""

    _fn = staticmethod(M.inplace_update)


class InplaceUpdateV2(Primitive):
    """Mirrors `mindspore.ops.InplaceUpdateV2()(x, indices, v)`: `ops.inplace_update` with the
    rows given at call time."""

    def __call__(self, x, indices, v):
        return M.inplace_update(x, v, _ints(indices))


class InplaceIndexAdd(Primitive):
    """Mirrors `mindspore.ops.InplaceIndexAdd(axis)(var, indices, updates)`:
    `ops.inplace_index_add`."""

    @prim_attr_register
    def __init__(self, axis):
        C.integer("InplaceIndexAdd", "axis", axis)

    def __call__(self, var, indices, updates):
        return M.inplace_index_add(var, indices, updates, self.axis)


class MaskedScatter(Primitive):
    """Mirrors `mindspore.ops.MaskedScatter()(input, mask, source)`: the True places of `mask`
    (broadcast to `input`) take `source`'s leading elements in row-major order."""

    def __call__(self, input, mask, source):
        return masked_scatter(input, mask, source)


def masked_scatter(input, mask, source):
    F._need_tensor("MaskedScatter", input, mask, source)
    if mask._data.dtype != np.bool_:
        raise TypeError(f"For 'MaskedScatter', 'mask' must be a bool Tensor, but got "
                        f"{mask.dtype}.")
    where = np.broadcast_to(mask._data, input.shape)
    n = int(where.sum())
    if source._data.size < n:
        raise ValueError(f"For 'MaskedScatter', 'source' must have at least {n} elements, but "
                         f"got {source._data.size}.")
    taken = F.reshape(source, (-1,))[:n]
    spread = M._spread(F.cast(taken, input.dtype), input.shape, np.nonzero(where))
    return F.where(_const(where.copy()), spread, input)


class FillDiagonal(Primitive):
    """Mirrors `mindspore.ops.FillDiagonal(fill_value, wrap=False)(input_x)`: the main diagonal
    set to `fill_value`; a tall matrix with `wrap` restarts it every `cols + 1` rows."""

    @prim_attr_register
    def __init__(self, fill_value, wrap=False):
        if isinstance(fill_value, bool) or not isinstance(fill_value, numbers.Real):
            raise TypeError(f"For 'FillDiagonal', 'fill_value' must be a float, but got "
                            f"{type(fill_value).__name__}.")
        C.boolean("FillDiagonal", "wrap", wrap)

    def __call__(self, input_x):
        return fill_diagonal(input_x, self.fill_value, self.wrap)


def fill_diagonal(x, fill_value, wrap=False):
    F._need_tensor("FillDiagonal", x)
    if x.ndim < 2 or (x.ndim > 2 and len(set(x.shape)) != 1):
        raise ValueError(f"For 'FillDiagonal', the input must be 2-D, or N-D with all "
                         f"dimensions equal, but got shape {tuple(x.shape)}.")
    mask = np.zeros(x.shape, bool)
    if x.ndim == 2:
        rows, cols = x.shape
        flat = mask.reshape(-1)
        end = flat.size if wrap else min(rows, cols) * cols
        flat[:end:cols + 1] = True
    else:
        mask[(np.arange(x.shape[0]),) * x.ndim] = True
    return F.where(_const(mask), _const(np.asarray(fill_value, x._data.dtype), x.dtype), x)


# ---- shape and layout ----
class Expand(Primitive):
    """Mirrors `mindspore.ops.Expand()(input_x, shape)`: `ops.expand`."""

    def __call__(self, input_x, shape):
        return M.expand(input_x, shape)


class Roll(Primitive):
    """Mirrors `mindspore.ops.Roll(shifts, dims=None)(input)`: `ops.roll` (MindSpore 2.10's CPU
    build has no kernel)."""

    @prim_attr_register
    def __init__(self, shifts, dims=None):
        pass

    def __call__(self, input):
        from cellgrad.ops import roll

        return roll(input, self.shifts, self.dims)


class _Triangle(Primitive):
    @prim_attr_register
    def __init__(self, diagonal=0):
        C.integer(type(self).__name__, "diagonal", diagonal)

    def __call__(self, x):
        return (F.tril if type(self).__name__ == "Tril" else F.triu)(x, self.diagonal)


class Tril(_Triangle):
    """Mirrors `mindspore.ops.Tril(diagonal=0)(x)`: `ops.tril`."""


class Triu(_Triangle):
    """Mirrors `mindspore.ops.Triu(diagonal=0)(x)`: `ops.triu`."""


class _TriIndices(Primitive):
    @prim_attr_register
    def __init__(self, row, col, offset=0, dtype=int32):
        pass

    def __call__(self):
        fn = M.tril_indices if type(self).__name__ == "TrilIndices" else M.triu_indices
        return fn(self.row, self.col, self.offset, dtype=self.dtype)


class TrilIndices(_TriIndices):
    """Mirrors `mindspore.ops.TrilIndices(row, col, offset=0, dtype=mstype.int32)()`."""


class TriuIndices(_TriIndices):
    """Mirrors `mindspore.ops.TriuIndices(row, col, offset=0, dtype=mstype.int32)()`."""


class Diag(Primitive):
    """Mirrors `mindspore.ops.Diag()(input)`: `ops.diag`."""

    def __call__(self, input):
        from cellgrad.ops import diag

        return diag(input)


class DiagPart(Primitive):
    """Mirrors `mindspore.ops.DiagPart()(input_x)`: the diagonal of a (d1..dk, d1..dk)
    Tensor, of shape (d1..dk)."""

    def __call__(self, input_x):
        F._need_tensor("DiagPart", input_x)
        k = input_x.ndim // 2
        shape = tuple(input_x.shape)
        if input_x.ndim % 2 or shape[:k] != shape[k:] or not k:
            raise ValueError(f"For 'DiagPart', the input must have an even rank with the first "
                             f"half of its shape equal to the second, but got {shape}.")
        n = int(np.prod(shape[:k]))
        flat = F.reshape(input_x, (n, n))
        return F.reshape(flat[np.arange(n), np.arange(n)], shape[:k])


class Range(Primitive):
    """Mirrors `mindspore.ops.Range(maxlen=1000000)(start, end, step)`: `ops.range`."""

    @prim_attr_register
    def __init__(self, maxlen=1000000):
        C.integer("Range", "maxlen", maxlen)

    def __call__(self, start, end, step):
        from cellgrad.ops import range as range_

        return range_(start, end, step, self.maxlen)


class Rank(Primitive):
    """Mirrors `mindspore.ops.Rank()(x)`: the number of dimensions, an int."""

    def __call__(self, x):
        C.tensor("Rank", "x", x)
        return x.ndim


class Pack(Primitive):
    """Mirrors `mindspore.ops.Pack(axis=0)(x)` (1.x's `Stack`): `ops.stack`."""

    @prim_attr_register
    def __init__(self, axis=0):
        C.integer("Pack", "axis", axis)

    def __call__(self, x):
        return F.stack(x, self.axis)


class Unpack(Primitive):
    """Mirrors `mindspore.ops.Unpack(axis=0)(x)` (1.x's `Unstack`): `ops.unstack`."""

    @prim_attr_register
    def __init__(self, axis=0):
        C.integer("Unpack", "axis", axis)

    def __call__(self, x):
        from cellgrad.ops import unstack

        return unstack(x, self.axis)


class ParallelConcat(Primitive):
    """Mirrors `mindspore.ops.ParallelConcat()(values)`: Tensors of first dimension 1
    concatenated along axis 0."""

    def __call__(self, values):
        values = M._seq("ParallelConcat", values)
        for i, v in enumerate(values):
            if v.ndim == 0 or v.shape[0] != 1:
                raise ValueError(f"For primitive[ParallelConcat], the x{i + 1}.shape[0] must be "
                                 f"equal to 1, but got {v.shape[0] if v.ndim else 0}.")
        return F.concat(values, 0)


class IdentityN(Primitive):
    """Mirrors `mindspore.ops.IdentityN()(x)`: the list or tuple of Tensors unchanged."""

    def __call__(self, x):
        if not isinstance(x, (list, tuple)) or not all(isinstance(v, TensorBuffer) for v in x):
            raise TypeError(f"For 'IdentityN', the input must be a list or tuple of Tensors, but "
                            f"got {type(x).__name__}.")
        from cellgrad.ops import identity

        return tuple(identity(v) for v in x)


class InvertPermutation(Primitive):
    """Mirrors `mindspore.ops.InvertPermutation()(input_x)`: the inverse of a permutation of
    0..n-1 given as a tuple or list."""

    def __call__(self, input_x):
        perm = C.int_tuple("InvertPermutation", "input_x", input_x, allow_tensor=False)
        if sorted(perm) != list(range(len(perm))):
            raise ValueError(f"For 'InvertPermutation', the input must be a permutation of 0.."
                             f"{len(perm) - 1}, but got {perm}.")
        out = [0] * len(perm)
        for i, p in enumerate(perm):
            out[p] = i
        return tuple(out)


class SpaceToBatch(Primitive):
    """Mirrors `mindspore.ops.SpaceToBatch(block_size, paddings)(input_x)` (4-D NCHW)."""

    @prim_attr_register
    def __init__(self, block_size, paddings):
        C.integer("SpaceToBatch", "block_size", block_size)

    def __call__(self, input_x):
        return M.space_to_batch_nd(input_x, self.block_size, self.paddings)


class SpaceToBatchND(Primitive):
    """Mirrors `mindspore.ops.SpaceToBatchND(block_shape, paddings)(input_x)`."""

    @prim_attr_register
    def __init__(self, block_shape, paddings):
        pass

    def __call__(self, input_x):
        return M.space_to_batch_nd(input_x, self.block_shape, self.paddings)


class BatchToSpace(Primitive):
    """Mirrors `mindspore.ops.BatchToSpace(block_size, crops)(input_x)` (4-D NCHW)."""

    @prim_attr_register
    def __init__(self, block_size, crops):
        C.integer("BatchToSpace", "block_size", block_size)

    def __call__(self, input_x):
        return M.batch_to_space_nd(input_x, self.block_size, self.crops)


class BatchToSpaceND(Primitive):
    """Mirrors `mindspore.ops.BatchToSpaceND(block_shape, crops)(input_x)`."""

    @prim_attr_register
    def __init__(self, block_shape, crops):
        pass

    def __call__(self, input_x):
        return M.batch_to_space_nd(input_x, self.block_shape, self.crops)


class BatchToSpaceNDV2(Primitive):
    """Mirrors `mindspore.ops.BatchToSpaceNDV2()(input_x, block_shape, crops)`: block shape
    and crops as Tensors."""

    def __call__(self, input_x, block_shape, crops):
        crops = crops._data.tolist() if isinstance(crops, TensorBuffer) else crops
        return M.batch_to_space_nd(input_x, _ints(block_shape), crops)


class SpaceToDepth(Primitive):
    """Mirrors `mindspore.ops.SpaceToDepth(block_size)(x)`: NCHW blocks of the spatial axes
    moved to channels."""

    @prim_attr_register
    def __init__(self, block_size):
        b = C.integer("SpaceToDepth", "block_size", block_size)
        if b < 2:
            raise ValueError(f"For 'SpaceToDepth', 'block_size' must be >= 2, but got {b}.")

    def __call__(self, x):
        F._need_tensor("SpaceToDepth", x)
        b = self.block_size
        if x.ndim != 4 or x.shape[2] % b or x.shape[3] % b:
            raise ValueError(f"For 'SpaceToDepth', the input must be 4-D with H and W divisible "
                             f"by {b}, but got shape {tuple(x.shape)}.")
        n, c, h, w = x.shape
        y = F.reshape(x, (n, c, h // b, b, w // b, b))
        y = F.transpose(y, (0, 3, 5, 1, 2, 4))
        return F.reshape(y, (n, c * b * b, h // b, w // b))


class MirrorPad(Primitive):
    """Mirrors `mindspore.ops.MirrorPad(mode='REFLECT')(input_x, paddings)`."""

    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"For 'MirrorPad', 'mode' must be 'REFLECT' or 'SYMMETRIC', but got "
                             f"{mode!r}.")

    def __call__(self, input_x, paddings):
        return M.mirror_pad(input_x, paddings, self.mode)


class PadV3(Primitive):
    """Mirrors `mindspore.ops.PadV3(mode='constant', paddings_contiguous=True)(x, paddings,
    value=None)`: `paddings` pairs from the last axis backwards ('constant', 'reflect',
    'edge', 'circular'); non-contiguous paddings list all begins, then all ends."""

    @prim_attr_register
    def __init__(self, mode="constant", paddings_contiguous=True):
        if mode not in ("constant", "reflect", "edge", "circular"):
            raise ValueError(f"For 'PadV3', 'mode' must be 'constant', 'reflect', 'edge' or "
                             f"'circular', but got {mode!r}.")
        C.boolean("PadV3", "paddings_contiguous", paddings_contiguous)

    def __call__(self, x, paddings, value=None):
        F._need_tensor("PadV3", x)
        p = list(_ints(paddings))
        if len(p) % 2 or len(p) // 2 > x.ndim:
            raise ValueError(f"For 'PadV3', 'paddings' must hold an even number of at most "
                             f"{2 * x.ndim} values, but got {len(p)}.")
        k = len(p) // 2
        pairs = list(zip(p[0::2], p[1::2])) if self.paddings_contiguous else \
            list(zip(p[:k], p[k:]))
        out = x
        for i, (lo, hi) in enumerate(pairs):
            out = _pad_axis(out, x.ndim - 1 - i, lo, hi, self.mode, value)
        return out


def _pad_axis(x, axis, lo, hi, mode, value):
    n = x.shape[axis]
    if lo < 0 or hi < 0:
        keep = (slice(None),) * axis + (slice(max(-lo, 0), n - max(-hi, 0)),)
        x = x[keep]
        lo, hi, n = max(lo, 0), max(hi, 0), x.shape[axis]
    if not lo and not hi:
        return x
    if mode == "constant":
        shape = list(x.shape)
        shape[axis] = n + lo + hi
        index = (slice(None),) * axis + (slice(lo, lo + n),)
        spread = M._spread(x, tuple(shape), index)
        if value is None or (not isinstance(value, TensorBuffer) and value == 0):
            return spread
        mask = np.ones(shape, bool)
        mask[index] = False
        fill = value if isinstance(value, TensorBuffer) else _const(
            np.asarray(value, x._data.dtype), x.dtype)
        return F.where(_const(mask), F.cast(fill, x.dtype), spread)
    np_mode = {"reflect": "reflect", "edge": "edge", "circular": "wrap"}[mode]
    idx = np.pad(np.arange(n), (lo, hi), mode=np_mode)
    return F.gather(x, _const(idx), axis)


class Padding(Primitive):
    """Mirrors `mindspore.ops.Padding(pad_dim_size=8)(x)`: `ops.padding`."""

    @prim_attr_register
    def __init__(self, pad_dim_size=8):
        C.integer("Padding", "pad_dim_size", pad_dim_size)

    def __call__(self, x):
        return M.padding(x, self.pad_dim_size)


class SplitV(Primitive):
    """Mirrors `mindspore.ops.SplitV(size_splits, split_dim, num_split)(input_x)`: pieces of
    the given sizes along `split_dim` (one size may be -1: the rest)."""

    @prim_attr_register
    def __init__(self, size_splits, split_dim, num_split):
        C.int_tuple("SplitV", "size_splits", size_splits, allow_tensor=False)
        C.integer("SplitV", "split_dim", split_dim)
        if C.integer("SplitV", "num_split", num_split) != len(size_splits):
            raise ValueError(f"For 'SplitV', 'num_split' must equal the length of 'size_splits' "
                             f"{len(size_splits)}, but got {num_split}.")

    def __call__(self, input_x):
        F._need_tensor("SplitV", input_x)
        axis = M._axis("SplitV", self.split_dim, input_x.ndim)
        sizes = list(self.size_splits)
        n = input_x.shape[axis]
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
        if sum(sizes) != n or min(sizes) < 0:
            raise ValueError(f"For 'SplitV', 'size_splits' {tuple(self.size_splits)} must sum to "
                             f"the size {n} of axis {axis}.")
        return tuple(F.split(input_x, sizes, axis))


class UnravelIndex(Primitive):
    """Mirrors `mindspore.ops.UnravelIndex()(indices, dims)`: the coordinates of flat
    `indices` in an array of shape `dims`, one row per dimension."""

    def __call__(self, indices, dims):
        idx = C.indices("UnravelIndex", "indices", indices)
        shape = C.indices("UnravelIndex", "dims", dims)
        if shape.ndim != 1 or np.any(shape <= 0):
            raise ValueError(f"For 'UnravelIndex', 'dims' must be a 1-D Tensor of positive "
                             f"sizes, but got {shape.tolist()}.")
        total = int(np.prod(shape))
        if idx.size and (idx.min() < 0 or idx.max() >= total):
            raise ValueError(f"For 'UnravelIndex', the indices must be in [0, {total}), but got "
                             f"values in [{idx.min()}, {idx.max()}].")
        out = np.stack(np.unravel_index(idx, tuple(shape))).astype(idx.dtype)
        return _const(out, indices.dtype if isinstance(indices, TensorBuffer) else None)


class SearchSorted(Primitive):
    """Mirrors `mindspore.ops.SearchSorted(dtype=mstype.int64, right=False)(sorted_sequence,
    values, sorter=None)`."""

    @prim_attr_register
    def __init__(self, dtype=int64, right=False):
        if to_dtype(dtype) not in (int32, int64):
            raise TypeError(f"For 'SearchSorted', 'dtype' must be Int32 or Int64, but got "
                            f"{dtype}.")
        C.boolean("SearchSorted", "right", right)

    def __call__(self, sorted_sequence, values, sorter=None):
        return M.searchsorted(sorted_sequence, values, out_int32=to_dtype(self.dtype) is int32,
                              right=self.right, sorter=sorter)


class Bucketize(Primitive):
    """Mirrors `mindspore.ops.Bucketize(boundaries)(input)`: Int32 bucket indices by a sorted
    list of float `boundaries`."""

    @prim_attr_register
    def __init__(self, boundaries):
        if not isinstance(boundaries, (list, tuple)):
            raise TypeError(f"For 'Bucketize', 'boundaries' must be a list of floats, but got "
                            f"{type(boundaries).__name__}.")
        for i, b in enumerate(boundaries):
            if not isinstance(b, float):
                raise TypeError(f"For 'Bucketize', the type of 'boundaries[{i}]' should be "
                                f"'float', but got type '{type(b).__name__}'.")

    def __call__(self, input):
        return M.bucketize(input, list(self.boundaries))


class _Bound(Primitive):
    @prim_attr_register
    def __init__(self, out_type=int32):
        if to_dtype(out_type) not in (int32, int64):
            raise TypeError(f"For '{type(self).__name__}', 'out_type' must be Int32 or Int64, "
                            f"but got {out_type}.")

    def __call__(self, sorted_x, values):
        F._need_tensor(self.name, sorted_x, values)
        if sorted_x.ndim != 2 or values.ndim != 2 or sorted_x.shape[0] != values.shape[0]:
            raise ValueError(f"For '{self.name}', 'sorted_x' and 'values' must be 2-D with one "
                             f"number of rows, but got {tuple(sorted_x.shape)} and "
                             f"{tuple(values.shape)}.")
        right = type(self).__name__ == "UpperBound"
        out = M.searchsorted(sorted_x, values, right=right)
        return F.cast(out, to_dtype(self.out_type))


class LowerBound(_Bound):
    """Mirrors `mindspore.ops.LowerBound(out_type=mstype.int32)(sorted_x, values)`: the first
    place in each row of `sorted_x` not less than each value."""


class UpperBound(_Bound):
    """Mirrors `mindspore.ops.UpperBound(out_type=mstype.int32)(sorted_x, values)`: the first
    place greater than each value."""


class NthElement(Primitive):
    """Mirrors `mindspore.ops.NthElement(reverse=False)(input, n)`: the `n`-th smallest (largest
    with `reverse`) value of each last-axis vector."""

    @prim_attr_register
    def __init__(self, reverse=False):
        C.boolean("NthElement", "reverse", reverse)

    def __call__(self, input, n):
        F._need_tensor("NthElement", input)
        n = int(n._data) if isinstance(n, TensorBuffer) else C.integer("NthElement", "n", n)
        if input.ndim < 1 or not 0 <= n < input.shape[-1]:
            raise ValueError(f"For 'NthElement', 'n' must be in [0, {input.shape[-1]}), but got "
                             f"{n}.")
        values = F.sort(input, -1, self.reverse)[0]
        return values[..., n]


class UniqueConsecutive(Primitive):
    """Mirrors `mindspore.ops.UniqueConsecutive(return_idx=False, return_counts=False,
    axis=None)(input)`: `ops.unique_consecutive` (always the three outputs)."""

    @prim_attr_register
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        pass

    def __call__(self, input):
        return M.unique_consecutive(input, True, True, self.dim)


class UniqueWithPad(Primitive):
    """Mirrors `mindspore.ops.UniqueWithPad()(x, pad_num)`: `ops.unique_with_pad`."""

    def __call__(self, x, pad_num):
        return M.unique_with_pad(x, pad_num)


class NonZero(Primitive):
    """Mirrors `mindspore.ops.NonZero()(input)`: the Int64 coordinates of non-zero elements."""

    def __call__(self, input):
        from cellgrad.ops import nonzero

        return nonzero(input)


class TensorShape(Primitive):
    """Mirrors `mindspore.ops.TensorShape()(input_x)`: the shape as an Int64 Tensor."""

    def __call__(self, input_x):
        return M.dyn_shape(input_x)


class DynamicShape(Primitive):
    """Mirrors `mindspore.ops.DynamicShape(dtype=9)(input_x)`: the shape as an Int64 Tensor
    (MindSpore 2.10's PyNative call fails; this is the documented result)."""

    @prim_attr_register
    def __init__(self, dtype=9):
        pass

    def __call__(self, input_x):
        return M.dyn_shape(input_x)


__all__ = [
    "IndexAdd", "IndexFill", "IndexPut", "InplaceAdd", "InplaceSub", "InplaceUpdate",
    "InplaceUpdateV2", "InplaceIndexAdd", "MaskedScatter", "FillDiagonal", "Expand", "Roll",
    "Tril", "Triu", "TrilIndices", "TriuIndices", "Diag", "DiagPart", "Range", "Rank", "Pack",
    "Unpack", "ParallelConcat", "IdentityN", "InvertPermutation", "SpaceToBatch",
    "SpaceToBatchND", "BatchToSpace", "BatchToSpaceND", "BatchToSpaceNDV2", "SpaceToDepth",
    "MirrorPad", "PadV3", "Padding", "SplitV", "UnravelIndex", "SearchSorted", "Bucketize",
    "LowerBound", "UpperBound", "NthElement", "UniqueConsecutive", "UniqueWithPad", "NonZero",
    "TensorShape", "DynamicShape",
]
