"""The tensor buffer, dtypes, the Op declaration and `apply`, the per-op dispatch.

`apply` is the hot path: unwrap Tensors, promote dtypes the MindSpore way, run the op's numpy
forward, wrap the result, and record a tape node only while a gradient transform runs.
"""

import numpy as np

from cpython.buffer cimport PyObject_GetBuffer
from cellgrad._core._small cimport K_NEG, small_binary, small_neg
from cellgrad._core._tape cimport Node, new_node, recording, record_depth

from cellgrad._core._small import kernel_code
from cellgrad import _jit_hook

cdef extern from *:
    """
    static PyObject *cg_tp_new(PyObject *type, PyObject *args) {
        return ((PyTypeObject *)type)->tp_new((PyTypeObject *)type, args, NULL);
    }
    """
    # Direct tp_new of the Tensor class: Cython would otherwise look up and call __new__.
    object cg_tp_new(object type, object args)

cdef object ndarray = np.ndarray
cdef object np_generic = np.generic
cdef object _asarray = np.asarray
cdef object _tensor_cls = None      # cellgrad.Tensor, set by set_tensor_class()
cdef object _observer = None        # watches every dispatch while set (cellgrad.observe)
cdef object _amp = None             # casts each op's inputs while set (amp level 'auto')
cdef object _dispatch = None        # answers every dispatch in its place while set (MsDispatchMode)

PROMOTE_NONE = 0      # inputs passed as they are
PROMOTE_ARITH = 1     # MindSpore promotion; all inputs cast to the result dtype
PROMOTE_DIV = 2       # as ARITH, but bool/int results become Float32 (true division)
PROMOTE_FLOAT = 3     # as ARITH, but bool/int inputs become Float32 (sqrt, exp, ...)
PROMOTE_COMPARE = 4   # as ARITH for the inputs; the output is whatever the op returns (bool)

SAVE_NONE = 0
SAVE_INPUTS = 1
SAVE_OUTPUT = 2

# Op.rule codes: the elementwise rules of cellgrad.ops._elementwise that the walk runs itself.
RULE_MUL = 1
RULE_SUB = 2
RULE_TANH = 3
RULE_SIGMOID = 4
RULE_NEG = 5
RULE_EXP = 6
cdef dict _BUILTIN_RULES = {"mul": RULE_MUL, "sub": RULE_SUB, "tanh": RULE_TANH,
                            "sigmoid": RULE_SIGMOID, "neg": RULE_NEG, "exp": RULE_EXP}

DEF KIND_BOOL = 0
DEF KIND_INT = 1
DEF KIND_FLOAT = 2
DEF KIND_COMPLEX = 3


cdef class DType:
    """A cellgrad dtype; mirrors `mindspore.dtype` objects (`str(float32) == 'Float32'`)."""

    def __init__(self, str name, str py_name, int code, int kind, int bits, np_dtype):
        self.name = name
        self.py_name = py_name
        self.code = code
        self.kind = kind
        self.bits = bits
        self._np = None if np_dtype is None else np.dtype(np_dtype)

    @property
    def np_dtype(self):
        """The numpy dtype of the storage (bfloat16: ml_dtypes', loaded on first use)."""
        if self._np is None:
            _load_bfloat16()
        return self._np

    def __str__(self):
        return self.name

    def __repr__(self):
        return "mindspore." + self.py_name.rstrip("_")

    def __reduce__(self):
        return (dtype_by_short, (self.py_name,))

    @property
    def is_floating(self):
        return self.kind == KIND_FLOAT

    # MindSpore 2.10's dtype attributes (`ms.float32.itemsize`, `ms.float32.to_complex()`).
    @property
    def is_complex(self):
        return self.kind == KIND_COMPLEX

    @property
    def is_floating_point(self):
        return self.kind == KIND_FLOAT

    @property
    def is_signed(self):
        return self.kind >= KIND_FLOAT or (self.kind == KIND_INT and self.py_name[0] == "i")

    @property
    def itemsize(self):
        return self.bits // 8

    def to_complex(self):
        """The complex dtype with this dtype's real part (float32/bfloat16 -> complex64)."""
        if self.kind == KIND_COMPLEX:
            return self
        if self is _float32 or self is _bfloat16:
            return _complex64
        if self is _BY_SHORT["float64"]:
            return _complex128
        raise TypeError(f"Cannot convert type {self.py_name.rstrip('_')} to complex type.")

    def to_real(self):
        """The dtype of the real part (complex64 -> float32); other dtypes unchanged."""
        if self is _complex64:
            return _float32
        if self is _complex128:
            return _BY_SHORT["float64"]
        return self


