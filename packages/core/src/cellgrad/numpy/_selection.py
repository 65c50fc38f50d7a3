"""Selection and indexing functions of `mindspore.numpy.array_ops` (where, select, choose,
piecewise, take, take_along_axis, repeat, unique, ...): gathers and recorded `where`s, so
the selected values carry gradients."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import bool_, int32
from cellgrad.numpy._common import (
    axis_in_range,
    broadcast_shape,
    check_tensor,
    expand,
    narrow,
    new,
    promote,
    promote_all,
    to_tensor,
)
from cellgrad.numpy._joining import stack
from cellgrad.numpy._shapes import broadcast_to, ravel
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply
from cellgrad.ops._select import WHERE


def _index_array(op, indices):
    idx = indices._data if isinstance(indices, TensorBuffer) else np.asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"For '{op}', 'indices' must be an integer Tensor, but got dtype "
                        f"{idx.dtype}.")
    return idx


def _bounded(op, idx, n, mode, negative=False):
    """Indices wrapped into [0, n), or clipped: to [-n, n - 1] (negatives count from the end)
    when `negative`, else to [0, n - 1], as MindSpore's take and choose do."""
    if mode == "raise":
        raise NotImplementedError(f"For '{op}', \"raise\" mode is not implemented; use 'clip' "
                                  "or 'wrap'.")
    if mode == "wrap":
        return np.mod(idx, n)
    if mode != "clip":
        raise ValueError(f"For '{op}', invalid mode {mode!r}. Expected \"raise\", \"wrap\", or "
                         "\"clip\".")
    if negative:
        return np.mod(np.clip(idx, -n, n - 1), n)
    return np.clip(idx, 0, n - 1)


def take(a, indices, axis=None, mode="clip"):
    """Mirrors `mindspore.numpy.take`: 'clip' (the default) clamps indices to [-n, n - 1]
    (negatives count from the end, as MindSpore's); 'wrap' takes them modulo n."""
    check_tensor("take", a, indices)
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"For 'take', 'mode' should be one of \"raise\", \"wrap\", or \"clip\", "
                         f"but got {mode!r}.")
    if axis is None:
        a, axis = ravel(a), 0
    axis = axis_in_range("take", axis, a.ndim)
    idx = _bounded("take", _index_array("take", indices), a.shape[axis], mode, negative=True)
    return F.gather(a, new(idx), axis)


def take_along_axis(arr, indices, axis):
    """Mirrors `mindspore.numpy.take_along_axis` (the two broadcast outside `axis`)."""
    check_tensor("take_along_axis", arr, indices)
    if axis is None:
        arr, axis = ravel(arr), 0
    if arr.ndim != indices.ndim:
        raise ValueError(f"For 'take_along_axis', `indices` and `arr` must have the same number "
                         f"of dimensions, got {indices.ndim} and {arr.ndim}.")
    axis = axis_in_range("take_along_axis", axis, arr.ndim)
    shape = broadcast_shape("take_along_axis", tuple(np.delete(arr.shape, axis)),
                            tuple(np.delete(indices.shape, axis)))
    arr_shape = shape[:axis] + (arr.shape[axis],) + shape[axis:]
    idx_shape = shape[:axis] + (indices.shape[axis],) + shape[axis:]
    idx = np.broadcast_to(_index_array("take_along_axis", indices), idx_shape)
    return F.gather_elements(broadcast_to(arr, arr_shape), axis, new(np.ascontiguousarray(idx)))


def repeat(a, repeats, axis=None):
    """Mirrors `mindspore.numpy.repeat`: each element repeated (an int, or one count each)."""
    a = to_tensor(a, op="repeat")
    if axis is None:
        a, axis = ravel(a), 0
    axis = axis_in_range("repeat", axis, a.ndim)
    counts = repeats.asnumpy() if isinstance(repeats, TensorBuffer) else np.asarray(repeats)
    if counts.dtype.kind not in "iu" or (counts < 0).any():
        raise ValueError(f"For 'repeat', 'repeats' must be non-negative ints, got {repeats!r}.")
    if counts.ndim and counts.size not in (1, a.shape[axis]):
        raise ValueError(f"For 'repeat', 'repeats' has {counts.size} entries for an axis of "
                         f"length {a.shape[axis]}.")
    idx = np.repeat(np.arange(a.shape[axis]), counts.reshape(-1) if counts.ndim else counts)
    return F.gather(a, new(idx), axis)


