"""Mirrors `mindspore.numpy.array_ops`: reshaping, joining, splitting, rearranging and indexing
Tensors. Every function is built on cellgrad's recorded ops (reshape, transpose, concat, split,
gather, where, ...), so gradients flow wherever the values come from the inputs."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import bool_, int32
from cellgrad.numpy._common import (
    MAX_NUMPY_DIMS,
    axes_valid,
    axis_in_range,
    broadcast_shape,
    check_int,
    check_tensor,
    narrow,
    new,
    promote,
    to_tensor,
)
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply
from cellgrad.ops._select import WHERE

__all__ = [
    "append", "apply_along_axis", "apply_over_axes", "argwhere", "array_split", "array_str",
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_arrays", "broadcast_to", "choose",
    "column_stack", "concatenate", "dsplit", "dstack", "expand_dims", "flip", "fliplr", "flipud",
    "hsplit", "hstack", "intersect1d", "moveaxis", "piecewise", "ravel", "repeat", "reshape",
    "roll", "rollaxis", "rot90", "select", "size", "split", "squeeze", "stack", "swapaxes",
    "take", "take_along_axis", "tile", "transpose", "unique", "unravel_index", "vsplit",
    "vstack", "where",
]


# ---- shape ----
def expand_dims(a, axis):
    """Mirrors `mindspore.numpy.expand_dims` (`axis` may be a tuple)."""
    check_tensor("expand_dims", a)
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
        raise TypeError(f"For 'expand_dims', 'axis' must be tuple, list or int, but got "
                        f"{type(axis).__name__}.")
    if isinstance(axis, int):
        return F.expand_dims(a, axis)
    ndim = a.ndim + len(axis)
    for ax in sorted(axes_valid("expand_dims", axis, ndim)):
        a = F.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    """Mirrors `mindspore.numpy.squeeze`: a named axis whose size is not 1 is left in place (as
    MindSpore 2.10 does; numpy raises)."""
    check_tensor("squeeze", a)
    if axis is None:
        return F.squeeze(a)
    axes = axes_valid("squeeze", axis, a.ndim)
    ones = tuple(ax for ax in axes if a.shape[ax] == 1)
    return F.squeeze(a, ones) if ones else a


def transpose(a, axes=None):
    """Mirrors `mindspore.numpy.transpose` (None reverses the axes)."""
    check_tensor("transpose", a)
    if axes is None:
        axes = tuple(range(a.ndim))[::-1]
    return F.transpose(a, tuple(axes))


def rollaxis(x, axis, start=0):
    """Mirrors `mindspore.numpy.rollaxis`: `axis` moves to before `start`."""
    check_tensor("rollaxis", x)
    axis = axis_in_range("rollaxis", check_int("rollaxis", "axis", axis), x.ndim)
    start = check_int("rollaxis", "start", start)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"For 'rollaxis', start {start} is out of bounds. Ranging from "
                         f"{-x.ndim} to {x.ndim} is allowed.")
    start += x.ndim if start < 0 else 0
    if 0 <= start - axis <= 1:
        return x
    perm = [i for i in range(x.ndim) if i != axis]
    perm.insert(start - 1 if start > axis else start, axis)
    return F.transpose(x, tuple(perm))


def swapaxes(x, axis1, axis2):
    """Mirrors `mindspore.numpy.swapaxes`."""
    check_tensor("swapaxes", x)
    axis1 = axis_in_range("swapaxes", axis1, x.ndim)
    axis2 = axis_in_range("swapaxes", axis2, x.ndim)
    return F.swapaxes(x, axis1, axis2)


def reshape(x, new_shape):
    """Mirrors `mindspore.numpy.reshape` (one -1 allowed)."""
    check_tensor("reshape", x)
    return F.reshape(x, (new_shape,) if isinstance(new_shape, int) else tuple(new_shape))


def ravel(x):
    """Mirrors `mindspore.numpy.ravel`."""
    check_tensor("ravel", x)
    return F.reshape(x, (-1,))


def moveaxis(a, source, destination):
    """Mirrors `mindspore.numpy.moveaxis`."""
    check_tensor("moveaxis", a)
    source = axes_valid("moveaxis", source, a.ndim)
    destination = axes_valid("moveaxis", destination, a.ndim)
    if len(source) != len(destination):
        raise ValueError("For 'moveaxis', `source` and `destination` arguments must have the "
                         f"same number of elements, got {source} and {destination}.")
    perm = [i for i in range(a.ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return F.transpose(a, tuple(perm))


def _expand(x, ndim):
    """Leading unit axes up to `ndim` dimensions."""
    return F.reshape(x, (1,) * (ndim - x.ndim) + tuple(x.shape)) if x.ndim < ndim else x


def _one_or_list(res):
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys):
    """Mirrors `mindspore.numpy.atleast_1d`: one Tensor, or a list for several."""
    check_tensor("atleast_1d", *arys)
    return _one_or_list([_expand(a, 1) for a in arys])


def atleast_2d(*arys):
    """Mirrors `mindspore.numpy.atleast_2d`."""
    check_tensor("atleast_2d", *arys)
    return _one_or_list([_expand(a, 2) for a in arys])


def atleast_3d(*arys):
    """Mirrors `mindspore.numpy.atleast_3d`: (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1)."""
    check_tensor("atleast_3d", *arys)
    shapes = {0: lambda s: (1, 1, 1), 1: lambda s: (1, s[0], 1), 2: lambda s: s + (1,)}
    res = [F.reshape(a, shapes[a.ndim](tuple(a.shape))) if a.ndim < 3 else a for a in arys]
    return _one_or_list(res)


def broadcast_to(array, shape):
    """Mirrors `mindspore.numpy.broadcast_to`."""
    check_tensor("broadcast_to", array)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    ok = len(array.shape) <= len(shape) and all(
        i in (1, j) for i, j in zip(reversed(array.shape), reversed(shape)))
    if not ok:
        raise ValueError(f"For 'broadcast_to', cannot broadcast a Tensor of shape "
                         f"{tuple(array.shape)} with {shape}.")
    return array if tuple(array.shape) == shape else F.broadcast_to(array, shape)


def broadcast_arrays(*args):
    """Mirrors `mindspore.numpy.broadcast_arrays`: a list of Tensors of the common shape."""
    check_tensor("broadcast_arrays", *args)
    shape = broadcast_shape("broadcast_arrays", *(tuple(a.shape) for a in args))
    return [broadcast_to(a, shape) for a in args]


def tile(a, reps):
    """Mirrors `mindspore.numpy.tile`."""
    check_tensor("tile", a)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    return F.tile(a, reps)


# ---- joining ----
def _promote_all(tensors):
    d = promote(*(t.dtype for t in tensors))
    return tuple(t if t.dtype is d else t.astype(d) for t in tensors)


def concatenate(arrays, axis=0):
    """Mirrors `mindspore.numpy.concatenate`: dtypes promote; `axis=None` joins raveled
    inputs; a single Tensor is treated as the sequence of its rows."""
    if arrays is None:
        raise TypeError("For 'concatenate', expect Union[Tensor, tuple(Tensor), list(Tensor)], "
                        "but got None.")
    if isinstance(arrays, TensorBuffer):
        if axis is None or axis >= MAX_NUMPY_DIMS:
            return ravel(arrays)
        ndim = arrays.ndim
        axis = axis_in_range("concatenate", axis, ndim - 1)
        shape = tuple(arrays.shape)
        perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, ndim))
        new_shape = shape[1:axis + 1] + (shape[0] * shape[axis + 1],) + shape[axis + 2:]
        return F.reshape(F.transpose(arrays, perm), new_shape)
    arrays = tuple(arrays)
    if not arrays:
        raise ValueError("For 'concatenate', need at least one Tensor to concatenate.")
    check_tensor("concatenate", *arrays)
    if axis is None or axis >= MAX_NUMPY_DIMS:
        return F.concat(_promote_all([ravel(a) for a in arrays]), -1)
    axis = axis_in_range("concatenate", axis, arrays[0].ndim)
    if len(arrays) == 1:
        return arrays[0]
    return F.concat(_promote_all(arrays), axis)


def append(arr, values, axis=None):
    """Mirrors `mindspore.numpy.append`."""
    check_tensor("append", arr, values)
    if axis is None:
        arr, values = ravel(arr), ravel(values)
    else:
        axis_in_range("append", axis, arr.ndim)
    if arr.ndim != values.ndim:
        raise ValueError(f"For 'append', all tensors must have same number of dimensions, got "
                         f"{arr.ndim} and {values.ndim}.")
    return concatenate((arr, values), axis)


def _stack_sequence(op, tup, widen, axis):
    """column_stack/vstack/hstack/dstack: a Tensor passes through; a sequence is widened
    and concatenated (one dtype required, as MindSpore's Concat kernel)."""
    if isinstance(tup, TensorBuffer):
        return tup
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"For '{op}', Tensor or, list or tuple of tensors are required, but "
                        f"got {type(tup).__name__}.")
    if not tup:
        raise ValueError(f"For '{op}', need at least one tensor to concatenate.")
    check_tensor(op, *tup)
    parts = [widen(t) for t in tup]
    return F.concat(parts, axis(parts) if callable(axis) else axis)