cdef list _DTYPES = []          # by code
cdef dict _BY_NUM = {}          # numpy dtype.num -> DType
cdef dict _BY_SHORT = {}
cdef list _PROMOTE = []         # _PROMOTE[a.code][b.code] -> DType


def _add_dtype(name, py_name, kind, bits, np_dtype):
    cdef DType d = DType(name, py_name, len(_DTYPES), kind, bits, np_dtype)
    _DTYPES.append(d)
    _BY_SHORT[py_name] = d
    if np_dtype is not None:
        _BY_NUM[d._np.num] = d
    return d


bool_ = _add_dtype("Bool", "bool_", KIND_BOOL, 8, np.bool_)
int8 = _add_dtype("Int8", "int8", KIND_INT, 8, np.int8)
int16 = _add_dtype("Int16", "int16", KIND_INT, 16, np.int16)
int32 = _add_dtype("Int32", "int32", KIND_INT, 32, np.int32)
int64 = _add_dtype("Int64", "int64", KIND_INT, 64, np.int64)
uint8 = _add_dtype("UInt8", "uint8", KIND_INT, 8, np.uint8)
float16 = _add_dtype("Float16", "float16", KIND_FLOAT, 16, np.float16)
bfloat16 = _add_dtype("BFloat16", "bfloat16", KIND_FLOAT, 16, None)
float32 = _add_dtype("Float32", "float32", KIND_FLOAT, 32, np.float32)
float64 = _add_dtype("Float64", "float64", KIND_FLOAT, 64, np.float64)
# Wider unsigned ints came later; appended so the codes above keep their values.
uint16 = _add_dtype("UInt16", "uint16", KIND_INT, 16, np.uint16)
uint32 = _add_dtype("UInt32", "uint32", KIND_INT, 32, np.uint32)
uint64 = _add_dtype("UInt64", "uint64", KIND_INT, 64, np.uint64)
complex64 = _add_dtype("Complex64", "complex64", KIND_COMPLEX, 64, np.complex64)
complex128 = _add_dtype("Complex128", "complex128", KIND_COMPLEX, 128, np.complex128)
for _alias in (np.longlong, np.intc, np.int_):
    _BY_NUM.setdefault(np.dtype(_alias).num, _BY_SHORT[np.dtype(_alias).name])
ALL_DTYPES = tuple(_DTYPES)
cdef DType _float32 = float32
cdef object _EMPTY = np.empty(0, np.float32)
cdef DType _int64 = int64
cdef DType _bfloat16 = bfloat16
cdef DType _complex64 = complex64
cdef DType _complex128 = complex128
BFLOAT16_MISSING = ("bfloat16 tensors need the ml_dtypes package (numpy's bfloat16): install "
                    "it with `pip install 'cellgrad-core[bfloat16]'` (or `pip install ml_dtypes`).")


def _load_bfloat16():
    """Give bfloat16 its storage, ml_dtypes' numpy bfloat16 (imported on first use: it costs
    ~0.1 s, and the core's only runtime dependencies are numpy and pluggy)."""
    if _bfloat16._np is not None:
        return
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(BFLOAT16_MISSING) from None
    _bfloat16._np = np.dtype(ml_dtypes.bfloat16)
    _BY_NUM[_bfloat16._np.num] = _bfloat16


_UNSIGNED = (uint8, uint16, uint32, uint64)
# uint64 with a signed int: int64, as numpy's integer rule would need 128 bits (MindSpore's CPU
# refuses unsigned arithmetic wider than uint8 altogether; README: differs on purpose).
_SIGNED_ABOVE = {8: int16, 16: int32, 32: int64, 64: int64}


cdef DType _promote_pair(DType a, DType b):
    """MindSpore's tensor-tensor promotion (semantics §15)."""
    if a is b:
        return a
    if a.kind == KIND_COMPLEX or b.kind == KIND_COMPLEX:
        # complex64 with float64 (or complex128): complex128, as MindSpore.
        return _complex128 if a.bits == 128 or b.bits == 128 or (
            a.kind == KIND_FLOAT and a.bits == 64) or (
            b.kind == KIND_FLOAT and b.bits == 64) else _complex64
    if a.kind != b.kind:
        return a if a.kind > b.kind else b
    if a.kind == KIND_FLOAT:
        if a.bits == b.bits:          # float16 with bfloat16
            return _float32
        return a if a.bits > b.bits else b
    ua, ub = a in _UNSIGNED, b in _UNSIGNED
    if ua != ub:                      # unsigned with signed: a signed type holding both
        u, other = (a, b) if ua else (b, a)
        return other if other.bits > u.bits else _SIGNED_ABOVE[u.bits]
    return a if a.bits > b.bits else b


