"""Mirrors `mindspore.common.sparse_tensor`: `RowTensor`, `COOTensor`, `CSRTensor`.

A sparse tensor holds its parts as Tensors; arithmetic on it works on those parts with the
core ops, so gradients flow to `values` (and to a dense operand) through the usual tape.
"""

from __future__ import annotations

import numpy as np

from cellgrad import log as logger
from cellgrad.common.tensor import Tensor
from cellgrad.ops._sparse_format import sparse_text
from cellgrad.ops._sparse_ops import (
    csr_rows,
    gather_values,
    index_add,
    row_pointers,
    scatter_add_into,
)

__all__ = ["RowTensorInner", "RowTensor", "SparseTensor", "COOTensor", "CSRTensor"]


def _check_shape(cls_name, shape):
    if not isinstance(shape, tuple):
        raise TypeError(f"For '{cls_name}', the 'shape' must be a tuple, but got "
                        f"{type(shape).__name__}: {shape!r}.")
    return tuple(int(n) for n in shape)


def _check_part(cls_name, arg, value):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the '{arg}' must be a Tensor, but got "
                        f"{type(value).__name__}.")
    return value


class RowTensorInner:
    """Mirrors `mindspore.common.sparse_tensor.RowTensorInner` (RowTensor without the
    deprecation warning): slices `values` of a dense tensor of shape `shape` at rows `indices`,
    `dense[indices[i], ...] = values[i, ...]`."""

    _ms_type_name = "RowTensor"  # what MultitypeFuncGraph dispatches it as

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        self.init_finished = False
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensorInner):
                raise TypeError(f"Expect input `row_tensor` to be a RowTensor, but got "
                                f"{type(row_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = row_tensor._indices, row_tensor._values, row_tensor._shape
        else:
            # MindSpore checks no more than this: indices of any dtype or shape are kept
            shape = _check_shape("RowTensor", shape)
            _check_part("RowTensor", "indices", indices)
            _check_part("RowTensor", "values", values)
        self._indices, self._values, self._shape = indices, values, shape
        self._dtype = values.dtype
        self.init_finished = True

    def __repr__(self):
        if not self.init_finished:
            return ""
        return sparse_text("RowTensor", self._shape, self._dtype,
                           {"indices": self._indices, "values": self._values})

    __str__ = __repr__

    @property
    def indices(self):
        """The rows of the dense tensor that `values` fill (a Tensor)."""
        return self._indices

    @property
    def values(self):
        """The row slices (a Tensor of shape `(len(indices), *dense_shape[1:])`)."""
        return self._values

    @property
    def dense_shape(self):
        """The shape of the dense tensor (a tuple)."""
        return self._shape


class RowTensor(RowTensorInner):
    """Mirrors `mindspore.RowTensor` (deprecated there since 1.7: it logs a warning)."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        logger.warning("'RowTensor' is deprecated from version 1.7 and will be removed in a "
                       "future version.")
        super().__init__(indices, values, shape, row_tensor)


def _check_sparse_input(indices, values, shape):
    if not isinstance(indices, Tensor):
        raise TypeError(f"For SparseTensors, 'indices' must be Tensor, but got {type(indices)}.")
    if not isinstance(values, Tensor):
        raise TypeError(f"For SparseTensors, 'values' must be Tensor, but got {type(values)}.")
    if not isinstance(shape, tuple):
        raise TypeError(f"For SparseTensors, 'shape' must be tuple, but got {type(shape)}.")


def _check_coo_shape(indices_shp, values_shp, coo_shp):
    if len(coo_shp) != 2:
        raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {coo_shp}.")
    if indices_shp == (0,) and values_shp == (0,):
        return
    size = 1
    for n in coo_shp:
        if n <= 0:
            raise ValueError(f"For COOTensor, the element of 'shape' must be positive, but got "
                             f"{n} in {coo_shp}.")
        if not isinstance(n, int):
            raise TypeError(f"For COOTensor, the element type of 'shape' must be int, but got "
                            f"{type(n)}")
        size *= n
    if size < values_shp[0]:
        raise ValueError(f"For COOTensor, shape is too small: ({size}) to hold all "
                         f"values({values_shp[0]}).")
    if len(indices_shp) != 2:
        raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a "
                         f"{len(indices_shp)}-dimensional tensor.")
    if len(values_shp) != 1:
        raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a "
                         f"{len(values_shp)}-dimensional tensor.")
    if indices_shp[0] != values_shp[0]:
        # MindSpore's spelling, "euqal", kept: code matches on these messages
        raise ValueError(f"For COOTensor, 'indices.shape[0]' must be euqal to 'values.shape[0]'"
                         f", but got 'indices.shape[0]' = {indices_shp[0]} and "
                         f"'values.shape[0]' = {values_shp[0]}.")
    if indices_shp[1] != 2:
        raise ValueError(f"For COOTensor, 'indices.shape[1]' must be 2, but got "
                         f"{indices_shp[1]}.")


_INDEX_DTYPES = ("Int16", "Int32", "Int64")


def _check_csr_shape(indptr_shp, indices_shp, values_shp, csr_shp):
    if indptr_shp == (0,) and indices_shp == (0,) and values_shp == (0,):
        return
    size = values_size = 1
    for n in csr_shp:
        if n <= 0:
            raise ValueError(f"For CSRTensor, the element of shape must be positive, but got {n}")
        if not isinstance(n, int):
            raise TypeError(f"For CSRTensor, the element type of shape must be int, but got "
                            f"{type(n)}")
        size *= n
    for n in values_shp:
        if n <= 0:
            raise ValueError(f"The element of shape must be positive, but got {n}")
        values_size *= n
    if size < values_size:
        raise ValueError(f"Shape total size: {size} is too small to hold {values_size} non-zero "
                         "values.")
    if len(indices_shp) != 1:
        raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got a "
                         f"{len(indices_shp)} dimension tensor.")
    if len(indptr_shp) != 1:
        raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got a "
                         f"{len(indptr_shp)} dimension tensor.")
    if csr_shp[0] + 1 != indptr_shp[0]:
        raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: "
                         f"{indptr_shp[0]}")
    if indices_shp[0] != values_shp[0]:
        raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but got "
                         f"indices shape: {indices_shp[0]}, values shape: {values_shp[0]}.")
    if len(values_shp) + 1 != len(csr_shp):
        raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, but got"
                         f"Values' dimension: {len(values_shp)} , CSRTensor's dimension: "
                         f"{len(csr_shp)}")
    if values_shp[1:] != csr_shp[2:]:
        raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ],but "
                         f"CSRTensor's shape[2: ] got: {csr_shp[2:]} and value's shape[1: ]got: "
                         f"{values_shp[1:]}")


class _SparseBase:
    """What COOTensor and CSRTensor share: their values' dtype and sizes, repr, casts."""

    _PARTS = ()

    @property
    def values(self):
        """The stored values (a Tensor)."""
        return self._values

    @property
    def indices(self):
        """The indices (a Tensor)."""
        return self._indices

    @property
    def shape(self):
        """The dense shape (a tuple)."""
        return self._shape

    @property
    def dtype(self):
        """The dtype of the values."""
        return self._dtype

    @property
    def size(self):
        """The number of stored values."""
        return self._values.size

    @property
    def itemsize(self):
        """The bytes of one value."""
        return 2 if str(self._dtype) == "BFloat16" else self._dtype.np_dtype.itemsize

    @property
    def ndim(self):
        """The number of dimensions of the dense shape."""
        return len(self._shape)

    def __repr__(self):
        if not self.init_finished:
            return ""
        parts = {name: getattr(self, "_" + name) for name in self._PARTS}
        return sparse_text(type(self).__name__, self._shape, self._dtype, parts)

    __str__ = __repr__

    def _same_shape(self, other):
        if not self.shape == other.shape:
            raise ValueError("Input tensors should have the same shape.")


class COOTensor(_SparseBase):
    """Mirrors `mindspore.COOTensor`: `dense[indices[i]] = values[i]` for a 2-D dense shape
    (duplicate indices are not coalesced)."""

    _ms_type_name = "COOTensor"
    _PARTS = ("indices", "values")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        self.init_finished = False
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"Expect input `coo_tensor` to be a COOTensor, but got "
                                f"{type(coo_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = coo_tensor._indices, coo_tensor._values, coo_tensor._shape
        else:
            _check_sparse_input(indices, values, shape)
            _check_coo_shape(indices.shape, values.shape, shape)
            if str(indices.dtype) not in _INDEX_DTYPES:
                raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, "
                                f"int32, int64], but got {indices.dtype}.")
        self._indices, self._values, self._shape = indices, values, shape
        self._dtype = values.dtype
        self.init_finished = True

    def _coords(self):
        idx = self._indices.asnumpy().astype(np.int64)
        return idx.reshape(-1, 2)

    def __neg__(self):
        return COOTensor(self.indices, -self.values, self.shape)

    def __add__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return scatter_add_into(other, self._coords(), self.values)
        if isinstance(other, COOTensor):
            return F.coo_add(self, other, Tensor(0, self.values.dtype))
        raise TypeError(f"COOTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return scatter_add_into(-other, self._coords(), self.values)
        if isinstance(other, COOTensor):
            return F.coo_add(self, -other, Tensor(0, self.values.dtype))
        raise TypeError(f"COOTensor subtract with {type(other)} is not supported.")

    def __mul__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return COOTensor(self.indices, self.values * F.gather_at(other, self._coords()),
                             self.shape)
        raise TypeError(f"COOTensor multiply with {type(other)} is not supported.")

    def __truediv__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            logger.warning("For sparse divide, zero values in the dense tensor are ignored.")
            return COOTensor(self.indices, self.values / F.gather_at(other, self._coords()),
                             self.shape)
        raise TypeError(f"COOTensor divide with {type(other)} is not supported.")

    def coalesce(self):
        """Mirrors `COOTensor.coalesce`: indices sorted and unique, duplicates summed (int64
        indices, as MindSpore's CPU kernel requires)."""
        F.require_int64("Coalesce", "x_indices", self.indices)
        coords = self._coords()
        uniq, inverse = np.unique(coords, axis=0, return_inverse=True)
        values = index_add((len(uniq),), inverse.reshape(-1), self.values)
        return COOTensor(Tensor(uniq.astype(np.int64)), values, self.shape)

    def to_csr(self):
        """Mirrors `COOTensor.to_csr`: rows sorted (stably), int32 row pointers."""
        if str(self.indices.dtype) != "Int32":
            raise TypeError(f"The dtype of row_indices only support Int32 for now, but got "
                            f"{self.indices.dtype}.")
        coords = self._coords()
        order = np.argsort(coords[:, 0], kind="stable")
        indptr = row_pointers(coords[order, 0], self.shape[0], np.int32)
        cols = Tensor(coords[order, 1].astype(np.int32))
        return CSRTensor(Tensor(indptr), cols, gather_values(self.values, order), self.shape)

    def to_dense(self):
        """Mirrors `COOTensor.to_dense`: duplicate indices add up."""
        coords = self._coords()
        return index_add(self.shape, (coords[:, 0], coords[:, 1]), self.values)

    def astype(self, dtype):
        """Mirrors `COOTensor.astype`: values cast to `dtype`."""
        return COOTensor(self.indices, self.values.astype(dtype), self.shape)

    def to_tuple(self):
        """Mirrors `COOTensor.to_tuple`: (indices, values, shape)."""
        return self.indices, self.values, self.shape

    def abs(self):
        """Mirrors `COOTensor.abs`."""
        return COOTensor(self.indices, self.values.abs(), self.shape)

    def add(self, other, thresh):
        """Mirrors `COOTensor.add`: `ops.coo_add(self, other, thresh)`."""
        return F.coo_add(self, other, thresh)


class CSRTensor(_SparseBase):
    """Mirrors `mindspore.CSRTensor`: row `r` holds `values[indptr[r]:indptr[r+1]]` at columns
    `indices[indptr[r]:indptr[r+1]]`."""

    _ms_type_name = "CSRTensor"
    _PARTS = ("indptr", "indices", "values")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        self.init_finished = False
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got "
                                f"{type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, "
                                "`values`, `shapes` should all be `None`")
            indptr, indices = csr_tensor._indptr, csr_tensor._indices
            values, shape = csr_tensor._values, csr_tensor._shape
        else:
            if not isinstance(indptr, Tensor):
                raise TypeError(f"For CSRTensor, 'indptr' must be Tensor, but got "
                                f"{type(indptr)}.")
            _check_sparse_input(indices, values, shape)
            _check_csr_shape(indptr.shape, indices.shape, values.shape, shape)
            for name, part in (("indptr", indptr), ("indices", indices)):
                if str(part.dtype) not in _INDEX_DTYPES:
                    raise TypeError(f"For CSRTensor, {name} must have int16 or int32 or int64 "
                                    f"data type, but got {part.dtype}.")
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, shape
        self._dtype = values.dtype
        self.init_finished = True

    @property
    def indptr(self):
        """The row pointers (a Tensor of length `shape[0] + 1`)."""
        return self._indptr

    def _rows(self):
        return csr_rows(self._indptr.asnumpy(), self._values.shape[0])

    def __mul__(self, other):
        return F.csr_mul(self, other)

    def __truediv__(self, other):
        logger.warning("For CSR divide, zero values in the dense tensor are ignored.")
        return F.csr_div(self, other)

    def __neg__(self):
        return CSRTensor(self.indptr, self.indices, -self.values, self.shape)

    def __add__(self, other):
        self._same_shape(other)
        if isinstance(other, CSRTensor):
            one = Tensor(1, self.values.dtype)
            return F.csr_add(self, other, one, one)
        raise TypeError(f"CSRTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        self._same_shape(other)
        if isinstance(other, CSRTensor):
            return F.csr_add(self, other, Tensor(1, self.values.dtype),
                             Tensor(-1, self.values.dtype))
        raise TypeError(f"CSRTensor subtract with {type(other)} is not supported.")

    def to_tuple(self):
        """Mirrors `CSRTensor.to_tuple`: (indptr, indices, values, shape)."""
        return self.indptr, self.indices, self.values, self.shape

    def to_coo(self):
        """Mirrors `CSRTensor.to_coo` (2-D only)."""
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
        return F.csr_to_coo(self)

    def to_dense(self):
        """Mirrors `CSRTensor.to_dense`."""
        return F.csr_to_dense(self)

    def astype(self, dtype):
        """Mirrors `CSRTensor.astype`: values cast to `dtype`."""
        return CSRTensor(self.indptr, self.indices, self.values.astype(dtype), self.shape)

    def mv(self, dense_vector):
        """Mirrors `CSRTensor.mv`: the product with a `(shape[1], 1)` dense Tensor."""
        if not isinstance(dense_vector, Tensor):
            raise TypeError(f"For 'CSRTensor.mv', the type of 'dense_vector' should be Tensor, "
                            f"but got {type(dense_vector).__name__}.")
        return F.csr_mv(self, dense_vector)

    def mm(self, matrix):
        """Mirrors `CSRTensor.mm` with a dense Tensor (a CSRTensor operand is GPU-only in
        MindSpore: `ops.csr_mm`)."""
        if isinstance(matrix, CSRTensor):
            return F.csr_mm(self, matrix)
        if not isinstance(matrix, Tensor):
            raise TypeError(f"For 'CSRTensor.mm', the type of 'matrix' should be Tensor, but "
                            f"got {type(matrix).__name__}.")
        return F.csr_dense_mm(self, matrix)

    def sum(self, axis):
        """Mirrors `CSRTensor.sum`: `ops.csr_reduce_sum(self, axis)`."""
        return F.csr_reduce_sum(self, axis)

    def abs(self):
        """Mirrors `CSRTensor.abs`."""
        return CSRTensor(self.indptr, self.indices, self.values.abs(), self.shape)

    def add(self, b, alpha, beta):
        """Mirrors `CSRTensor.add`: `alpha * self + beta * b`."""
        return F.csr_add(self, b, alpha, beta)


class SparseTensor(COOTensor):
    """Mirrors `mindspore.SparseTensor` (deprecated there since 1.7 for COOTensor)."""

    def __init__(self, indices, values, shape):
        logger.warning("'SparseTensor' is deprecated from version 1.7 and will be removed in a "
                       "future version. Please use 'COOTensor' instead.")
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor)
                and isinstance(shape, tuple)):
            raise TypeError("Inputs must follow: COOTensor(indices, values, shape).")
        super().__init__(indices, values, shape)


# the functions import these classes: bound last
from cellgrad.ops import _sparse_functions as F  # noqa: E402
