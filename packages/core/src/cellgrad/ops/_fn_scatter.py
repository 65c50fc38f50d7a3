"""Scatter and segment ops of `mindspore.ops`: the in-place `scatter_*`/`scatter_nd_*` family
on Parameters, the functional `tensor_scatter_*` family (differentiable with MindSpore's
gradients), the sorted `Segment*` and unsorted `unsorted_segment_max/min/prod` reductions, and
their Primitive classes."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._index import INDEX_ADD_ZEROS, UNSORTED_SEGMENT_SUM
from cellgrad.ops._prim_array import ScatterAdd
from cellgrad.ops._registry import apply, define
from cellgrad.ops.primitive import Primitive, prim_attr_register

_UFUNC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
          "max": np.maximum, "min": np.minimum}


def _shape_text(shape):
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _index_tensor(op, indices):
    if not isinstance(indices, TensorBuffer) or indices._data.dtype.kind not in "iu":
        got = f"Tensor[{indices.dtype}]" if isinstance(indices, TensorBuffer) else \
            type(indices).__name__
        raise TypeError(f"For primitive[{op}], the input argument[indices type] must be a type "
                        f"of {{Tensor[Int32], Tensor[Int64]}}, but got {got}.")
    return indices._data.astype(np.int64)


def _updates(op, x, updates, shape, message):
    C.tensor(op, "updates", updates)
    if tuple(updates.shape) != tuple(shape):
        raise ValueError(message)
    if updates.dtype != x.dtype:
        raise TypeError(f"For '{op}', the dtype of 'updates' must be the dtype of 'input_x', "
                        f"{x.dtype}, but got {updates.dtype}.")
    return updates._data


def _written(x):
    return make_tensor(x._data.copy(), None, 0, x.dtype)


# ---- in place, along the first axis: ScatterSub ... ScatterUpdate ----
def _scatter_inplace(op, mode, input_x, indices, updates):
    C.tensor(op, "input_x", input_x)
    idx = _index_tensor(op, indices)
    n = input_x.shape[0]
    bad = idx[(idx < 0) | (idx >= n)]
    if bad.size:
        raise RuntimeError(f"For '{op}', the value of indices should be in [0, {n}), but got "
                           f"'{bad.flat[0]}' in indices.")
    want = idx.shape + tuple(input_x.shape[1:])
    src = _updates(op, input_x, updates, want,
                   f"For {op}, updates_shape = indices_shape + input_x_shape[1:], but got "
                   f"input_x_shape: {_shape_text(input_x.shape)}, indices_shape: "
                   f"{_shape_text(idx.shape)}, updates_shape: {_shape_text(updates.shape)}.")
    _apply_at(input_x, mode, (idx,), src)
    return _written(input_x)


def _apply_at(x, mode, index, src):
    data = x._data
    if mode == "update":
        data[index] = src
    elif mode == "div" and data.dtype.kind in "iu":
        # integer division truncates, as MindSpore's kernel; x / 0 leaves x unchanged there
        flat = np.ravel_multi_index(index, data.shape[:len(index)]) if index else None
        view = data.reshape((-1,) + data.shape[len(index):])
        for k, s in zip(np.ravel(flat), src.reshape((-1,) + view.shape[1:])):
            view[k] = np.where(s == 0, view[k], np.trunc(view[k] / np.where(s == 0, 1, s)))
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            _UFUNC[mode].at(data, index, src)


# ---- in place, at N-d indices: ScatterNdAdd ... ScatterNdMin ----
def _nd(op, shape, indices):
    idx = _index_tensor(op, indices)
    if idx.ndim == 0 or idx.shape[-1] > len(shape):
        raise ValueError(f"For '{op}', the last dimension of 'indices' must be at most the rank "
                         f"of 'input_x' {len(shape)}, but got indices of shape "
                         f"{_shape_text(idx.shape)}.")
    k = idx.shape[-1]
    bound = np.array(shape[:k])
    bad = (idx < 0) | (idx >= bound)
    if bad.any():
        row = int(np.argwhere(bad.reshape(-1, k).any(-1))[0][0])
        raise RuntimeError(f"For '{op}', the {row}-th value of 'indices'"
                           f"{idx.reshape(-1, k)[row].tolist()} is out of range"
                           f"{list(shape[:k])}.")
    return tuple(idx[..., i] for i in range(k)), idx.shape[:-1] + tuple(shape[k:])


def _scatter_nd_inplace(op, mode, input_x, indices, updates):
    C.tensor(op, "input_x", input_x)
    index, want = _nd(op, input_x.shape, indices)
    src = _updates(op, input_x, updates, want,
                   f"For '{op}', updates_shape = indices_shape[:-1] + x_shape[indices_shape[-1]:]"
                   f", but got x_shape: {_shape_text(input_x.shape)}, indices_shape: "
                   f"{_shape_text(indices.shape)}, updates_shape: {_shape_text(updates.shape)}.")
    _apply_at(input_x, mode, index, src)
    return _written(input_x)


def _inplace_class(name, mode, nd, locking_default):
    run = _scatter_nd_inplace if nd else _scatter_inplace

    def __init__(self, use_locking=locking_default):
        C.boolean(name, "use_locking", use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        return run(self.name, mode, input_x, indices, updates)

    init = prim_attr_register(__init__)
    doc = (f"Mirrors `mindspore.ops.{name}(use_locking={locking_default})(input_x, indices, "
           f"updates)`: {'N-d ' if nd else ''}scatter-{mode} into `input_x` in place.")
    return type(name, (Primitive,), {"__init__": init, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


ScatterSub = _inplace_class("ScatterSub", "sub", False, False)
ScatterMul = _inplace_class("ScatterMul", "mul", False, False)
ScatterDiv = _inplace_class("ScatterDiv", "div", False, False)
ScatterMax = _inplace_class("ScatterMax", "max", False, False)
ScatterMin = _inplace_class("ScatterMin", "min", False, False)
ScatterUpdate = _inplace_class("ScatterUpdate", "update", False, True)
ScatterNdAdd = _inplace_class("ScatterNdAdd", "add", True, False)
ScatterNdSub = _inplace_class("ScatterNdSub", "sub", True, False)
ScatterNdMul = _inplace_class("ScatterNdMul", "mul", True, False)
ScatterNdDiv = _inplace_class("ScatterNdDiv", "div", True, False)
ScatterNdMax = _inplace_class("ScatterNdMax", "max", True, False)
ScatterNdMin = _inplace_class("ScatterNdMin", "min", True, False)


class ScatterNonAliasingAdd(Primitive):
    """Mirrors `mindspore.ops.ScatterNonAliasingAdd()(input_x, indices, updates)`: N-d
    scatter-add into a Parameter in place (MindSpore 2.10's CPU build has no kernel)."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        return _scatter_nd_inplace(self.name, "add", input_x, indices, updates)


class ScatterAddWithAxis(Primitive):
    """Mirrors `mindspore.ops.ScatterAddWithAxis(axis=0)(input_x, indices, updates)`: adds
    `updates` at `indices` along `axis` (as `Tensor.scatter_add_`), in place."""

    @prim_attr_register
    def __init__(self, axis=0):
        C.integer("ScatterAddWithAxis", "axis", axis)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        C.tensor(self.name, "input_x", input_x)
        idx = _index_tensor(self.name, indices)
        axis = C.axis(self.name, "axis", self.axis, input_x.ndim)
        if idx.shape != tuple(updates.shape) or idx.ndim != input_x.ndim:
            raise ValueError(f"For '{self.name}', 'indices' and 'updates' must have one shape of "
                             f"the rank of 'input_x', but got {_shape_text(idx.shape)} and "
                             f"{_shape_text(updates.shape)}.")
        n = input_x.shape[axis]
        if idx.size and (idx.min() < -n or idx.max() >= n):
            raise RuntimeError(f"For '{self.name}', the value of indices should be in "
                               f"[{-n}, {n}).")
        places = list(np.indices(idx.shape, sparse=True))
        places[axis] = idx % n
        np.add.at(input_x._data, tuple(places), updates._data.astype(input_x._data.dtype))
        return _written(input_x)


def _fn(prim, name, doc):
    def fn(input_x, indices, updates):
        return prim()(input_x, indices, updates)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}`: {doc}"
    return fn


def _nd_fn(prim, name, doc):
    def fn(input_x, indices, updates, use_locking=False):
        return prim(use_locking)(input_x, indices, updates)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}`: {doc}"
    return fn