for _a in _DTYPES:
    _PROMOTE.append([_promote_pair(_a, _b) for _b in _DTYPES])


def dtype_by_short(str py_name):
    return _BY_SHORT[py_name]


cpdef DType dtype_of_array(object arr):
    """The cellgrad dtype of a numpy array; TypeError for unsupported dtypes."""
    d = _BY_NUM.get(arr.dtype.num)
    if d is None:
        if arr.dtype.name == "bfloat16" and _bfloat16._np is None:
            _load_bfloat16()
            return dtype_of_array(arr)
        _unsupported(arr)
    return <DType>d


cdef _unsupported(arr):
    raise TypeError(
        f"Tensor does not support numpy dtype '{arr.dtype}'; supported: "
        + ", ".join([str(t) for t in _DTYPES]) + ".")


def promote_types(DType a, DType b):
    return _PROMOTE[a.code][b.code]


cdef inline int _scalar_kind(object v):
    """Kind of a Python or numpy scalar; -1 when `v` is not a scalar."""
    cdef type t = type(v)
    if t is float:
        return KIND_FLOAT
    if t is int:
        return KIND_INT
    if t is bool:
        return KIND_BOOL
    if t is complex:
        return KIND_COMPLEX
    if isinstance(v, np_generic):
        k = v.dtype.kind
        if k == "f" or v.dtype.name == "bfloat16":
            return KIND_FLOAT
        if k == "c":
            return KIND_COMPLEX
        if k in "iu":
            return KIND_INT
        if k == "b":
            return KIND_BOOL
        return -1
    # subclasses (`ms.mutable`'s _Int/_Float/_Bool): Python scalars, as MindSpore treats them
    if isinstance(v, bool):
        return KIND_BOOL
    if isinstance(v, int):
        return KIND_INT
    if isinstance(v, float):
        return KIND_FLOAT
    return -1


cdef DType _promote_scalar(DType d, int kind):
    """Tensor dtype meeting a Python scalar of `kind`: scalars never widen within a kind."""
    if kind <= d.kind:
        return d
    if kind == KIND_INT:
        return _int64
    if kind == KIND_COMPLEX:
        return _complex128 if d.kind == KIND_FLOAT and d.bits == 64 else _complex64
    return _float32


cdef object _scalar_array(object v, DType d):
    """A 0-d array of dtype `d` holding scalar `v`; ints wrap like MindSpore (uint8 + 300)."""
    cdef type t = type(v)
    if d.bits >= 32 and d is not _bfloat16 and (
            (t is float and d.kind >= KIND_FLOAT) or (t is complex and d.kind == KIND_COMPLEX)
            or (t is int and d.kind == KIND_INT and -2147483648 <= v <= 2147483647 and
                (v >= 0 or d._np.kind != "u"))):
        return d._np.type(v)      # exact or correctly rounded: no overflow possible
    if d.kind == KIND_INT and type(v) is int:
        return np.array(v, dtype=np.int64).astype(d._np)
    with np.errstate(over="ignore"):
        return np.array(v).astype(d._np)


def round_bfloat16(arr):
    """The values rounded to the nearest bfloat16 (ties to even), as a bfloat16 array."""
    _load_bfloat16()
    with np.errstate(over="ignore"):
        return np.asarray(arr).astype(_bfloat16._np)


