"""The public functional ops, with MindSpore's names and signatures (`mindspore.ops.*`)."""

import builtins

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad._errors import IndexRangeError
from cellgrad.dtype import float32, int64, to_dtype
from cellgrad.ops import _elementwise as _ew
from cellgrad.ops import _index, _linalg, _reduce, _scan, _select, _shape, _sort
from cellgrad.ops._registry import Op, apply, define, pass_gradient
from cellgrad.ops.creation import (  # noqa: F401  (re-exported: cellgrad.ops is built from here)
    CAST,
    arange,
    assign,
    cast,
    eye,
    fill,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    zeros,
    zeros_like,
)

add = _ew.binary("add")
sub = _ew.binary("sub")
mul = _ew.binary("mul")
_true_div = _ew.binary("div")
floor_div = _ew.binary("floor_div", ("x", "y"))
maximum = _ew.binary("maximum")
minimum = _ew.binary("minimum")
gt = greater = _ew.binary("gt")
ge = greater_equal = _ew.binary("ge")
lt = less = _ew.binary("lt")
le = less_equal = _ew.binary("le")
eq = equal = _ew.binary("eq")
ne = not_equal = _ew.binary("ne")
logical_and = _ew.binary("logical_and")
logical_or = _ew.binary("logical_or")
logical_xor = _ew.binary("logical_xor")
logical_not = _ew.unary("logical_not")
neg = negative = _ew.unary("neg")
abs = absolute = _ew.unary("abs")
exp = _ew.unary("exp")
log = _ew.unary("log")
sqrt = _ew.unary("sqrt", "x")
rsqrt = _ew.unary("rsqrt")
sin = _ew.unary("sin")
cos = _ew.unary("cos")
tanh = _ew.unary("tanh")
sigmoid = _ew.unary("sigmoid")
square = _ew.unary("square")
sign = _ew.unary("sign")
floor = _ew.unary("floor")
ceil = _ew.unary("ceil")
trunc = _ew.unary("trunc")
_round = _ew.unary("round")


def round(input, *, decimals=0):
    """Mirrors `mindspore.ops.round`: to the nearest integer, or `decimals` places (halves to
    even, as numpy and MindSpore)."""
    if decimals == 0:
        return _round(input)
    scale = 10.0 ** decimals
    return _round(input * scale) / scale
isnan = _ew.unary("isnan")
isinf = _ew.unary("isinf")
isfinite = _ew.unary("isfinite")
reciprocal = _ew.unary("reciprocal")
log1p = _ew.unary("log1p")
expm1 = _ew.unary("expm1")
log2 = _ew.unary("log2")
log10 = _ew.unary("log10")
exp2 = _ew.unary("exp2")
sinh = _ew.unary("sinh")
cosh = _ew.unary("cosh")
asin = _ew.unary("asin")
arcsin = _ew.unary("asin", "x")
acos = arccos = _ew.unary("acos")
atan = arctan = _ew.unary("atan")
atan2 = arctan2 = _ew.binary("atan2")
remainder = _ew.binary("mod")
floor_divide = _ew.binary("floor_div")


def div(input, other, *, rounding_mode=None):
    """Mirrors `mindspore.ops.div`: true division, or rounded with 'floor' / 'trunc'."""
    if rounding_mode is None:
        return _true_div(input, other)
    if rounding_mode == "floor":
        return floor_div(input, other)
    if rounding_mode == "trunc":
        q = _true_div(input, other)
        return cast(apply(_ew.OPS["trunc"], (q,)), _div_result_dtype(input, other))
    raise ValueError(f"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', got "
                     f"{rounding_mode!r}.")


divide = div


def _div_result_dtype(input, other):
    """The dtype MindSpore's rounded division keeps: the arithmetic promotion of the inputs."""
    from cellgrad._core._buffer import promote_types

    ts = [t for t in (input, other) if isinstance(t, TensorBuffer)]
    d = ts[0].dtype if len(ts) == 1 else promote_types(ts[0].dtype, ts[1].dtype)
    scalar = other if isinstance(input, TensorBuffer) else input
    if isinstance(scalar, float) and d.kind != 2:
        return float32
    return d


def pow(input, exponent):
    """Mirrors `mindspore.ops.pow`."""
    return apply(_ew.OPS["pow"], (input, exponent))


