"""Array functions of `mindspore.ops` built from the core ops (gathers, slices, broadcasts),
so they differentiate to any order: `nonzero`, `meshgrid`, `range`, `repeat_elements`,
`gather_nd`, `tensor_scatter_elements`, `unstack`, `roll`, `diag`, `top_k`, `sequence_mask`,
`cummin`, `count_nonzero`."""

import builtins
import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, int32, int64, to_dtype
from cellgrad.ops import _sort
from cellgrad.ops import functional as F
from cellgrad.ops._registry import OPS, apply


def _const(arr, dtype=None):
    arr = np.asarray(arr)
    return make_tensor(arr, None, 0, dtype) if dtype is not None else make_tensor(arr)


def _axis(op, axis, ndim):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"For '{op}', 'axis' must be an int, but got {type(axis).__name__}.")
    rank = max(ndim, 1)
    if not -rank <= axis < rank:
        raise ValueError(f"For '{op}', the 'axis' must be in range of [{-rank}, {rank}), but got "
                         f"{axis} with type 'int'.")
    return int(axis) % rank


def nonzero(input, *, as_tuple=False):
    """Mirrors `mindspore.ops.nonzero`: the Int64 coordinates of the non-zero elements, one
    row each, or (`as_tuple=True`) one 1-D Tensor per dimension."""
    if not isinstance(as_tuple, bool):
        raise TypeError(f"For array function 'nonzero', 'as_tuple' must be bool, but got "
                        f"{type(as_tuple)}.")
    F._need_tensor("nonzero", input)
    if input.ndim == 0:
        raise ValueError("For 'nonzero', the input must be at least 1-D, but got a 0-D Tensor.")
    coords = np.nonzero(input._data)
    if as_tuple:
        return tuple(_const(c.astype(np.int64), int64) for c in coords)
    return _const(np.stack(coords, axis=1).astype(np.int64), int64)


