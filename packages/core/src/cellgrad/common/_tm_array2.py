"""Tensor methods of array manipulation, scatter, search and random fills (an area of
`_tensor_methods.AREAS`): the `cellgrad.ops` function with the tensor first, in-place `*_`
spellings and the methods MindSpore gives other meanings (`scatter_sub` is
`tensor_scatter_sub`; `scatter_add` takes either form)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _fn_manip as M
from cellgrad.ops import _fn_random2 as R
from cellgrad.ops import _fn_scatter as S
from cellgrad.ops import _prim_array2 as P2
from cellgrad.ops import functional as F


def _inplace(self, out):
    from cellgrad.common._tensor_methods import _inplace as write

    return write(self, out)


THIN = {
    "scatter_sub": (S.tensor_scatter_sub, "indices, updates"),
    "scatter_mul": (S.tensor_scatter_mul, "indices, updates"),
    "scatter_div": (S.tensor_scatter_div, "indices, updates"),
    "scatter_max": (S.tensor_scatter_max, "indices, updates"),
    "scatter_min": (S.tensor_scatter_min, "indices, updates"),
    "unsorted_segment_max": S.unsorted_segment_max,
    "unsorted_segment_min": S.unsorted_segment_min,
    "unsorted_segment_prod": S.unsorted_segment_prod,
    "index_fill": (M.index_fill, "axis, index, value"),
    "select_scatter": M.select_scatter, "slice_scatter": M.slice_scatter,
    "diagonal_scatter": M.diagonal_scatter, "narrow": M.narrow, "diagflat": M.diagflat,
    "fliplr": M.fliplr, "flipud": M.flipud, "rot90": M.rot90, "moveaxis": M.moveaxis,
    "movedim": M.movedim, "hsplit": M.hsplit, "vsplit": M.vsplit,
    "dsplit": M.dsplit, "view_as": M.view_as, "argwhere": M.argwhere, "msort": M.msort,
    "unique_consecutive": M.unique_consecutive, "unique_with_pad": M.unique_with_pad,
    "reverse_sequence": (M.reverse_sequence, "seq_lengths, seq_dim=0, batch_dim=0"),
    "masked_scatter": (P2.masked_scatter, "mask, source"),
    "put_": M.put_, "random_categorical": R.random_categorical,
    "random_": R.random_, "uniform_": R.uniform_, "exponential_": R.exponential_,
    "bernoulli_": R.bernoulli_,
}


def scatter_add(self, *args, **kwargs):
    """Mirrors `mindspore.Tensor.scatter_add`: `(dim, index, src)` adds along `dim`
    (`Tensor.scatter(..., reduce='add')`); `(indices, updates)` is `ops.tensor_scatter_add`."""
    if len(args) + len(kwargs) == 3:
        dim, index, src = _pick(args, kwargs, ("dim", "index", "src"))
        return self.scatter(dim, index, src, reduce="add")
    indices, updates = _pick(args, kwargs, ("indices", "updates"))
    return S.tensor_scatter_add(self, indices, updates)


def _pick(args, kwargs, names):
    values = list(args) + [kwargs.pop(n) for n in names[len(args):] if n in kwargs]
    if kwargs or len(values) != len(names):
        raise TypeError(f"Tensor.scatter_add() takes ({', '.join(names)}), but got "
                        f"{len(args)} positional and {sorted(kwargs)} keyword arguments.")
    return values


def scatter_add_(self, dim, index, src):
    """Mirrors `mindspore.Tensor.scatter_add_`: adds `src` along `dim` in place."""
    return _inplace(self, self.scatter(dim, index, src, reduce="add"))


def index_fill_(self, dim, index, value):
    """Mirrors `mindspore.Tensor.index_fill_`: `index_fill` in place."""
    return _inplace(self, M.index_fill(self, dim, index, value))


def index_put(self, indices, values, accumulate=False):
    """Mirrors `mindspore.Tensor.index_put`: `values` written (or added) at the tuple of index
    Tensors `indices`."""
    return P2._index_put(self, values, indices, bool(accumulate))


def index_put_(self, indices, values, accumulate=False):
    """Mirrors `mindspore.Tensor.index_put_`: `index_put` in place."""
    return _inplace(self, index_put(self, indices, values, accumulate))


def index_add_(self, dim, index, source, *, alpha=1):
    """Mirrors `mindspore.Tensor.index_add_`: `source * alpha` added at `index` of `dim`, in
    place."""
    return _inplace(self, self.index_add(dim, index, source, alpha=alpha))


def index_copy_(self, dim, index, tensor):
    """Mirrors `mindspore.Tensor.index_copy_`: the slices `index` of `dim` replaced by
    `tensor`'s, in place."""
    idx = index._data if isinstance(index, TensorBuffer) else np.asarray(index)
    axis = M._axis("index_copy_", dim, self.ndim)
    return _inplace(self, M._write("index_copy_", self, tensor,
                                   (slice(None),) * axis + (idx.astype(np.int64),)))


