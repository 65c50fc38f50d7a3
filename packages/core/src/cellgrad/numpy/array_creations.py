"""Mirrors `mindspore.numpy.array_creations`: Tensors from data, shapes, ranges, grids, windows
and triangles, and `pad`. Python data gives 32-bit dtypes (Int32, Float32) as in MindSpore;
functions of Tensors (linspace's bounds, tril, diag, pad, ...) are recorded, so differentiable."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import float16, float32, float64, int8, int16, int32, int64
from cellgrad.numpy import _pad
from cellgrad.numpy._common import (
    ARRAY_TYPES,
    check_dtype,
    check_int,
    check_shape,
    const_array,
    narrow_dtype,
    new,
    scalar_dtype,
    to_tensor,
)
from cellgrad.numpy._grids import (  # noqa: F401 (re-exported)
    MGridClass,
    NdGrid,
    OGridClass,
    diag_indices,
    indices,
    ix_,
    meshgrid,
    mgrid,
    ogrid,
    tril_indices,
    tril_indices_from,
    triu_indices,
    triu_indices_from,
)
from cellgrad.numpy._matrices import (  # noqa: F401 (re-exported)
    diag,
    diagflat,
    diagonal,
    eye,
    identity,
    trace,
    tri,
    tril,
    triu,
    vander,
)
from cellgrad.numpy._ranges import (  # noqa: F401 (re-exported)
    arange,
    bartlett,
    blackman,
    geomspace,
    hamming,
    hanning,
    histogram_bin_edges,
    linspace,
    logspace,
)
from cellgrad.numpy._shapes import broadcast_to
from cellgrad.ops import _random
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply
from cellgrad.ops.functional import IDENTITY

__all__ = [
    "arange", "array", "asarray", "asfarray", "bartlett", "blackman", "diag", "diag_indices",
    "diagflat", "diagonal", "empty", "empty_like", "eye", "full", "full_like", "geomspace",
    "hamming", "hanning", "histogram_bin_edges", "identity", "indices", "ix_", "linspace",
    "logspace", "meshgrid", "mgrid", "ogrid", "ones", "ones_like", "pad", "rand", "randint",
    "randn", "trace", "tri", "tril", "tril_indices", "tril_indices_from", "triu",
    "triu_indices", "triu_indices_from", "vander", "zeros", "zeros_like",
]


def asarray(a, dtype=None):
    """Mirrors `mindspore.numpy.asarray`: a Tensor passes through (cast to `dtype`)."""
    d = None if dtype is None else check_dtype(dtype, "asarray")
    if isinstance(a, TensorBuffer):
        return a if d is None or d is a.dtype else a.astype(d)
    return const_array(a, d, "asarray")


def array(obj, dtype=None, copy=True, ndmin=0):
    """Mirrors `mindspore.numpy.array`: a copy of a Tensor (gradients pass through it)."""
    d = None if dtype is None else check_dtype(dtype, "array")
    res = asarray(obj, d)
    if ndmin > res.ndim:
        if res.size == 0:
            raise ValueError("For 'array', empty tensor cannot be expanded beyond the current "
                             "dimension.")
        res = F.reshape(res, (1,) * (ndmin - res.ndim) + tuple(res.shape))
    if copy and isinstance(obj, TensorBuffer):
        res = apply(IDENTITY, (res,))
    return res


def asfarray(a, dtype=float32):
    """Mirrors `mindspore.numpy.asfarray`: a non-float `dtype` means Float32."""
    if dtype is None:
        return asarray(a)
    d = check_dtype(dtype, "asfarray")
    if d not in (float16, float32, float64):
        d = float32
    if isinstance(a, TensorBuffer):
        return a.astype(d)
    return const_array(a, d, "asfarray")


def _filled(shape, value, dtype):
    """`value` everywhere; an empty result is narrowed to 32 bits, as MindSpore makes those
    (`_convert_64_to_32` of an empty Tensor)."""
    if 0 in shape:
        dtype = narrow_dtype(dtype)
    return new(np.full(shape, value, dtype.np_dtype), dtype)


def ones(shape, dtype=float32):
    """Mirrors `mindspore.numpy.ones` (Float32 by default)."""
    return _filled(check_shape("ones", shape), 1, check_dtype(dtype, "ones"))


def zeros(shape, dtype=float32):
    """Mirrors `mindspore.numpy.zeros` (Float32 by default)."""
    return _filled(check_shape("zeros", shape), 0, check_dtype(dtype, "zeros"))


def empty(shape, dtype=float32):
    """Mirrors `mindspore.numpy.empty`: zeros, as MindSpore's."""
    d = check_dtype(dtype, "empty")
    return new(np.zeros(check_shape("empty", shape), d.np_dtype), d)


def full(shape, fill_value, dtype=None):
    """Mirrors `mindspore.numpy.full`: the dtype of a scalar is Bool/Int32/Float32 unless
    `dtype` is given; a list or Tensor `fill_value` is broadcast and keeps its own dtype (as in
    MindSpore, which ignores `dtype` then), and a Tensor's gradient flows."""
    shape = check_shape("full", shape)
    if not isinstance(fill_value, ARRAY_TYPES):
        raise TypeError(f"For 'full', fill value should be int, float, bool, list, tuple, "
                        f"Tensor, but got {type(fill_value).__name__}.")
    if dtype is not None:
        d = check_dtype(dtype, "full")
    elif isinstance(fill_value, TensorBuffer):
        d = fill_value.dtype
    elif isinstance(fill_value, (int, float, bool)):
        d = scalar_dtype(fill_value)
    else:
        d = None
    if isinstance(fill_value, (int, float, bool)):
        return _filled(shape, fill_value, d)
    fill = const_array(fill_value, None, "full")
    if 0 in shape:
        return _filled(shape, 0, fill.dtype if d is None else d)
    return broadcast_to(fill, shape)