cdef class TensorBuffer:
    """The storage under `cellgrad.Tensor`: array, dtype and place on the tape."""

    def __cinit__(self):
        # A buffer made without __init__ is a valid empty Float32 tensor, never a NULL dtype.
        self._dt = _float32
        self._data = _EMPTY

    @property
    def _dtype(self):
        return self._dt

    @_dtype.setter
    def _dtype(self, DType value not None):
        self._dt = value

    def __hash__(self):
        return id(self)

    @property
    def shape(self):
        return self._data.shape

    @property
    def dtype(self):
        return self._dt

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    def asnumpy(self):
        """The values as a numpy array (shares memory, like MindSpore on CPU)."""
        return self._data

    # ---- arithmetic: each dunder is one call into apply ----
    def __add__(self, other):
        return apply2(_OPS[0], self, other)

    def __radd__(self, other):
        return apply2(_OPS[0], other, self)

    def __sub__(self, other):
        return apply2(_OPS[1], self, other)

    def __rsub__(self, other):
        return apply2(_OPS[1], other, self)

    def __mul__(self, other):
        return apply2(_OPS[2], self, other)

    def __rmul__(self, other):
        return apply2(_OPS[2], other, self)

    def __truediv__(self, other):
        return apply2(_OPS[3], self, other)

    def __rtruediv__(self, other):
        return apply2(_OPS[3], other, self)

    def __floordiv__(self, other):
        return apply2(_OPS[4], self, other)

    def __rfloordiv__(self, other):
        return apply2(_OPS[4], other, self)

    def __mod__(self, other):
        return apply2(_OPS[5], self, other)

    def __rmod__(self, other):
        return apply2(_OPS[5], other, self)

    def __pow__(self, other, mod=None):
        return apply2(_OPS[6], self, other)

    def __rpow__(self, other, mod=None):
        return apply2(_OPS[6], other, self)

    def __matmul__(self, other):
        return apply2(_OPS[7], self, other)

    def __rmatmul__(self, other):
        return apply2(_OPS[7], other, self)

    def __neg__(self):
        return apply1(_OPS[8], self)

    def __abs__(self):
        return apply1(_OPS[9], self)

    def __pos__(self):
        return self

    def __lt__(self, other):
        return apply2(_OPS[10], self, other)

    def __le__(self, other):
        return apply2(_OPS[11], self, other)

    def __gt__(self, other):
        return apply2(_OPS[12], self, other)

    def __ge__(self, other):
        return apply2(_OPS[13], self, other)

    # MindSpore compares elementwise only with a Tensor, int or float (numpy's scalars that are
    # not int/float subclasses, arrays, tuples, None, ... are simply unequal)
    def __eq__(self, other):
        if not isinstance(other, (TensorBuffer, int, float)):
            return False
        return apply2(_OPS[14], self, other)

    def __ne__(self, other):
        if not isinstance(other, (TensorBuffer, int, float)):
            return True
        return apply2(_OPS[15], self, other)

    def __and__(self, other):
        return apply2(_OPS[16], self, other)

    def __rand__(self, other):
        return apply2(_OPS[16], other, self)

    def __or__(self, other):
        return apply2(_OPS[17], self, other)

    def __ror__(self, other):
        return apply2(_OPS[17], other, self)

    def __xor__(self, other):
        return apply2(_OPS[18], self, other)

    def __rxor__(self, other):
        return apply2(_OPS[18], other, self)

    def __invert__(self):
        return apply1(_OPS[19], self)

    # ---- zero-copy exchange ----
    def __getbuffer__(self, Py_buffer *buffer, int flags):
        if _jit_hook.tracer is not None:  # np.asarray(t) reads values: a jit trace must know
            _jit_hook.tracer.value_read(self, "buffer")
        PyObject_GetBuffer(self._data, buffer, flags)

    def __dlpack__(self, *args, **kwargs):
        if _jit_hook.tracer is not None:
            _jit_hook.tracer.value_read(self, "__dlpack__")
        return self._data.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()


DUNDER_OPS = ("add", "sub", "mul", "div", "floor_div", "mod", "pow", "matmul", "neg", "abs",
              "lt", "le", "gt", "ge", "eq", "ne", "bitwise_and", "bitwise_or", "bitwise_xor",
              "logical_not")
cdef list _OPS = [None] * len(DUNDER_OPS)


def set_tensor_class(cls, dict dunder_ops):
    """Install `cellgrad.Tensor` (results are created as it) and the ops behind the dunders."""
    global _tensor_cls
    if not issubclass(cls, TensorBuffer):
        raise TypeError("the tensor class must derive from TensorBuffer")
    _tensor_cls = cls
    for i, name in enumerate(DUNDER_OPS):
        _OPS[i] = dunder_ops[name]


cdef class Op:
    """An op: a numpy forward and its backward rule, declared side by side.

    `forward(*arrays, **attrs) -> (out, saved)`; `backward(ctx, *grads)` returns one gradient
    (or None) per input, reading `ctx.saved`, `ctx.xp` (numpy, or the Tensor namespace for
    higher orders) and `ctx.needs_input_grad`. `backward=None` marks a non-differentiable op.
    """

    def __init__(self, str name, forward, backward=None, int promote=0,
                 bint first_order_only=False):
        if not callable(forward):
            raise TypeError(f"Op '{name}': forward must be callable, got {type(forward)!r}")
        if backward is not None and not callable(backward):
            raise TypeError(f"Op '{name}': backward must be callable or None")
        self.name = name
        self.forward = forward
        self.backward = backward
        self.promote = promote
        self.first_order_only = first_order_only
        # A forward built by the elementwise table carries its ufunc, so `apply` can call
        # numpy directly and skip the Python frame (the per-op hot path).
        self.ufunc = getattr(forward, "ufunc", None)
        self.save = getattr(forward, "save", 0)
        # add/sub/mul/neg on small float arrays run in _small's loops, the ufunc's results.
        self.kernel = kernel_code(self.ufunc) if self.ufunc is not None else 0
        # A backward marked `passthrough` (ops._registry.pass_gradient) is not even called on
        # first order: the walk hands the gradient on itself.
        self.passthrough = getattr(backward, "passthrough", False)
        # A backward marked `raw_grads` fills missing output gradients itself (or not: a
        # custom Function with set_materialize_grads(False) sees None).
        self.raw_grads = getattr(backward, "raw_grads", False)
        # The core's own rules for the commonest elementwise ops are also written in the walk
        # (_tape.builtin_backward, the same numpy calls), which saves a Python frame per node.
        self.rule = _BUILTIN_RULES.get(name, 0) if getattr(
            backward, "__module__", None) == "cellgrad.ops._elementwise" else 0

    @property
    def differentiable(self):
        return self.backward is not None

    def __call__(self, *inputs, **attrs):
        return apply(self, inputs, attrs)

    def __repr__(self):
        return f"Op({self.name!r})"