def column_stack(tup):
    """Mirrors `mindspore.numpy.column_stack`: 1-D inputs become columns."""
    return _stack_sequence("column_stack", tup,
                           lambda t: F.reshape(t, (-1, 1)) if t.ndim < 2 else t, 1)


def vstack(tup):
    """Mirrors `mindspore.numpy.vstack`."""
    return _stack_sequence("vstack", tup, lambda t: _expand(t, 2), 0)


def hstack(tup):
    """Mirrors `mindspore.numpy.hstack`."""
    return _stack_sequence("hstack", tup, lambda t: _expand(t, 1),
                           lambda parts: 0 if parts[0].ndim <= 1 else 1)


def dstack(tup):
    """Mirrors `mindspore.numpy.dstack`: 1-D (N,) becomes (1, N, 1), 2-D (M, N) (M, N, 1)."""
    def widen(t):
        t = _expand(t, 2)
        return F.expand_dims(t, 2) if t.ndim == 2 else t

    return _stack_sequence("dstack", tup, widen, 2)


def stack(arrays, axis=0):
    """Mirrors `mindspore.numpy.stack` (dtypes promote; a Tensor stacks its rows)."""
    if isinstance(arrays, TensorBuffer):
        ndim = arrays.ndim
        axis %= ndim
        perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, ndim))
        return F.transpose(arrays, perm)
    if not isinstance(arrays, (list, tuple)):
        raise ValueError(f"For 'stack', input arrays must be Tensor, tuple, or list, but got "
                         f"{type(arrays).__name__}.")
    if not arrays:
        raise ValueError("For 'stack', need at least one Tensor to stack.")
    check_tensor("stack", *arrays)
    shapes = {tuple(a.shape) for a in arrays}
    if len(shapes) > 1:
        raise ValueError(f"For 'stack', all input arrays must have the same shape, got "
                         f"{[tuple(a.shape) for a in arrays]}.")
    ndim = arrays[0].ndim + 1
    axis = axis_in_range("stack", axis, ndim)
    return concatenate(tuple(F.expand_dims(a, axis) for a in arrays), axis)