scatter_add = _fn(ScatterAdd, "scatter_add", "`input_x[indices] += updates` in place.")
scatter_mul = _fn(ScatterMul, "scatter_mul", "`input_x[indices] *= updates` in place.")
scatter_div = _fn(ScatterDiv, "scatter_div", "`input_x[indices] /= updates` in place.")
scatter_max = _fn(ScatterMax, "scatter_max", "elementwise max at `indices`, in place.")
scatter_min = _fn(ScatterMin, "scatter_min", "elementwise min at `indices`, in place.")
scatter_update = _fn(ScatterUpdate, "scatter_update", "`input_x[indices] = updates` in place.")
scatter_nd_add = _nd_fn(ScatterNdAdd, "scatter_nd_add", "N-d scatter-add in place.")
scatter_nd_sub = _nd_fn(ScatterNdSub, "scatter_nd_sub", "N-d scatter-sub in place.")
scatter_nd_mul = _nd_fn(ScatterNdMul, "scatter_nd_mul", "N-d scatter-mul in place.")
scatter_nd_div = _nd_fn(ScatterNdDiv, "scatter_nd_div", "N-d scatter-div in place.")
scatter_nd_max = _nd_fn(ScatterNdMax, "scatter_nd_max", "N-d scatter-max in place.")
scatter_nd_min = _nd_fn(ScatterNdMin, "scatter_nd_min", "N-d scatter-min in place.")


