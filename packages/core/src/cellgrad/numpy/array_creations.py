"""Mirrors `mindspore.numpy.array_creations`: Tensors from data, shapes, ranges, grids, windows
and triangles, and `pad`. Python data gives 32-bit dtypes (Int32, Float32) as in MindSpore;
functions of Tensors (linspace's bounds, tril, diag, pad, ...) are recorded, so differentiable."""

import math
import operator

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import bool_, float16, float32, float64, int8, int16, int32, int64
from cellgrad.numpy import _pad
from cellgrad.numpy._common import (
    ARRAY_TYPES,
    axis_in_range,
    check_dtype,
    check_int,
    check_tensor,
    narrow,
    new,
    scalar_dtype,
    to_tensor,
)
from cellgrad.numpy.array_ops import (
    broadcast_arrays,
    broadcast_to,
    ravel,
    stack,
    where,
)
from cellgrad.ops import _random
from cellgrad.ops import functional as F
from cellgrad.ops._index import INDEX_ADD_ZEROS
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


# ---- from data ----
def _const_array(a, dtype, op):
    """MindSpore's `asarray_const`: Python data as a Tensor; sequences of Python ints and
    floats are Int32 and Float32 unless `dtype` says otherwise. Numpy arrays are refused."""
    if not isinstance(a, (TensorBuffer, list, tuple, int, float, bool)):
        raise TypeError(f"For '{op}', input data must be `int`, `float`, `bool`, `Tensor`, "
                        f"`list`, `tuple`, but got {type(a).__name__}.")
    if isinstance(a, TensorBuffer):
        return a if dtype is None else a.astype(dtype)
    if isinstance(a, (list, tuple)):
        arr = _deep_array(a, op)
        t = narrow(new(arr)) if dtype is None else new(arr.astype(dtype.np_dtype), dtype)
        return t
    d = scalar_dtype(a) if dtype is None else dtype
    return new(np.asarray(a, d.np_dtype), d)


def _deep_array(a, op):
    def plain(v):
        if isinstance(v, TensorBuffer):
            return v.asnumpy()
        return [plain(e) for e in v] if isinstance(v, (list, tuple)) else v

    try:
        arr = np.asarray(plain(a))
    except ValueError:
        arr = np.empty(0, object)
    if arr.dtype == object:
        raise ValueError(f"For '{op}', input array must have the same size across all "
                         f"dimensions, got {a!r}.")
    return arr


def asarray(a, dtype=None):
    """Mirrors `mindspore.numpy.asarray`: a Tensor passes through (cast to `dtype`)."""
    d = None if dtype is None else check_dtype(dtype, "asarray")
    if isinstance(a, TensorBuffer):
        return a if d is None or d is a.dtype else a.astype(d)
    return _const_array(a, d, "asarray")


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
    return _const_array(a, d, "asfarray")


# ---- from shapes ----
def _check_shape(op, shape):
    if isinstance(shape, TensorBuffer):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"For '{op}', only int, tuple, list and tensor are allowed for shape, "
                        f"but got {type(shape).__name__}.")
    for s in shape:
        if not isinstance(s, int) or isinstance(s, bool):
            raise TypeError(f"For '{op}', each entry in shape should be int, got {shape!r}.")
        if s < 0:
            raise ValueError(f"For '{op}', each entry in shape should no less than 0, got "
                             f"{tuple(shape)}.")
    return tuple(shape)


def ones(shape, dtype=float32):
    """Mirrors `mindspore.numpy.ones` (Float32 by default)."""
    d = check_dtype(dtype, "ones")
    return new(np.ones(_check_shape("ones", shape), d.np_dtype), d)


def zeros(shape, dtype=float32):
    """Mirrors `mindspore.numpy.zeros` (Float32 by default)."""
    d = check_dtype(dtype, "zeros")
    return new(np.zeros(_check_shape("zeros", shape), d.np_dtype), d)


def empty(shape, dtype=float32):
    """Mirrors `mindspore.numpy.empty`: zeros, as MindSpore's."""
    d = check_dtype(dtype, "empty")
    return new(np.zeros(_check_shape("empty", shape), d.np_dtype), d)


