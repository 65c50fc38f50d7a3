"""Tensor methods beyond the core ones in `tensor.py`: MindSpore 2.10's spellings.

`THIN` maps a method name to the `cellgrad.ops` function it calls with the tensor first; each
entry becomes a generated `def name(self, <the function's parameters>)` (or the parameters the
entry gives, where MindSpore's method names them differently), so `inspect.signature` shows
MindSpore's method signature and a call costs one frame. `TensorMethods` holds the methods
that do more than that: MindSpore's overloads (`dim=`/`axis=` spellings), in-place `*_`
methods and the ones with no ops counterpart.
"""

import inspect

import numpy as np

from cellgrad import ops as O
from cellgrad._core import _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _tm_array as A
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply

# name -> function, or (function, "parameters after self") when MindSpore's method spells
# them differently; the parameters are passed on by position (keyword-only ones by name).
THIN = {
    # elementwise
    "abs": F.abs, "absolute": F.abs, "exp": F.exp, "log": F.log, "sqrt": F.sqrt,
    "square": F.square, "tanh": F.tanh, "sigmoid": F.sigmoid, "sin": F.sin, "cos": F.cos,
    "neg": F.neg, "negative": F.neg, "rsqrt": F.rsqrt, "sign": F.sign, "floor": F.floor,
    "ceil": F.ceil, "trunc": F.trunc, "reciprocal": F.reciprocal, "log1p": F.log1p,
    "expm1": F.expm1, "log2": F.log2, "log10": F.log10, "sinh": F.sinh, "cosh": F.cosh,
    "asin": F.asin, "arcsin": F.asin, "acos": F.acos, "arccos": F.acos, "atan": F.atan,
    "arctan": F.atan, "isnan": F.isnan, "isinf": F.isinf, "isfinite": F.isfinite,
    "logical_not": F.logical_not, "pow": F.pow,
    "mul": F.mul, "multiply": (F.mul, "value"),
    "div": F.div, "divide": F.div, "true_divide": (F.div, "other"),
    "floor_divide": F.floor_divide, "atan2": F.atan2,
    "arctan2": F.atan2, "maximum": F.maximum, "minimum": F.minimum,
    # comparisons and logic
    "gt": F.gt, "greater": F.gt, "ge": F.ge, "greater_equal": F.ge, "lt": F.lt, "less": F.lt,
    "le": F.le, "less_equal": F.le, "eq": F.eq, "equal": F.eq, "ne": F.ne,
    "not_equal": F.ne,
    "logical_xor": F.logical_xor, "bitwise_and": A.bitwise_and, "bitwise_or": A.bitwise_or,
    "bitwise_xor": A.bitwise_xor,
    # shape, selection, linear algebra
    "expand_dims": (F.expand_dims, "axis"), "flip": F.flip,
    "reverse": A.reverse,
    "gather_elements": F.gather_elements, "masked_fill": F.masked_fill,
    "masked_select": F.masked_select, "tril": F.tril, "triu": F.triu, "unbind": F.unbind,
    "tensor_split": A.tensor_split, "diagonal": (A.diagonal, "offset=0, axis1=0, axis2=1"),
    "topk": F.topk, "dot": A.dot, "inverse": A.inverse, "norm": F.norm,
    # the functions engineer's ops (cellgrad.ops)
    "amax": O.amax, "amin": O.amin, "mm": O.mm, "bmm": O.bmm, "outer": O.outer,
    "cummin": O.cummin, "gather_nd": O.gather_nd,
    "logsumexp": O.logsumexp, "roll": O.roll, "top_k": O.top_k,
    "to_coo": O.dense_to_sparse_coo, "to_csr": O.dense_to_sparse_csr,  # sparse tensors
}