# ---- splitting ----
def _split(x, indices_or_sections, op, axis):
    check_tensor(op, x)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For '{op}', 'axis' must be an int, but got {type(axis).__name__}.")
    axis = axis_in_range(op, axis, x.ndim)
    length = x.shape[axis]
    ios = indices_or_sections
    if isinstance(ios, int) and not isinstance(ios, bool):
        if ios <= 0:
            raise ValueError(f"For '{op}', the number of sections must be positive, got {ios}.")
        if ios > length:
            raise ValueError(f"For '{op}', empty tensor encountered: {ios} sections of an axis "
                             f"of length {length}.")
        if length % ios and op != "array_split":
            raise ValueError(f"For '{op}', x_shape[{axis}] must be divisible by output_num = "
                             f"{ios}, but got {length}.")
        base, extra = divmod(length, ios)
        sizes = [base + 1] * extra + [base] * (ios - extra)
        return tuple(F.split(x, sizes, axis)) if ios > 1 else (x,)
    if isinstance(ios, (list, tuple)) and all(
            isinstance(i, int) and not isinstance(i, bool) for i in ios):
        cuts = [i + length if i < 0 else i for i in ios] + [length]
        sizes = []
        for begin, end in zip([0] + cuts[:-1], cuts):
            if min(end, length) <= begin:
                raise ValueError(f"For '{op}', empty sub-tensor encountered: indices "
                                 f"{list(ios)} of an axis of length {length}.")
            sizes.append(min(end, length) - begin)
        return list(F.split(x, sizes, axis)) if len(sizes) > 1 else [x]
    raise TypeError(f"For '{op}', 'indices_or_sections' should be integer, tuple(int) or "
                    f"list(int), but got {ios!r}.")


def split(x, indices_or_sections, axis=0):
    """Mirrors `mindspore.numpy.split`: equal sections (a tuple) or cut points (a list)."""
    return _split(x, indices_or_sections, "split", axis)


def array_split(x, indices_or_sections, axis=0):
    """Mirrors `mindspore.numpy.array_split`: like split, sections may differ by one."""
    return _split(x, indices_or_sections, "array_split", axis)


def vsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.vsplit` (axis 0)."""
    return _split(x, indices_or_sections, "split", 0)


def hsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.hsplit` (axis 1)."""
    return _split(x, indices_or_sections, "split", 1)


def dsplit(x, indices_or_sections):
    """Mirrors `mindspore.numpy.dsplit` (axis 2)."""
    return _split(x, indices_or_sections, "split", 2)


# ---- rearranging ----
def flip(m, axis=None):
    """Mirrors `mindspore.numpy.flip` (None flips every axis)."""
    check_tensor("flip", m)
    axes = axes_valid("flip", axis, m.ndim)
    if not axes or 0 in m.shape:
        return m
    return F.flip(m, axes)


def flipud(m):
    """Mirrors `mindspore.numpy.flipud`."""
    return flip(m, 0)


def fliplr(m):
    """Mirrors `mindspore.numpy.fliplr`."""
    return flip(m, 1)


def rot90(a, k=1, axes=(0, 1)):
    """Mirrors `mindspore.numpy.rot90`: `k` quarter turns from `axes[0]` towards `axes[1]`."""
    check_tensor("rot90", a)
    k = check_int("rot90", "k", k) % 4
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"For 'rot90', 'axes' must be tuple(ints) or list(ints), but got "
                        f"{type(axes).__name__}.")
    if len(axes) != 2:
        raise ValueError(f"For 'rot90', len(axes) must be 2, got {len(axes)}.")
    axis1, axis2 = (axis_in_range("rot90", ax, a.ndim) for ax in axes)
    if axis1 == axis2:
        raise ValueError(f"For 'rot90', axes must be different, got {tuple(axes)}.")
    if k == 0:
        return a
    if k == 2:
        return flip(flip(a, axis1), axis2)
    perm = list(range(a.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return flip(F.transpose(a, tuple(perm)), axis1 if k == 1 else axis2)


def _roll_axis(a, shift, axis):
    n = a.shape[axis]
    cut = n - shift % n if n else n
    if cut == n:
        return a
    lead = (slice(None),) * axis
    return F.concat((a[lead + (slice(cut, None),)], a[lead + (slice(0, cut),)]), axis)


def roll(a, shift, axis=None):
    """Mirrors `mindspore.numpy.roll` (shifts and axes broadcast against each other)."""
    check_tensor("roll", a)
    shape = tuple(a.shape)
    if axis is None:
        a, axis = ravel(a), 0
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError(f"For 'roll', shape mismatch: shift {shifts} and axis {axes} cannot "
                         "be broadcast to a single shape.")
    n = max(len(shifts), len(axes))
    shifts, axes = shifts * (n // len(shifts)), axes * (n // len(axes))
    for s, ax in zip(shifts, axes):
        a = _roll_axis(a, check_int("roll", "shift", s), axis_in_range("roll", ax, a.ndim))
    return F.reshape(a, shape) if tuple(a.shape) != shape else a


# ---- indexing ----
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


# ---- functions over axes ----
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Mirrors `mindspore.numpy.apply_along_axis`: `func1d` on each 1-D slice along `axis`."""
    check_tensor("apply_along_axis", arr)
    ndim, shape = arr.ndim, tuple(arr.shape)
    axis = axis_in_range("apply_along_axis", axis, ndim)
    flat = F.reshape(moveaxis(arr, axis, -1), (-1, shape[axis]))
    stacked = stack([func1d(flat[i], *args, **kwargs) for i in range(flat.shape[0])])
    res = F.reshape(stacked, shape[:axis] + shape[axis + 1:] + tuple(stacked.shape[1:]))
    extra = res.ndim - ndim + 1
    if extra >= 1:
        res = moveaxis(res, tuple(range(ndim - 1, res.ndim)), tuple(range(axis, axis + extra)))
    return res


def apply_over_axes(func, a, axes):
    """Mirrors `mindspore.numpy.apply_over_axes`: `func(a, axis=...)` over each axis in turn,
    the reduced axis kept."""
    a = to_tensor(a, op="apply_over_axes")
    res = a
    for axis in (axes,) if isinstance(axes, int) else axes:
        res = func(res, axis=axis)
        if res.ndim != a.ndim:
            res = F.expand_dims(res, axis)
        if res.ndim != a.ndim:
            raise ValueError("For 'apply_over_axes', function is not returning a tensor of the "
                             "correct shape.")
    return res


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
        return stack(_promote_all(parts)) if parts else new(np.zeros((0,), np.float32))
    return _expand(to_tensor(values, op="piecewise"), 1)


# ---- sets and queries ----
def unique(x, return_inverse=False):
    """Mirrors `mindspore.numpy.unique`: the distinct values of the flattened input in order of
    first appearance (MindSpore's Unique kernel; numpy sorts), and optionally, for each
    element, the position of its value (Int64 for Int64 input, else Int32, as MindSpore's)."""
    check_tensor("unique", x)
    flat = ravel(x) if x.ndim != 1 else x
    _, first, inverse = np.unique(flat.asnumpy(), return_index=True, return_inverse=True)
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


def size(a, axis=None):
    """Mirrors `mindspore.numpy.size`: the number of elements (along `axis`), an int."""
    a = to_tensor(a, op="size")
    if axis is None:
        return a.size
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"For 'size', axis argument should be integer, but got "
                        f"{type(axis).__name__}.")
    return a.shape[axis_in_range("size", axis, a.ndim)]


def array_str(a):
    """Mirrors `mindspore.numpy.array_str`: the Tensor's printed form."""
    if not isinstance(a, TensorBuffer):
        raise TypeError(f"For 'array_str', expect input to be tensor, but got "
                        f"{type(a).__name__}.")
    return str(a)