cdef inline TensorBuffer _wrap(object arr, DType d, Node node, int slot):
    cdef TensorBuffer t = <TensorBuffer>cg_tp_new(_tensor_cls, ())
    t._data = arr
    t._dt = d
    t._node = node
    t._slot = slot
    return t


def make_tensor(arr, node=None, int slot=0, dtype=None):
    """Wrap an ndarray as a Tensor without copying (node: its place on the tape, or None)."""
    if type(arr) is not ndarray:
        arr = _asarray(arr)
    return _wrap(arr, dtype_of_array(arr) if dtype is None else dtype, node, slot)


cdef DType _result_dtype(Op op, tuple inputs):
    """The dtype all inputs are cast to under the op's promotion rule (None: no tensor)."""
    cdef DType d = None
    cdef int kind, skind = -1
    for v in inputs:
        if isinstance(v, TensorBuffer):
            d = (<TensorBuffer>v)._dt if d is None else \
                <DType>_PROMOTE[d.code][(<TensorBuffer>v)._dt.code]
        else:
            kind = _scalar_kind(v)
            if kind > skind:
                skind = kind
            elif kind < 0 and type(v) is ndarray:
                raise TypeError(
                    f"Failed calling {op.name} with \"{op.name}()(input="
                    + ", ".join(_describe(x) for x in inputs)
                    + ")\": numpy arrays must be wrapped in a Tensor first.")
    if d is None:
        return None
    if skind >= 0:
        d = _promote_scalar(d, skind)
    if (op.promote == 2 or op.promote == 3) and d.kind < KIND_FLOAT:
        d = _float32
    return d


cdef object _op_error(Op op, tuple inputs, Exception e):
    """A numpy error from inside an op as one naming the op and what it got; the caller chains
    the original. numpy's own classes (e.g. _UFuncNoLoopError) take other constructor
    arguments than a message, so those become the builtin class they derive from."""
    msg = str(e).strip()
    if "broadcast" in msg:
        msg = "the input shapes cannot be broadcast together"
    text = (f"For '{op.name}', {msg}; got inputs "
            + ", ".join([_describe(x) for x in inputs]) + ".")
    cls = type(e)
    if cls.__module__.startswith("numpy"):
        cls = TypeError if isinstance(e, TypeError) else ValueError
    try:
        return cls(text)
    except Exception:
        return (TypeError if isinstance(e, TypeError) else ValueError)(text)


cdef str _describe(object v):
    if isinstance(v, TensorBuffer):
        t = <TensorBuffer>v
        return f"Tensor(shape={t._data.shape}, dtype={t._dt.name})"
    if type(v) is ndarray:
        return f"numpy.ndarray(shape={v.shape}, dtype={v.dtype})"
    if isinstance(v, (int, float, bool)):
        return repr(v)
    if isinstance(v, str):
        return f"str {v[:40]!r}"
    return f"{type(v).__name__} {str(v)[:40]}" if isinstance(v, (list, tuple)) else \
        str(type(v))


cdef object _cast_input(object v, DType d):
    if isinstance(v, TensorBuffer):
        a = (<TensorBuffer>v)._data
        if a.dtype is not d._np and a.dtype != d._np:
            a = a.astype(d._np)
        return a
    if _scalar_kind(v) >= 0:
        return _scalar_array(v, d)
    return v