def clamp(input, min=None, max=None):
    """Mirrors `mindspore.ops.clamp`: clip `input` to [min, max] (either may be None)."""
    return apply(_ew.CLAMP, (input, min, max))


clip = clamp


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """Mirrors `mindspore.ops.clip_by_value`: `minimum(maximum(x, min), max)` with the bounds
    cast to `x`'s dtype, so a value on a bound shares its gradient with the bound (unlike
    `clamp`); a list or tuple of Tensors gives a tuple, as MindSpore's."""
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("For 'clip_by_value', at least one of 'clip_value_min' or "
                         "'clip_value_max' must not be None")
    for arg, value in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
        if not isinstance(value, (type(None), TensorBuffer, float, int)):
            raise TypeError(f"For 'clip_by_value', the type of argument '{arg}' must be one of "
                            f"None, Tensor, float, int, but got {type(value).__name__}.")
    if isinstance(x, (tuple, list)):
        return tuple(clip_by_value(t, clip_value_min, clip_value_max) for t in x)
    if not isinstance(x, TensorBuffer):
        raise TypeError("For 'clip_by_value', the type of argument 'x' must be Tensor or "
                        f"tuple[Tensor] or list[Tensor], but got {type(x).__name__}.")
    out = x
    if clip_value_min is not None:
        out = maximum(out, cast(clip_value_min, x.dtype))
    if clip_value_max is not None:
        out = minimum(out, cast(clip_value_max, x.dtype))
    return out


def matmul(input, other):
    """Mirrors `mindspore.ops.matmul` (batched, numpy broadcasting rules)."""
    _need_tensor("matmul", input, other)
    return apply(_linalg.MATMUL, (input, other))


def mm(input, mat2):
    """Mirrors `mindspore.ops.mm`: a 2-D matrix product."""
    _need_rank("mm", 2, input, mat2)
    return matmul(input, mat2)


def bmm(input_x, mat2):
    """Mirrors `mindspore.ops.bmm`: a batched (3-D or more) matrix product."""
    _need_tensor("bmm", input_x, mat2)
    if input_x.ndim < 3 or mat2.ndim < 3:
        raise ValueError(f"For 'bmm', inputs must be at least 3-D, got shapes {input_x.shape} "
                         f"and {mat2.shape}.")
    return matmul(input_x, mat2)


def _need_rank(op, rank, *xs):
    _need_tensor(op, *xs)
    for x in xs:
        if x.ndim != rank:
            raise ValueError(f"For '{op}', inputs must be {rank}-D, got shapes "
                             f"{[t.shape for t in xs]}.")


def _need_tensor(op, *xs):
    for x in xs:
        if not isinstance(x, TensorBuffer):
            raise TypeError(f"For '{op}', inputs must be Tensors, got {type(x).__name__}.")


