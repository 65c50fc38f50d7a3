"""Indexing primitives: StridedSlice, Slice, GatherNd, GatherD, GatherV2, ScatterNd,
ReverseV2, ReverseSequence, Unstack, ArgMaxWithValue/ArgMinWithValue, Unique.

Each computes a numpy index and reads through the `getitem` op (or `flip`,
`take_along_axis`, `index_add_zeros`), so the gradients are those ops' rules.
"""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import int32, int64
from cellgrad.ops import _index, _scan, _sort
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._registry import apply
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ArgMaxWithValue", "ArgMinWithValue", "GatherD", "GatherNd", "GatherV2",
           "ReverseSequence", "ReverseV2", "ScatterNd", "Slice", "StridedSlice", "Unique",
           "Unstack"]

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def getitem(x, index):
    return apply(_index.GETITEM, (x,), {"index": index})


class StridedSlice(Primitive):
    """Mirrors `mindspore.ops.StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0,
    new_axis_mask=0, shrink_axis_mask=0)(input_x, begin, end, strides)`.

    Bit i of a mask applies to entry i of `begin`/`end`/`strides`, as in TensorFlow and
    numpy (`x[b:e:s]`, `...`, `None`, `x[b]`). MindSpore 2.10's PyNative kernel returns the
    right shape but wrong values with `ellipsis_mask`/`new_axis_mask` and some negative
    strides (a view offset); these follow the documented semantics.
    """

    @prim_attr_register
    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                 shrink_axis_mask=0):
        for name in _MASKS:
            if C.integer("StridedSlice", name, self.attrs[name]) < 0:
                raise ValueError(f"For 'StridedSlice',{name} mask must be greater equal 0, "
                                 f"but got {self.attrs[name]}")
        if bin(ellipsis_mask).count("1") > 1:
            raise ValueError(f"For 'StridedSlice' only support one ellipsis in the index, but "
                             f"got {ellipsis_mask}")

    def __call__(self, input_x, begin, end, strides):
        C.tensor("StridedSlice", "input_x", input_x)
        return getitem(input_x, self._index(input_x.shape, begin, end, strides))

    def _index(self, shape, begin, end, strides):
        op = "StridedSlice"
        begin, end, strides = (C.int_tuple(op, n, v) for n, v in
                               (("begin", begin), ("end", end), ("strides", strides)))
        if not len(begin) == len(end) == len(strides):
            raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the "
                             f"same length, but got length of 'begin': {len(begin)}, 'end': "
                             f"{len(end)}, 'strides': {len(strides)}.")
        if 0 in strides:
            raise ValueError("For 'StridedSlice', input 'strides' can not contain 0.")
        bm, em, elm, nam, sam = (self.attrs[n] for n in _MASKS)
        kinds = ["ellipsis" if elm >> i & 1 else "new" if nam >> i & 1 else "dim"
                 for i in range(len(begin))]
        consumed = kinds.count("dim")
        if consumed > len(shape):
            raise ValueError(f"For 'StridedSlice', 'begin' of length {len(begin)} indexes "
                             f"{consumed} dimensions of an input of shape {shape}.")
        index, dim = [], 0
        for i, (b, e, s) in enumerate(zip(begin, end, strides)):
            if kinds[i] == "ellipsis":
                index.append(Ellipsis)
                dim += len(shape) - consumed
                continue
            if kinds[i] == "new":
                index.append(None)
                continue
            n = shape[dim]
            dim += 1
            if bm >> i & 1:
                b = None
            if sam >> i & 1:
                b = 0 if b is None else b
                if s < 0 or not -n <= b < n:
                    raise IndexError(f"For 'StridedSlice', the 'strides[{i}]' cannot be "
                                     f"negative number and 'begin[{i}]' must be in [{-n}, {n}) "
                                     f"when 'shrink_axis_mask' is greater than 0, but got "
                                     f"'strides[{i}]': {s}, 'begin[{i}]': {b}.")
                index.append(b)
                continue
            index.append(slice(b, None if em >> i & 1 else e, s))
        return tuple(index)


