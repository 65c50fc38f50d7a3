"""Mirrors `mindspore.numpy.logic_ops`: comparisons, truth tests and set membership. Results
are Bool Tensors (or `dtype` when given), so none of these has a gradient."""

import numpy as np

from cellgrad.dtype import bool_
from cellgrad.numpy._common import (
    axes_valid,
    broadcast_shape,
    check_dtype,
    check_tensor,
    new,
    promote,
    to_tensor,
)
from cellgrad.ops import functional as F

__all__ = [
    "array_equal", "array_equiv", "equal", "greater", "greater_equal", "in1d", "isclose",
    "isfinite", "isin", "isinf", "isnan", "isneginf", "isposinf", "isscalar", "less",
    "less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "not_equal",
    "setdiff1d", "signbit", "sometrue",
]


def _apply(op, fn, *args, dtype=None):
    """MindSpore's `_apply_tensor_op`: Python data to Tensors, `fn`, then cast to `dtype`."""
    args = to_tensor(*args, op=op)
    res = fn(*args) if isinstance(args, tuple) else fn(args)
    if dtype is not None:
        d = check_dtype(dtype, op)
        if res.dtype is not d:
            res = res.astype(d)
    return res


def _as_bool(x):
    return x if x.dtype is bool_ else x.astype(bool_)


def _binary(name, fn, tensors_only=False):
    def op(x1, x2, dtype=None):
        if tensors_only:
            check_tensor(name, x1, x2)
        return _apply(name, fn, x1, x2, dtype=dtype)

    op.__name__ = op.__qualname__ = name
    extra = " (both must be Tensors, as in MindSpore)" if tensors_only else ""
    op.__doc__ = f"Mirrors `mindspore.numpy.{name}`: elementwise, Bool unless `dtype`{extra}."
    return op


def _unary(name, fn):
    def op(x, dtype=None):
        return _apply(name, fn, x, dtype=dtype)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"Mirrors `mindspore.numpy.{name}`: elementwise, Bool unless `dtype`."
    return op


def _logical_binary(fn):
    return lambda a, b: fn(_as_bool(a), _as_bool(b))


equal = _binary("equal", F.equal)
not_equal = _binary("not_equal", F.not_equal, tensors_only=True)
greater = _binary("greater", F.greater)
greater_equal = _binary("greater_equal", F.greater_equal)
less = _binary("less", F.less)
less_equal = _binary("less_equal", F.less_equal, tensors_only=True)
logical_and = _binary("logical_and", _logical_binary(F.logical_and))
logical_or = _binary("logical_or", _logical_binary(F.logical_or))
isfinite = _unary("isfinite", F.isfinite)
isnan = _unary("isnan", F.isnan)
isinf = _unary("isinf", F.isinf)


def logical_not(a, dtype=None):
    """Mirrors `mindspore.numpy.logical_not`."""
    return _apply("logical_not", lambda x: F.logical_not(_as_bool(x)), a, dtype=dtype)