def _thin(name, fn, params=None):
    """`def name(self, <params>): return fn(self, <params>)` with `fn`'s parameters (or
    `params`), so the method has MindSpore's exact signature."""
    namespace = {"_fn": fn}
    if params is None:
        sig = inspect.signature(fn)
        parts, seen_star = [], False
        for p in list(sig.parameters.values())[1:]:
            if p.kind is p.KEYWORD_ONLY and not seen_star:
                parts.append("*")
                seen_star = True
            text = p.name
            if p.default is not p.empty:
                namespace[f"_d_{p.name}"] = p.default
                text += f"=_d_{p.name}"
            parts.append(text)
        params = ", ".join(parts)
    head, _, kw = params.partition("*")
    pos = [p.split("=")[0].strip() for p in head.split(",") if p.strip()]
    kws = [p.split("=")[0].strip() for p in kw.split(",") if p.strip()]
    call = ", ".join(["self", *pos, *(f"{k}={k}" for k in kws)])
    source = f"def {name}(self{', ' if params else ''}{params}):\n    return _fn({call})\n"
    exec(source, namespace)  # noqa: S102  (a generated wrapper: names come from THIN)
    method = namespace[name]
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = (f"Mirrors `mindspore.Tensor.{name}`: `ops.{fn.__name__}` with this "
                      "tensor first.")
    return method


# Modules holding one area's methods: each may define `THIN` (entries as above) and `METHODS`
# (name -> a function taking the tensor first, set on the class as is). Appended by area.
AREAS = ("cellgrad.common._tm_dtype", "cellgrad.common._tm_linalg",
         "cellgrad.common._tm_math", "cellgrad.common._tm_array2",
         "cellgrad.common._tm_leftovers", "cellgrad.common._tm_nn",
         "cellgrad.common._tm_runtime", "cellgrad.common._tm_overloads")


def install(cls):
    """Put the THIN methods and the areas' methods on `cls` (methods `cls` defines win, then
    the areas' `METHODS`, then the `THIN` wrappers)."""
    import importlib

    thin, methods = dict(THIN), {}
    for module_name in AREAS:
        module = importlib.import_module(module_name)
        thin.update(getattr(module, "THIN", {}))
        methods.update(getattr(module, "METHODS", {}))
    for name, entry in thin.items():
        if name not in cls.__dict__ and name not in methods:
            fn, params = entry if isinstance(entry, tuple) else (entry, None)
            setattr(cls, name, _thin(name, fn, params))
    for name, method in methods.items():
        if name not in cls.__dict__:
            setattr(cls, name, method)


def view_dtype(x, dtype):
    """`Tensor.view(dtype)`: the same bytes read as `dtype` (the last axis rescaled by the
    itemsizes, as numpy's `ndarray.view`)."""
    from cellgrad.dtype import to_dtype

    return make_tensor(np.ascontiguousarray(x._data).view(to_dtype(dtype).np_dtype))


def _spelling(method, first, second, names):
    """One value of an argument MindSpore's overloads spell two ways (`dim`/`axis`)."""
    if second is not None:
        if first is not None:
            raise TypeError(f"Tensor.{method}() got both '{names[0]}' and '{names[1]}'.")
        return second
    return first


def _shape_of(op, size):
    if len(size) == 1 and isinstance(size[0], TensorBuffer):
        return tuple(int(s) for s in size[0]._data.reshape(-1))
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    for s in size:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"For 'Tensor.{op}', the size must be ints or a tuple of ints, but "
                            f"got {type(s).__name__}.")
    return tuple(int(s) for s in size)


# numpy ufunc -> (the Tensor dunder when the Tensor comes first, when it comes second)
_UFUNC_DUNDERS = {
    np.add: ("__add__", "__radd__"), np.subtract: ("__sub__", "__rsub__"),
    np.multiply: ("__mul__", "__rmul__"), np.true_divide: ("__truediv__", "__rtruediv__"),
    np.floor_divide: ("__floordiv__", "__rfloordiv__"), np.remainder: ("__mod__", "__rmod__"),
    np.power: ("__pow__", "__rpow__"), np.matmul: ("__matmul__", "__rmatmul__"),
    np.less: ("__lt__", "__gt__"), np.less_equal: ("__le__", "__ge__"),
    np.greater: ("__gt__", "__lt__"), np.greater_equal: ("__ge__", "__le__"),
    np.bitwise_and: ("__and__", "__rand__"), np.bitwise_or: ("__or__", "__ror__"),
    np.bitwise_xor: ("__xor__", "__rxor__"),
}


