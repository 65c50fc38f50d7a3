"""Turning Python data into a Tensor's array with MindSpore's dtype inference."""

import warnings

import numpy as np

from cellgrad._core._buffer import TensorBuffer, dtype_of_array
from cellgrad.dtype import bool_, complex128, float32, int64, to_dtype


def infer_array(data, dtype=None):
    """(array, cellgrad dtype) for Tensor data: scalars, nested lists, arrays, Tensors.

    Python float -> Float32, int -> Int64, bool -> Bool, complex -> Complex128; numpy arrays
    keep their dtype.
    The array is a fresh copy except for Tensor input with no dtype change.
    """
    want = None if dtype is None else to_dtype(dtype)
    if isinstance(data, TensorBuffer):
        arr, src = data._data, data._dtype
        if want is None or want is src:
            return arr, src
        return _cast(arr, src, want), want
    if isinstance(data, (np.ndarray, np.generic)):
        arr = np.array(data)
        src = dtype_of_array(arr)
    elif isinstance(data, (bool, int, float, complex)):
        src = _python_kind(data)
        arr = _scalar(data, src)
    elif isinstance(data, (list, tuple)):
        arr, src = _from_sequence(data)
    elif data is None:
        raise ValueError("Tensor: 'input_data' is None; pass data, or 'shape' and 'dtype'.")
    else:
        raise TypeError(
            f"Tensor: 'input_data' must be a Tensor, numpy array, Python scalar, list or tuple, "
            f"got {type(data).__name__}.")
    if want is None or want is src:
        return arr, src
    return _cast(arr, src, want), want


def _python_kind(v):
    if isinstance(v, bool):
        return bool_
    if isinstance(v, int):
        return int64
    if isinstance(v, complex):
        return complex128
    return float32


def _scalar(v, dt):
    if dt is int64 and not -(2**63) <= v < 2**63:
        raise RuntimeError(f"Cannot construct Tensor: the integer {v} does not fit in Int64.")
    return np.array(v, dtype=dt.np_dtype)


def _from_sequence(data):
    kinds = set()
    flat_shape = _shape_of(data, kinds, ())
    if kinds & {"tensor", "array"}:
        parts = [np.asarray(x._data if isinstance(x, TensorBuffer) else x) for x in data]
        arr = np.array(parts)
        return arr, dtype_of_array(arr)
    if "complex" in kinds:
        dt = complex128
    elif "float" in kinds:
        dt = float32
    elif "int" in kinds:
        dt = int64
    elif "bool" in kinds or not kinds:
        dt = bool_ if kinds else float32
    else:
        raise TypeError(f"Tensor: unsupported element types {sorted(kinds)} in {data!r}.")
    try:
        arr = np.array(data, dtype=np.float64 if dt is float32 else None)
        arr = arr.astype(dt.np_dtype).reshape(flat_shape)
    except OverflowError:
        raise TypeError("For Tensor, the input_data contains an integer that does not fit in "
                        "Int64 (an unsupported element).") from None
    return arr, dt


def _shape_of(data, kinds, path):
    """Shape of a nested list, raising ValueError for ragged nesting; collects element kinds."""
    if isinstance(data, (list, tuple)):
        shapes = {_shape_of(x, kinds, path + (i,)) for i, x in enumerate(data)}
        if len(shapes) > 1:
            raise ValueError(
                f"Tensor: the nested sequence is ragged at index {list(path)}: elements have "
                f"shapes {sorted(shapes, key=str)}; expected equal lengths.")
        inner = shapes.pop() if shapes else ()
        return (len(data),) + inner
    if isinstance(data, bool) or isinstance(data, np.bool_):
        kinds.add("bool")
    elif isinstance(data, (int, np.integer)):
        kinds.add("int")
    elif isinstance(data, (float, np.floating)):
        kinds.add("float")
    elif isinstance(data, (complex, np.complexfloating)):
        kinds.add("complex")
    elif isinstance(data, TensorBuffer):
        kinds.add("tensor")
        return tuple(data._data.shape)
    elif isinstance(data, np.ndarray):
        kinds.add("array")
        return data.shape
    else:
        raise TypeError(
            f"Tensor: unsupported element {data!r} of type {type(data).__name__} at index "
            f"{list(path)}; expected numbers, bools, Tensors or arrays.")
    return ()


def _cast(arr, src, want):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning if hasattr(
            np, "exceptions") else np.ComplexWarning)  # complex to real keeps the real part
        return arr.astype(want.np_dtype)