def full(shape, fill_value, dtype=None):
    """Mirrors `mindspore.numpy.full`: the dtype of a scalar is Bool/Int32/Float32 unless
    `dtype` is given; a list or Tensor `fill_value` is broadcast and keeps its own dtype (as in
    MindSpore, which ignores `dtype` then), and a Tensor's gradient flows."""
    shape = _check_shape("full", shape)
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
        return new(np.full(shape, fill_value, d.np_dtype), d)
    fill = _const_array(fill_value, None, "full")
    if 0 in shape:
        d = narrow(fill).dtype if d is None else d
        return new(np.zeros(shape, d.np_dtype), narrow(new(np.zeros(0, d.np_dtype), d)).dtype)
    return broadcast_to(fill, shape)


def _like(op, prototype, dtype, shape):
    if not isinstance(prototype, ARRAY_TYPES):
        raise TypeError(f"For '{op}', prototype should be int, float, bool, list, tuple, "
                        f"Tensor, but got {type(prototype).__name__}.")
    proto = prototype if isinstance(prototype, TensorBuffer) else _const_array(prototype, None, op)
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


# ---- random ----
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
    shape = (1,) if shape is None else _check_shape("randint", shape)
    # the bounds take `dtype`, so anything but Int32 meets UniformInt's TypeError, as in MindSpore
    lo, hi = new(np.asarray(minval, d.np_dtype), d), new(np.asarray(maxval, d.np_dtype), d)
    return _random.UniformInt()(shape, lo, hi).astype(d)


# ---- ranges ----
def _iota(n, dtype=float32, increasing=True):
    if n <= 0:
        raise ValueError("zero shape Tensor is not currently supported.")
    r = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return new(r.astype(dtype.np_dtype), dtype)


def arange(start, stop=None, step=None, dtype=None):
    """Mirrors `mindspore.numpy.arange`: Int32 for int arguments, else Float32, the values
    computed in float32 (`iota * step + start`) as MindSpore does."""
    d = scalar_dtype(start, stop, step) if dtype is None else check_dtype(dtype, "arange")
    if stop is None and step is None:
        num, base, step = math.ceil(start), 0, 1
    elif step is None:
        num, base, step = math.ceil(stop - start), start, 1
    elif stop is None:
        num, base = math.ceil((start + 0.0) / step), 0
    else:
        num, base = math.ceil((stop - start + 0.0) / step), start
    if step == 0:
        raise ValueError("For 'arange', 'step' must not be 0.")
    out = _iota(num).asnumpy() * np.float32(step) + np.float32(base)
    return new(out.astype(d.np_dtype), d)


def _xspace_args(op, start, stop, num, endpoint, dtype):
    for name, v in (("start", start), ("stop", stop)):
        if not isinstance(v, ARRAY_TYPES):
            raise TypeError(f"For '{op}', '{name}' should be int, float, bool, list, tuple, "
                            f"Tensor, but got {type(v).__name__}.")
    start, stop = (v if isinstance(v, TensorBuffer) else _const_array(v, None, op).astype(float32)
                   for v in (start, stop))
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError(f"For '{op}', 'num' should be an integer, but got {type(num).__name__}.")
    if not isinstance(endpoint, bool):
        raise TypeError(f"For '{op}', 'endpoint' should be a boolean, but got "
                        f"{type(endpoint).__name__}.")
    d = float32 if dtype is None else check_dtype(dtype, op)
    start, stop = broadcast_arrays(start, stop)
    return start, stop, d