class Slice(Primitive):
    """Mirrors `mindspore.ops.Slice()(input_x, begin, size)`: `size[i] == -1` takes the rest
    of dimension i."""

    def __call__(self, input_x, begin, size):
        C.tensor("Slice", "input_x", input_x)
        begin, size = C.int_tuple("Slice", "begin", begin), C.int_tuple("Slice", "size", size)
        shape = input_x.shape
        if not len(begin) == len(size) == len(shape):
            raise ValueError(f"For Slice, the shape of input|begin|size must be equal, but got "
                             f"input shape {shape}, begin {begin} and size {size}.")
        index = []
        for i, (b, s, n) in enumerate(zip(begin, size, shape)):
            s = n - b if s == -1 else s
            if b < 0 or s < 0 or b + s > n:
                raise ValueError(f"For Slice, the sum of begin_shape[{i}] and size_shape[{i}] "
                                 f"must be no greater than input_x_shape[{i}], and both must be "
                                 f"non-negative, but got begin {b}, size {s} and dimension {n}.")
            index.append(slice(b, b + s))
        return getitem(input_x, tuple(index))


def _nd_index(op, shape, idx):
    """The numpy index of MindSpore's N-d indices (the last axis indexes the leading dims)."""
    if idx.ndim == 0 or idx.shape[-1] > len(shape):
        raise ValueError(f"For '{op}', the last dimension of 'indices' must be at most the rank "
                         f"of the input, {len(shape)}, but got indices of shape {idx.shape}.")
    k = idx.shape[-1]
    bound = np.array(shape[:k])
    bad = (idx < 0) | (idx >= bound)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad.any(-1))[0])
        raise RuntimeError(f"For '{op}', the indices{list(where)}: {idx[where].tolist()}"
                           f", does not index into input_shape: {list(shape)}.")
    return tuple(idx[..., i] for i in range(k))


class GatherNd(Primitive):
    """Mirrors `mindspore.ops.GatherNd()(input_x, indices)`."""

    def __call__(self, input_x, indices):
        from cellgrad.ops import gather_nd

        C.tensor("GatherNd", "input_x", input_x)
        C.indices("GatherNd", "indices", indices)
        return gather_nd(input_x, indices)


class GatherD(Primitive):
    """Mirrors `mindspore.ops.GatherD()(x, dim, index)`."""

    def __call__(self, x, dim, index):
        from cellgrad.ops.functional import gather_elements

        C.tensor("GatherD", "x", x)
        idx = C.indices("GatherD", "index", index)
        dim = C.axis("GatherD", "dim", dim, x.ndim)
        n = x.shape[dim] if x.ndim else 1
        if idx.size and (idx.min() < -n or idx.max() >= n):
            bad = idx.max() if idx.max() >= n else idx.min()
            raise RuntimeError(f"For 'GatherD', the value of 'index' must be in [{-n}, {n}), but "
                               f"got: {bad}")
        return gather_elements(x, dim, index)