def masked_scatter_(self, mask, source):
    """Mirrors `mindspore.Tensor.masked_scatter_`: `masked_scatter` in place."""
    return _inplace(self, P2.masked_scatter(self, mask, source))


def fill_diagonal(self, fill_value, wrap=False):
    """Mirrors `mindspore.Tensor.fill_diagonal` (MindSpore 2.10's method raises an internal
    error; this returns the documented result)."""
    return P2.fill_diagonal(self, fill_value, wrap)


def fill_diagonal_(self, fill_value, wrap=False):
    """Mirrors `mindspore.Tensor.fill_diagonal_`: the main diagonal set in place."""
    return _inplace(self, P2.fill_diagonal(self, fill_value, wrap))


def inplace_update(self, v, indices):
    """Mirrors `mindspore.Tensor.inplace_update`: `ops.inplace_update` (a new Tensor)."""
    return M.inplace_update(self, v, indices)


def sum_to_size(self, *size):
    """Mirrors `mindspore.Tensor.sum_to_size`: summed down to the broadcast-compatible
    `size`."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    lead = self.ndim - len(size)
    if lead < 0:
        raise ValueError(f"For 'sum_to_size', the size {size} has more dimensions than the "
                         f"tensor's shape {tuple(self.shape)}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                     if s == 1 and self.shape[lead + i] != 1)
    for i, s in enumerate(size):
        if s not in (1, self.shape[lead + i]):
            raise ValueError(f"For 'sum_to_size', size {size} is not expandable to the tensor's "
                             f"shape {tuple(self.shape)}.")
    out = F.sum(self, axes, True) if axes else self
    return F.reshape(out, size)


def new_empty(self, size, *, dtype=None, device=None):
    """Mirrors `mindspore.Tensor.new_empty`: an uninitialised (here zero) Tensor of `size`,
    in this tensor's dtype unless `dtype` (`device`: see `Tensor.to`)."""
    from cellgrad.common._tm_overloads import check_device

    check_device("new_empty", device)
    return new_full(self, size, 0, dtype=dtype)


def new_full(self, size, fill_value, *, dtype=None):
    """Mirrors `mindspore.Tensor.new_full` (Ascend-only in MindSpore 2.10): `size` filled with
    `fill_value`, in this tensor's dtype unless `dtype`."""
    from cellgrad.dtype import to_dtype

    dt = self.dtype if dtype is None else to_dtype(dtype)
    size = (size,) if isinstance(size, int) else tuple(size)
    return make_tensor(np.full(size, fill_value, dt.np_dtype), None, 0, dt)


def copy_(self, src, non_blocking=False):
    """Mirrors `mindspore.Tensor.copy_`: `src` broadcast and cast into this tensor, in place."""
    value = src if isinstance(src, TensorBuffer) else make_tensor(np.asarray(src))
    return _inplace(self, F.broadcast_to(F.cast(value, self.dtype), tuple(self.shape)))


def set_(self, source):
    """Mirrors `mindspore.Tensor.set_`: this tensor takes `source`'s shape and values (one
    dtype required)."""
    if not isinstance(source, TensorBuffer):
        raise TypeError(f"For 'Tensor.set_', 'source' must be a Tensor, but got "
                        f"{type(source).__name__}.")
    if source.dtype != self.dtype:
        raise RuntimeError(f"Could not set tensor of type {source.dtype} to a tensor of type "
                           f"{self.dtype}")
    self._data = source._data
    return self


def searchsorted(self, v, side="left", sorter=None):
    """Mirrors `mindspore.Tensor.searchsorted`: Int32 insertion points of `v`."""
    return M.searchsorted(self, v, out_int32=True, side=side, sorter=sorter)


def bernoulli(self, *, generator=None):
    """Mirrors `mindspore.Tensor.bernoulli`: 1 with the probability of each element, in this
    tensor's dtype."""
    prob = self._data.astype(np.float64)
    if not np.all((prob >= 0) & (prob <= 1)):
        raise ValueError("For 'bernoulli', the probabilities must be in [0, 1].")
    draw = R._rng("Bernoulli", generator).random(self.shape) < prob
    return make_tensor(draw.astype(self._data.dtype), None, 0, self.dtype)


def uniform(self, from_=0.0, to=1.0, generator=None):
    """Mirrors `mindspore.Tensor.uniform`: a new Tensor like this one of U[from_, to)."""
    return R.uniform_(make_tensor(np.empty_like(self._data), None, 0, self.dtype), from_, to,
                      generator=generator)


def cauchy(self, median=0.0, sigma=1.0):
    """Mirrors `mindspore.Tensor.cauchy`: Cauchy(median, sigma) samples shaped like this
    tensor (Float32)."""
    return R.Cauchy(list(self.shape) or [1], median, sigma)().reshape(self.shape)


def log_normal(self, mean=1.0, std=2.0):
    """Mirrors `mindspore.Tensor.log_normal`: exp(N(mean, std)) samples like this tensor."""
    return R.LogNormalReverse(mean, std)(self)


