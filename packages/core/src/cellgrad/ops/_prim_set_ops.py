"""MindSpore's (deprecated since 2.8, still importable) set Primitives of
`ops.operations.sparse_ops`: `DenseToDenseSetOperation` and `DenseToSparseSetOperation`, a
set operation along the last axis of each group (the values sharing the leading indices),
giving a sparse result (int64 indices, values, int64 dense shape) with each group's values
sorted, as MindSpore's CPU kernels (TensorFlow's semantics)."""

import numpy as np

from cellgrad import dtype as mstype
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["DenseToDenseSetOperation", "DenseToSparseSetOperation"]

_SET_OPS = {
    "a-b": np.setdiff1d,
    "b-a": lambda a, b: np.setdiff1d(b, a),
    "intersection": np.intersect1d,
    "union": np.union1d,
}


def _check_attrs(op, set_operation, validate_indices):
    if not isinstance(set_operation, str):
        raise TypeError(f"For '{op}', the 'set_operation' must be str, but got "
                        f"{type(set_operation).__name__}.")
    if not isinstance(validate_indices, bool):
        raise TypeError(f"For '{op}', the 'validate_indices' must be bool, but got "
                        f"{type(validate_indices).__name__}.")


def _set_op(op, set_operation):
    """The set function; the attribute keeps the user's spelling (MindSpore checks it when
    the Primitive runs)."""
    fn = _SET_OPS.get(set_operation.lower())
    if fn is None:
        raise ValueError(f"For '{op}', the 'set_operation' must be one of "
                         f"{list(_SET_OPS)} (case insensitive), but got '{set_operation}'.")
    return fn


def _dense(op, name, x):
    C.tensor(op, name, x)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', the rank of the shape of input '{name}' must be at "
                         f"least 2, but got {x.ndim}.")
    return x.asnumpy()


def _sparse_result(op, groups, group_shape, x1):
    """(indices, values, shape) Tensors from {group index: sorted values}."""
    rows, values = [], []
    for index in np.ndindex(*group_shape):
        got = groups(index)
        rows.extend(index + (k,) for k in range(len(got)))
        values.append(got)
    width = max((len(v) for v in values), default=0)
    indices = np.array(rows, np.int64).reshape(-1, len(group_shape) + 1)
    vals = np.concatenate(values).astype(x1.dtype) if values else np.empty(0, x1.dtype)
    shape = np.array(tuple(group_shape) + (width,), np.int64)
    return (make_tensor(indices, None, 0, mstype.int64),
            make_tensor(vals, None, 0, mstype.to_dtype(vals.dtype)),
            make_tensor(shape, None, 0, mstype.int64))


class DenseToDenseSetOperation(Primitive):
    """Mirrors `ops.operations.sparse_ops.DenseToDenseSetOperation(set_operation='a-b',
    validate_indices=True)(x1, x2)`: per group of the leading n-1 axes, the set operation of
    the last-axis values of `x1` and `x2` (duplicates ignored), as a sparse Tensor."""

    @prim_attr_register
    def __init__(self, set_operation="a-b", validate_indices=True):
        _check_attrs(self.name, set_operation, validate_indices)

    def __call__(self, x1, x2):
        a, b = _dense(self.name, "x1", x1), _dense(self.name, "x2", x2)
        if a.dtype != b.dtype:
            raise TypeError(f"For '{self.name}', the dtype of 'x1' and 'x2' must be the same, "
                            f"but got {x1.dtype} and {x2.dtype}.")
        if a.shape[:-1] != b.shape[:-1]:
            raise ValueError(f"For '{self.name}', the group shape of 'x1' and 'x2' must be the "
                             f"same, but got {a.shape[:-1]} and {b.shape[:-1]}.")
        fn = _set_op(self.name, self.set_operation)
        return _sparse_result(self.name, lambda i: fn(a[i], b[i]), a.shape[:-1], a)


class DenseToSparseSetOperation(Primitive):
    """Mirrors `ops.operations.sparse_ops.DenseToSparseSetOperation(set_operation='a-b',
    validate_indices=True)(x1, x2_indices, x2_values, x2_shape)`: as
    `DenseToDenseSetOperation` with `x2` a sparse Tensor (COO indices, values, dense shape)."""

    @prim_attr_register
    def __init__(self, set_operation="a-b", validate_indices=True):
        _check_attrs(self.name, set_operation, validate_indices)

    def __call__(self, x1, x2_indices, x2_values, x2_shape):
        a = _dense(self.name, "x1", x1)
        for name, t in (("x2_indices", x2_indices), ("x2_values", x2_values),
                        ("x2_shape", x2_shape)):
            if not isinstance(t, TensorBuffer):
                raise TypeError(f"For '{self.name}', the input '{name}' must be a Tensor, but "
                                f"got {type(t).__name__}.")
        idx, vals = x2_indices.asnumpy(), x2_values.asnumpy()
        shape = tuple(int(s) for s in x2_shape.asnumpy())
        if vals.dtype != a.dtype:
            raise TypeError(f"For '{self.name}', the dtype of 'x1' and 'x2_values' must be the "
                            f"same, but got {x1.dtype} and {x2_values.dtype}.")
        if idx.ndim != 2 or idx.shape[0] != vals.shape[0] or idx.shape[1] != len(shape):
            raise ValueError(f"For '{self.name}', 'x2_indices' must have shape "
                             f"[len(x2_values), len(x2_shape)] = [{vals.shape[0]}, "
                             f"{len(shape)}], but got {list(idx.shape)}.")
        if a.shape[:-1] != shape[:-1]:
            raise ValueError(f"For '{self.name}', the group shape of 'x1' and 'x2' must be the "
                             f"same, but got {a.shape[:-1]} and {shape[:-1]}.")
        if self.validate_indices and idx.size and (
                (idx < 0).any() or (idx >= np.array(shape)).any()):
            raise ValueError(f"For '{self.name}', 'x2_indices' must lie inside 'x2_shape' "
                             f"{list(shape)}.")
        members = {}
        for row, v in zip(map(tuple, idx[:, :-1]), vals):
            members.setdefault(row, []).append(v)
        fn = _set_op(self.name, self.set_operation)
        return _sparse_result(
            self.name, lambda i: fn(a[i], np.array(members.get(i, []), a.dtype)),
            a.shape[:-1], a)