def logical_xor(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.logical_xor` (both must be Tensors, as in MindSpore)."""
    check_tensor("logical_xor", x1, x2)
    return _apply("logical_xor", _logical_binary(F.logical_xor), x1, x2, dtype=dtype)


def _signed_inf(op, x, positive):
    check_tensor(op, x)
    return F.logical_and(F.isinf(x), F.greater(x, 0) if positive else F.less(x, 0))


def isposinf(x):
    """Mirrors `mindspore.numpy.isposinf` (a Tensor input)."""
    return _signed_inf("isposinf", x, True)


def isneginf(x):
    """Mirrors `mindspore.numpy.isneginf` (a Tensor input)."""
    return _signed_inf("isneginf", x, False)


def signbit(x, dtype=None):
    """Mirrors `mindspore.numpy.signbit`: `x < 0` (so -0.0 and -nan give False, as in
    MindSpore, unlike numpy)."""
    if dtype is not None and check_dtype(dtype, "signbit") is not bool_:
        raise TypeError(f"For 'signbit', casting was not allowed for signbit, got dtype "
                        f"{dtype}.")
    return F.less(to_tensor(x, op="signbit"), 0)


def isscalar(element):
    """Mirrors `mindspore.numpy.isscalar`: real numbers (Python's and numpy's), strings and
    bytes are scalars; Tensors, sequences, complex numbers and None are not."""
    return isinstance(element, (int, float, str, bytes, np.integer, np.floating, np.bool_))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Mirrors `mindspore.numpy.isclose`: `|a - b| <= atol + rtol * |b|` (one dtype required)."""
    a, b = to_tensor(a, b, op="isclose")
    if a.dtype is not b.dtype:
        raise TypeError(f"For 'isclose', the input type must be same, got {a.dtype} and "
                        f"{b.dtype}.")
    broadcast_shape("isclose", tuple(a.shape), tuple(b.shape))
    return new(np.isclose(a.asnumpy(), b.asnumpy(), rtol, atol, equal_nan))


def in1d(ar1, ar2, invert=False):
    """Mirrors `mindspore.numpy.in1d`: whether each element of the flattened `ar1` is in
    `ar2`."""
    ar1, ar2 = to_tensor(ar1, ar2, op="in1d")
    d = promote(ar1.dtype, ar2.dtype).np_dtype
    res = np.isin(ar1.asnumpy().astype(d).reshape(-1), ar2.asnumpy().astype(d), invert=invert)
    return new(res)


def isin(element, test_elements, invert=False):
    """Mirrors `mindspore.numpy.isin`: `in1d` in the shape of `element`."""
    element = to_tensor(element, op="isin")
    return F.reshape(in1d(element, test_elements, invert), tuple(element.shape))


def array_equal(a1, a2, equal_nan=False):
    """Mirrors `mindspore.numpy.array_equal`: a 0-d Bool Tensor."""
    a1, a2 = to_tensor(a1, a2, op="array_equal")
    if not isinstance(equal_nan, bool):
        raise TypeError(f"For 'array_equal', equal_nan must be bool, got {equal_nan!r}.")
    if tuple(a1.shape) != tuple(a2.shape):
        return new(np.asarray(False))
    res = F.equal(a1, a2)
    if equal_nan:
        res = F.logical_or(res, F.logical_and(F.isnan(a1), F.isnan(a2)))
    return F.all(res)


def array_equiv(a1, a2):
    """Mirrors `mindspore.numpy.array_equiv`: equal after broadcasting (a 0-d Bool Tensor)."""
    a1, a2 = to_tensor(a1, a2, op="array_equiv")
    try:
        np.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ValueError:
        return new(np.asarray(False))
    return F.all(F.equal(a1, a2))


def sometrue(a, axis=None, keepdims=False):
    """Mirrors `mindspore.numpy.sometrue`: whether any element (along `axis`) is non-zero."""
    if not isinstance(keepdims, int):
        raise TypeError(f"For 'sometrue', integer argument expected for keepdims, but got "
                        f"{type(keepdims).__name__}.")
    a = to_tensor(a, op="sometrue")
    if axis is not None:
        axis = axes_valid("sometrue", axis, a.ndim)
    return F.any(F.not_equal(a, 0), axis, keepdims not in (0, False))


def setdiff1d(ar1, ar2, assume_unique=False):
    """Mirrors `mindspore.numpy.setdiff1d`: the sorted unique values of `ar1` not in `ar2`
    (with `assume_unique`, `ar1`'s values in their order)."""
    if not isinstance(assume_unique, bool):
        raise TypeError(f"For 'setdiff1d', assume_unique is not bool type, got "
                        f"{assume_unique!r}.")
    ar1, ar2 = to_tensor(ar1, ar2, op="setdiff1d")
    a1 = ar1.asnumpy().reshape(-1)
    if not assume_unique:
        a1 = np.unique(a1)
    keep = ~in1d(new(a1, ar1.dtype), ar2).asnumpy()
    return new(a1[keep], ar1.dtype)