cdef object _finish(Op op, tuple inputs, object res, DType d, bint record):
    """Wrap the forward's result as Tensor(s) and, when recording, add a tape node."""
    cdef object out, saved
    cdef Py_ssize_t i, n_out
    cdef Node node = None
    if type(res) is not tuple or len(<tuple>res) != 2:
        raise TypeError(f"Op '{op.name}': forward must return (out, saved), got {type(res)!r}")
    out, saved = <tuple>res
    # The common case (one array of the promoted dtype, not recording) is wrapped directly.
    if not record and d is not None and type(out) is ndarray and op.promote != 4 \
            and (<object>out).dtype is d._np:
        return _wrap(out, d, None, 0)
    multi = type(out) is tuple
    outs = out if multi else (out,)
    n_out = len(outs)
    arrays = []
    for o in outs:
        arrays.append(o if type(o) is ndarray else _asarray(o))
    if record:
        node = _record(op, inputs, saved, arrays, multi)
    results = []
    for i in range(n_out):
        a = arrays[i]
        if d is _bfloat16 and op.promote != 4 and a.dtype.kind == "f":
            # ml_dtypes computes some ops (matmul) in float32: round back to the storage.
            a = a.astype(_bfloat16._np)
        if d is None or op.promote == 4 or a.dtype is not d._np:
            od = _out_dtype(a, inputs)
        else:
            od = d
        results.append(_wrap(a, od, node, i))
    return tuple(results) if multi else results[0]


cdef DType _out_dtype(object a, tuple inputs):
    """Dtype of an output array: the first Tensor input's if the storage matches (bfloat16)."""
    for v in inputs:
        if isinstance(v, TensorBuffer):
            if (<TensorBuffer>v)._data.dtype == a.dtype:
                return (<TensorBuffer>v)._dt
            break
    return dtype_of_array(a)


cdef Node _record(Op op, tuple inputs, object saved, list arrays, bint multi):
    cdef Py_ssize_t n = len(inputs), i
    cdef TensorBuffer t
    nexts = [None] * n
    slots = [0] * n
    shapes = [None] * n
    dtypes = [None] * n
    for i in range(n):
        v = inputs[i]
        if isinstance(v, TensorBuffer) and (<TensorBuffer>v)._node is not None:
            t = <TensorBuffer>v
            nexts[i] = t._node
            slots[i] = t._slot
            shapes[i] = t._data.shape
            dtypes[i] = t._data.dtype
    out_meta = tuple([(a.shape, a.dtype) for a in arrays]) if multi else None
    if type(saved) is not tuple:
        saved = () if saved is None else (saved,)
    saved_map = None
    if record_depth() >= 2:
        saved_map = _saved_map(inputs, saved, arrays)
    return new_node(op, saved, tuple(nexts), tuple(slots), tuple(shapes), tuple(dtypes),
                    out_meta, saved_map)


cdef tuple _saved_map(tuple inputs, tuple saved, list outs):
    """For each saved value: which input or output it is (by identity), for higher orders."""
    cdef list m = []
    for s in saved:
        found = None
        if type(s) is not ndarray:
            m.append(None)      # attributes, shapes, None: passed through unchanged
            continue
        for i, o in enumerate(outs):
            if s is o:
                found = -1 - i
                break
        if found is None:
            for i, v in enumerate(inputs):
                if s is v or (isinstance(v, TensorBuffer) and s is (<TensorBuffer>v)._data):
                    found = i
                    break
        m.append(found)
    return tuple(m)


cdef inline bint _has_edge(object v):
    return isinstance(v, TensorBuffer) and (<TensorBuffer>v)._node is not None


def set_op_observer(observer):
    """Install the object whose `op_begin`/`op_end`/`op_abort` see every dispatch (or None);
    returns the previous one. `cellgrad.observe` is the public side of this."""
    global _observer
    previous = _observer
    _observer = observer
    return previous


cdef object _observed(Op op, tuple inputs, dict attrs):
    """A dispatch while an observer watches: the generic path, between its begin and end."""
    observer = _observer
    observer.op_begin(op, inputs, attrs)
    try:
        res = _apply(op, inputs, attrs)
    except BaseException:
        observer.op_abort(op)
        raise
    observer.op_end(op, inputs, attrs, res)
    return res


def set_amp_policy(policy):
    """Install `policy(op, inputs) -> inputs`, run before every dispatch (or None): the
    per-op casts of `amp.auto_mixed_precision(..., 'auto')`; returns the previous one."""
    global _amp
    previous = _amp
    _amp = policy
    return previous


def set_dispatch_handler(handler):
    """Install `handler(op, inputs, attrs) -> result`, called for every dispatch in its place
    (or None); returns the previous one. The handler runs the op with `apply_undispatched`.
    `cellgrad.MsDispatchMode` is the public side; it also keeps an observer watching, so the
    one- and two-input fast paths take this generic path."""
    global _dispatch
    previous = _dispatch
    _dispatch = handler
    return previous


