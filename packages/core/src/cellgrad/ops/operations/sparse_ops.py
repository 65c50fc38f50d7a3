"""Mirrors `mindspore.ops.operations.sparse_ops`: the sparse Primitives cellgrad has
(`cellgrad._paths`), and this module's own sparse-segment reductions and `SparseAdd`.
MindSpore's tests/st/ops/dynamic_shape/grad/test_sparse_*.py import them from here.

Each is built from differentiable core ops (gather, unsorted_segment_sum), so the gradient
with respect to the values is the one MindSpore's bprop computes; index and shape inputs get
zero gradients.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops._prim_set_ops import DenseToDenseSetOperation, DenseToSparseSetOperation
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["DenseToDenseSetOperation", "DenseToSparseSetOperation", "SparseAdd",
           "SparseSegmentMeanWithNumSegments", "SparseSegmentSqrtN",
           "SparseSegmentSqrtNWithNumSegments"]

_FLOATS = "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}"
_INTS = "{Tensor[Int32], Tensor[Int64]}"


def _typed(op, name, x, kinds, what):
    if not isinstance(x, TensorBuffer):
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{what}, but got {type(x).__name__}.")
    np_dtype = x.asnumpy().dtype
    ok = np_dtype.kind in kinds and (kinds != "f" or np_dtype.itemsize <= 8) and \
        (kinds != "i" or np_dtype.itemsize >= 4)
    if not ok or x.dtype.py_name == "bfloat16":
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{what}, but got Tensor[{x.dtype}].")
    return x.asnumpy()


def _segment_reduce(op, x, indices, segment_ids, num_segments, scale):
    """`sum over i with segment_ids[i] == k of x[indices[i]]`, divided per segment by
    `scale(count_k)`; `num_segments` rows (None: last segment id + 1, ids contiguous)."""
    from cellgrad.ops import gather, unsorted_segment_sum

    _typed(op, "x", x, "f", _FLOATS)
    idx = _typed(op, "indices", indices, "i", _INTS)
    seg = _typed(op, "segment_ids", segment_ids, "i", _INTS)
    if num_segments is not None and idx.dtype != seg.dtype:
        raise TypeError(f"For primitive[{op}], the input type must be same.")
    if idx.ndim != 1 or seg.shape != idx.shape:
        raise ValueError(f"For '{op}', the rank of indices and segment_ids must be the same, "
                         f"but got indices {list(idx.shape)} and segment_ids {list(seg.shape)}.")
    if x.ndim < 1:
        raise ValueError(f"For '{op}', the rank of 'x' must be at least 1, but got 0.")
    prefix = "input " if op == "SparseSegmentMeanWithNumSegments" else ""
    if idx.size and (idx.min() < 0 or idx.max() >= x.shape[0]):
        raise ValueError(f"For '{op}', {prefix}indices is out of range of x's first dimension.")
    if num_segments is None:
        if seg.size and seg[0] != 0:
            raise ValueError(f"For '{op}', indices in 'segment_ids' should be start from 0.")
        if seg.size and np.any((np.diff(seg) < 0) | (np.diff(seg) > 1)):
            raise ValueError(f"For '{op}', segment_ids should be sorted and contiguous.")
        rows = int(seg[-1]) + 1 if seg.size else 0
    else:
        if seg.size and np.any(np.diff(seg) < 0):
            raise ValueError(f"For '{op}', {prefix}segment_ids should be sorted.")
        count = _typed(op, "num_segments", num_segments, "i", _INTS).reshape(-1)
        if count.size != 1:
            raise ValueError(f"For '{op}', num_segments must be a scalar or a 1-element Tensor, "
                             f"but got shape {list(num_segments.shape)}.")
        rows = int(count[0])
        if seg.size and seg[-1] >= rows:
            raise ValueError(f"For '{op}', num_segments must be bigger than the largest id of "
                             f"segment_ids.")
    counts = np.bincount(seg, minlength=rows)[:rows] if seg.size else np.zeros(rows)
    divisor = scale(np.maximum(counts, 1)).astype(x.asnumpy().dtype)
    picked = gather(x, make_tensor(idx.astype(np.int64)), 0)
    total = unsorted_segment_sum(picked, make_tensor(seg.astype(np.int64)), rows)
    return total / make_tensor(divisor.reshape((-1,) + (1,) * (x.ndim - 1)))


class SparseSegmentSqrtN(Primitive):
    """Mirrors `sparse_ops.SparseSegmentSqrtN()(x, indices, segment_ids)`: per segment, the sum
    of the rows `x[indices]` in it divided by the square root of their count; `segment_ids`
    sorted, contiguous and from 0 (their last value + 1 rows). Differentiable in `x`."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "indices", "segment_ids"], outputs=["y"])

    def __call__(self, x, indices, segment_ids):
        return _segment_reduce("SparseSegmentSqrtN", x, indices, segment_ids, None, np.sqrt)