# ---- reductions ----
def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.ops.sum` (integer and bool inputs sum to Int64)."""
    extra = {} if dtype is None else {"dtype": to_dtype(dtype).np_dtype}
    return _reduce.reduce(_reduce.SUM, input, dim, keepdim, **extra)


def mean(x, axis=None, keep_dims=False):
    """Mirrors `mindspore.ops.mean` (integer inputs keep their dtype, truncating)."""
    return _reduce.reduce(_reduce.MEAN, x, axis, keep_dims)


def prod(input, axis=None, keep_dims=False, dtype=None):
    """Mirrors `mindspore.ops.prod` (`dtype` casts the input first and is the result's dtype:
    small integers are not widened to int64 then)."""
    if dtype is None:
        return _reduce.reduce(_reduce.PROD, input, axis, keep_dims)
    out = _reduce.reduce(_reduce.PROD, cast(input, dtype), axis, keep_dims)
    return out if out.dtype == dtype else cast(out, dtype)


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Mirrors `mindspore.ops.amax` (`initial` and `where` as numpy's max)."""
    return _masked_extreme(_reduce.AMAX, "amax", input, axis, keepdims, initial, where)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Mirrors `mindspore.ops.amin` (`initial` and `where` as numpy's min)."""
    return _masked_extreme(_reduce.AMIN, "amin", input, axis, keepdims, initial, where)


def _masked_extreme(op, name, input, axis, keepdims, initial, where):
    return _reduce.reduce(op, _init_and_select(name, input, initial, where), axis, keepdims)


def _init_and_select(name, input, initial, where):
    """`input` with `initial` folded in elementwise (`maximum`/`minimum`, so a tie with it
    shares the gradient) and `initial` where `where` is False, as MindSpore's
    `_init_and_select_elem`; `initial` takes the input's dtype."""
    if where is not None and where is not True and initial is None:
        raise ValueError(f"For '{name}', 'where' needs 'initial' (the value of empty slices).")
    if initial is None:
        return input
    init = make_tensor(np.full(input.shape, initial, input._data.dtype), None, 0, input.dtype)
    input = (maximum if name in ("amax", "max") else minimum)(input, init)
    if where is not None and where is not True:
        mask = where._data if isinstance(where, TensorBuffer) else np.asarray(where, bool)
        mask = make_tensor(np.broadcast_to(mask.astype(bool), input.shape).copy())
        input = select(mask, input, init)
    return input


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Mirrors `mindspore.ops.max`: `(values, Int64 indices)`. Along an axis the gradient
    goes to the first maximum, as MindSpore's ArgMaxWithValue; with `axis=None` MindSpore 2.10
    returns a 0-d ReduceMax (ties share the gradient; `keepdims`, `initial` and `where` unused)
    and index 0 whatever the data; so do we."""
    return _extreme_and_index("max", input, axis, keepdims, initial, where)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """Mirrors `mindspore.ops.min`: `(values, Int64 indices)`, as `max`."""
    return _extreme_and_index("min", input, axis, keepdims, initial, where)


def _extreme_and_index(name, input, axis, keepdims, initial, where):
    zero = make_tensor(np.zeros((), np.int64), None, 0, int64)
    if input.ndim == 0:
        return input, zero
    if axis is None:
        return (amax if name == "max" else amin)(input), zero
    if initial is not None and not isinstance(initial, (int, float, np.number)):
        raise TypeError(f"For '{name}', 'initial' must be a scalar, but got {type(initial)}")
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{name}', 'axis' must be int, but got {type(axis)}")
    (axis,) = _reduce._axes(axis, input.ndim, name)
    if input.shape[axis] == 0:
        raise ValueError(f"For '{name}', the input is empty along axis {axis} (shape "
                         f"{input.shape}).")
    input = _init_and_select(name, input, initial, where)
    pick = np.argmax if name == "max" else np.argmin
    idx = np.expand_dims(pick(input._data, axis=axis), axis)
    values = apply(_sort.TAKE_ALONG_AXIS, (input,), {"idx": idx, "axis": axis})
    if not keepdims:
        values, idx = squeeze(values, axis), np.squeeze(idx, axis)
    return values, make_tensor(idx.astype(np.int64), None, 0, int64)


def argmax(input, dim=None, keepdim=False):
    """Mirrors `mindspore.ops.argmax` (Int64 indices)."""
    return _reduce.reduce(_reduce.ARGMAX, input, dim, keepdim)


def argmin(input, axis=None, keepdims=False):
    """Mirrors `mindspore.ops.argmin` (Int32 indices, unlike argmax's Int64, as MindSpore)."""
    return _reduce.reduce(_reduce.ARGMIN, input, axis, keepdims, dtype=np.int32)


def any(input, axis=None, keep_dims=False):
    return _reduce.reduce(_reduce.ANY, input, axis, keep_dims)


def all(input, axis=None, keep_dims=False):
    return _reduce.reduce(_reduce.ALL, input, axis, keep_dims)


# ---- shape ----
def _tensor_input(prim, x, call, valid):
    """MindSpore's TypeError for a non-Tensor input of a Tensor-only primitive."""
    if not isinstance(x, TensorBuffer):
        raise TypeError(f'Failed calling {prim} with "{prim}()({call.format(type(x).__name__)})". '
                        f'The valid calling should be: "{prim}()({valid})".')


def reshape(input, shape):
    """Mirrors `mindspore.ops.reshape` (one -1 allowed)."""
    _tensor_input("Reshape", input, "input={}, shape=" + type(shape).__name__,
                  "input=<Tensor>, shape=<list of int, Tensor, tuple of int>")
    return apply(_shape.RESHAPE, (input,), {"shape": tuple(shape)})


def transpose(input, dims):
    """Mirrors `mindspore.ops.transpose`."""
    return apply(_shape.TRANSPOSE, (input,), {"perm": tuple(dims)})


def permute(input, axis):
    """Mirrors `mindspore.ops.permute`."""
    return apply(_shape.TRANSPOSE, (input,), {"perm": tuple(axis)})


def swapaxes(input, axis0, axis1):
    perm = list(builtins.range(input.ndim))
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return transpose(input, perm)


def expand_dims(input_x, axis):
    """Mirrors `mindspore.ops.expand_dims`."""
    _tensor_input("ExpandDims", input_x, "input_x={}, axis=" + type(axis).__name__,
                  "input_x=<Tensor>, axis=<Tensor, int>")
    return apply(_shape.EXPAND_DIMS, (input_x,), {"axis": int(axis)})


def unsqueeze(input, dim):
    """Mirrors `mindspore.ops.unsqueeze`."""
    return expand_dims(input, dim)


def squeeze(input, axis=None):
    """Mirrors `mindspore.ops.squeeze` (None or an empty tuple removes every size-1 axis)."""
    if isinstance(axis, (tuple, list)) and not axis:
        axis = None
    return apply(_shape.SQUEEZE, (input,), {"axis": axis})


def broadcast_to(input, shape):
    """Mirrors `mindspore.ops.broadcast_to` (-1 keeps a dimension)."""
    return apply(_shape.BROADCAST_TO, (input,), {"shape": tuple(shape)})


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Mirrors `mindspore.ops.flatten`: keeps dimension 0 by default."""
    shape = input.shape
    if not shape:
        return reshape(input, (1,))
    start, end = start_dim % len(shape), end_dim % len(shape)
    if start > end:
        raise ValueError(f"For 'flatten', start_dim {start_dim} must not come after end_dim "
                         f"{end_dim} for shape {shape}.")
    return reshape(input, shape[:start] + (-1,) + shape[end + 1:])


def concat(tensors, axis=0):
    """Mirrors `mindspore.ops.concat`."""
    tensors = _tensor_sequence("concat", tensors, same_dtype=False)
    return apply(_shape.CONCAT, tensors, {"axis": axis, "same_dtype": True})


cat = concat


def stack(tensors, axis=0):
    """Mirrors `mindspore.ops.stack`."""
    return apply(_shape.STACK, _tensor_sequence("stack", tensors), {"axis": axis})


def _tensor_sequence(op, tensors, same_dtype=True):
    """The inputs of concat/stack as a tuple: non-empty, all Tensors (of one dtype)."""
    tensors = tuple(tensors)
    if not tensors:
        raise ValueError(f"For '{op}', the input sequence is empty.")
    _need_tensor(op, *tensors)
    if same_dtype and len({t.dtype for t in tensors}) > 1:
        raise TypeError(f"For '{op}', all tensors must have the same dtype, got "
                        f"{[str(t.dtype) for t in tensors]}.")
    return tensors


def split(tensor, split_size_or_sections, axis=0):
    """Mirrors `mindspore.ops.split`: a tuple of chunks."""
    return apply(_shape.SPLIT, (tensor,), {"split_size_or_sections": split_size_or_sections,
                                           "axis": axis})


def tile(input, dims):
    """Mirrors `mindspore.ops.tile(input, dims)`: the shorter of `dims` and the shape is
    padded with leading 1s."""
    dims = tuple(dims) if isinstance(dims, list) else dims
    return apply(_shape.TILE, (input,), {"multiples": dims})


# ---- selection ----
def gather(input_params, input_indices, axis, batch_dims=0):
    """Mirrors `mindspore.ops.gather`: slices of `input_params` along `axis`; the first
    `batch_dims` axes of params and indices are batch axes gathered pairwise."""
    idx = input_indices._data if isinstance(input_indices, TensorBuffer) else input_indices
    idx = np.asarray(idx)
    if batch_dims:
        return _gather_batched(input_params, idx, axis, batch_dims)
    return apply(_index.GATHER, (input_params,), {"indices": idx, "axis": axis})


def _gather_batched(params, idx, axis, batch_dims):
    """Gather with batch axes as one plain gather: the batch and `axis` merged into one axis,
    each batch's indices offset into its block."""
    _need_tensor("gather", params)
    b = batch_dims + idx.ndim if batch_dims < 0 else batch_dims
    ax = axis + params.ndim if axis < 0 else axis
    if not 0 <= b <= idx.ndim or not b <= ax < params.ndim:
        raise ValueError(f"For 'gather', batch_dims must be in [0, {idx.ndim}] and no greater "
                         f"than axis, got batch_dims={batch_dims}, axis={axis} for params of "
                         f"rank {params.ndim} and indices of rank {idx.ndim}.")
    if params.shape[:b] != idx.shape[:b]:
        raise ValueError(f"For 'gather', the first {b} dims of params {params.shape} and "
                         f"indices {idx.shape} must be equal (batch_dims={batch_dims}).")
    batch, pre = params.shape[:b], params.shape[b:ax]
    size, post, ishape = params.shape[ax], params.shape[ax + 1:], idx.shape[b:]
    nb = int(np.prod(batch, dtype=np.int64))
    x = reshape(params, (nb, *pre, size, *post))
    x = transpose(x, (0, len(pre) + 1, *builtins.range(1, len(pre) + 1),
                      *builtins.range(len(pre) + 2, x.ndim)))
    x = reshape(x, (nb * size, *pre, *post))
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, "
                           f"{size}), but got {bad.flat[0]}.")
    flat = idx.reshape(nb, *ishape).astype(np.int64)
    flat = flat + (np.arange(nb) * size).reshape(nb, *(1,) * len(ishape))
    out = apply(_index.GATHER, (x,), {"indices": flat, "axis": 0})
    ni, npre = len(ishape), len(pre)
    out = transpose(out, (0, *builtins.range(ni + 1, ni + 1 + npre), *builtins.range(1, ni + 1),
                          *builtins.range(ni + 1 + npre, out.ndim)))
    return reshape(out, (*batch, *pre, *ishape, *post))


def where(condition, input, other):
    """Mirrors `mindspore.ops.where`: `input` where `condition`, else `other` (broadcast);
    `input` and `other` promote like arithmetic, and one of them must be a Tensor."""
    if not isinstance(condition, TensorBuffer):
        raise TypeError(f"For 'where', 'condition' must be a bool Tensor, got "
                        f"{type(condition).__name__}.")
    if not isinstance(input, TensorBuffer) and not isinstance(other, TensorBuffer):
        raise TypeError(f"For 'where', 'input' and 'other' cannot both be scalars, got "
                        f"{type(input).__name__} and {type(other).__name__}.")
    input, other = _promote_pair(input, other)
    return apply(_select.WHERE, (condition, input, other))


def select(condition, input, other):
    """Mirrors `mindspore.ops.select(condition, input, other)`: the same as `where`."""
    return where(condition, input, other)


_SCALAR_KIND = {bool: 0, int: 1, float: 2}


def _promote_pair(x, y):
    """Cast two operands (at least one a Tensor) to their MindSpore arithmetic dtype."""
    from cellgrad._core._buffer import promote_types
    from cellgrad.dtype import bool_

    if isinstance(x, TensorBuffer) and isinstance(y, TensorBuffer):
        d = promote_types(x.dtype, y.dtype)
        return cast(x, d), cast(y, d)
    tensor_first = isinstance(x, TensorBuffer)
    t, s = (x, y) if tensor_first else (y, x)
    kind = _SCALAR_KIND.get(type(s))
    if kind is None:
        if not isinstance(s, (np.bool_, np.integer, np.floating)):
            raise TypeError(f"For 'where', 'input' and 'other' must be Tensors or Python "
                            f"scalars, got {type(s).__name__}.")
        kind = 0 if isinstance(s, np.bool_) else 1 if isinstance(s, np.integer) else 2
    # a scalar never widens the tensor's kind; a higher kind takes its default dtype
    d = t.dtype if kind <= t.dtype.kind else (int64 if kind == 1 else float32)
    d = bool_ if kind == 0 and t.dtype.kind == 0 else d
    t = cast(t, d)
    s = make_tensor(np.asarray(s, dtype=d.np_dtype), None, 0, d)
    return (t, s) if tensor_first else (s, t)


def masked_select(input, mask):
    """Mirrors `mindspore.ops.masked_select`: a 1-D tensor of the selected values."""
    return apply(_select.MASKED_SELECT, (input, mask))


def masked_fill(input_x, mask, value):
    """Mirrors `mindspore.ops.masked_fill`."""
    return apply(_select.MASKED_FILL, (input_x, mask, value))


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Mirrors `mindspore.ops.unsorted_segment_sum` (out-of-range ids are dropped)."""
    ids = segment_ids._data if isinstance(segment_ids, TensorBuffer) else segment_ids
    n = num_segments.item() if isinstance(num_segments, TensorBuffer) else num_segments
    return apply(_index.UNSORTED_SEGMENT_SUM, (input_x,),
                 {"segment_ids": np.asarray(ids), "num_segments": n})


def gather_elements(input, dim, index):
    """Mirrors `mindspore.ops.gather_elements`: `out[i][j] = input[i][index[i][j]]` for
    dim=1; `index` has the input's rank and may be shorter on the other axes."""
    _need_tensor("gather_elements", input)
    idx = np.asarray(index._data if isinstance(index, TensorBuffer) else index)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"For 'gather_elements', 'index' must be an integer Tensor, got dtype "
                        f"{idx.dtype}.")
    shape = input.shape
    if idx.ndim != len(shape):
        raise ValueError(f"For 'gather_elements', 'index' of shape {idx.shape} must have the "
                         f"rank of 'input' of shape {shape}.")
    rank = builtins.max(len(shape), 1)
    if not -rank <= dim < rank:
        raise ValueError(f"For 'gather_elements', 'dim' {dim} is out of range for shape {shape}.")
    dim %= rank
    if builtins.any(i > s for a, (i, s) in enumerate(zip(idx.shape, shape)) if a != dim):
        raise ValueError(f"For 'gather_elements', 'index' of shape {idx.shape} is larger than "
                         f"'input' of shape {shape} outside dimension {dim}.")
    n = shape[dim]
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexRangeError(f"For 'gather_elements', index values must be in [{-n}, {n}), "
                              f"got values in [{idx.min()}, {idx.max()}].")
    if idx.shape != shape:
        input = input[tuple(slice(None) if a == dim else slice(0, i)
                            for a, i in enumerate(idx.shape))]
    return apply(_sort.TAKE_ALONG_AXIS, (input,), {"idx": np.where(idx < 0, idx + n, idx),
                                                   "axis": dim})


def index_select(input, axis, index):
    """Mirrors `mindspore.ops.index_select`."""
    return gather(input, index, axis)


# ---- sorting ----
def sort(input_x, axis=-1, descending=False):
    """Mirrors `mindspore.ops.sort`: `(values, indices)`; the indices are Int32, as MindSpore
    2.10 prints them (tests/core/ms_programs/ops_values.out)."""
    return apply(_sort.SORT, (input_x,), {"axis": axis, "descending": descending,
                                          "index_dtype": np.int32})


def topk(input, k, dim=None, largest=True, sorted=True):
    """Mirrors `mindspore.ops.topk`: `(values, indices)` along `dim` (default last), with Int32
    indices as MindSpore's TopK kernel returns them."""
    return apply(_sort.TOPK, (input,), {"k": int(k), "axis": -1 if dim is None else dim,
                                        "largest": largest, "index_dtype": np.int32})


def argsort(input, axis=-1, descending=False):
    """Mirrors `mindspore.ops.argsort`: the Int32 indices that sort `input`."""
    return sort(input, axis, descending)[1]


def tril(input, diagonal=0):
    """Mirrors `mindspore.ops.tril`: zeros above the `diagonal`-th diagonal."""
    return _band(input, diagonal, np.tril, "tril")


def triu(input, diagonal=0):
    """Mirrors `mindspore.ops.triu`: zeros below the `diagonal`-th diagonal."""
    return _band(input, diagonal, np.triu, "triu")


def _band(input, diagonal, fn, op):
    _need_tensor(op, input)
    if input.ndim < 2:
        raise ValueError(f"For '{op}', the input must be at least 2-D, got shape {input.shape}.")
    keep = fn(np.ones(input.shape[-2:], np.bool_), diagonal)
    return masked_fill(input, make_tensor(~keep), 0)


def chunk(input, chunks, axis=0):
    """Mirrors `mindspore.ops.chunk`: `chunks` pieces of (nearly) equal size."""
    dim = input.shape[axis]
    size = -(-dim // chunks) if chunks > 0 else 0
    if size <= 0:
        raise ValueError(f"For 'chunk', 'chunks' must be positive, got {chunks}.")
    return split(input, size, axis)


def unbind(input, dim=0):
    """Mirrors `mindspore.ops.unbind`: the slices along `dim`, that axis removed."""
    return tuple(squeeze(p, dim) for p in split(input, 1, dim))


def shape(input_x):
    """Mirrors `mindspore.ops.shape`: the shape as a tuple."""
    return tuple(input_x.shape)


def rank(input_x):
    """Mirrors `mindspore.ops.rank`: the number of dimensions."""
    return input_x.ndim


def size(input_x):
    """Mirrors `mindspore.ops.size`: the number of elements."""
    return input_x.size


def dtype(x):
    """Mirrors `mindspore.ops.dtype`: the tensor's dtype."""
    return x.dtype


def _identity_fwd(x):
    return x, None


IDENTITY = define("identity", _identity_fwd, pass_gradient)


def stop_gradient(value):
    """Mirrors `mindspore.ops.stop_gradient`: tuples, lists and dicts are stopped elementwise."""
    if isinstance(value, TensorBuffer):
        return make_tensor(value._data, None, 0, value._dtype)
    if isinstance(value, tuple):
        return tuple(stop_gradient(v) for v in value)
    if isinstance(value, list):
        return [stop_gradient(v) for v in value]
    if isinstance(value, dict):
        return {k: stop_gradient(v) for k, v in value.items()}
    return value


def depend(value, expr):
    """Mirrors `mindspore.ops.depend`: returns `value` (eager execution orders everything)."""
    return value


def print_(*input_x):
    """Mirrors `mindspore.ops.print_`: prints as `ops.Print()` does and returns None."""
    from cellgrad.ops._prim_other import Print

    return Print()(*input_x)


_CUMSUM_TYPES = ("{Tensor[BFloat16], Tensor[Complex128], Tensor[Complex64], Tensor[Float16], "
                 "Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64], "
                 "Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}")


def cumsum(x, axis, dtype=None):
    """Mirrors `mindspore.ops.cumsum`: `x` is cast to `dtype` first, then summed (so a bool
    mask counts with `dtype=float32`, and a float cast to int sums the truncated values)."""
    from cellgrad.ops import _prim_checks

    if dtype is not None and x.dtype != dtype:
        x = cast(x, dtype)
    _prim_checks.dtype_in("CumSum", "x", x, "iufcV", _CUMSUM_TYPES)
    return apply(_scan.CUMSUM, (x,), {"axis": int(axis)})


def flip(input, dims):
    """Mirrors `mindspore.ops.flip`."""
    return apply(_scan.FLIP, (input,), {"axis": tuple(dims)})


def var(input, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.ops.var` (population variance by default)."""
    m = mean(input, axis, True)
    d = input - m
    n = input.size if axis is None else _count(input.shape, axis)
    return sum(d * d, axis, keepdims) / (n - ddof)


def std(input, axis=None, ddof=0, keepdims=False):
    """Mirrors `mindspore.ops.std`."""
    return sqrt(var(input, axis, ddof, keepdims))


def _count(shape, axis):
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = 1
    for a in axes:
        n *= shape[a]
    return n


# functions built on the ones above; imported last because they use this module
from cellgrad.ops._fn_array import (  # noqa: E402,F401
    count_nonzero,
    cummin,
    diag,
    gather_nd,
    meshgrid,
    nonzero,
    range,
    repeat_elements,
    roll,
    sequence_mask,
    tensor_scatter_elements,
    top_k,
    unstack,
)
from cellgrad.ops._fn_einsum import einsum  # noqa: E402,F401
from cellgrad.ops._fn_linalg_norms import norm  # noqa: E402,F401  (the norm family)
from cellgrad.ops._fn_math import (  # noqa: E402,F401
    addn,
    assign_add,
    isclose,
    logsumexp,
    multiply,
    pows,
    reduce_mean,
    reduce_sum,
    tensor_mul,
)
from cellgrad.ops._fn_products import batch_dot, dot, outer, tensor_dot, vecdot  # noqa: E402,F401
from cellgrad.ops._fn_random import gamma, laplace, poisson  # noqa: E402,F401
from cellgrad.ops._fn_sequence import (  # noqa: E402,F401
    identity,
    is_tensor,
    make_range,
    mixed_precision_cast,
    partial,
    scalar_to_tensor,
    tuple_len,
    tuple_to_array,
)

# last, so every function above is exported
__all__ = [n for n, v in list(globals().items())
           if not n.startswith("_") and callable(v) and not isinstance(v, (Op, type))
           and n not in {"builtins", "np", "apply", "define", "make_tensor", "to_dtype",
                         "pass_gradient"}]

# PEP 562: MindSpore's ops.functional holds every functional op, plugins' included; names not
# defined here are cellgrad.ops' (cellgrad._paths.WHOLE_OPS).
from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
