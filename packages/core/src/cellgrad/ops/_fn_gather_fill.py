"""Gathers, fills and small array utilities of `mindspore.ops`: `gather_d`, `choice_with_mask`,
`tensor_range`, `fills`/`Fills`/`FillV2`, `eps`/`Eps`, `move_to`/`MoveTo`, `scalar_to_array`,
and the primitives ListDiff, RaggedRange, EqualCount, SparseGatherV2, EmbeddingLookup,
TensorToTuple and DataFormatDimMap."""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import int32, int64, to_dtype
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register


def _const(arr, dtype=None):
    arr = np.asarray(arr)
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def gather_d(x, dim, index):
    """Mirrors `mindspore.ops.gather_d`: `gather_elements` along `dim`."""
    return F.gather_elements(x, dim, index)


def choice_with_mask(input_x, count=256, seed=None):
    """Mirrors `mindspore.ops.choice_with_mask`: `RandomChoiceWithMask(count, seed)`."""
    from cellgrad.ops._prim_other import RandomChoiceWithMask

    return RandomChoiceWithMask(count, seed or 0, 0)(input_x)


def tensor_range(start, end, step):
    """Mirrors `mindspore.ops.tensor_range`: `ops.range` of scalar Tensors."""
    from cellgrad.ops import range as range_

    return range_(start, end, step)


def fills(x, value):
    """Mirrors `mindspore.ops.fills`: a Tensor like `x` filled with `value` (MindSpore 2.10's
    CPU build has no kernel)."""
    C.tensor("fills", "x", x)
    if isinstance(value, TensorBuffer):
        if value.ndim:
            raise ValueError(f"For 'fills', 'value' must be a 0-D Tensor, but got shape "
                             f"{tuple(value.shape)}.")
        value = value._data.item()
    elif isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"For 'fills', 'value' must be a number or a 0-D Tensor, but got "
                        f"{type(value).__name__}.")
    return _const(np.full(x.shape, value, x._data.dtype), x.dtype)


def eps(x):
    """Mirrors `mindspore.ops.eps`: a Tensor like `x` holding its dtype's machine epsilon."""
    C.floating("Eps", "x", x)
    return _const(np.full(x.shape, np.finfo(x._data.dtype).eps, x._data.dtype), x.dtype)


def move_to(input, to="CPU", blocking=True):
    """Mirrors `mindspore.ops.move_to`: a copy on `to`; cellgrad has only the CPU (and 'Ascend'
    or 'GPU' is an error saying so)."""
    C.tensor("move_to", "input", input)
    if to not in ("CPU", "cpu"):
        raise ValueError(f"For 'move_to', cellgrad runs on the CPU only; 'to' must be 'CPU', but "
                         f"got {to!r}.")
    return _const(input._data.copy(), input.dtype)


def scalar_to_array(input_x):
    """Mirrors `mindspore.ops.scalar_to_array`: a Python number as a 0-D Tensor."""
    if isinstance(input_x, bool) or not isinstance(input_x, numbers.Number):
        raise TypeError(f"For 'scalar_to_array', the input must be a number, but got "
                        f"{type(input_x).__name__}.")
    from cellgrad.common.tensor import Tensor

    return Tensor(input_x)


class Fills(Primitive):
    """Mirrors `mindspore.ops.Fills()(x, value)`: `ops.fills`."""

    def __call__(self, x, value):
        return fills(x, value)


class FillV2(Primitive):
    """Mirrors `mindspore.ops.FillV2()(shape, value)`: `shape` filled with the 0-D `value`."""

    def __call__(self, shape, value):
        C.tensor("FillV2", "value", value)
        dims = tuple(int(s) for s in shape._data.reshape(-1)) if isinstance(shape, TensorBuffer) \
            else C.int_tuple("FillV2", "shape", shape)
        return _const(np.full(dims, value._data.reshape(-1)[0], value._data.dtype), value.dtype)


class Eps(Primitive):
    """Mirrors `mindspore.ops.Eps()(x)`: `ops.eps`."""

    def __call__(self, x):
        return eps(x)


class MoveTo(Primitive):
    """Mirrors `mindspore.ops.MoveTo()(input, to='CPU', blocking=True)`: `ops.move_to`."""

    def __call__(self, input, to="CPU", blocking=True):
        return move_to(input, to, blocking)


class ListDiff(Primitive):
    """Mirrors `mindspore.ops.ListDiff(out_idx=mstype.int32)(x, y)`: the values of `x` not in
    `y` (in order) and their indices."""

    @prim_attr_register
    def __init__(self, out_idx=int32):
        if to_dtype(out_idx) not in (int32, int64):
            raise TypeError(f"For 'ListDiff', 'out_idx' must be Int32 or Int64, but got "
                            f"{out_idx}.")

    def __call__(self, x, y):
        F._need_tensor("ListDiff", x, y)
        if x.ndim != 1 or y.ndim != 1:
            raise ValueError("For 'ListDiff', 'x' and 'y' must be 1-D.")
        keep = ~np.isin(x._data, y._data)
        dt = to_dtype(self.out_idx)
        return _const(x._data[keep], x.dtype), _const(np.flatnonzero(keep).astype(dt.np_dtype),
                                                      dt)