def scatter_nd_update(*args):
    """Mirrors `mindspore.ops.scatter_nd_update(input_x, indices, updates, use_locking=True)`:
    writes `updates` at the N-d `indices` in place."""
    from cellgrad.ops._prim_array import ScatterNdUpdate

    input_x, indices, updates, *rest = args
    return ScatterNdUpdate(*rest)(input_x, indices, updates)


def scatter_nd(indices, updates, shape):
    """Mirrors `mindspore.ops.scatter_nd`: zeros of `shape` with `updates` summed in at the N-d
    `indices` (differentiable in `updates`)."""
    C.tensor("ScatterNd", "updates", updates)
    shape = C.int_tuple("ScatterNd", "shape", shape)
    index, want = _nd("ScatterNd", shape, indices)
    if tuple(updates.shape) != want:
        raise ValueError(f"For 'ScatterNd', the shape of 'updates' must be {_shape_text(want)}, "
                         f"but got {_shape_text(updates.shape)}.")
    return apply(INDEX_ADD_ZEROS, (updates,), {"shape": shape, "index": index})


# ---- functional: tensor_scatter_* ----
def _ts_fwd(x, u, index, mode):
    out = x.copy()
    if mode == "update":
        out[index] = u
        return out, (index, mode, None, None, None)
    factor = np.ones_like(x)
    np.multiply.at(factor, index, u)
    with np.errstate(divide="ignore", invalid="ignore"):
        if mode == "mul":
            out = x * factor
        elif x.dtype.kind in "iu":
            # MindSpore's integer kernel divides truncating toward zero, keeping the dtype
            q = np.abs(x) // np.where(factor == 0, 1, np.abs(factor))
            out = (np.sign(x) * np.sign(factor) * q).astype(x.dtype)
        else:
            out = x / factor
    return out, (index, mode, factor, x, u)


def _ts_bwd(ctx, g):
    # MindSpore's rules (grad_array_ops): each update sees its own place only
    index, mode, factor, x, aux = ctx.saved
    g_at = g[index]
    if mode == "update":
        keep = np.ones(g.shape, bool)
        keep[index] = False
        return g * keep, g_at
    if mode == "mul":
        return g * factor, x[index] * g_at
    return g / factor, -x[index] * g_at / (aux * aux)


def _ts_extreme_fwd(x, u, index, mode):
    out = x.copy()
    _UFUNC[mode].at(out, index, u)
    return out, (index, x, u, out)


def _ts_extreme_bwd(ctx, g):
    index, x, u, out = ctx.saved
    return g * (x == out), g[index] * (u == out[index])


TENSOR_SCATTER = define("tensor_scatter", _ts_fwd, _ts_bwd, first_order_only=True)
TENSOR_SCATTER_EXTREME = define("tensor_scatter_extreme", _ts_extreme_fwd, _ts_extreme_bwd,
                                first_order_only=True)


_DIV_TYPES = ", ".join(f"Tensor[{t}]" for t in (
    "Float16", "Float32", "Float64", "Int16", "Int32", "Int64", "UInt16", "UInt32", "UInt64"))


