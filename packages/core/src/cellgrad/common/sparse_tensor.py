"""Mirrors `mindspore.common.sparse_tensor`: `RowTensor`, `COOTensor`, `CSRTensor`.

A sparse tensor holds its parts as Tensors; arithmetic on it works on those parts with the
core ops, so gradients flow to `values` (and to a dense operand) through the usual tape.
"""

from __future__ import annotations

from cellgrad import log as logger
from cellgrad.common.tensor import Tensor
from cellgrad.ops._sparse_format import sparse_text

__all__ = ["RowTensorInner", "RowTensor"]


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
