"""Creation and dtype ops with MindSpore's names: ones, zeros, full, arange, linspace, eye,
cast, assign."""

import builtins

import numpy as np

from cellgrad import _jit_hook
from cellgrad._astype import astype
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int64, to_dtype
from cellgrad.ops._registry import apply, define, pass_gradient


def _cast_fwd(x, np_dtype, bf16):
    # bf16 (a bfloat16 target, ml_dtypes' dtype: astype rounds) is kept for the jit capture.
    if x.dtype.kind == "c" and np.dtype(np_dtype).kind != "c":
        x = x.real  # complex to real keeps the real part, as MindSpore (numpy would warn)
    return astype(x, np_dtype), None


CAST = define("cast", _cast_fwd, pass_gradient)


_CAST_ATTRS = {}  # dtype -> the cast op's attributes


def cast_tensor(x, d):
    """`cast` of a Tensor `x` to the cellgrad dtype `d`, without argument checks (a Parameter
    read inside a `to_float` cell takes this path)."""
    if x.dtype is d:
        return x
    attrs = _CAST_ATTRS.get(d)
    if attrs is None:
        from cellgrad.dtype import bfloat16

        attrs = _CAST_ATTRS[d] = {"np_dtype": d.np_dtype, "bf16": d is bfloat16}
    out = apply(CAST, (x,), attrs)
    out._dtype = d
    return out


def cast(input, dtype):
    """Mirrors `mindspore.ops.cast`."""
    d = to_dtype(dtype)
    if not isinstance(input, TensorBuffer):
        return make_tensor(np.asarray(input, dtype=d.np_dtype), None, 0, d)
    return cast_tensor(input, d)


def _shape_arg(op, shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if isinstance(shape, TensorBuffer):
        shape = shape.asnumpy().tolist()
    try:
        if isinstance(shape, (str, bytes)):
            raise TypeError
        shape = tuple(int(s) for s in shape)
    except (TypeError, ValueError):
        raise TypeError(f"For '{op}', 'shape' must be an int or a tuple of ints, got "
                        f"{shape!r}.") from None
    if builtins.any(s < 0 for s in shape):
        raise ValueError(f"For '{op}', 'shape' must not have negative entries, got {shape}.")
    return shape


def _new(arr, dtype):
    return make_tensor(arr, None, 0, dtype)


def ones(shape, dtype=None):
    """Mirrors `mindspore.ops.ones` (Float32 by default)."""
    d = float32 if dtype is None else to_dtype(dtype)
    return _new(np.ones(_shape_arg("ones", shape), d.np_dtype), d)


def zeros(size, dtype=None):
    """Mirrors `mindspore.ops.zeros` (Float32 by default)."""
    d = float32 if dtype is None else to_dtype(dtype)
    return _new(np.zeros(_shape_arg("zeros", size), d.np_dtype), d)


def ones_like(input, *, dtype=None):
    d = input.dtype if dtype is None else to_dtype(dtype)
    return _new(np.ones(input.shape, d.np_dtype), d)


def zeros_like(input, *, dtype=None):
    d = input.dtype if dtype is None else to_dtype(dtype)
    return _new(np.zeros(input.shape, d.np_dtype), d)


def full(size, fill_value, *, dtype=None):
    """Mirrors `mindspore.ops.full`: Int64 when `dtype` is None, whatever `fill_value` is
    (MindSpore 2.10 prints `[1 1]` for `full((2,), 1.5)`)."""
    d = int64 if dtype is None else to_dtype(dtype)
    if isinstance(fill_value, TensorBuffer):
        fill_value = fill_value.item()
    return _new(np.full(_shape_arg("full", size), fill_value, d.np_dtype), d)


def fill(type, shape, value):
    """Mirrors `mindspore.ops.fill(type, shape, value)`."""
    return full(shape, value, dtype=type)


def full_like(input, fill_value, *, dtype=None):
    return full(input.shape, fill_value, dtype=input.dtype if dtype is None else dtype)


def arange(start=0, end=None, step=1, *, dtype=None):
    """Mirrors `mindspore.ops.arange`: Int64 for integer arguments, else Float32."""
    vals = [v.item() if isinstance(v, TensorBuffer) else v for v in (start, end, step)]
    start, end, step = vals
    if end is None:
        start, end = 0, start
    for name, v in (("start", start), ("end", end), ("step", step)):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"For 'arange', '{name}' must be a number or a scalar Tensor, but "
                            f"got {type(v).__name__}.")
    if step == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if end < start and step > 0:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    if end > start and step < 0:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    if dtype is None:
        is_int = builtins.all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        d = int64 if is_int else float32
    else:
        d = to_dtype(dtype)
    return _new(np.arange(start, end, step).astype(d.np_dtype), d)


def linspace(start, end, steps):
    """Mirrors `mindspore.ops.linspace`: Float32 values from `start` to `end` inclusive."""
    vals = [v.item() if isinstance(v, TensorBuffer) else v for v in (start, end, steps)]
    if int(vals[2]) <= 0:
        raise ValueError(f"For 'linspace', 'steps' must be positive, got {steps}.")
    return _new(np.linspace(vals[0], vals[1], int(vals[2])).astype(np.float32), float32)


def eye(n, m=None, dtype=None):
    """Mirrors `mindspore.ops.eye` (Float32 when `dtype` is None)."""
    d = to_dtype(float32 if dtype is None else dtype)
    return _new(np.eye(n, m, dtype=d.np_dtype), d)


def assign(variable, value):
    """Mirrors `mindspore.ops.assign`: writes `value` into `variable` in place and returns the
    new value as a Tensor of its own (as MindSpore: not the Parameter, no shared memory)."""
    if not isinstance(variable, TensorBuffer):
        raise TypeError(f"For 'assign', 'variable' must be a Tensor or Parameter, got "
                        f"{type(variable).__name__}.")
    src = value._data if isinstance(value, TensorBuffer) else np.asarray(value)
    try:
        target = np.broadcast_to(src, variable.shape)
    except ValueError:
        raise ValueError(f"For 'assign', 'value' of shape {np.shape(src)} cannot be assigned to "
                         f"'variable' of shape {variable.shape}.") from None
    _jit_hook.wrote(variable, "assign")
    variable._data[...] = target.astype(variable._data.dtype)
    return make_tensor(variable._data.copy(), None, 0, variable._dtype)