def _like(op, prototype, dtype, shape):
    if not isinstance(prototype, ARRAY_TYPES):
        raise TypeError(f"For '{op}', prototype should be int, float, bool, list, tuple, "
                        f"Tensor, but got {type(prototype).__name__}.")
    proto = prototype if isinstance(prototype, TensorBuffer) else const_array(prototype, None, op)
    d = proto.dtype if dtype is None else dtype
    if shape is None or (isinstance(shape, (list, tuple)) and not shape):
        shape = tuple(proto.shape)
    return d, shape


def empty_like(prototype, dtype=None, shape=None):
    """Mirrors `mindspore.numpy.empty_like` (zeros)."""
    return empty(*reversed(_like("empty_like", prototype, dtype, shape)))


def ones_like(a, dtype=None, shape=None):
    """Mirrors `mindspore.numpy.ones_like`."""
    return ones(*reversed(_like("ones_like", a, dtype, shape)))


def zeros_like(a, dtype=None, shape=None):
    """Mirrors `mindspore.numpy.zeros_like`."""
    return zeros(*reversed(_like("zeros_like", a, dtype, shape)))


def full_like(a, fill_value, dtype=None, shape=None):
    """Mirrors `mindspore.numpy.full_like` (the fill takes `a`'s dtype by default)."""
    d, shape = _like("full_like", a, dtype, shape)
    return full(shape, fill_value, d)


def _rand_shape(op, shape):
    if not shape:
        return (1,)
    if len(shape) == 1:
        s = shape[0]
        if isinstance(s, int) and not isinstance(s, bool):
            return (s,)
        if isinstance(s, (list, tuple)):
            return tuple(s)
        raise TypeError(f"For '{op}', if the length of the argument 'shape' is 1, the type of "
                        f"the argument 'shape' must be one of ['int', 'list', 'tuple'], but got "
                        f"{type(s).__name__}.")
    for s in shape:
        if not isinstance(s, int) or isinstance(s, bool):
            raise TypeError(f"For '{op}', if the length of the argument 'shape' is > 1, the type "
                            f"of the argument 'shape' must all be int, but got "
                            f"{type(s).__name__}.")
    return tuple(shape)


def _rand_dtype(op, dtype, allowed, names):
    if isinstance(dtype, str):
        if dtype not in names:
            raise ValueError(f"For 'mindspore.numpy.{op}', if the argument 'dtype' is str, it "
                             f"must be one of {names}, but got {dtype!r}.")
        return check_dtype(dtype, op)
    if dtype not in allowed:
        raise ValueError(f"For 'mindspore.numpy.{op}', the argument 'dtype' must be one of "
                         f"{[str(d) for d in allowed]}, but got {dtype!r}.")
    return dtype


_FLOATS = (float64, float32, float16)


def randn(*shape, dtype=float32):
    """Mirrors `mindspore.numpy.randn`: standard normal values (seeded by `set_seed`)."""
    d = _rand_dtype("randn", dtype, _FLOATS, ["float", "float16", "float32", "float64"])
    return _random.StandardNormal()(_rand_shape("randn", shape)).astype(d)


def rand(*shape, dtype=float32):
    """Mirrors `mindspore.numpy.rand`: uniform values in [0, 1) (seeded by `set_seed`)."""
    d = _rand_dtype("rand", dtype, _FLOATS, ["float", "float16", "float32", "float64"])
    return _random.UniformReal()(_rand_shape("rand", shape)).astype(d)


def randint(minval, maxval=None, shape=None, dtype=int32):
    """Mirrors `mindspore.numpy.randint`: ints in [minval, maxval), or [0, minval)."""
    minval = check_int("randint", "minval", minval)
    if maxval is None:
        if minval <= 0:
            raise ValueError(f"For mindspore.numpy.randint, the argument 'minval' must be > 0 "
                             f"when the argument 'maxval' is None, but got {minval}.")
        minval, maxval = 0, minval
    else:
        maxval = check_int("randint", "maxval", maxval)
        if minval >= maxval:
            raise ValueError(f"For mindspore.numpy.randint, 'minval' ({minval}) must be less "
                             f"than 'maxval' ({maxval}).")
    d = _rand_dtype("randint", dtype, (int64, int32, int16, int8),
                    ["int", "int8", "int16", "int32", "int64"])
    shape = (1,) if shape is None else check_shape("randint", shape)
    # the bounds take `dtype`, so anything but Int32 meets UniformInt's TypeError, as in MindSpore
    lo, hi = new(np.asarray(minval, d.np_dtype), d), new(np.asarray(maxval, d.np_dtype), d)
    return _random.UniformInt()(shape, lo, hi).astype(d)


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """Mirrors `mindspore.numpy.pad` (every numpy mode but 'median'; a callable mode gets
    `(vector, iaxis_pad_width, iaxis, kwargs)` and returns the padded vector)."""
    arr = to_tensor(arr, op="pad")
    if arr.ndim == 0:
        return arr
    return _pad.pad(arr, pad_width, mode, stat_length, constant_values, end_values,
                    reflect_type, kwargs)