def _bounds_shape(t, axis):
    return tuple(t.shape[:axis]) + (1,) + tuple(t.shape[axis:])


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.linspace` (Tensor bounds broadcast; `axis` places the samples;
    differentiable in Tensor bounds)."""
    start, stop, d = _xspace_args("linspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("linspace", axis, start.ndim + 1)
    if not isinstance(retstep, bool):
        raise TypeError(f"For 'linspace', 'retstep' should be a boolean, but got "
                        f"{type(retstep).__name__}.")
    bounds = _bounds_shape(start, axis)
    if num > 1:
        div = new(np.asarray(num - 1 if endpoint else num, np.float32), float32)
        delta = (stop - start) / div
        iota = F.reshape(_iota(num), tuple(num if i == axis else 1 for i in range(len(bounds))))
        out = F.reshape(start, bounds) + iota * F.reshape(delta, bounds)
        if endpoint:
            head = out[(slice(None),) * axis + (slice(0, num - 1),)]
            out = F.concat((head, F.reshape(stop, bounds).astype(out.dtype)), axis)
    elif num == 1:
        delta = float("nan") if endpoint else stop - start
        out = F.reshape(start, bounds)
    else:
        raise ValueError(f"For 'linspace', cannot support Tensor with num={num}.")
    out = out.astype(d)
    return (out, delta) if retstep else out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.logspace`: `base ** linspace(start, stop)`."""
    start, stop, d = _xspace_args("logspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("logspace", axis, start.ndim + 1)
    if not isinstance(base, (int, float, bool)):
        raise TypeError(f"For 'logspace', 'base' should be a number, but got "
                        f"{type(base).__name__}.")
    exps = linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return F.pow(new(np.asarray(base, np.float32), float32), exps).astype(d)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Mirrors `mindspore.numpy.geomspace`: `start * (stop / start) ** (i / root)`."""
    start, stop, d = _xspace_args("geomspace", start, stop, num, endpoint, dtype)
    axis = axis_in_range("geomspace", axis, start.ndim + 1)
    root = num - 1 if endpoint else num
    if root == 0:
        raise ValueError("For 'geomspace', 'num' must be at least 2 when 'endpoint' is True.")
    bases = F.pow(stop / start, new(np.asarray(1.0 / root, np.float32), float32))
    stops = new(np.full(bases.shape, root, bases.dtype.np_dtype), bases.dtype)
    exps = linspace(zeros(tuple(bases.shape)), stops, num, endpoint=endpoint, dtype=dtype,
                    axis=axis)
    bounds = _bounds_shape(bases, axis)
    res = F.pow(F.reshape(bases, bounds), exps) * F.reshape(start, bounds)
    return res if dtype is None else res.astype(d)


# ---- matrices ----
def eye(N, M=None, k=0, dtype=float32):
    """Mirrors `mindspore.numpy.eye`: ones on the `k`-th diagonal."""
    d = check_dtype(dtype, "eye")
    M = N if M is None else M
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (N, M, k)):
        raise TypeError(f"For 'eye', input tensor dimensions should be integers, got N={N!r}, "
                        f"M={M!r}, k={k!r}.")
    return new(np.eye(N, M, k, d.np_dtype), d)


def identity(n, dtype=float32):
    """Mirrors `mindspore.numpy.identity`."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For 'identity', input tensor dimensions should be integers, got "
                        f"{n!r}.")
    return eye(n, dtype=check_dtype(dtype, "identity"))


def tri(N, M=None, k=0, dtype=float32):
    """Mirrors `mindspore.numpy.tri`: ones at and below the `k`-th diagonal."""
    d = check_dtype(dtype, "tri")
    return new(np.tri(N, N if M is None else M, check_int("tri", "k", k), d.np_dtype), d)


def _band(op, m, k, lower):
    m = m if isinstance(m, TensorBuffer) else _const_array(m, None, op)
    k = check_int(op, "k", k)
    if m.ndim < 1:
        raise ValueError(f"For '{op}', input m's rank should be larger than 0, got shape "
                         f"{tuple(m.shape)}.")
    if m.ndim == 1:
        n = m.shape[0]
        keep = np.tri(n, k=k if lower else k - 1, dtype=bool)
        zero = new(np.zeros(1, m.dtype.np_dtype), m.dtype)
        mask = new(keep)
        return where(mask, m, zero) if lower else where(mask, zero, m)
    return F.tril(m, k) if lower else F.triu(m, k)


def tril(m, k=0):
    """Mirrors `mindspore.numpy.tril` (a 1-D input is the row of a square matrix)."""
    return _band("tril", m, k, True)


def triu(m, k=0):
    """Mirrors `mindspore.numpy.triu`."""
    return _band("triu", m, k, False)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """Mirrors `mindspore.numpy.diagonal`: the diagonal as the last axis."""
    check_tensor("diagonal", a)
    if a.ndim < 2:
        raise ValueError(f"For 'diagonal', the input must be at least 2-D, got shape "
                         f"{tuple(a.shape)}.")
    ax1, ax2 = (axis_in_range("diagonal", ax, a.ndim) for ax in (axis1, axis2))
    if ax1 == ax2:
        raise ValueError(f"For 'diagonal', axis1 and axis2 cannot be the same, got {ax1}.")
    offset = check_int("diagonal", "offset", offset)
    perm = tuple(i for i in range(a.ndim) if i not in (ax1, ax2)) + (ax1, ax2)
    moved = F.transpose(a, perm) if perm != tuple(range(a.ndim)) else a
    rows, cols = moved.shape[-2:]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    r = np.arange(n) + max(0, -offset)
    return moved[(Ellipsis, r, r + offset)]


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Mirrors `mindspore.numpy.trace`: integer inputs sum to Int64, floats keep their dtype,
    Bool stays Bool (any true on the diagonal)."""
    diag_ = diagonal(a, offset, axis1, axis2)
    res = F.sum(diag_, -1)
    if a.dtype is bool_:
        res = res.astype(bool_)
    elif a.dtype.kind == 2 and res.dtype is not a.dtype:
        res = res.astype(a.dtype)
    return res if dtype is None else res.astype(check_dtype(dtype, "trace"))