class SparseSegmentSqrtNWithNumSegments(Primitive):
    """Mirrors `sparse_ops.SparseSegmentSqrtNWithNumSegments()(x, indices, segment_ids,
    num_segments)`: `SparseSegmentSqrtN` with `num_segments` rows (empty segments are 0;
    `segment_ids` sorted). Differentiable in `x`."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "indices", "segment_ids", "num_segments"],
                                outputs=["y"])

    def __call__(self, x, indices, segment_ids, num_segments):
        return _segment_reduce("SparseSegmentSqrtNWithNumSegments", x, indices, segment_ids,
                               num_segments, np.sqrt)


class SparseSegmentMeanWithNumSegments(Primitive):
    """Mirrors `sparse_ops.SparseSegmentMeanWithNumSegments()(x, indices, segment_ids,
    num_segments)`: per segment the mean of the rows `x[indices]` in it, `num_segments` rows
    (empty segments are 0; `segment_ids` sorted). Differentiable in `x`."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "indices", "segment_ids", "num_segments"],
                                outputs=["y"])

    def __call__(self, x, indices, segment_ids, num_segments):
        return _segment_reduce("SparseSegmentMeanWithNumSegments", x, indices, segment_ids,
                               num_segments, lambda n: n.astype(np.float64))


def _merge(a_idx, b_idx, a_vals, b_vals, thresh):
    """The merge walk of two COO index lists (each assumed in row-major order): positions in
    the output of a's and b's entries (-1: a matched pair whose |sum| < thresh is dropped)."""
    pos_a, pos_b = np.full(len(a_idx), -1), np.full(len(b_idx), -1)
    out, i, j = [], 0, 0
    while i < len(a_idx) and j < len(b_idx):
        ka, kb = tuple(a_idx[i]), tuple(b_idx[j])
        if ka < kb:
            pos_a[i] = len(out)
            out.append(a_idx[i])
            i += 1
        elif kb < ka:
            pos_b[j] = len(out)
            out.append(b_idx[j])
            j += 1
        else:
            if abs(a_vals[i] + b_vals[j]) >= thresh:
                pos_a[i] = pos_b[j] = len(out)
                out.append(a_idx[i])
            i += 1
            j += 1
    for k in range(i, len(a_idx)):
        pos_a[k] = len(out)
        out.append(a_idx[k])
    for k in range(j, len(b_idx)):
        pos_b[k] = len(out)
        out.append(b_idx[k])
    return np.asarray(out, np.int64).reshape(-1, a_idx.shape[1]), pos_a, pos_b


class SparseAdd(Primitive):
    """Mirrors `sparse_ops.SparseAdd()(x1_indices, x1_values, x1_shape, x2_indices, x2_values,
    x2_shape, thresh)`: the sum of two COO tensors as (indices, values, shape). Entries are
    merged in row-major order; a pair present in both is kept when `|sum| >= thresh`. The
    shape is `x1_shape`. Differentiable in both value Tensors."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(
            inputs=["x1_indices", "x1_values", "x1_shape", "x2_indices", "x2_values", "x2_shape",
                    "thresh"], outputs=["sum_indices", "sum_values", "sum_shape"])

    def __call__(self, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh):
        from cellgrad.ops import unsorted_segment_sum

        op = "SparseAdd"
        for name, value in (("x1_indices", x1_indices), ("x1_shape", x1_shape),
                            ("x2_indices", x2_indices), ("x2_shape", x2_shape)):
            if not isinstance(value, TensorBuffer) or value.dtype.py_name != "int64":
                got = f"Tensor[{value.dtype}]" if isinstance(value, TensorBuffer) else \
                    type(value).__name__
                raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type "
                                f"of {{Tensor[Int64]}}, but got {got}.")
        for name, value in (("x1_values", x1_values), ("x2_values", x2_values),
                            ("thresh", thresh)):
            if not isinstance(value, TensorBuffer):
                raise TypeError(f"For {op}, '{name}' must be a Tensor, but got "
                                f"{type(value).__name__}.")
        for name, value in (("x2_values", x2_values), ("thresh", thresh)):
            if value.dtype != x1_values.dtype:
                raise TypeError(f"For {op}, the type of x1_values, and {name} should be the same "
                                f"data type, but got type of x1_values is {x1_values.dtype}, and "
                                f"type of {name} is {value.dtype}")
        a_idx, b_idx = x1_indices.asnumpy(), x2_indices.asnumpy()
        a_vals, b_vals = x1_values.asnumpy(), x2_values.asnumpy()
        if a_idx.ndim != 2 or b_idx.ndim != 2 or a_idx.shape[1] != b_idx.shape[1] or \
                a_idx.shape[0] != a_vals.size or b_idx.shape[0] != b_vals.size:
            raise ValueError(f"For {op}, the indices must be 2-D of one rank with one row per "
                             f"value, but got x1_indices {list(a_idx.shape)}, x1_values "
                             f"{list(a_vals.shape)}, x2_indices {list(b_idx.shape)}, x2_values "
                             f"{list(b_vals.shape)}.")
        out_idx, pos_a, pos_b = _merge(a_idx, b_idx, a_vals, b_vals,
                                       thresh.asnumpy().reshape(-1)[0])
        rows = len(out_idx)
        # a dropped pair's values go to the extra segment `rows`, cut off after the sum
        seg_a = make_tensor(np.where(pos_a < 0, rows, pos_a).astype(np.int64))
        seg_b = make_tensor(np.where(pos_b < 0, rows, pos_b).astype(np.int64))
        values = unsorted_segment_sum(x1_values, seg_a, rows + 1) + \
            unsorted_segment_sum(x2_values, seg_b, rows + 1)
        return make_tensor(out_idx), values[:rows], make_tensor(x1_shape.asnumpy().copy())


__getattr__, __dir__ = _plugin_names(__name__)
