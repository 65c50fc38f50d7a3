"""`Tensor`: MindSpore's Tensor API over the Cython tensor buffer."""

import copyreg

import numpy as np

from cellgrad import _format, _jit_hook
from cellgrad._construct import infer_array
from cellgrad._core import _buffer, _tape
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.common import _tensor_methods
from cellgrad.common.symbol import Symbol
from cellgrad.dtype import bool_, float32, to_dtype
from cellgrad.ops import _elementwise, _index, _xp_numpy, _xp_tensor
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply


class Tensor(_tensor_methods.TensorMethods, TensorBuffer):
    """Mirrors `mindspore.Tensor`: an n-d array with a dtype, usable in gradient transforms.

    `Tensor(input_data=None, dtype=None, shape=None, init=None)`: Python floats become
    Float32, ints Int64, bools Bool; numpy arrays keep their dtype and are copied.
    """

    # `_pending_init`: made by an initializer and not yet read; MindSpore prints such a tensor
    # as `<uninitialized>` until `init_data()` or `asnumpy()` (our values exist already).
    # `_dyn_shape`: the shape (with -1/-2) of a dynamic-shape placeholder, see `_placeholder`.
    # `__dict__`: attributes user code sets on a Tensor (MindSpore allows `t.extra = ...`);
    # Python creates it on first use, so a Tensor that gets none costs nothing more.
    __slots__ = ("_pending_init", "_dyn_shape", "__dict__")
    __array_priority__ = 100

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal=False,
                 const_arg=False, device=None):
        if input_data is None and _is_dynamic(shape, dtype):
            _placeholder(self, dtype, shape, init)
            return
        if init is not None or (input_data is None and shape is not None):
            self._init_lazy(dtype, shape, init)
            return
        arr, dt = infer_array(input_data, dtype)
        if isinstance(input_data, TensorBuffer) and arr is input_data._data:
            arr = arr.copy()
        self._data = arr
        self._dtype = dt
        if const_arg is not False:
            if not isinstance(const_arg, bool):
                raise TypeError(f"For 'Tensor', the type of 'const_arg' should be 'bool', but "
                                f"got type '{type(const_arg).__name__}'.")
            self.set_const_arg(True)

    def _init_lazy(self, dtype, shape, init):
        if shape is None:
            raise ValueError("Tensor: 'shape' is required when 'init' is given.")
        shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
        dt = float32 if dtype is None else to_dtype(dtype)
        self._dtype = dt
        self._data = np.zeros(shape, dt.np_dtype)
        if init is not None:
            from cellgrad.common.initializer import apply_initializer

            self._data = apply_initializer(init, shape, dt)
            self._pending_init = True

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """Mirrors `Tensor.init_data`: values are materialised on creation; marks them read."""
        self._pending_init = False
        return self

    # ---- metadata and conversion ----
    def asnumpy(self):
        """The values as a numpy array (shares memory, like MindSpore on CPU)."""
        self._pending_init = False
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_read(self, "asnumpy")
        return self._data

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_read(self, "__array__")
        arr = self._data
        if dtype is not None and arr.dtype != dtype:
            return arr.astype(dtype)
        return arr.copy() if copy else arr

    def __len__(self):
        if not self._data.ndim:
            raise TypeError("Not support len of a 0-D tensor")
        return self._data.shape[0]

    def __iter__(self):
        if not self._data.ndim:
            raise TypeError("iteration over a 0-d Tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    def _one_element(self, what):
        if self._data.size != 1:
            raise ValueError(f"The tensor should have only one element, but got "
                             f"{self._data.size}, more than one element is ambiguous.")
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_read(self, what)
        return self._data.reshape(())[()]

    def __bool__(self):
        return bool(self._one_element("bool"))

    def __float__(self):
        # .item(): a complex value is a TypeError, as MindSpore's (numpy's would only warn)
        return float(self._one_element("float").item())

    def __int__(self):
        return int(self._one_element("int").item())

    def __index__(self):
        if self._dtype.kind != 1:
            raise TypeError(f"only integer tensors of a single element can be converted to an "
                            f"index, got dtype {self._dtype}.")
        return int(self._one_element("index"))

    def item(self):
        """The single value as a Python scalar (mirrors `Tensor.item`)."""
        return self._one_element("item").item()

    def tolist(self):
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_read(self, "tolist")
        return self._data.tolist()

    def __repr__(self):
        if getattr(self, "_pending_init", False):
            return self._uninitialized_repr()
        return _format.tensor_repr(self._data, self._dtype.name)

    def __str__(self):
        if getattr(self, "_pending_init", False):
            return self._uninitialized_repr()
        return _format.tensor_str(self._data, self._dtype.name)

    def _uninitialized_repr(self):
        shape = ", ".join(str(d) for d in self._data.shape)
        sep = "\n" if self._data.ndim >= 2 else ""
        return f"Tensor(shape=[{shape}], dtype={self._dtype.name}, value={sep}<uninitialized>)"

    def __format__(self, spec):
        if self._data.ndim == 0 and spec:
            return format(self._data.item(), spec)
        return format(str(self), spec)

    def __reduce__(self):
        return (_rebuild, (self._data, self._dtype.py_name))

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    @classmethod
    def from_numpy(cls, array):
        """Wrap a numpy array without copying (mirrors `Tensor.from_numpy`)."""
        return from_numpy(array)

    @staticmethod
    def from_dlpack(ext):
        """Wrap a DLPack-capable array (torch, jax, numpy) without copying."""
        return from_numpy(np.from_dlpack(ext))

    def copy(self):
        """Mirrors `Tensor.copy`: a new Tensor with a copy of the data; gradients flow back."""
        return self.clone()

    def astype(self, dtype, copy=True):
        return F.cast(self, dtype)

    def float(self):
        return F.cast(self, float32)

    def int(self):
        return F.cast(self, "int32")

    def half(self):
        return F.cast(self, "float16")

    def bool(self):
        return F.cast(self, "bool_")

    def set_dtype(self, dtype):
        """Cast in place (mirrors `Tensor.set_dtype`)."""
        out = F.cast(self, dtype)
        self._data, self._dtype = out._data, out._dtype
        return self

    # ---- hooks (cellgrad-hooks) ----
    def register_hook(self, hook):
        """Mirrors `Tensor.register_hook`: `hook(grad)` sees this Tensor's gradient in a backward
        pass and may return a replacement; returns a handle with `remove()`. Needs
        `pip install cellgrad-hooks`."""
        from cellgrad import plugins

        return plugins.cell_hook_runner("Tensor.register_hook").register(self, "tensor", hook)

    # ---- shape ----
    def reshape(self, *shape):
        return F.reshape(self, _shape_args(shape))

    def view(self, *shape, **kwargs):
        """MindSpore's overloads `view(*shape)`, `view(shape=)` and `view(dtype)` (the bytes
        reinterpreted as `dtype`, as `view_as_real` does: `_tm_dtype.view_dtype`)."""
        if kwargs:
            unknown = set(kwargs) - {"shape", "dtype"}
            if unknown or shape or len(kwargs) != 1:
                raise TypeError(f"Failed calling view with \"view({_call_text(shape, kwargs)})\". "
                                "The valid calling should be: \"Tensor.view(shape=<tuple of int>)"
                                "\" or \"Tensor.view(dtype=<mstype>)\".")
            shape = (kwargs["shape"],) if "shape" in kwargs else ()
            if "dtype" in kwargs:
                return _tensor_methods.view_dtype(self, kwargs["dtype"])
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer, tuple, list,
                                                         TensorBuffer)):
            return _tensor_methods.view_dtype(self, shape[0])
        return F.reshape(self, _shape_args(shape))

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def transpose(self, *axes, dim0=None, dim1=None):
        """MindSpore's overloads `transpose(*axes)` (a permutation; none reverses the axes)
        and `transpose(dim0, dim1)` (two axes swapped: any two numbers, as MindSpore's
        parser picks that form first)."""
        if dim0 is not None or dim1 is not None:
            axes = (dim0, dim1)
        if not axes or axes == (None,):
            return F.transpose(self, tuple(range(self.ndim))[::-1])
        if len(axes) == 2 and not isinstance(axes[0], (tuple, list, TensorBuffer)):
            if not all(isinstance(a, (int, np.integer)) for a in axes):
                raise ValueError("For Tensor.transpose, the number of axes must be equal to the "
                                 f"dimension of Tensor, but got {len(axes)} in the number of "
                                 "axes.")
            perm = list(range(self.ndim))
            a, b = (_dim_in_range(self.ndim, int(d)) for d in axes)
            perm[a], perm[b] = perm[b], perm[a]
            return F.transpose(self, tuple(perm))
        perm = _shape_args(axes)
        if len(perm) != self.ndim:
            raise ValueError(f"For 'Transpose', size of perm should equal to rank of x, but got "
                             f"{len(perm)} and {self.ndim}!")
        perm = tuple(_dim_in_range(self.ndim, int(d)) for d in perm)
        for d in perm:
            if perm.count(d) > 1:
                raise ValueError(f"For 'Transpose' perms should all be unique dim, but{d} is not "
                                 "unique!")
        return F.transpose(self, perm)

    def permute(self, *axis, dims=None):
        """MindSpore's overloads `permute(*dims)`, `permute(dims=)` and `permute(axis=)`."""
        if dims is not None:
            axis = (dims,)
        return F.permute(self, _shape_args(axis))

    @property
    def T(self):
        return F.transpose(self, tuple(range(self.ndim))[::-1])

    def flatten(self, *args, **kwargs):
        """MindSpore's overloads `flatten(start_dim=0, end_dim=-1)` and
        `flatten(order='C', start_dim=0, end_dim=-1)` (a string first is the order)."""
        if args and isinstance(args[0], str) or "order" in kwargs:
            return _flatten_order(self, *args, **kwargs)
        return _flatten_dims(self, *args, **kwargs)

    def ravel(self):
        return F.reshape(self, (-1,))

    def expand_as(self, other=None, *, x=None):
        """MindSpore's overloads `expand_as(other)` and `expand_as(x=)`."""
        other = _tensor_methods._spelling("expand_as", other, x, ("other", "x"))
        if not isinstance(other, TensorBuffer):
            raise TypeError(f"Failed calling expand_as with \"expand_as("
                            f"{type(other).__name__})\". The valid calling should be: "
                            "\"Tensor.expand_as(other=<Tensor>)\".")
        return F.broadcast_to(self, other.shape)

    def split(self, split_size_or_sections=None, axis=0, *, split_size=None, dim=None):
        """MindSpore's overloads `split(split_size_or_sections, axis=0)` and
        `split(split_size, dim=0)`."""
        if split_size is not None:
            split_size_or_sections = split_size
        return F.split(self, split_size_or_sections, axis if dim is None else dim)

    # ---- reductions ----
    def sum(self, *args, **kwargs):
        """MindSpore's overloads `sum(axis=None, dtype=None, keepdims=False, initial=None)` and
        `sum(dim=None, keepdim=False, *, dtype=None)` (a bool second argument is `keepdim`)."""
        if "dim" in kwargs or "keepdim" in kwargs or (len(args) > 1 and isinstance(args[1], bool)):
            return _sum_dim(self, *args, **kwargs)
        return _sum_axis(self, *args, **kwargs)

    def mean(self, axis=None, keep_dims=False, *, dim=None, keepdim=None, dtype=None):
        """MindSpore's overloads `mean(axis=None, keep_dims=False)` and
        `mean(dim=None, keepdim=False, *, dtype=None)` (`dtype`: cast before averaging)."""
        keep = keep_dims if keepdim is None else keepdim
        if not isinstance(keep, bool):
            names = ("dim", "keepdim") if dim is not None or keepdim is not None else \
                ("axis", "keep_dims")
            raise TypeError(f"Failed calling mean with \"mean({names[0]}="
                            f"{type(axis if dim is None else dim).__name__}, {names[1]}="
                            f"{type(keep).__name__})\".")
        x = self if dtype is None else F.cast(self, dtype)
        return F.mean(x, axis if dim is None else dim, keep)

    def prod(self, axis=None, keep_dims=False, dtype=None, *, dim=None, keepdim=None):
        """MindSpore's overloads `prod(axis=None, keep_dims=False, dtype=None)` and
        `prod(dim=None, keepdim=False, dtype=None)`."""
        axis = _tensor_methods._spelling("prod", axis, dim, ("axis", "dim"))
        keep = keep_dims if keepdim is None else keepdim
        return F.prod(self, axis, keep, dtype)

    def max(self, *args, **kwargs):
        """MindSpore's two overloads: `max(dim, keepdim=False)` (a positional int, or `dim=`)
        gives (values, indices); `max(axis=None, keepdims=False, *, initial, where,
        return_indices)` gives the values."""
        return self._extreme(F.max, F.amax, args, kwargs)

    def min(self, *args, **kwargs):
        """As `max`: `min(dim, keepdim=False)` gives (values, indices)."""
        return self._extreme(F.min, F.amin, args, kwargs)

    def _extreme(self, reduce, reduce_axes, args, kwargs):
        if "dim" in kwargs or "keepdim" in kwargs or (
                args and isinstance(args[0], int) and not isinstance(args[0], bool)
                and not set(kwargs) & {"axis", "keepdims", "initial", "where",
                                       "return_indices"}):
            return _dim_overload(self, reduce, *args, **kwargs)
        return _axis_overload(self, reduce, reduce_axes, *args, **kwargs)

    def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """Also MindSpore's overload `argmax(dim=None, keepdim=False)`."""
        return F.argmax(self, axis if dim is None else dim,
                        keepdims if keepdim is None else keepdim)

    def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """Also MindSpore's overload `argmin(dim=None, keepdim=False)`."""
        return F.argmin(self, axis if dim is None else dim,
                        keepdims if keepdim is None else keepdim)

    def any(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
        """MindSpore's overloads `any(axis=None, keep_dims=False)` and `any(dim, keepdim)`;
        `axis=()` reduces every axis, as MindSpore's ReduceAny."""
        axis = _tensor_methods._spelling("any", axis, dim, ("axis", "dim"))
        return F.any(self, None if axis == () else axis,
                     keep_dims if keepdim is None else keepdim)

    def all(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
        """MindSpore's overloads `all(axis=None, keep_dims=False)` and `all(dim, keepdim)`."""
        axis = _tensor_methods._spelling("all", axis, dim, ("axis", "dim"))
        return F.all(self, None if axis == () else axis,
                     keep_dims if keepdim is None else keepdim)

    # ---- elementwise (the thin ones: _tensor_methods.THIN) ----
    def cumsum(self, axis=None, dtype=None, *, dim=None):
        """MindSpore's overloads `cumsum(axis=None, dtype=None)` and `cumsum(dim, *, dtype)`."""
        axis = _tensor_methods._spelling("cumsum", axis, dim, ("axis", "dim"))
        # MindSpore's method sums bool and small integers as int32, then casts to `dtype`
        x = self.astype("int32") if self._data.dtype.char in "?bhB" else self
        out = F.cumsum(x.reshape(-1), 0) if axis is None else F.cumsum(x, axis)
        return out if dtype is None or dtype == self.dtype else F.cast(out, dtype)

    def fill(self, value):
        """A new tensor of this shape and dtype filled with `value`."""
        return F.full(self.shape, value, dtype=self._dtype)

    def zero_(self):
        _jit_hook.wrote(self, "zero_")
        self._data[...] = 0
        return self

    def fill_(self, value):
        _jit_hook.wrote(self, "fill_")
        self._data[...] = value
        return self

    def long(self):
        return F.cast(self, "int64")

    def double(self):
        return F.cast(self, "float64")

    def new_ones(self, size, dtype=None):
        return F.ones(size, self._dtype if dtype is None else dtype)

    def new_zeros(self, size, dtype=None):
        return F.zeros(size, self._dtype if dtype is None else dtype)

    def nonzero(self, *, as_tuple=False):
        """Mirrors `Tensor.nonzero`: indices of non-zero elements, (N, ndim) Int64, or one
        1-D Tensor per dimension with `as_tuple`."""
        if as_tuple:
            return tuple(make_tensor(i.astype(np.int64)) for i in np.nonzero(self._data))
        return make_tensor(np.argwhere(self._data).astype(np.int64))

    def repeat(self, repeats, axis=None):
        """Mirrors `Tensor.repeat` (numpy semantics: repeat elements)."""
        idx = np.repeat(np.arange(self.size if axis is None else self.shape[axis]), repeats)
        src = self.reshape(-1) if axis is None else self
        return F.gather(src, make_tensor(idx), 0 if axis is None else axis)

    @property
    def has_init(self):
        """Mirrors `Tensor.has_init`: made by an initializer and not yet initialised."""
        return getattr(self, "_pending_init", False)

    def clamp(self, min=None, max=None):
        """Mirrors `Tensor.clamp(min=None, max=None)` (`clip` is the same method)."""
        if min is None and max is None:
            raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
        return F.clamp(self, min, max)

    clip = clamp

    def sort(self, axis=-1, descending=False, stable=False, *, dim=None):
        """MindSpore's overloads `sort(axis=-1, descending=False)` and
        `sort(dim=-1, descending=False, stable=False)` (numpy's sort is stable: `stable`
        changes nothing)."""
        return F.sort(self, axis if dim is None else dim, descending)

    # ---- indexing ----
    def __getitem__(self, index):
        return apply(_index.GETITEM, (self,), {"index": _index.getitem_index(index)})

    def __setitem__(self, index, value):
        """In place, as MindSpore; inside a gradient transform it is recorded on the tape."""
        idx = _index.normalize_index(index)
        if isinstance(idx, tuple):
            # MindSpore reads a 1-D bool Tensor inside an index tuple as its nonzero positions
            # (numpy does too, after checking its length against the axis, which MindSpore
            # skips: a mismatch is then a shape error, ValueError, as MindSpore's)
            idx = tuple(np.flatnonzero(i) if isinstance(i, np.ndarray) and i.dtype == np.bool_
                        and i.ndim == 1 else i for i in idx)
        if isinstance(value, TensorBuffer):
            own = self._node is not None and self._node.op is not None
            if _tape.recording_depth() and (value._node is not None or own):
                out = apply(_index.SETITEM, (self, F.cast(value, self._dtype)), {"index": idx})
                self._data, self._node, self._slot = out._data, out._node, out._slot
                return
            value = value._data
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_write(self, "setitem")
        try:
            self._data[idx] = value
        except (IndexError, ValueError) as e:  # an index out of range is an IndexError
            raise type(e)(f"For 'setitem', cannot assign {np.shape(value)} values at "
                          f"{index!r} of a tensor of shape {self.shape}: {e}") from None


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(int(s) for s in shape)


def _rebuild(arr, py_name):
    return make_tensor(arr, None, 0, _buffer.dtype_by_short(py_name))


_NO_INPUT = ("For 'Tensor', the type of 'input_data' should be one of '['TensorPy', 'Tensor', "
             "'ndarray', 'str_', 'list', 'tuple', 'float', 'int', 'bool', 'complex', 'bytes']', "
             "but got type 'NoneType'.")


def _is_dynamic(shape, dtype):
    """Whether `Tensor(shape=shape, dtype=dtype)` with no data is a dynamic-shape placeholder:
    no shape (unknown rank) or a None / negative / `Symbol` dimension."""
    if shape is None:
        return True  # without a dtype too: MindSpore's TypeError for missing data
    if isinstance(shape, int):
        return shape < 0
    return any(d is None or isinstance(d, Symbol) or d < 0 for d in shape)


def _placeholder(t, dtype, shape, init):
    """Make `t` MindSpore's PyNative placeholder for `Cell.set_inputs`: it knows its dtype and
    its shape with -1 for an unknown dimension and [-2] for an unknown rank, and holds no
    values. Ops on it run on an empty stand-in array (0 for each unknown dimension)."""
    if dtype is None and shape is None:
        raise TypeError(_NO_INPUT)
    if dtype is None or init is not None:
        raise ValueError("If setting dynamic shape, dtype must not be None, init must be None")
    if shape is None:
        dyn = (-2,)
    else:
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        dyn = tuple(-1 if d is None or isinstance(d, Symbol) else int(d) for d in dims)
    dt = to_dtype(dtype)
    t._dtype = dt
    t._data = np.zeros(tuple(max(d, 0) for d in dyn), dt.np_dtype)
    t._dyn_shape = dyn
    t.__class__ = _PlaceholderTensor


class _PlaceholderTensor(Tensor):
    """A `Tensor(shape=[None, ...], dtype=...)` placeholder (see `_placeholder`)."""

    __slots__ = ()

    @property
    def shape(self):
        return self._dyn_shape

    def __repr__(self):
        dims = ", ".join(str(d) for d in self._dyn_shape)
        sep = "\n" if len(self._dyn_shape) >= 2 else " "
        return f"Tensor(shape=[{dims}], dtype={self._dtype.name}, value={sep})"

    def _no_values(self, *args, **kwargs):
        raise ValueError("negative dimensions are not allowed")

    asnumpy = numpy = __str__ = __format__ = __array__ = tolist = item = _no_values

    def __len__(self):
        if self._dyn_shape[0] < 0:
            raise ValueError("__len__() should return >= 0")
        return self._dyn_shape[0]

    def __copy__(self):
        return _copy_placeholder(self)

    def __deepcopy__(self, memo):
        return _copy_placeholder(self)

    def __reduce__(self):
        dyn = self._dyn_shape
        return (Tensor, (None, self._dtype, None if dyn == (-2,) else dyn))


def _copy_placeholder(t):
    dyn = t._dyn_shape
    return Tensor(None, t._dtype, None if dyn == (-2,) else dyn)


def from_numpy(array):
    """Mirrors `mindspore.from_numpy`: a Tensor sharing memory with `array`."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"from_numpy expects a numpy.ndarray, got {type(array).__name__}.")
    return make_tensor(array)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """Mirrors `mindspore.tensor`: a new Tensor, as `Tensor(...)` with the same arguments."""
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg, device=device)


def _install():
    from cellgrad.ops import _linalg

    ops = dict(_elementwise.OPS)
    ops["matmul"] = _linalg.MATMUL
    _buffer.set_tensor_class(Tensor, {name: ops[name] for name in _buffer.DUNDER_OPS})
    _tape.configure(make_tensor, _xp_numpy, _xp_tensor)
    _tensor_methods.install(Tensor)


_install()


def _sum_axis(t, axis=None, dtype=None, keepdims=False, initial=None):
    out = F.sum(t, axis, keepdims, dtype=dtype)
    out = out if initial is None else out + initial
    # as MindSpore's: a bool dtype gives a bool result (any nonzero sum is True)
    return out.astype(bool_) if dtype is not None and to_dtype(dtype) == bool_ else out


def _sum_dim(t, dim=None, keepdim=False, *, dtype=None):
    return F.sum(t, dim, keepdim, dtype=dtype)


def _dim_in_range(ndim, d):
    if not -max(ndim, 1) <= d < max(ndim, 1):
        raise ValueError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                         f"{max(ndim, 1)}), but got {d})")
    return d % max(ndim, 1)


def _flatten_dims(t, start_dim=0, end_dim=-1):
    return F.flatten(t, start_dim=start_dim, end_dim=end_dim)


def _flatten_order(t, order="C", start_dim=0, end_dim=-1):
    if order not in ("C", "F"):
        raise ValueError(f"For 'flatten', 'order' must be 'C' or 'F', but got {order!r}.")
    if order == "C" or t.ndim < 2:
        return F.flatten(t, start_dim=start_dim, end_dim=end_dim)
    # column-major: merge the same axes of the reversed-axes view, then reverse back
    n = t.ndim
    start, end = start_dim % n, end_dim % n
    merged = F.flatten(t.transpose(), start_dim=n - 1 - end, end_dim=n - 1 - start)
    return merged.transpose()


def _call_text(args, kwargs):
    parts = [type(a).__name__ for a in args] + [f"{k}={type(v).__name__}"
                                                 for k, v in kwargs.items()]
    return ", ".join(parts)


def _dim_overload(t, reduce, dim, keepdim=False):
    return reduce(t, dim, keepdim)


def _axis_overload(t, reduce, reduce_axes, axis=None, keepdims=False, *, initial=None,
                   where=True, return_indices=False):
    if not isinstance(return_indices, bool):
        raise TypeError(f"{reduce.__name__}(): argument 'return_indices' must be bool but got "
                        f"{type(return_indices).__name__}.")
    if not isinstance(where, (bool, TensorBuffer)) or initial is not None and not isinstance(
            initial, (int, float, np.number)):
        kw = {"axis": axis, "keepdims": keepdims, "initial": initial, "where": where}
        raise TypeError(f"Failed calling {reduce.__name__} with \"{reduce.__name__}("
                        f"{_call_text((), kw)})\".")
    # as MindSpore's: axes in a tuple reduce as amax, else ops.max (first index's gradient)
    if isinstance(axis, (list, tuple)):
        return reduce_axes(t, axis, keepdims, initial=initial, where=where)
    values, indices = reduce(t, axis, keepdims, initial=initial, where=where)
    return (values, indices) if return_indices else values


def _rebuild_buffer(data, dtype):
    return make_tensor(data, None, 0, to_dtype(dtype))


def _reduce_buffer(t):
    return _rebuild_buffer, (np.ascontiguousarray(t._data), str(t.dtype))


# `_c_expression.TensorPy` objects (the Cython base) pickle as MindSpore's do: values and dtype
copyreg.pickle(TensorBuffer, _reduce_buffer)

from cellgrad.tensor_interop import swap_tensors  # noqa: E402,F401  (MindSpore's path too)