class GatherV2(Primitive):
    """Mirrors `mindspore.ops.GatherV2()(input_params, input_indices, axis)`, MindSpore 1.x's
    name of `Gather` (MindSpore 2.10's own GatherV2 fails in PyNative)."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("batch_dims", 0)

    def __call__(self, input_params, input_indices, axis):
        from cellgrad.ops.functional import gather

        return gather(input_params, input_indices, axis, 0)


class ScatterNd(Primitive):
    """Mirrors `mindspore.ops.ScatterNd()(indices, updates, shape)`: zeros of `shape` with
    `updates` added at `indices` (repeated indices accumulate)."""

    def __call__(self, indices, updates, shape):
        C.tensor("ScatterNd", "updates", updates)
        idx = C.indices("ScatterNd", "indices", indices)
        shape = C.int_tuple("ScatterNd", "shape", shape, allow_tensor=False)
        index = _nd_index("ScatterNd", shape, idx)
        want = idx.shape[:-1] + shape[idx.shape[-1]:]
        if tuple(updates.shape) != want:
            raise ValueError(f"For 'ScatterNd', the shape of 'updates' must be {want} for "
                             f"indices of shape {idx.shape} and shape {shape}, but got "
                             f"{tuple(updates.shape)}.")
        return apply(_index.INDEX_ADD_ZEROS, (updates,), {"shape": shape, "index": index})


class ReverseV2(Primitive):
    """Mirrors `mindspore.ops.ReverseV2(axis)`: reverses the listed dimensions."""

    @prim_attr_register
    def __init__(self, axis):
        self.add_prim_attr("axis", C.int_tuple("ReverseV2", "axis", axis, allow_tensor=False))

    def __call__(self, input_x):
        C.tensor("ReverseV2", "input_x", input_x)
        n = max(input_x.ndim, 1)
        for i, a in enumerate(self.axis):
            if not -n <= a < n:
                raise ValueError(f"For 'ReverseV2', the 'axis[{i}]' must be in range of [{-n}, "
                                 f"{n}), but got {a} with type 'int'.")
        axes = tuple(a % n for a in self.axis)
        if len(set(axes)) != len(axes):
            dup = next(a for a in axes if axes.count(a) > 1)
            raise ValueError(f"For ReverseV2, 'axis' cannot contain duplicate dimensions, but "
                             f"got {dup}")
        return apply(_scan.FLIP, (input_x,), {"axis": axes})


class ReverseSequence(Primitive):
    """Mirrors `mindspore.ops.ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)`: reverses
    the first `seq_lengths[b]` entries along `seq_dim` of each batch entry b."""

    @prim_attr_register
    def __init__(self, seq_dim, batch_dim=0):
        C.integer("ReverseSequence", "seq_dim", seq_dim)
        C.integer("ReverseSequence", "batch_dim", batch_dim)
        if seq_dim == batch_dim:
            raise ValueError(f"For 'ReverseSequence', 'seq_dim' and 'batch_dim' must differ, "
                             f"but both are {seq_dim}.")

    def __call__(self, x, seq_lengths):
        op = "ReverseSequence"
        C.tensor(op, "x", x)
        lengths = C.indices(op, "seq_lengths", seq_lengths)
        seq = C.axis(op, "seq_dim", self.seq_dim, x.ndim)
        batch = C.axis(op, "batch_dim", self.batch_dim, x.ndim)
        if lengths.shape != (x.shape[batch],):
            raise ValueError(f"For '{op}', 'seq_lengths' must have shape ({x.shape[batch]},), "
                             f"but got {lengths.shape}.")
        bad = np.flatnonzero((lengths < 0) | (lengths > x.shape[seq]))
        if bad.size:
            raise RuntimeError(f"Invalid seq_lengths[{bad[0]}]: {lengths[bad[0]]}")
        grid = np.indices(x.shape, sparse=True)
        t, n = grid[seq], lengths.reshape([-1 if a == batch else 1 for a in range(x.ndim)])
        src = np.where(t < n, n - 1 - t, t)
        index = tuple(src if a == seq else g for a, g in enumerate(grid))
        return getitem(x, index)


class Unstack(Primitive):
    """Mirrors `mindspore.ops.Unstack(axis=0, num=None)(input_x)`: the slices along `axis`."""

    @prim_attr_register
    def __init__(self, axis=0, num=None):
        C.integer("Unstack", "axis", axis)

    def __call__(self, input_x):
        C.tensor("Unstack", "input_x", input_x)
        if input_x.ndim == 0:
            raise ValueError("For 'Unstack', the input must have at least 1 dimension, but got "
                             "a 0-d tensor.")
        n = input_x.ndim
        if not -n <= self.axis < n:
            raise ValueError(f"Dimension out of range (expected to be in range of [{-n}, {n}), "
                             f"but got {self.axis})")
        from cellgrad.ops import unstack

        return unstack(input_x, self.axis)


class ArgMaxWithValue(Primitive):
    """Mirrors `mindspore.ops.ArgMaxWithValue(axis=0, keep_dims=False)(x)`: (Int64 index,
    value) of the maximum along `axis`; the value carries the gradient."""

    _pick = staticmethod(np.argmax)

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        pass

    def __call__(self, x):
        op = self.name
        C.tensor(op, "x", x)
        C.boolean(op, "keep_dims", self.keep_dims)
        axis = C.axis(op, "axis", self.axis, x.ndim)
        if x.ndim == 0:
            x = getitem(x, (None,))
        idx = np.expand_dims(type(self)._pick(x._data, axis=axis), axis)
        value = apply(_sort.TAKE_ALONG_AXIS, (x,), {"idx": idx, "axis": axis})
        if not self.keep_dims:
            idx = np.squeeze(idx, axis)
            value = getitem(value, (slice(None),) * axis + (0,))
        return make_tensor(idx.astype(np.int64), None, 0, int64), value


class ArgMinWithValue(ArgMaxWithValue):
    """Mirrors `mindspore.ops.ArgMinWithValue(axis=0, keep_dims=False)(x)`."""

    _pick = staticmethod(np.argmin)


class Unique(Primitive):
    """Mirrors `mindspore.ops.Unique()(input_x)`: (the distinct values in order of first
    appearance, the index of each input element in them); indices are Int64 for Int64 input,
    else Int32."""

    def __call__(self, input_x):
        C.tensor("Unique", "input_x", input_x)
        if input_x.ndim != 1:
            raise RuntimeError(f"Rank of Unique's input must be 1, but got {input_x.ndim}.")
        _, first, inverse = np.unique(input_x._data, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        dt = int64 if input_x.dtype is int64 else int32
        y = getitem(input_x, (first[order],))
        return y, make_tensor(rank[inverse.reshape(-1)].astype(dt.np_dtype), None, 0, dt)