def _tensor_scatter(op, mode, input_x, indices, updates):
    C.tensor(op, "input_x", input_x)
    C.tensor(op, "updates", updates)
    kind = input_x._data.dtype
    if mode == "div" and (kind.kind not in "fiu" or kind.itemsize < 2):
        raise TypeError(f"For primitive[{op}], the input argument[input_x] must be a type of "
                        f"{{{_DIV_TYPES}}}, but got Tensor[{input_x.dtype}].")
    if isinstance(indices, TensorBuffer) and str(indices.dtype) not in ("Int32", "Int64"):
        if op == "TensorScatterAdd":
            raise TypeError(f"For primitive[{op}], the input[indices type] supports types: Int32, "
                            f"Int64. But got {indices.dtype}.")
        raise TypeError(f"For primitive[{op}], the input argument[indices type] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{indices.dtype}].")
    if isinstance(indices, TensorBuffer) and indices.ndim < 2:
        raise ValueError(f"For {op}, the dimension of 'indices' cannot be less than 2,  but got "
                         f"{indices.ndim}")
    index, want = _nd(op, input_x.shape, indices)
    if updates.dtype != input_x.dtype:
        raise TypeError(f"For {op}, input_x_type must equal to updates type, but got "
                        f"input_x_type: {input_x.dtype}, updates_type: {updates.dtype}.")
    if tuple(updates.shape) != want:
        raise ValueError(f"For {op}, updates_shape = indices_shape[:-1] + "
                         f"x_shape[indices_shape[-1]:], but got x_shape: "
                         f"{_shape_text(input_x.shape)}, indices_shape: "
                         f"{_shape_text(indices.shape)}, updates_shape: "
                         f"{_shape_text(updates.shape)}.")
    if mode in ("add", "sub"):
        spread = apply(INDEX_ADD_ZEROS, (updates,), {"shape": tuple(input_x.shape),
                                                     "index": index})
        return input_x + spread if mode == "add" else input_x - spread
    op_ = TENSOR_SCATTER_EXTREME if mode in ("max", "min") else TENSOR_SCATTER
    return apply(op_, (input_x, updates), {"index": index, "mode": mode})


def _ts_fn(name, prim_name, mode, doc, star=False):
    if star:
        def fn(*args):
            input_x, indices, updates = args
            return _tensor_scatter(prim_name, mode, input_x, indices, updates)
    else:
        def fn(input_x, indices, updates):
            return _tensor_scatter(prim_name, mode, input_x, indices, updates)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Mirrors `mindspore.ops.{name}`: {doc}"

    def __call__(self, input_x, indices, updates):
        return _tensor_scatter(self.name, mode, input_x, indices, updates)

    prim = type(prim_name, (Primitive,), {
        "__call__": __call__, "__module__": __name__,
        "__doc__": f"Mirrors `mindspore.ops.{prim_name}()(input_x, indices, updates)`: "
                   f"`ops.{name}`."})
    return fn, prim


tensor_scatter_add, TensorScatterAdd = _ts_fn(
    "tensor_scatter_add", "TensorScatterAdd", "add", "a copy with `updates` added at N-d "
    "`indices` (repeats accumulate).")
tensor_scatter_sub, TensorScatterSub = _ts_fn(
    "tensor_scatter_sub", "TensorScatterSub", "sub", "a copy with `updates` subtracted.")
tensor_scatter_mul, TensorScatterMul = _ts_fn(
    "tensor_scatter_mul", "TensorScatterMul", "mul", "a copy multiplied by `updates` there.")
tensor_scatter_div, TensorScatterDiv = _ts_fn(
    "tensor_scatter_div", "TensorScatterDiv", "div", "a copy divided by `updates` there.")
tensor_scatter_max, TensorScatterMax = _ts_fn(
    "tensor_scatter_max", "TensorScatterMax", "max", "the elementwise max with `updates`.")
tensor_scatter_min, TensorScatterMin = _ts_fn(
    "tensor_scatter_min", "TensorScatterMin", "min", "the elementwise min with `updates`.")
tensor_scatter_update, TensorScatterUpdate = _ts_fn(
    "tensor_scatter_update", "TensorScatterUpdate", "update", "a copy with `updates` written "
    "at N-d `indices` (the last of repeated writes wins).", star=True)


class TensorScatterElements(Primitive):
    """Mirrors `mindspore.ops.TensorScatterElements(axis=0, reduction='none')`:
    `ops.tensor_scatter_elements`."""

    @prim_attr_register
    def __init__(self, axis=0, reduction="none"):
        C.integer("TensorScatterElements", "axis", axis)
        if reduction not in ("none", "add"):
            raise ValueError(f"For 'TensorScatterElements', 'reduction' must be 'none' or 'add',"
                             f" but got {reduction!r}.")

    def __call__(self, data, indices, updates):
        from cellgrad.ops import tensor_scatter_elements

        return tensor_scatter_elements(data, indices, updates, self.axis, self.reduction)