cpdef object apply(Op op, tuple inputs, dict attrs=None):
    """Run `op` on `inputs` (Tensors and plain values) and record it when needed."""
    if _dispatch is not None:
        return _dispatch(op, inputs, attrs)
    return apply_undispatched(op, inputs, attrs)


cpdef object apply_undispatched(Op op, tuple inputs, dict attrs=None):
    """`apply` without the dispatch handler (what the handler calls to run the op)."""
    if _amp is not None:
        inputs = _amp(op, inputs)
    if _observer is not None:
        return _observed(op, inputs, attrs)
    return _apply(op, inputs, attrs)


cdef object _apply(Op op, tuple inputs, dict attrs):
    cdef DType d = None
    cdef bint record = False
    cdef Py_ssize_t i, n = len(inputs)
    if op.promote:
        d = _result_dtype(op, inputs)
    args = []
    for i in range(n):
        v = inputs[i]
        if d is not None:
            args.append(_cast_input(v, d))
        elif isinstance(v, TensorBuffer):
            args.append((<TensorBuffer>v)._data)
        else:
            args.append(v)
        if not record and _has_edge(v):
            record = True
    record = record and op.backward is not None and recording()
    try:
        res = op.forward(*args, **attrs) if attrs else op.forward(*args)
    except (ValueError, TypeError) as e:
        if str(e).startswith("For '"):
            raise
        raise _op_error(op, inputs, e) from e
    return _finish(op, inputs, res, d, record)


cdef inline object _saved_of(Op op, object xa, object xb, object out):
    if op.save == 1:
        return (xa,) if xb is None else (xa, xb)
    if op.save == 2:
        return (out,)
    return ()


cdef tuple _ZERO_SLOTS = (0, 0)
cdef tuple _NO_META = (None, None)
cdef tuple _NO_META_1 = (None,)
cdef tuple _ZERO_SLOT = (0,)


cdef inline object _kept_shape(TensorBuffer t, tuple out_shape):
    """The input's shape if its gradient will need reducing (it was broadcast), else None.

    Fast-path inputs already have the result dtype (no promotion happened), so an input of
    the output's shape needs neither shape nor dtype kept for the backward walk.
    """
    shape = t._data.shape
    return None if shape == out_shape else shape


cdef Node _record_fast(Op op, object a, object b, tuple saved, object out):
    """Record a one- or two-input ufunc op (b is None for one input)."""
    cdef TensorBuffer t
    cdef object na = None, nb = None, sha = None, shb = None, dta = None, dtb = None
    cdef int sa = 0, sb = 0
    cdef tuple out_shape
    if b is None:
        # One input: an elementwise op's output has its shape and dtype, nothing to keep.
        if isinstance(a, TensorBuffer) and (<TensorBuffer>a)._node is not None:
            t = <TensorBuffer>a
            na, sa = t._node, t._slot
        return new_node(op, saved, (na,), _ZERO_SLOT if sa == 0 else (sa,), _NO_META_1,
                        _NO_META_1, None,
                        _saved_map((a,), saved, [out]) if record_depth() >= 2 else None)
    out_shape = out.shape
    if isinstance(a, TensorBuffer) and (<TensorBuffer>a)._node is not None:
        t = <TensorBuffer>a
        na, sa = t._node, t._slot
        sha = _kept_shape(t, out_shape)
        dta = None if sha is None else t._data.dtype
    if isinstance(b, TensorBuffer) and (<TensorBuffer>b)._node is not None:
        t = <TensorBuffer>b
        nb, sb = t._node, t._slot
        shb = _kept_shape(t, out_shape)
        dtb = None if shb is None else t._data.dtype
    smap = _saved_map((a, b), saved, [out]) if record_depth() >= 2 else None
    # The common case (same shapes, first outputs) shares constant tuples: no allocation.
    cdef tuple slots = _ZERO_SLOTS if sa == 0 and sb == 0 else (sa, sb)
    if sha is None and shb is None:
        return new_node(op, saved, (na, nb), slots, _NO_META, _NO_META, None, smap)
    return new_node(op, saved, (na, nb), slots, (sha, shb), (dta, dtb), None, smap)


cdef object _run_ufunc(Op op, object a, object b, object xa, object xb, DType d, bint edge):
    """Call the op's ufunc on prepared arrays, wrap the result, record when needed."""
    cdef Node node = None
    out = None
    if op.kernel:
        out = small_neg(xa) if op.kernel == K_NEG else \
            None if b is None else small_binary(op.kernel, xa, xb)
    if out is None:
        try:
            out = op.ufunc(xa) if b is None else op.ufunc(xa, xb)
        except (ValueError, TypeError) as e:
            raise _op_error(op, (a,) if b is None else (a, b), e) from e
    if type(out) is not ndarray:
        out = _asarray(out)
    if op.promote == 4:
        d = dtype_of_array(out)
    elif out.dtype is not d._np:
        if d is _bfloat16 and out.dtype.kind == "f":
            out = out.astype(d._np)
        else:
            d = dtype_of_array(out)
    if edge and op.backward is not None and recording():
        node = _record_fast(op, a, b, _saved_of(op, xa, xb, out), out)
    return _wrap(out, d, node, 0)


