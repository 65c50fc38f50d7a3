"""Math functions of `mindspore.ops`, built from the core ops (so their gradients, of any order,
come from those): the 1.x reductions `reduce_sum`/`reduce_mean`, `addn`, `assign_add`,
`tensor_mul`/`multiply`/`pows`, `isclose`, `logsumexp`."""

import numpy as np

from cellgrad import _jit_hook
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import to_dtype
from cellgrad.ops import _reduce
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply, define, pass_gradient


def _shape(shape):
    """A shape as MindSpore's messages print it: (3) for one dimension, (2, 3) for two."""
    return f"({', '.join(map(str, shape))})"


def _axis(axis):
    """ReduceSum's axis: () or [] means every axis."""
    if isinstance(axis, (tuple, list)) and not axis:
        return None
    return tuple(axis) if isinstance(axis, list) else axis


def reduce_sum(x, axis=()):
    """Mirrors `mindspore.ops.reduce_sum` (`ops.ReduceSum()(x, axis)`; `()` sums everything)."""
    F._need_tensor("reduce_sum", x)
    return _reduce.reduce(_reduce.SUM, x, _axis(axis), False, dtype=x._data.dtype)


def reduce_mean(x, axis=()):
    """Mirrors `mindspore.ops.reduce_mean` (`ops.ReduceMean()(x, axis)`; integers truncate)."""
    F._need_tensor("reduce_mean", x)
    return _reduce.reduce(_reduce.MEAN, x, _axis(axis), False)


def _addn_fwd(*xs):
    for i, t in enumerate(xs[1:], 1):
        if t.shape != xs[0].shape:
            raise ValueError(f"For 'AddN', input shape must be same, but got shape of input[{i}]:"
                             f" {_shape(t.shape)}, shape of input[0]: {_shape(xs[0].shape)}.")
        if t.dtype != xs[0].dtype:
            # checked here, after amp 'auto' has cast the inputs to the widest float dtype
            raise TypeError(f"For 'AddN', input dtypes must be the same, but got "
                            f"{to_dtype(t.dtype)} at input[{i}] and {to_dtype(xs[0].dtype)} at "
                            f"input[0].")
    out = xs[0].copy()
    for t in xs[1:]:
        out += t
    return out, None


ADDN = define("addn", _addn_fwd, pass_gradient)


def addn(x):
    """Mirrors `mindspore.ops.addn`: the sum of a tuple or list of Tensors of one shape."""
    if not isinstance(x, (tuple, list)) or not x or not all(
            isinstance(t, TensorBuffer) for t in x):
        raise TypeError(f"For 'addn', 'x' must be a non-empty tuple or list of Tensors, but got "
                        f"{type(x).__name__}.")
    return apply(ADDN, tuple(x))


def assign_add(variable, value):
    """Mirrors `mindspore.ops.assign_add`: adds `value` (same shape) to `variable` in place and
    returns the new value as a Tensor."""
    if not isinstance(variable, TensorBuffer):
        raise TypeError(f"For 'AssignAdd', 'variable' must be a Tensor or Parameter, but got "
                        f"{type(variable).__name__}.")
    src = value._data if isinstance(value, TensorBuffer) else np.asarray(value)
    if src.ndim != variable.ndim:
        raise ValueError(f"For 'AssignAdd','value' must have the same rank as 'variable'. But "
                         f"got 'value' rank: {src.ndim}, 'variable' rank: {variable.ndim}.")
    if src.shape != variable.shape:
        raise ValueError(f"For 'AssignAdd','value' must have the same shape as 'variable'. But "
                         f"got 'value' shape: {_shape(src.shape)}, 'variable' shape: "
                         f"{_shape(variable.shape)}.")
    data = variable._data
    _jit_hook.wrote(variable, "assign_add")
    data += src.astype(data.dtype)
    return make_tensor(data.copy(), None, 0, variable.dtype)


def tensor_mul(input, other):
    """Mirrors `mindspore.ops.tensor_mul` (`ops.Mul()`)."""
    return F.mul(input, other)


def multiply(input, other):
    """Mirrors `mindspore.ops.multiply`."""
    return F.mul(input, other)


def pows(input, exponent):
    """Mirrors `mindspore.ops.pows` (`ops.Pow()`)."""
    return F.pow(input, exponent)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Mirrors `mindspore.ops.isclose`: |input - other| <= atol + rtol * |other|, as Bool."""
    F._need_tensor("isclose", input, other)
    if input.dtype != other.dtype:
        raise TypeError(f"For primitive[IsClose], the input type must be same, but got "
                        f"{input.dtype} and {other.dtype}.")
    out = np.isclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return make_tensor(np.asarray(out))


def logsumexp(input, dim, keepdim=False):
    """Mirrors `mindspore.ops.logsumexp`: log(sum(exp(input))) over `dim`, computed stably."""
    F._need_tensor("logsumexp", input)
    if input.dtype.kind != 2:
        raise TypeError(f"For 'logsumexp', the input must be a floating Tensor, but got "
                        f"{input.dtype} (MindSpore's CPU Exp kernel has no integer version).")
    m = F.stop_gradient(F.amax(input, dim, True))
    m = F.masked_fill(m, make_tensor(~np.isfinite(m._data)), 0.0)
    out = F.log(F.sum(F.exp(input - m), dim, True)) + m
    return out if keepdim else F.squeeze(out, dim)