def diagflat(v, k=0):
    """Mirrors `mindspore.numpy.diagflat`: the flattened input on the `k`-th diagonal."""
    check_tensor("diagflat", v)
    k = check_int("diagflat", "k", k)
    if v.size == 0:
        return zeros((abs(k), abs(k)), v.dtype)
    flat = ravel(v)
    n = flat.shape[0] + abs(k)
    r = np.arange(flat.shape[0])
    index = (r + max(0, -k), r + max(0, k))
    return apply(INDEX_ADD_ZEROS, (flat,), {"shape": (n, n), "index": index})


def diag(v, k=0):
    """Mirrors `mindspore.numpy.diag`: a 1-D input gives a matrix, a 2-D input its diagonal."""
    check_tensor("diag", v)
    if v.ndim == 1:
        return diagflat(v, k)
    if v.ndim == 2:
        if v.size == 0:
            return new(np.zeros((0,), v.dtype.np_dtype), v.dtype)
        return diagonal(v, k)
    raise ValueError(f"For 'diag', input must be 1- or 2-d, got shape {tuple(v.shape)}.")


def diag_indices(n, ndim=2):
    """Mirrors `mindspore.numpy.diag_indices`: `ndim` copies of `arange(n)` (Int32)."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, ndim)):
        raise TypeError(f"For 'diag_indices', input must be integers, got n={n!r}, "
                        f"ndim={ndim!r}.")
    r = arange(0, n)
    return (r,) * ndim


def vander(x, N=None, increasing=False):
    """Mirrors `mindspore.numpy.vander`: columns are powers of `x` (decreasing by default)."""
    if isinstance(x, (list, tuple)):
        x = _const_array(x, None, "vander")
    elif not isinstance(x, TensorBuffer):
        raise TypeError(f"For 'vander', input x must be list, tuple or Tensor, but got "
                        f"{type(x).__name__}.")
    if x.ndim != 1:
        raise ValueError(f"For 'vander', input x must be 1-D, but got dimension={x.ndim}.")
    N = N or x.size
    if not isinstance(N, int) or isinstance(N, bool):
        raise TypeError(f"For 'vander', input N must be an integer, got {N!r}.")
    if N <= 0:
        raise ValueError(f"For 'vander', input N must > 0, got {N}.")
    if not isinstance(increasing, bool):
        raise TypeError(f"For 'vander', increasing must be a bool, got {increasing!r}.")
    exponent = F.reshape(_iota(N, x.dtype, increasing), (1, N))
    return F.pow(F.expand_dims(x, 1), exponent)


# ---- grids ----
def meshgrid(*xi, sparse=False, indexing="xy"):
    """Mirrors `mindspore.numpy.meshgrid`: a list of coordinate Tensors."""
    check_tensor("meshgrid", *xi)
    if not isinstance(sparse, bool):
        raise TypeError(f"For 'meshgrid', argument sparse should be boolean, got {sparse!r}.")
    if indexing not in ("xy", "ij"):
        raise TypeError(f"For 'meshgrid', valid values for `indexing` are 'xy' and 'ij', got "
                        f"{indexing!r}.")
    if any(x.size == 0 for x in xi):
        return ones(tuple(x.size for x in xi))
    grids = [x if x.ndim == 1 else ravel(x) for x in xi]
    ndim = len(grids)
    order = list(range(ndim))
    if indexing == "xy" and ndim >= 2:
        order[0], order[1] = 1, 0
    shape = tuple(grids[order[i]].shape[0] for i in range(ndim))
    res = []
    for i, x in enumerate(grids):
        pos = order[i]
        expanded = tuple(shape[pos] if j == pos else 1 for j in range(ndim))
        x = F.reshape(x, expanded)
        if not sparse:
            x = F.tile(x, tuple(s if e != s else 1 for e, s in zip(expanded, shape)))
        res.append(x)
    return res


class NdGrid:
    """MindSpore's `NdGrid`: `grid[a:b:step, ...]` builds coordinate grids (`mgrid`/`ogrid`);
    a complex step is a number of points, as in numpy."""

    def __init__(self, sparse=False):
        self.sparse = sparse

    def __getitem__(self, keys):
        keys = (keys,) if isinstance(keys, slice) else keys
        xi = []
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"grid indices must be slices, got {type(k).__name__}.")
            if not isinstance(k.start, int) or not isinstance(k.stop, int):
                raise TypeError(f"slice indices must be integers, got {k}.")
            step = k.step or 1
            if isinstance(step, complex):
                xi.append(linspace(k.start, k.stop, int(abs(step))))
            else:
                xi.append(arange(k.start, k.stop, step))
        grids = meshgrid(*xi, sparse=self.sparse, indexing="ij")
        if isinstance(grids, TensorBuffer):
            return grids
        if len(grids) == 1:
            return grids[0]
        if self.sparse:
            return grids
        return stack(grids)


class MGridClass(NdGrid):
    """Mirrors `mindspore.numpy.mgrid`'s class: dense grids."""

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(NdGrid):
    """Mirrors `mindspore.numpy.ogrid`'s class: open (sparse) grids."""

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