# ---- segments ----
def _segment_ids(op, x, segment_ids):
    C.tensor(op, "x", x)
    ids = _index_tensor(op, segment_ids)
    if ids.ndim == 0 or tuple(x.shape[:ids.ndim]) != ids.shape:
        raise ValueError(f"For '{op}', the shape of 'segment_ids' {_shape_text(ids.shape)} must "
                         f"be a prefix of the shape of 'x' {_shape_text(x.shape)}.")
    return ids


def _extreme_fwd(x, ids, num_segments, mode):
    out_shape = (num_segments,) + x.shape[ids.ndim:]
    info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
    out = np.full(out_shape, info.min if mode == "max" else info.max, x.dtype)
    valid = (ids >= 0) & (ids < num_segments)
    _UFUNC[mode].at(out, ids[valid], x[valid])
    return out, (ids, valid, x, out)


def _extreme_bwd(ctx, g):
    # ties share the gradient evenly, as MindSpore's _unsorted_segment_min_or_max_grad
    ids, valid, x, out = ctx.saved
    safe = np.where(valid, ids, 0)
    chosen = (x == out[safe]) & valid.reshape(valid.shape + (1,) * (x.ndim - ids.ndim))
    count = np.zeros(out.shape, g.dtype)
    np.add.at(count, safe, chosen.astype(g.dtype))
    share = g / np.where(count == 0, 1, count)
    return np.where(chosen, share[safe], 0).astype(g.dtype)


def _prod_fwd(x, ids, num_segments):
    out = np.ones((num_segments,) + x.shape[ids.ndim:], x.dtype)
    valid = (ids >= 0) & (ids < num_segments)
    np.multiply.at(out, ids[valid], x[valid])
    return out, (ids, valid, x)


def _prod_bwd(ctx, g):
    # the product of the segment's other elements (exact with zeros in the segment)
    ids, valid, x = ctx.saved
    safe = np.where(valid, ids, 0)
    zero = x == 0
    nonzero_prod = np.ones(g.shape, x.dtype)
    np.multiply.at(nonzero_prod, safe[valid], np.where(zero, 1, x)[valid])
    zeros = np.zeros(g.shape, np.int64)
    np.add.at(zeros, safe[valid], zero[valid].astype(np.int64))
    p, z = nonzero_prod[safe], zeros[safe]
    with np.errstate(divide="ignore", invalid="ignore"):
        others = np.where(zero, np.where(z == 1, p, 0), np.where(z == 0, p / np.where(zero, 1, x),
                                                                  0))
    mask = valid.reshape(valid.shape + (1,) * (x.ndim - ids.ndim))
    return (g[safe] * others * mask).astype(g.dtype)


SEGMENT_EXTREME = define("unsorted_segment_extreme", _extreme_fwd, _extreme_bwd,
                         first_order_only=True)
SEGMENT_PROD = define("unsorted_segment_prod", _prod_fwd, _prod_bwd, first_order_only=True)


def _num_segments(op, num_segments):
    if isinstance(num_segments, TensorBuffer):
        num_segments = num_segments._data.item()
    n = C.integer(op, "num_segments", num_segments)
    if n <= 0:
        raise ValueError(f"For '{op}', 'num_segments' must be positive, but got {n}.")
    return n


def _unsorted(op, mode, x, segment_ids, num_segments):
    ids = _segment_ids(op, x, segment_ids)
    n = _num_segments(op, num_segments)
    if mode == "prod":
        return apply(SEGMENT_PROD, (x,), {"ids": ids, "num_segments": n})
    return apply(SEGMENT_EXTREME, (x,), {"ids": ids, "num_segments": n, "mode": mode})