def where(condition, x=None, y=None):
    """Mirrors `mindspore.numpy.where(condition, x, y)`: `x` where `condition`, else `y`
    (broadcast, dtypes promoted; MindSpore has no one-argument form)."""
    condition, x, y = to_tensor(condition, x, y, op="where")
    d = promote(x.dtype, y.dtype)
    x, y = (t if t.dtype is d else t.astype(d) for t in (x, y))
    shape = broadcast_shape("where", tuple(condition.shape), tuple(x.shape), tuple(y.shape))
    if condition.dtype is not bool_:
        condition = condition.astype(bool_)
    condition = broadcast_to(condition, shape)
    return apply(WHERE, (condition, broadcast_to(x, shape), broadcast_to(y, shape)))


def _as_stacked(op, value):
    """A Tensor from a Tensor, or from a (nested) sequence; sequences holding Tensors are
    stacked with `stack`, so gradients reach them (and narrowed to 32 bits, as MindSpore's
    conversion of such a list)."""
    if isinstance(value, (list, tuple)) and any(isinstance(v, TensorBuffer) for v in value):
        return narrow(stack([_as_stacked(op, v) for v in value]))
    return to_tensor(value, op=op)


def select(condlist, choicelist, default=0):
    """Mirrors `mindspore.numpy.select`: per element, the choice of the first true condition,
    else `default`."""
    condlist, choicelist = _as_stacked("select", condlist), _as_stacked("select", choicelist)
    if condlist.ndim == 0 or choicelist.ndim == 0:
        raise ValueError("For 'select', input cannot be scalars.")
    n = condlist.shape[0]
    if choicelist.shape[0] != n:
        raise ValueError(f"For 'select', list of cases must be same length as list of "
                         f"conditions, got {choicelist.shape[0]} and {n}.")
    case = broadcast_shape("select", tuple(condlist.shape[1:]), tuple(choicelist.shape[1:]))
    dtype = choicelist.dtype
    if isinstance(default, TensorBuffer):
        res = broadcast_to(default.astype(dtype), case)
    else:
        res = new(np.full(case, default, dtype.np_dtype), dtype)
    cond = condlist.astype(bool_)
    for i in range(n - 1, -1, -1):
        res = where(cond[i], choicelist[i], res)
    return res


def choose(a, choices, mode="clip"):
    """Mirrors `mindspore.numpy.choose`: `choices[a[i], i]` for every position i."""
    a = to_tensor(a, op="choose")
    if a.dtype.kind != 1:
        raise ValueError(f"For 'choose', `a` should be an int array, but got dtype {a.dtype}.")
    if isinstance(choices, (tuple, list)):
        parts = [to_tensor(c, op="choose") for c in choices]
        shape = broadcast_shape("choose", tuple(a.shape), *(tuple(c.shape) for c in parts))
        choices = stack([broadcast_to(c, shape) for c in parts])
    else:
        choices = to_tensor(choices, op="choose")
        if choices.ndim == 0:
            raise ValueError("For 'choose', input cannot be scalars.")
        shape = broadcast_shape("choose", tuple(a.shape), tuple(choices.shape[1:]))
        choices = broadcast_to(choices, (choices.shape[0],) + shape)
    if a.ndim == 0 or choices.ndim == 0:
        raise ValueError("For 'choose', input cannot be scalars.")
    idx = _bounded("choose", np.broadcast_to(a.asnumpy(), shape), choices.shape[0], mode)
    return choices[(idx,) + tuple(np.indices(shape, sparse=True))]