def multinomial(self, num_samples, replacement=True, seed=None):
    """Mirrors `mindspore.Tensor.multinomial`: `ops.multinomial`."""
    from cellgrad.ops._random import multinomial as draw

    return draw(self, num_samples, replacement, seed)


def fills(self, value):
    """Mirrors `mindspore.Tensor.fills`: `ops.fills` (no CPU kernel in MindSpore 2.10)."""
    from cellgrad.ops._fn_gather_fill import fills as fill

    return fill(self, value)


def select(self, *args, **kwargs):
    """Mirrors `mindspore.Tensor.select`: `(dim, index)` takes the slice `index` of `dim`;
    `(condition, y)` is `ops.select(condition, self, y)`: this tensor where `condition`, else
    `y` (a Python int `y` needs an Int32 tensor, a float one a Float32 tensor)."""
    names = ("dim", "index") if "dim" in kwargs or "index" in kwargs else ("condition", "y")
    values = list(args) + [kwargs.pop(k) for k in names[len(args):] if k in kwargs]
    if kwargs or len(values) != 2:
        raise TypeError(f"Failed calling select with \"select({_types(args, kwargs)})\". The "
                        "valid calling should be: \"Tensor.select(dim=<int>, index=<int>)\" or "
                        "\"Tensor.select(condition=<Tensor>, y=<number,Tensor>)\".")
    first, second = values
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        axis = M._axis("select", first, self.ndim)
        return self[(slice(None),) * axis + (int(second),)]
    if not isinstance(first, TensorBuffer) or isinstance(second, bool) or not isinstance(
            second, (int, float, TensorBuffer)):
        raise TypeError(f"Failed calling select with \"select({_types(values, {})})\". The "
                        "valid calling should be: \"Tensor.select(dim=<int>, index=<int>)\" or "
                        "\"Tensor.select(condition=<Tensor>, y=<number,Tensor>)\".")
    for kind, dtype in ((int, "Int32"), (float, "Float32")):
        if isinstance(second, kind) and str(self.dtype) != dtype:
            raise TypeError(f"For 'Tensor.select', if the argument 'y' is {kind.__name__}, then "
                            f"the tensor type should be {dtype.lower()} but got {self.dtype}")
    return F.select(first, self, second)


def _types(args, kwargs):
    return ", ".join([type(a).__name__ for a in args]
                     + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])


def itemset(self, *args):
    """Mirrors `mindspore.Tensor.itemset`: a copy with one element set (numpy's `itemset`
    arguments: a value, or an index and a value)."""
    data = self._data.copy()
    if len(args) == 1:
        data.reshape(-1)[0] = args[0]
    elif len(args) == 2:
        index = args[0] if isinstance(args[0], tuple) else np.unravel_index(args[0], data.shape)
        data[index] = args[1]
    else:
        raise TypeError(f"Tensor.itemset() takes 1 or 2 arguments, but got {len(args)}.")
    return make_tensor(data, None, 0, self.dtype)


def choose(self, choices, mode="clip"):
    """Mirrors `mindspore.Tensor.choose`: numpy's `choose` of this index tensor among
    `choices` (out-of-range indices clipped or wrapped)."""
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"For 'Tensor.choose', 'mode' must be 'clip', 'wrap' or 'raise', but "
                         f"got {mode!r}.")
    arrays = [c._data if isinstance(c, TensorBuffer) else np.asarray(c) for c in choices]
    out = np.choose(self._data.astype(np.int64), arrays, mode=mode)
    first = choices[0]
    if isinstance(first, TensorBuffer):
        return make_tensor(out.astype(first._data.dtype), None, 0, first.dtype)
    return make_tensor(out)


def move_to(self, to, blocking=True):
    """Mirrors `mindspore.Tensor.move_to`: `ops.move_to`."""
    from cellgrad.ops._fn_gather_fill import move_to as move

    return move(self, to, blocking)


def _to_dlpack(self):
    """Mirrors `mindspore.Tensor.to_dlpack`: `mindspore.to_dlpack(self)`."""
    from cellgrad.tensor_interop import to_dlpack

    return to_dlpack(self)


METHODS = {
    "fills": fills, "select": select, "itemset": itemset, "choose": choose,
    "move_to": move_to,
    "scatter_add": scatter_add, "scatter_add_": scatter_add_, "index_fill_": index_fill_,
    "index_put": index_put, "index_put_": index_put_, "index_add_": index_add_,
    "index_copy_": index_copy_, "masked_scatter_": masked_scatter_,
    "fill_diagonal": fill_diagonal, "fill_diagonal_": fill_diagonal_,
    "inplace_update": inplace_update, "sum_to_size": sum_to_size, "new_empty": new_empty,
    "new_full": new_full, "copy_": copy_, "set_": set_, "searchsorted": searchsorted,
    "bernoulli": bernoulli, "uniform": uniform, "cauchy": cauchy, "log_normal": log_normal,
    "multinomial": multinomial, "to_dlpack": _to_dlpack,
}