cdef object apply1(Op op, object a):
    """`apply` for one Tensor input: ufunc ops skip the generic machinery."""
    cdef TensorBuffer ta
    if _observer is not None or _amp is not None:
        return apply(op, (a,), None)
    if op.ufunc is not None and isinstance(a, TensorBuffer):
        ta = <TensorBuffer>a
        if op.promote != 3 or ta._dt.kind >= KIND_FLOAT:
            return _run_ufunc(op, a, None, ta._data, None, ta._dt, ta._node is not None)
    return apply(op, (a,), None)


def apply_unary(Op op, a):
    """Python entry to the one-input fast path (used by the functional wrappers)."""
    return apply1(op, a)


cdef object _apply_pair(Op op, object a, object b):
    """`apply` of two inputs; for add and sub a tuple/list operand of a Tensor becomes a Tensor
    of that Tensor's dtype first (MindSpore's `sequence_to_tensor`): Tensors in it are stacked,
    so they keep their gradients."""
    cdef type ta = type(a), tb = type(b)
    if (ta is tuple or ta is list or tb is tuple or tb is list) and \
            (op is _OPS[0] or op is _OPS[1]):
        if isinstance(b, TensorBuffer):
            a = _sequence_to_tensor(a, (<TensorBuffer>b)._dt)
        elif isinstance(a, TensorBuffer):
            b = _sequence_to_tensor(b, (<TensorBuffer>a)._dt)
    return apply(op, (a, b), None)


cdef object _sequence_to_tensor(object seq, DType d):
    """A tuple/list as a Tensor of dtype `d` (Tensors in it stacked); other values unchanged."""
    if not (type(seq) is tuple or type(seq) is list):
        return seq
    if not any([isinstance(e, TensorBuffer) for e in seq]):
        return make_tensor(np.asarray(seq, d.np_dtype), None, 0, d)
    from cellgrad.ops.functional import stack
    parts = [e if isinstance(e, TensorBuffer) else make_tensor(np.asarray(e, d.np_dtype),
                                                               None, 0, d) for e in seq]
    out = stack(parts)
    return out if (<TensorBuffer>out)._dt is d else out.astype(d)


cdef object apply2(Op op, object a, object b):
    """`apply` for two inputs: same-dtype Tensors and Tensor-with-scalar skip the generic
    promotion and, for ufunc ops, the Python forward frame."""
    cdef TensorBuffer ta, tb
    cdef DType d
    cdef int kind
    if op.ufunc is None or op.promote == 0 or _observer is not None or _amp is not None:
        return _apply_pair(op, a, b)
    if isinstance(a, TensorBuffer):
        ta = <TensorBuffer>a
        if isinstance(b, TensorBuffer):
            tb = <TensorBuffer>b
            if ta._dt is not tb._dt:
                return _apply_pair(op, a, b)
            d = ta._dt
            if (op.promote == 2 or op.promote == 3) and d.kind < KIND_FLOAT:
                return _apply_pair(op, a, b)
            return _run_ufunc(op, a, b, ta._data, tb._data, d,
                              ta._node is not None or tb._node is not None)
        kind = _scalar_kind(b)
        if kind < 0:
            return _apply_pair(op, a, b)
        d = _promote_scalar(ta._dt, kind)
        if d is not ta._dt or ((op.promote == 2 or op.promote == 3) and d.kind < KIND_FLOAT):
            return _apply_pair(op, a, b)
        return _run_ufunc(op, a, b, ta._data, _scalar_array(b, d), d, ta._node is not None)
    if isinstance(b, TensorBuffer):
        tb = <TensorBuffer>b
        kind = _scalar_kind(a)
        if kind < 0:
            return _apply_pair(op, a, b)
        d = _promote_scalar(tb._dt, kind)
        if d is not tb._dt or ((op.promote == 2 or op.promote == 3) and d.kind < KIND_FLOAT):
            return _apply_pair(op, a, b)
        return _run_ufunc(op, a, b, _scalar_array(a, d), tb._data, d, tb._node is not None)
    return _apply_pair(op, a, b)


def apply_binary(Op op, a, b):
    """Python entry to the two-input fast path (used by the functional wrappers)."""
    return apply2(op, a, b)
