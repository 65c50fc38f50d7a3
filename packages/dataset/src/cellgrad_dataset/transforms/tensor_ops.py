"""The type and shape transforms of `mindspore.dataset.transforms`: TypeCast, OneHot, Fill,
PadEnd, Concatenate, Duplicate, Mask, Slice, Unique."""

import operator
from enum import IntEnum

import numpy as np

from cellgrad.dtype import bool_
from cellgrad_dataset.transforms.base import (
    TensorOperation,
    as_array,
    pipeline_error,
    to_nptype,
)


def _int_arg(op, name, value, low=None):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"Argument {name} with value {value!r} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if low is not None and value < low:
        raise ValueError(f"For '{op}', {name} must be >= {low}, but got {value}.")
    return int(value)


class TypeCast(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.TypeCast`."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = to_nptype("TypeCast", "data_type", data_type)

    def _apply(self, data):
        return as_array("TypeCast", data).astype(self._np)


class OneHot(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.OneHot`: integer labels (a scalar or 1-D) to
    one-hot rows in the labels' dtype; with `smoothing_rate`, float64 smoothed rows."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        self.num_classes = _int_arg("OneHot", "num_classes", num_classes, 1)
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"Input smoothing_rate is not within the required interval of "
                             f"[0.0, 1.0], got {smoothing_rate}.")
        self.smoothing_rate = smoothing_rate

    def _apply(self, label):
        label = as_array("OneHot", label)
        if label.ndim > 1:
            raise pipeline_error("OneHot", f"Only support scalar or 1D input, got rank: "
                                 f"{label.ndim}")
        if not np.issubdtype(label.dtype, np.integer):
            raise pipeline_error("OneHot", f"Only support input of int type, but got: "
                                 f"{label.dtype}")
        if label.size and (label.min() < 0 or label.max() >= self.num_classes):
            raise pipeline_error("OneHot", f"index values should not bigger than num classes: "
                                 f"{self.num_classes}, got {label.tolist()}")
        hot = np.arange(self.num_classes) == label[..., None]
        if self.smoothing_rate:
            s = self.smoothing_rate
            return np.where(hot, 1.0 - s + s / self.num_classes, s / self.num_classes)
        return hot.astype(label.dtype)


class Fill(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Fill`: every element set to `fill_value` (cast
    to the input's dtype)."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (str, bytes, int, float, bool, np.generic)):
            raise TypeError(f"Argument fill_value with value {fill_value!r} is not of type "
                            f"[str, bytes, int, float, bool], but got {type(fill_value)}.")
        self.fill_value = fill_value

    def _apply(self, data):
        data = as_array("Fill", data)
        return np.full(data.shape, np.array(self.fill_value).astype(data.dtype), data.dtype)


class PadEnd(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.PadEnd`: pad (or cut) each dimension at its end
    to `pad_shape` (None keeps a dimension)."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, (list, tuple)):
            raise TypeError(f"Argument pad_shape with value {pad_shape!r} is not of type "
                            f"[<class 'list'>], but got {type(pad_shape)}.")
        self.pad_shape = list(pad_shape)
        self.pad_value = pad_value

    def _apply(self, data):
        data = as_array("PadEnd", data)
        if len(self.pad_shape) != data.ndim:
            raise pipeline_error("PadEnd", f"invalid pad_shape {self.pad_shape} for an input "
                                 f"of shape {data.shape}: the ranks must match")
        shape = [n if s is None else s for s, n in zip(self.pad_shape, data.shape)]
        fill = 0 if self.pad_value is None else self.pad_value
        out = np.full(shape, np.array(fill).astype(data.dtype), data.dtype)
        kept = tuple(slice(0, min(s, n)) for s, n in zip(shape, data.shape))
        out[kept] = data[kept]
        return out


class Concatenate(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Concatenate` (1-D tensors)."""

    def __init__(self, axis=0, prepend=None, append=None):
        self.axis = _int_arg("Concatenate", "axis", axis)
        self.prepend, self.append = prepend, append

    def _apply(self, data):
        data = as_array("Concatenate", data)
        if data.ndim != 1:
            raise pipeline_error("Concatenate", f"Only 1D input supported, got rank: "
                                 f"{data.ndim}")
        if self.axis not in (0, -1):
            raise pipeline_error("Concatenate", f"only 1D input supported, axis must be 0 or "
                                 f"-1, got {self.axis}")
        parts = [np.asarray(p) for p in (self.prepend, data, self.append) if p is not None]
        return np.concatenate(parts).astype(data.dtype)


class Duplicate(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Duplicate`: the column and a copy of it."""

    def _apply(self, data):
        data = as_array("Duplicate", data)
        return data, data.copy()


class Relational(IntEnum):
    """Mirrors `mindspore.dataset.transforms.Relational`: the comparisons `Mask` applies."""

    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: operator.eq, Relational.NE: operator.ne, Relational.GT: operator.gt,
            Relational.GE: operator.ge, Relational.LT: operator.lt, Relational.LE: operator.le}


class Mask(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Mask`: `data <operator> constant`, cast to
    `dtype` (bool by default)."""

    def __init__(self, operator, constant, dtype=bool_):  # noqa: A002 - MindSpore's name
        if not isinstance(operator, Relational):
            raise TypeError(f"Argument operator with value {operator!r} is not of type "
                            f"[<enum 'Relational'>], but got {type(operator)}.")
        self.operator, self.constant, self.dtype = operator, constant, dtype
        self._np = to_nptype("Mask", "dtype", dtype)

    def _apply(self, data):
        data = as_array("Mask", data)
        return _COMPARE[self.operator](data, self.constant).astype(self._np)


class Slice(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Slice`: one index per dimension (an int, a list
    of ints, a slice, None or Ellipsis for the whole dimension)."""

    def __init__(self, *slices):
        for s in slices:
            ok = s is None or s is Ellipsis or isinstance(s, (int, slice)) or (
                isinstance(s, list) and all(isinstance(i, int) for i in s))
            if not ok or isinstance(s, bool):
                raise TypeError(f"Argument slices[...] with value {s!r} is not of type [int, "
                                f"list of int, slice, None, Ellipsis].")
        self.slices = slices

    def _apply(self, data):
        data = as_array("Slice", data)
        if len(self.slices) > data.ndim:
            raise pipeline_error("Slice", f"too many slices ({len(self.slices)}) for an input "
                                 f"of rank {data.ndim}")
        for axis, s in enumerate(self.slices):
            if s is None or s is Ellipsis:
                continue
            idx = np.arange(data.shape[axis])[s] if isinstance(s, slice) else np.atleast_1d(s)
            data = np.take(data, idx, axis=axis)
        return data


class Unique(TensorOperation):
    """Mirrors `mindspore.dataset.transforms.Unique`: the distinct values in order of first
    appearance, each element's index among them and their counts (int32). MindSpore 2.10
    flattens its input and rejects 1-D input (checked); so do we."""

    def _apply(self, data):
        data = as_array("Unique", data)
        if data.ndim < 2:
            raise pipeline_error("Unique", f"input must be at least 2-D in order to do unique "
                                 f"op, got rank:{data.ndim}")
        flat = data.reshape(-1)
        values, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return (values[order], rank[inverse.reshape(-1)].astype(np.int32),
                counts[order].astype(np.int32))