def indices(dimensions, dtype=int32, sparse=False):
    """Mirrors `mindspore.numpy.indices`: a list of index grids (not one stacked Tensor)."""
    if not isinstance(dimensions, (tuple, list)):
        raise TypeError(f"For 'indices', shape of the grid must be tuple or list, got "
                        f"{type(dimensions).__name__}.")
    d = check_dtype(dtype, "indices")
    return meshgrid(*(arange(n, dtype=d) for n in dimensions), sparse=sparse, indexing="ij")


def ix_(*args):
    """Mirrors `mindspore.numpy.ix_`: open-mesh index Tensors from 1-D Tensors."""
    check_tensor("ix_", *args)
    res = ()
    for i, arr in enumerate(args):
        if arr.ndim != 1:
            raise ValueError(f"For 'ix_', cross index must be 1 dimensional, got shape "
                             f"{tuple(arr.shape)}.")
        res += (F.reshape(arr, tuple(arr.size if j == i else 1 for j in range(len(args)))),)
    return res


def _tri_indices(op, n, k, m, upper):
    for name, v in (("n", n), ("k", k), ("m", m)):
        if v is not None and not isinstance(v, (int, float, bool)):
            raise TypeError(f"For '{op}', input {name} must be a number, got {v!r}.")
    m = n if m is None else m
    compare = operator.ge if upper else operator.le
    rows, cols = [], []
    for i in range(math.ceil(n)):
        for j in range(math.ceil(m)):
            if compare(j, i + k):
                rows.append(i)
                cols.append(j)
    return new(np.asarray(rows, np.int32), int32), new(np.asarray(cols, np.int32), int32)


def triu_indices(n, k=0, m=None):
    """Mirrors `mindspore.numpy.triu_indices` (Int32 row and column indices)."""
    return _tri_indices("triu_indices", n, k, m, True)