class RaggedRange(Primitive):
    """Mirrors `mindspore.ops.RaggedRange(Tsplits)(starts, limits, deltas)`: the ranges
    [starts[i], limits[i]) by deltas[i] concatenated, with their row splits."""

    @prim_attr_register
    def __init__(self, Tsplits):
        if to_dtype(Tsplits) not in (int32, int64):
            raise TypeError(f"For 'RaggedRange', 'Tsplits' must be Int32 or Int64, but got "
                            f"{Tsplits}.")

    def __call__(self, starts, limits, deltas):
        F._need_tensor("RaggedRange", starts, limits, deltas)
        s, l_, d = np.broadcast_arrays(starts._data, limits._data, deltas._data)
        if np.any(d == 0):
            raise ValueError("For 'RaggedRange', 'deltas' must not contain zeros.")
        rows = [np.arange(a, b, c, dtype=starts._data.dtype) for a, b, c in
                zip(s.reshape(-1), l_.reshape(-1), d.reshape(-1))]
        dt = to_dtype(self.Tsplits)
        splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(dt.np_dtype)
        values = np.concatenate(rows) if rows else np.zeros(0, starts._data.dtype)
        return _const(splits, dt), _const(values, starts.dtype)


class EqualCount(Primitive):
    """Mirrors `mindspore.ops.EqualCount()(x, y)`: the number of equal elements, as a 1-element
    Tensor of the inputs' dtype."""

    def __call__(self, x, y):
        F._need_tensor("EqualCount", x, y)
        if x.shape != y.shape or x.dtype != y.dtype:
            raise ValueError(f"For 'EqualCount', 'x' and 'y' must have one shape and dtype, but "
                             f"got {x.dtype}{tuple(x.shape)} and {y.dtype}{tuple(y.shape)}.")
        return _const(np.array([np.sum(x._data == y._data)], x._data.dtype), x.dtype)


class SparseGatherV2(Primitive):
    """Mirrors `mindspore.ops.SparseGatherV2()(input_params, input_indices, axis)`:
    `ops.gather`."""

    def __call__(self, input_params, input_indices, axis):
        return F.gather(input_params, input_indices, axis)


class EmbeddingLookup(Primitive):
    """Mirrors `mindspore.ops.EmbeddingLookup()(input_params, input_indices, offset)`: rows
    `input_indices - offset` of `input_params`; indices out of range give zero rows."""

    def __call__(self, input_params, input_indices, offset):
        F._need_tensor("EmbeddingLookup", input_params)
        idx = C.indices("EmbeddingLookup", "input_indices", input_indices).astype(np.int64)
        idx = idx - int(offset)
        n = input_params.shape[0]
        valid = (idx >= 0) & (idx < n)
        rows = F.gather(input_params, _const(np.where(valid, idx, 0)), 0)
        mask = valid.reshape(valid.shape + (1,) * (input_params.ndim - 1))
        return rows * _const(mask.astype(input_params._data.dtype), input_params.dtype)


class SubAndFilter(Primitive):
    """Mirrors `mindspore.ops.SubAndFilter()(input_x, max_num, offset)`: the values `x - offset`
    in [0, max_num) and their positions."""

    def __call__(self, input_x, max_num, offset):
        C.dtype_in("SubAndFilter", "input_x", input_x, "iu", "{Tensor[Int32], Tensor[Int64]}")
        shifted = input_x._data - int(offset)
        keep = np.flatnonzero((shifted >= 0) & (shifted < int(max_num)))
        return (_const(shifted[keep].astype(input_x._data.dtype), input_x.dtype),
                _const(keep.astype(input_x._data.dtype), input_x.dtype))


class TensorToTuple(Primitive):
    """Mirrors `mindspore.ops.TensorToTuple()(input_x)`: a 1-D Tensor as a tuple of Python
    numbers."""

    def __call__(self, input_x):
        C.tensor("TensorToTuple", "input_x", input_x)
        return tuple(input_x._data.reshape(-1).tolist())


class DataFormatDimMap(Primitive):
    """Mirrors `mindspore.ops.DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)`:
    each dimension index in `src_format` mapped to its place in `dst_format`."""

    @prim_attr_register
    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        for name, v in (("src_format", src_format), ("dst_format", dst_format)):
            if v not in ("NHWC", "NCHW"):
                raise ValueError(f"For 'DataFormatDimMap', '{name}' must be 'NHWC' or 'NCHW', "
                                 f"but got {v!r}.")

    def __call__(self, input_x):
        C.dtype_in("DataFormatDimMap", "input_x", input_x, "i", "{Tensor[Int32]}")
        table = np.array([self.src_format.index(c) for c in self.dst_format])
        return _const(table[input_x._data % 4].astype(input_x._data.dtype), input_x.dtype)


__all__ = ["gather_d", "choice_with_mask", "tensor_range", "fills", "eps", "move_to",
           "scalar_to_array", "Fills", "FillV2", "Eps", "MoveTo", "ListDiff", "RaggedRange",
           "EqualCount", "SparseGatherV2", "SubAndFilter", "EmbeddingLookup", "TensorToTuple",
           "DataFormatDimMap"]