def unsorted_segment_max(x, segment_ids, num_segments):
    """Mirrors `mindspore.ops.unsorted_segment_max`: the max of each segment; empty segments
    hold the dtype's lowest value; tied maxima share the gradient."""
    return _unsorted("UnsortedSegmentMax", "max", x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """Mirrors `mindspore.ops.unsorted_segment_min`: empty segments hold the dtype's highest
    value."""
    return _unsorted("UnsortedSegmentMin", "min", x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """Mirrors `mindspore.ops.unsorted_segment_prod`: empty segments hold 1."""
    return _unsorted("UnsortedSegmentProd", "prod", x, segment_ids, num_segments)


def _unsorted_prim(name, fn):
    def __call__(self, x, segment_ids, num_segments):
        return fn(x, segment_ids, num_segments)

    return type(name, (Primitive,), {"__call__": __call__, "__module__": __name__,
                                     "__doc__": f"Mirrors `mindspore.ops.{name}()`: "
                                                f"`ops.{fn.__name__}`."})


UnsortedSegmentMax = _unsorted_prim("UnsortedSegmentMax", unsorted_segment_max)
UnsortedSegmentMin = _unsorted_prim("UnsortedSegmentMin", unsorted_segment_min)
UnsortedSegmentProd = _unsorted_prim("UnsortedSegmentProd", unsorted_segment_prod)


def _sorted_segment(name, mode, x, segment_ids):
    from cellgrad.ops import functional as F

    ids = _segment_ids(name, x, segment_ids)
    if ids.ndim != 1:
        raise ValueError(f"For '{name}', 'segment_ids' must be 1-D, but got shape "
                         f"{_shape_text(ids.shape)}.")
    if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
        raise ValueError("For 'SegmentOp', segment_ids must be a tensor with element values "
                         "sorted in ascending order.")
    n = int(ids[-1]) + 1 if ids.size else 0
    count = np.bincount(ids, minlength=n).reshape((n,) + (1,) * (x.ndim - 1))
    if mode in ("sum", "mean"):
        out = apply(UNSORTED_SEGMENT_SUM, (x,), {"segment_ids": ids, "num_segments": n})
        if mode == "mean":
            out = out / make_tensor(np.maximum(count, 1).astype(x._data.dtype), None, 0, x.dtype)
        return out
    out = _unsorted(name, mode, x, make_tensor(ids), n)
    if mode == "prod":
        return out
    empty = make_tensor(np.broadcast_to(count == 0, out.shape).copy())
    return F.masked_fill(out, empty, 0)


def _segment_prim(name, mode):
    def __call__(self, input_x, segment_ids):
        return _sorted_segment(self.name, mode, input_x, segment_ids)

    return type(name, (Primitive,), {
        "__call__": __call__, "__module__": __name__,
        "__doc__": f"Mirrors `mindspore.ops.{name}()(input_x, segment_ids)`: the {mode} of each "
                   f"run of sorted `segment_ids` (empty segments hold {int(mode == 'prod')})."})


SegmentSum = _segment_prim("SegmentSum", "sum")
SegmentMean = _segment_prim("SegmentMean", "mean")
SegmentMax = _segment_prim("SegmentMax", "max")
SegmentMin = _segment_prim("SegmentMin", "min")
SegmentProd = _segment_prim("SegmentProd", "prod")

def sparse_segment_mean(x, indices, segment_ids):
    """Mirrors `mindspore.ops.sparse_segment_mean`: the mean of the rows `x[indices]` of each
    sorted segment (empty segments are 0); differentiable in `x`."""
    C.tensor("SparseSegmentMean", "x", x)
    idx = _index_tensor("SparseSegmentMean", indices).reshape(-1)
    ids = _index_tensor("SparseSegmentMean", segment_ids).reshape(-1)
    if idx.shape != ids.shape:
        raise ValueError(f"For 'SparseSegmentMean', 'indices' and 'segment_ids' must have one "
                         f"shape, but got {_shape_text(idx.shape)} and {_shape_text(ids.shape)}.")
    if idx.size and (idx.min() < 0 or idx.max() >= x.shape[0]):
        raise ValueError(f"For 'SparseSegmentMean', 'indices' must be in [0, {x.shape[0]}).")
    from cellgrad.ops import functional as F

    rows = F.gather(x, make_tensor(idx), 0)
    return _sorted_segment("SparseSegmentMean", "mean", rows, make_tensor(ids))


__all__ = [
    "sparse_segment_mean", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin",
    "ScatterUpdate",
    "ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv", "ScatterNdMax",
    "ScatterNdMin", "ScatterNonAliasingAdd", "ScatterAddWithAxis", "scatter_add", "scatter_mul",
    "scatter_div", "scatter_max", "scatter_min", "scatter_update", "scatter_nd_add",
    "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
    "scatter_nd_update", "scatter_nd", "tensor_scatter_add", "tensor_scatter_sub",
    "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
    "tensor_scatter_update", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMul",
    "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin", "TensorScatterUpdate",
    "TensorScatterElements", "unsorted_segment_max", "unsorted_segment_min",
    "unsorted_segment_prod", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd",
    "SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd",
]