def meshgrid(*inputs, indexing="xy"):
    """Mirrors `mindspore.ops.meshgrid`: coordinate grids of 1-D Tensors of one dtype ('xy'
    swaps the first two output axes). A single tuple of Tensors (1.x's form) is accepted."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"For 'meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                         f"{indexing!r}.")
    F._need_tensor("meshgrid", *inputs)
    if len({t.dtype for t in inputs}) > 1:
        raise ValueError("For Primitive [Meshgrid], all tensors should have the same type.")
    for t in inputs:
        if t.ndim != 1:
            raise ValueError(f"For 'meshgrid', every input must be 1-D, but got shapes "
                             f"{[u.shape for u in inputs]}.")
    sizes = [t.shape[0] for t in inputs]
    axes = list(builtins.range(len(inputs)))
    if indexing == "xy" and len(inputs) > 1:
        axes[0], axes[1] = 1, 0
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for t, a in zip(inputs, axes):
        view = [1] * len(inputs)
        view[a] = -1
        out.append(F.broadcast_to(F.reshape(t, view), sizes))
    return tuple(out)


def _range_value(v):
    if isinstance(v, TensorBuffer):
        return v._data.item(), v.dtype
    if isinstance(v, bool) or not isinstance(v, numbers.Number):
        raise TypeError(f"For 'range', 'start', 'end' and 'step' must be numbers or 0-D "
                        f"Tensors, but got {type(v).__name__}.")
    return v, int64 if isinstance(v, numbers.Integral) else float32


def range(start, end, step, maxlen=1000000):
    """Mirrors `mindspore.ops.range`: [start, end) by step. Int inputs give Int64, floats
    Float32 (a float Tensor keeps its dtype); all three must be of one kind. MindSpore 2.10
    does not cap the length at `maxlen`; neither does cellgrad."""
    (s, ds), (e, de), (d, dd) = map(_range_value, (start, end, step))
    if len({t.kind for t in (ds, de, dd)}) > 1:
        raise TypeError(f"For Range, the dtypes of inputs must be the same, but got ({ds}, {de}, "
                        f"{dd}).")
    if d == 0:
        raise ValueError("For Range, delta cannot be equal to zero.")
    if d > 0 and e < s:
        raise ValueError("For Range, delta cannot be positive when limit < start.")
    if d < 0 and e > s:
        raise ValueError("For Range, delta cannot be negative when limit > start.")
    dt = int64 if ds.kind == 1 else next(t for t in (ds, de, dd) if t.kind == 2)
    n = int(np.ceil((e - s) / d))
    return _const((s + d * np.arange(n)).astype(dt.np_dtype), dt)


def repeat_elements(x, rep, axis=0):
    """Mirrors `mindspore.ops.repeat_elements`: each slice along `axis` repeated `rep` times."""
    F._need_tensor("repeat_elements", x)
    if isinstance(rep, bool) or not isinstance(rep, numbers.Integral) or not 0 < rep <= 2**31 - 1:
        raise ValueError(f"For 'repeat_elements', the 'rep' must be in range of (0, 2147483647],"
                         f" but got {rep} with type '{type(rep).__name__}'.")
    axis = _axis("repeat_elements", axis, x.ndim)
    index = np.repeat(np.arange(x.shape[axis]), int(rep))
    return F.gather(x, _const(index), axis)


def gather_nd(input_x, indices):
    """Mirrors `mindspore.ops.gather_nd`: slices of `input_x` at the index tuples in the last
    axis of `indices`; out-of-range indices (negative ones too) are an error."""
    F._need_tensor("gather_nd", input_x, indices)
    idx = indices._data
    if idx.dtype.kind not in "iu":
        raise TypeError(f"For 'gather_nd', 'indices' must be an int32 or int64 Tensor, but got "
                        f"{indices.dtype}.")
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim == 0 or k > input_x.ndim:
        raise ValueError(f"For 'gather_nd', the last dimension of 'indices' ({idx.shape}) must "
                         f"be at most the rank of 'input_x' ({input_x.ndim}).")
    bound = np.array(input_x.shape[:k])
    bad = np.any((idx < 0) | (idx >= bound), axis=-1)
    if bad.any():
        first = np.argwhere(bad)[0]
        raise RuntimeError(f"For 'GatherNd', the indices{[int(i) for i in first]}: "
                           f"{[int(v) for v in idx[tuple(first)]]}, does not index into "
                           f"input_shape: {input_x.shape}.")
    return input_x[tuple(idx[..., i] for i in builtins.range(k))]



def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """Mirrors `mindspore.ops.tensor_scatter_elements`: `input_x` with `updates` written
    ('none', the last write wins) or added ('add') at `indices` along `axis`."""
    F._need_tensor("tensor_scatter_elements", input_x, indices, updates)
    if reduction not in ("none", "add"):
        raise ValueError(f"For 'tensor_scatter_elements', 'reduction' must be 'none' or 'add', "
                         f"but got {reduction!r}.")
    idx = indices._data
    if idx.dtype.kind not in "iu":
        raise TypeError(f"For 'tensor_scatter_elements', 'indices' must be an int Tensor, but "
                        f"got {indices.dtype}.")
    if idx.shape != updates.shape or idx.ndim != input_x.ndim:
        raise ValueError(f"For 'tensor_scatter_elements', 'indices' {idx.shape} and 'updates' "
                         f"{updates.shape} must have one shape, of the rank of 'input_x' "
                         f"{input_x.shape}.")
    axis = _axis("tensor_scatter_elements", axis, input_x.ndim)
    n = input_x.shape[axis]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise ValueError(f"For 'tensor_scatter_elements', 'indices' must be in [{-n}, {n}), but "
                         f"got values in [{idx.min()}, {idx.max()}].")
    idx = np.where(idx < 0, idx + n, idx)
    updates = F.cast(updates, input_x.dtype)
    target = list(np.indices(idx.shape))
    target[axis] = idx
    # an advanced-index add: its adjoint reads exactly the updates' positions back
    attrs = {"shape": tuple(input_x.shape), "index": tuple(target)}
    if reduction == "add":
        return input_x + apply(OPS["index_add_zeros"], (updates,), attrs)
    flat = np.ravel_multi_index(tuple(target), input_x.shape).ravel()
    last = np.zeros(flat.size, bool)
    _, first_of_reversed = np.unique(flat[::-1], return_index=True)
    last[flat.size - 1 - first_of_reversed] = True  # the last write to a position wins
    written = np.zeros(input_x.shape, bool)
    written[tuple(target)] = True
    kept = F.masked_fill(updates, _const(~last.reshape(idx.shape)), 0)
    return F.masked_fill(input_x, _const(written), 0) + apply(OPS["index_add_zeros"], (kept,),
                                                                attrs)


def unstack(input_x, axis=0):
    """Mirrors `mindspore.ops.unstack`: the slices along `axis`, that axis removed."""
    F._need_tensor("unstack", input_x)
    axis = _axis("unstack", axis, input_x.ndim)
    return tuple(F.squeeze(p, axis) for p in F.split(input_x, 1, axis))


def roll(input, shifts, dims=None):
    """Mirrors `mindspore.ops.roll`: elements shifted along `dims` (all flattened when None),
    wrapping around. MindSpore 2.10 has no CPU kernel for it; this follows its documentation."""
    F._need_tensor("roll", input)
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    if dims is None:
        if len(shifts) != 1:
            raise ValueError(f"For 'roll', 'shifts' must be one int when 'dims' is None, but got "
                             f"{shifts}.")
        flat = F.reshape(input, (-1,))
        return F.reshape(roll(flat, shifts, 0), input.shape)
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(shifts) != len(dims):
        raise ValueError(f"For 'roll', 'shifts' and 'dims' must have one length, but got "
                         f"{shifts} and {dims}.")
    out = input
    for s, d in zip(shifts, dims):
        d = _axis("roll", d, input.ndim)
        n = input.shape[d]
        if n:
            out = F.gather(out, _const(np.roll(np.arange(n), int(s))), d)
    return out


def diag(input):
    """Mirrors `mindspore.ops.diag`: a Tensor of shape `input.shape * 2` with `input` on its
    diagonal (a diagonal matrix for 1-D input)."""
    F._need_tensor("diag", input)
    if input.ndim < 1:
        raise ValueError(f"For primitive[Diag], the input rank must be greater than or equal to "
                         f"1, but got {input.ndim}.")
    n = input.size
    if input.dtype.kind != 2:
        out = np.zeros((n, n), input._data.dtype)
        out[np.arange(n), np.arange(n)] = input._data.ravel()
        return _const(out.reshape(input.shape * 2), input.dtype)
    eye = _const(np.eye(n, dtype=input._data.dtype), input.dtype)
    return F.reshape(F.reshape(input, (n, 1)) * eye, input.shape * 2)


def top_k(input_x, k, sorted=True):
    """Mirrors `mindspore.ops.top_k`: the `k` largest values along the last axis and their
    Int32 indices, largest first (also when `sorted` is False)."""
    return F.topk(input_x, k)


def sequence_mask(lengths, maxlen=None):
    """Mirrors `mindspore.ops.sequence_mask`: `mask[..., j] = j < lengths[...]` as Bool, with
    `maxlen` columns (default: the largest length)."""
    if not isinstance(lengths, TensorBuffer):
        raise TypeError(f"For Primitive[Dtype], the input argument[input_x] must be a Tensor, "
                        f"CSRTensor or COOTensor, but got {type(lengths)}.")
    if str(lengths.dtype) not in ("Int32", "Int64"):
        raise TypeError(f"The 'lengths' doesn't support '{lengths.dtype}' and expect to receive "
                        f"[mindspore.int64, mindspore.int32].")
    lens = lengths._data
    if maxlen is None:
        maxlen = int(lens.max()) if lens.size else 0
    elif isinstance(maxlen, bool) or not isinstance(maxlen, numbers.Integral) or maxlen <= 0:
        raise ValueError(f"For 'sequence_mask', the 'maxlen' must be in range of (0, "
                         f"2147483647], but got {maxlen} with type '{type(maxlen).__name__}'.")
    return _const(np.arange(maxlen) < lens[..., None])


def cummin(input, axis):
    """Mirrors `mindspore.ops.cummin`: `(values, Int32 indices)` of the running minimum along
    `axis`; on ties the later index, as MindSpore's kernel. Values carry the gradient."""
    F._need_tensor("cummin", input)
    if not -input.ndim <= axis < max(input.ndim, 1):
        raise IndexError(f"For 'cummin', 'axis' {axis} is out of range for a tensor of shape "
                         f"{input.shape}.")
    axis %= max(input.ndim, 1)
    x = np.moveaxis(np.atleast_1d(input._data), axis, 0)
    idx = np.zeros(x.shape, np.int64)
    best = x[0].copy()
    for i in builtins.range(1, x.shape[0]):
        take = (x[i] <= best) | np.isnan(x[i])
        best = np.where(take, x[i], best)
        idx[i] = np.where(take, i, idx[i - 1])
    idx = np.moveaxis(idx, 0, axis).reshape(input.shape)
    values = apply(_sort.TAKE_ALONG_AXIS, (input,), {"idx": idx, "axis": axis}) if input.ndim \
        else input * 1
    return values, _const(idx.astype(np.int32), int32)


def count_nonzero(x, axis=(), keep_dims=False, dtype=int32):
    """Mirrors `mindspore.ops.count_nonzero`: the number of non-zero elements over `axis`
    (`()`: all), as `dtype`."""
    F._need_tensor("count_nonzero", x)
    axes = None if isinstance(axis, (tuple, list)) and not axis else axis
    axes = tuple(axes) if isinstance(axes, list) else axes
    dt = to_dtype(dtype)
    out = np.count_nonzero(x._data, axis=axes, keepdims=bool(keep_dims))
    return _const(np.asarray(out).astype(dt.np_dtype), dt)