def tril_indices(n, k=0, m=None):
    """Mirrors `mindspore.numpy.tril_indices`."""
    return _tri_indices("tril_indices", n, k, m, False)


def _from(op, arr):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError(f"For '{op}', input array must be 2-d, got shape {tuple(arr.shape)}.")
    return arr.shape


def triu_indices_from(arr, k=0):
    """Mirrors `mindspore.numpy.triu_indices_from`."""
    rows, cols = _from("triu_indices_from", arr)
    return triu_indices(rows, k, cols)


def tril_indices_from(arr, k=0):
    """Mirrors `mindspore.numpy.tril_indices_from`."""
    rows, cols = _from("tril_indices_from", arr)
    return tril_indices(rows, k, cols)


# ---- windows (Float32, computed in float32 as MindSpore does) ----
def _window(op, M, fn):
    if not isinstance(M, int) or isinstance(M, bool):
        raise TypeError(f"For '{op}', the number of points should be an int, got {M!r}.")
    if M <= 1:
        return ones(max(0, M))
    return new(fn(np.arange(M, dtype=np.float32), np.float32(M - 1)).astype(np.float32),
               float32)


def bartlett(M):
    """Mirrors `mindspore.numpy.bartlett` (triangular window)."""
    return _window("bartlett", M, lambda n, m1: np.float32(1) - np.abs(2 * n - m1) / m1)


def blackman(M):
    """Mirrors `mindspore.numpy.blackman`."""
    def fn(n, m1):
        nd = 2 * n - m1
        return (np.float32(0.42) + np.float32(0.5) * np.cos(np.float32(math.pi / m1) * nd)
                + np.float32(0.08) * np.cos(np.float32(2 * math.pi / m1) * nd))

    return _window("blackman", M, fn)


def hamming(M):
    """Mirrors `mindspore.numpy.hamming`."""
    return _window("hamming", M, lambda n, m1: np.float32(0.54) - np.float32(0.46) * np.cos(
        np.float32(2 * math.pi / m1) * n))


def hanning(M):
    """Mirrors `mindspore.numpy.hanning`."""
    return _window("hanning", M, lambda n, m1: np.float32(0.5) - np.float32(0.5) * np.cos(
        np.float32(2 * math.pi / m1) * n))


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """Mirrors `mindspore.numpy.histogram_bin_edges`: `bins + 1` Float32 edges over the data's
    range (or `range`); an array of `bins` is returned as it is."""
    a = to_tensor(a, op="histogram_bin_edges")
    if weights is not None and tuple(to_tensor(weights).shape) != tuple(a.shape):
        raise ValueError("For 'histogram_bin_edges', weights should have the same shape as a.")
    if isinstance(bins, (tuple, list, TensorBuffer)):
        bins = to_tensor(bins, op="histogram_bin_edges")
        if bins.ndim != 1:
            raise ValueError("For 'histogram_bin_edges', `bins` must be 1d, when an array.")
        return bins
    if isinstance(bins, str):
        raise NotImplementedError("For 'histogram_bin_edges', string value for `bins` not "
                                  "implemented; pass a number of bins or the edges.")
    a = ravel(a).astype(float32)
    if range is None:
        start, end = F.amin(a), F.amax(a)
    else:
        if not isinstance(range, (list, tuple)) or len(range) != 2:
            raise ValueError("For 'histogram_bin_edges', `range` should take the form "
                             "(start, end).")
        if range[0] > range[1]:
            raise ValueError("For 'histogram_bin_edges', max must be larger than min in range "
                             "parameter.")
        start, end = (to_tensor(v).astype(float32) for v in range)
    flat = (end - start) == 0
    start = where(flat, start - 0.5, start)
    end = where(flat, end + 0.5, end)
    return linspace(start, end, check_int("histogram_bin_edges", "bins", bins) + 1)


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """Mirrors `mindspore.numpy.pad` (every numpy mode but 'median'; a callable mode gets
    `(vector, iaxis_pad_width, iaxis, kwargs)` and returns the padded vector)."""
    arr = to_tensor(arr, op="pad")
    if arr.ndim == 0:
        return arr
    return _pad.pad(arr, pad_width, mode, stat_length, constant_values, end_values,
                    reflect_type, kwargs)