class TensorMethods:
    """The Tensor methods that are more than a call of one ops function (a mixin of
    `Tensor`)."""

    __slots__ = ()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """numpy meets a Tensor as MindSpore's PyNative Tensor does: `array + t`, `array == t`
        and `np.exp(t)` compute in numpy on the values and give numpy arrays. A numpy scalar
        with a Tensor (`np.float32(2) * t`) stays a Tensor op, as in MindSpore's graphs."""
        if any(isinstance(o, TensorBuffer) for o in kwargs.get("out") or ()):
            return NotImplemented  # numpy cannot write into a Tensor
        pair = _UFUNC_DUNDERS.get(ufunc)
        if method == "__call__" and pair is not None and len(inputs) == 2:
            first = isinstance(inputs[0], TensorBuffer)
            other = inputs[1] if first else inputs[0]
            if isinstance(other, np.generic) and not kwargs:
                return getattr(inputs[0] if first else inputs[1], pair[0 if first else 1])(other)
        args = [np.asarray(i) if isinstance(i, TensorBuffer) else i for i in inputs]
        return getattr(ufunc, method)(*args, **kwargs)

    # ---- copies, views and metadata ----
    def clone(self):
        """Mirrors `Tensor.clone`: a copy; gradients flow back to this tensor."""
        out = apply(F.IDENTITY, (self,))
        out._data = self._data.copy()
        return out

    def contiguous(self):
        """Mirrors `Tensor.contiguous`: this tensor when its memory is row-major contiguous,
        else a contiguous copy (gradients flow back to this tensor)."""
        if self._data.flags.c_contiguous:
            return self
        out = apply(F.IDENTITY, (self,))
        out._data = np.ascontiguousarray(self._data)
        return out

    def is_contiguous(self):
        """Mirrors `Tensor.is_contiguous`: False for the strided views MindSpore's view ops
        give too (transposes, strided slices, broadcasts)."""
        return bool(self._data.flags.c_contiguous)

    def _offload(self):
        """Mirrors `Tensor._offload` (device memory to host): a CPU tensor is on the host
        already, so nothing moves."""

    def _load(self):
        """Mirrors `TensorPy._load`: brings offloaded data back to memory; a cellgrad Tensor's
        data always is in memory, so there is nothing to do (None, as MindSpore returns)."""
        return None

    def value(self):
        """Mirrors `Tensor.value`: the tensor itself."""
        return self

    def dim(self):
        """Mirrors `Tensor.dim`: the number of dimensions."""
        return self.ndim

    ndimension = dim

    def numel(self):
        """Mirrors `Tensor.numel`: the number of elements."""
        return self.size

    nelement = numel

    def type(self, dtype=None):
        """Mirrors `Tensor.type`: the dtype's name ('Float32') without `dtype`, else a cast."""
        return str(self.dtype) if dtype is None else F.cast(self, dtype)

    def type_as(self, other):
        """Mirrors `Tensor.type_as`: cast to `other`'s dtype."""
        return F.cast(self, other.dtype)

    def t(self):
        """Mirrors `Tensor.t`: a 2-D tensor transposed (MindSpore 2.10 on CPU returns other
        ranks unchanged)."""
        return F.transpose(self, (1, 0)) if self.ndim == 2 else self

    def expand(self, *size):
        """Mirrors `Tensor.expand`: broadcast to `size` (-1 keeps a dimension)."""
        return F.broadcast_to(self, _shape_of("expand", size))

    def reshape_as(self, other):
        """Mirrors `Tensor.reshape_as`: reshape to `other`'s shape."""
        return F.reshape(self, other.shape)

    def resize(self, *new_shape):
        """Mirrors `Tensor.resize`: a tensor of `new_shape` holding the first elements (in
        row-major order), zero-filled when it is larger."""
        shape = _shape_of("resize", new_shape)
        flat = self._data.reshape(-1)
        out = np.zeros(int(np.prod(shape)), self._data.dtype)
        n = min(out.size, flat.size)
        out[:n] = flat[:n]
        return make_tensor(out.reshape(shape), None, 0, self._dtype)

    # ---- overloaded spellings ----
    def index_select(self, axis=None, index=None, *, dim=None):
        """Mirrors `Tensor.index_select(axis, index)` and `(dim, index)`: slices along the axis
        at a 1-D `index`."""
        axis = _spelling("index_select", axis, dim, ("axis", "dim"))
        idx = index._data if isinstance(index, TensorBuffer) else np.asarray(index)
        if idx.ndim != 1:
            raise ValueError(f"For 'index_select', the dimension of `index` must be 1, but got "
                             f"{idx.ndim}")
        return F.gather(self, idx, axis)

    def chunk(self, chunks, dim=None, *, axis=None):
        """Mirrors `Tensor.chunk(chunks, dim=0)` and `(chunks, axis=0)`."""
        axis = _spelling("chunk", dim, axis, ("dim", "axis"))
        if isinstance(chunks, bool) or not isinstance(chunks, int) or chunks <= 0:
            raise ValueError(f"For ops.chunk parameter 'chunks' must be greater than 0, but got "
                             f"{chunks}")
        return F.chunk(self, chunks, 0 if axis is None else axis)

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Mirrors `Tensor.repeat_interleave(repeats, dim=None, *, output_size=None)`."""
        out = A.repeat_interleave(self, repeats, dim)
        axis = 0 if dim is None else dim
        if output_size is not None and out.shape[axis] != output_size:
            raise ValueError(f"For 'repeat_interleave', 'output_size' {output_size} does not "
                             f"match the result's size {out.shape[axis]} along the axis.")
        return out

    def argsort(self, axis=-1, descending=False, stable=False, *, dim=None):
        """Mirrors `Tensor.argsort(axis=-1, descending=False)` and `(dim=-1, descending=False,
        stable=False)`: Int32 indices (our sort is always stable)."""
        return F.argsort(self, axis if dim is None else dim, descending)

    def scatter(self, dim=None, index=None, src=None, reduce=None, *, axis=None, value=None):
        """Mirrors `Tensor.scatter(dim, index, src)` / `(axis, index, src)` / `(dim, index,
        value)`, with `reduce='add'` summing into place."""
        axis = _spelling("scatter", dim, axis, ("dim", "axis"))
        src = _spelling("scatter", src, value, ("src", "value"))
        if reduce is None:
            return A.scatter(self, axis, index, src)
        if reduce != "add":
            raise ValueError(f"For 'Tensor.scatter', 'reduce' must be 'add' (or None), but got "
                             f"{reduce!r}.")
        return _scatter_add(self, axis, index, src)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        """Mirrors `Tensor.scatter_`: `scatter` in place; returns this tensor."""
        return _inplace(self, self.scatter(dim, index, src, value=value, reduce=reduce))

    def index_add(self, *args, **kwargs):
        """Mirrors `Tensor.index_add(indices, y, axis, use_lock=True, check_index_bound=True)`
        and `(dim, index, source, *, alpha=1)` (told apart by an int first argument)."""
        if (args and isinstance(args[0], int)) or "dim" in kwargs:
            return _index_add_dim(self, *args, **kwargs)
        return A.index_add(self, *args, **kwargs)

    def take(self, indices=None, axis=None, mode="clip", *, index=None):
        """Mirrors `Tensor.take(indices, axis=None, mode='clip')`: numpy's take, out-of-range
        indices clipped or wrapped ('raise' raises IndexError); `Tensor.take(index=)` too."""
        indices = _spelling("take", indices, index, ("indices", "index"))
        src, ax = (F.reshape(self, (-1,)), 0) if axis is None else (self, axis)
        n = src.shape[ax]
        idx = np.asarray(indices._data if isinstance(indices, TensorBuffer) else indices)
        if mode == "clip":
            idx = np.clip(idx, 0, n - 1)
        elif mode == "wrap":
            idx = np.mod(idx, n)
        elif mode == "raise":
            if idx.size and (idx.min() < -n or idx.max() >= n):
                raise IndexError(f"For 'Tensor.take', index values must be in [{-n}, {n}).")
            idx = np.where(idx < 0, idx + n, idx)
        else:
            raise ValueError(f"For 'Tensor.take', 'mode' must be 'clip', 'wrap' or 'raise', but "
                             f"got {mode!r}.")
        return F.gather(src, idx, ax)

    def index(self, indices):
        """Mirrors `Tensor.index(indices)` (Ascend-only in MindSpore): `self[indices]` for a
        tuple of index Tensors."""
        return self[tuple(indices)]

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """Mirrors `Tensor.unique`: the sorted unique values (slices along `dim`), with Int64
        inverse indices and counts when asked."""
        values, inverse, counts = np.unique(self._data, return_inverse=True,
                                            return_counts=True, axis=dim)
        out = [make_tensor(values, None, 0, self._dtype)]
        if return_inverse:
            shape = self.shape if dim is None else (self.shape[dim],)
            out.append(make_tensor(inverse.reshape(shape).astype(np.int64)))
        if return_counts:
            out.append(make_tensor(counts.astype(np.int64)))
        return out[0] if len(out) == 1 else tuple(out)

    def round(self, decimals=0):
        """Mirrors `Tensor.round(decimals=0)`."""
        return F.round(self, decimals=decimals)

    def subtract(self, other, *, alpha=1):
        """Mirrors `Tensor.subtract(other, *, alpha=1)`: `self - alpha * other`."""
        return F.sub(self, other if alpha == 1 else other * alpha)

    def softmax(self, axis, dtype=None):
        """Mirrors `Tensor.softmax(axis, dtype=None)` (`ops.softmax`, from cellgrad-ops-nn)."""
        from cellgrad import ops

        return ops.softmax(self, axis, dtype=dtype)

    # ---- in place ----
    def assign_value(self, value):
        """Mirrors `Tensor.assign_value`: take `value`'s values, shape and dtype; returns
        this tensor."""
        if not isinstance(value, TensorBuffer):
            raise TypeError(f"For 'Tensor.assign_value', the value must be a Tensor, but got "
                            f"{type(value).__name__}.")
        self._data, self._dtype = value._data.copy(), value._dtype
        return self

    def masked_fill_(self, mask, value):
        """Mirrors `Tensor.masked_fill_`: `masked_fill` in place; returns this tensor."""
        return _inplace(self, F.masked_fill(self, mask, value))

    def clamp_(self, min=None, max=None):
        """Mirrors `Tensor.clamp_`: `clamp` in place; returns this tensor."""
        return _inplace(self, F.clamp(self, min, max))

    def normal_(self, mean=0, std=1, *, generator=None):
        """Mirrors `Tensor.normal_`: fill with samples of N(mean, std) from the global seed's
        stream (or `generator`, a numpy Generator); returns this tensor."""
        from cellgrad import seeding

        if self._dtype.kind != 2:
            raise TypeError(f"For 'Tensor.normal_', the tensor must be a float type, but got "
                            f"{self._dtype}.")
        rng = generator if generator is not None else seeding.generator("Normal")
        self._data[...] = rng.normal(mean, std, self.shape)
        return self


def _inplace(self, out):
    """Make `out` this tensor's value; while a gradient transform records, the write is on the
    tape (as `__setitem__`), else the values are written into the tensor's own memory."""
    if _tape.recording_depth() and out._node is not None:
        self._data, self._node, self._slot = out._data, out._node, out._slot
    else:
        self._data[...] = out._data
    return self


def _scatter_add(x, axis, index, src):
    from cellgrad.ops import _sort

    axis %= max(x.ndim, 1)
    idx = np.asarray(index._data if isinstance(index, TensorBuffer) else index, np.int64)
    n = x.shape[axis]
    idx = np.where(idx < 0, idx + n, idx)
    if not isinstance(src, TensorBuffer):
        src = make_tensor(np.full(idx.shape, src, x._data.dtype), None, 0, x._dtype)
    src = F.cast(src[tuple(slice(0, s) for s in idx.shape)], x.dtype)
    return x + apply(_sort.SCATTER_ALONG_AXIS, (src,), {"shape": tuple(x.shape), "idx": idx,
                                                         "axis": axis})


def _index_add_dim(x, dim, index, source, *, alpha=1):
    return A.index_add(x, index, source if alpha == 1 else source * alpha, dim)