def piecewise(x, condlist, funclist, *args, **kw):
    """Mirrors `mindspore.numpy.piecewise`: `funclist[i]` (a function of x, or a value) where
    `condlist[i]`; one extra entry is the default. Functions and values may be mixed (as in
    numpy; MindSpore calls every entry once the first is a function)."""
    x = to_tensor(x, op="piecewise")
    choicelist = funclist
    if isinstance(funclist, (tuple, list)) and any(callable(f) for f in funclist):
        choicelist = [f(x, *args, **kw) if callable(f)
                      else broadcast_to(to_tensor(f, op="piecewise").astype(x.dtype), x.shape)
                      for f in funclist]
    conds = _stack_conditions(condlist)
    choices = _stack_conditions(choicelist)
    n1, n2 = conds.shape[0], len(funclist)
    default = 0
    if n1 + 1 == n2:
        default, choices = choices[-1], choices[:-1]
    elif n1 != n2:
        raise ValueError(f"For 'piecewise', the number of choices should be either equal to "
                         f"conditions or {n1 + 1}, but got {n2}.")
    return select(conds, choices, default)


def _stack_conditions(values):
    if isinstance(values, (tuple, list)):
        parts = [to_tensor(v, op="piecewise") for v in values]
        return stack(promote_all(parts)) if parts else new(np.zeros((0,), np.float32))
    return expand(to_tensor(values, op="piecewise"), 1)


def unravel_index(indices, shape, order="C"):
    """Mirrors `mindspore.numpy.unravel_index`: a tuple of coordinate Tensors (out-of-range
    indices are clipped to [-size, size - 1] and wrapped, as MindSpore does)."""
    indices = to_tensor(indices, op="unravel_index")
    if order not in ("C", "F"):
        raise ValueError(f"For 'unravel_index', invalid order {order!r}. Expected \"C\" or "
                         "\"F\".")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    dims = shape if order == "F" else shape[::-1]
    sizes = np.cumprod(dims)[::-1].tolist() + [1]
    total = sizes[0]
    idx = np.clip(_index_array("unravel_index", indices), -total, total - 1)
    dt = indices.dtype
    res = [new(np.asarray(np.mod(idx, hi) // lo, dt.np_dtype), dt)
           for hi, lo in zip(sizes[:-1], sizes[1:])]
    if indices.ndim == 0 and len(res) == 1:
        return ravel(res[0])
    return tuple(res[::-1] if order == "F" else res)


def unique(x, return_inverse=False):
    """Mirrors `mindspore.numpy.unique`: the distinct values of the flattened input in order of
    first appearance (MindSpore's Unique kernel; numpy sorts; each NaN is its own value), and
    optionally, for each element, the position of its value (Int64 for Int64 input, else Int32,
    as MindSpore's)."""
    check_tensor("unique", x)
    flat = ravel(x) if x.ndim != 1 else x
    _, first, inverse = np.unique(flat.asnumpy(), return_index=True, return_inverse=True,
                                  equal_nan=False)
    order = np.argsort(first, kind="stable")
    values = F.gather(flat, new(first[order]), 0)
    if not return_inverse:
        return values
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_dtype = np.int64 if flat.dtype.np_dtype == np.int64 else np.int32
    return values, new(rank[inverse.reshape(-1)].astype(idx_dtype))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Mirrors `mindspore.numpy.intersect1d`: the sorted common values; with
    `return_indices`, Int32 positions of their first occurrences in each input."""
    if not isinstance(assume_unique, bool) or not isinstance(return_indices, bool):
        raise TypeError("For 'intersect1d', assume_unique or return_indices is not bool type.")
    ar1, ar2 = to_tensor(ar1, ar2, op="intersect1d")
    d = promote(ar1.dtype, ar2.dtype)
    a1, a2 = ar1.asnumpy().astype(d.np_dtype), ar2.asnumpy().astype(d.np_dtype)
    if not return_indices:
        return new(np.intersect1d(a1, a2, assume_unique), d)
    vals, i1, i2 = np.intersect1d(a1, a2, assume_unique, return_indices=True)
    return new(vals, d), new(i1.astype(np.int32), int32), new(i2.astype(np.int32), int32)


def argwhere(a):
    """Mirrors `mindspore.numpy.argwhere`: (N, ndim) Int64 indices of the non-zero elements."""
    a = to_tensor(a, op="argwhere")
    return new(np.argwhere(a.asnumpy()).astype(np.int64))
