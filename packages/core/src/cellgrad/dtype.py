"""dtypes, mirroring `mindspore.common.dtype` (`str(float32) == 'Float32'`): the one table.

bfloat16 is stored as ml_dtypes' numpy bfloat16 (the `cellgrad-core[bfloat16]` extra), imported
on first use; without it `bfloat16` is still a dtype and making a bfloat16 tensor raises an
ImportError naming the extra. complex64/complex128 are numpy's.
"""

import builtins
import enum
import inspect

import numpy as np

from cellgrad._core._buffer import (
    ALL_DTYPES,
    DType,
    bfloat16,
    bool_,
    complex64,
    complex128,
    dtype_of_array,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    uint8,
    uint16,
    uint32,
    uint64,
)

__all__ = [
    "DType",
    "bfloat16",
    "bool_",
    "complex64",
    "complex128",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "half",
    "single",
    "double",
    "float_",
    "int_",
    "to_dtype",
    "promote_types",
    "dtype_of_array",
    "ALL_DTYPES",
    "dtype_to_nptype",
    "pytype_to_dtype",
    "dtype_to_pytype",
    "get_py_obj_dtype",
    "Type",
    "Int",
    "TensorType",
    "Float",
    "Tuple",
    "tensor_type",
    "QuantDtype",
    "list_",
    "tuple_",
    "string",
    "type_none",
    "cfloat",
    "cdouble",
    "complex_type",
    "number",
    "uint",
]

half = float16
single = float32
double = float64
float_ = float32
int_ = int64
cfloat = complex64
cdouble = complex128

_BY_NAME = {d.py_name: d for d in ALL_DTYPES}
_BY_NAME.update({d.name: d for d in ALL_DTYPES})
_BY_NAME.update({"bool": bool_, "float": float32, "int": int64, "half": float16,
                 "double": float64, "single": float32})


def to_dtype(value, what="dtype"):
    """Convert a cellgrad dtype, numpy dtype/type, Python type or name to a cellgrad dtype."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if value is float:
        return float32
    if value is int:
        return int64
    if value is bool:
        return bool_
    try:
        return dtype_of_array(np.empty(0, dtype=np.dtype(value)))
    except TypeError:
        pass
    raise TypeError(
        f"Unsupported {what} {value!r}; expected one of "
        + ", ".join(d.py_name for d in ALL_DTYPES) + " (cellgrad dtypes or their numpy types).")


class _TypeMeta(type):
    """`isinstance(ms.float32, ms.Type)`: every cellgrad dtype and type object is a Type."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, (DType, _ObjType, TensorType))


class Type(metaclass=_TypeMeta):
    """Mirrors `mindspore.common.dtype.Type`, the base of MindSpore's types: `isinstance(x,
    Type)` holds for every dtype; the dtypes themselves are `DType` objects."""

    def __init__(self, *args, **kwargs):
        raise TypeError("mindspore.Type is abstract: use a dtype such as mindspore.float32.")


class _IntMeta(_TypeMeta):
    def __instancecheck__(cls, obj):
        return obj in int_type


class Int(Type, metaclass=_IntMeta):
    """Mirrors `mindspore.common.dtype.Int`: `Int(32)` is `int32`; the signed ints are Ints."""

    def __new__(cls, nbits=64):
        found = {8: int8, 16: int16, 32: int32, 64: int64}.get(nbits)
        if found is None:
            raise RuntimeError(f"For Int type only support number of 8bits, 16bits, 32bits and "
                               f"64bits, but got {nbits}bits")
        return found


class _FloatMeta(_TypeMeta):
    def __instancecheck__(cls, obj):
        return obj in (float16, float32, float64) or obj is _FLOAT


class Float(Type, metaclass=_FloatMeta):
    """Mirrors `mindspore.common.dtype.Float`: `Float(32)` is `float32`, `Float()` the generic
    float type; float16/32/64 are Floats."""

    def __new__(cls, nbits=None):
        if nbits is None:
            return _FLOAT
        found = {16: float16, 32: float32, 64: float64}.get(nbits)
        if found is None:
            raise RuntimeError(f"For Float type only support number of 16bits, 32bits and 64bits, "
                               f"but got {nbits}bits")
        return found


class _ObjType:
    """A MindSpore type that is not a tensor element type (`List`, `Tuple`, `String`, `None`)."""

    def __init__(self, name, attr, pytype):
        self.name, self._attr, self.pytype = name, attr, pytype

    def __str__(self):
        return self.name

    def __repr__(self):
        return "mindspore." + self._attr

    def __reduce__(self):
        return self._attr


list_ = _ObjType("List", "list_", list)
tuple_ = _ObjType("Tuple", "tuple_", tuple)
string = _ObjType("String", "string", str)
type_none = _ObjType("None", "type_none", type(None))
function = _ObjType("Function", "function", None)
_FLOAT = _ObjType("Float", "Float()", None)
# MindSpore's abstract kinds (`mstype.number`, `mstype.uint`): types of types, for
# `_inner_ops.IsSubClass`; no tensor has them as its dtype.
number = _ObjType("Number", "number", None)
uint = _ObjType("UInt", "uint", None)


class _TupleMeta(_TypeMeta):
    def __instancecheck__(cls, obj):
        return obj is tuple_


class Tuple(Type, metaclass=_TupleMeta):
    """Mirrors `mindspore.common.dtype.Tuple`: `Tuple()` is `tuple_`."""

    def __new__(cls):
        return tuple_
type_type = _ObjType("TypeType", "type_type", None)


class TensorType:
    """Mirrors `mindspore.common.dtype.TensorType`: the type of a tensor of `element` dtype."""

    def __init__(self, element):
        self._element = to_dtype(element)

    def element_type(self):
        return self._element

    def __eq__(self, other):
        return isinstance(other, TensorType) and other._element is self._element

    def __hash__(self):
        return hash(("TensorType", self._element))

    def __str__(self):
        return "Tensor" if self._element is None else f"Tensor[{self._element}]"

    def __repr__(self):
        if self._element is None:
            return "mindspore.tensor"
        return f"mindspore.tensor[{self._element.py_name.rstrip('_')}]"


# MindSpore's generic tensor type (`mstype.tensor_type`): a TensorType of no element type.
tensor_type = object.__new__(TensorType)
tensor_type._element = None


class QuantDtype(enum.Enum):
    """Mirrors `mindspore.QuantDtype`: quantization dtypes INT1..INT16, UINT1..UINT16."""

    _ignore_ = ["_i"]
    for _i in range(1, 17):
        vars()[f"INT{_i}"] = _i - 1
    for _i in range(1, 17):
        vars()[f"UINT{_i}"] = 99 + _i

    def __str__(self):
        return self.name

    def value(self) -> builtins.int:
        """The member's number (MindSpore serializes QuantDtype with it)."""
        return self._value_


_SIMPLE_TYPES = {list: list_, tuple: tuple_, type(None): type_none, builtins.bool: bool_,
                 builtins.int: int64, builtins.float: float64, builtins.complex: complex128,
                 str: string, np.str_: string}
_PYTYPES = {d: (builtins.bool if d is bool_ else builtins.complex if d.is_complex else
                builtins.float if d.kind == 2 else builtins.int) for d in ALL_DTYPES}


def dtype_to_nptype(type_):
    """Mirrors `mindspore.dtype_to_nptype` (bfloat16: ml_dtypes' numpy bfloat16)."""
    return to_dtype(type_).np_dtype.type


def dtype_to_pytype(type_):
    """Mirrors `mindspore.dtype_to_pytype`: the Python type of a dtype's values."""
    if isinstance(type_, _ObjType) and type_.pytype is not None:
        return type_.pytype
    try:
        return _PYTYPES[type_]
    except (KeyError, TypeError):
        raise KeyError(type_) from None


def pytype_to_dtype(obj):
    """Mirrors `mindspore.pytype_to_dtype`: `float` is Float64, `int` Int64, `list` List."""
    if isinstance(obj, np.dtype):
        obj = obj.type
    if isinstance(obj, Type):
        return obj
    if not isinstance(obj, type):
        raise TypeError("For 'pytype_to_dtype', the argument 'obj' must be a python type object,"
                        f"such as int, float, str, etc. But got type {type(obj)}.")
    if obj in _SIMPLE_TYPES:
        return _SIMPLE_TYPES[obj]
    try:
        return dtype_of_array(np.empty(0, dtype=obj))
    except TypeError:
        raise NotImplementedError(
            f"The python type {obj} cannot be converted to MindSpore type.") from None


def get_py_obj_dtype(obj):
    """Mirrors `mindspore.get_py_obj_dtype`: the MindSpore type of a value or Python type."""
    dtype = getattr(obj, "dtype", None)
    if hasattr(obj, "shape") and isinstance(dtype, DType):
        return TensorType(dtype)
    if hasattr(obj, "__primitive_flag__") or hasattr(obj, "construct") or \
            inspect.isfunction(obj):
        return function
    if isinstance(obj, Type):
        return type_type
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    return pytype_to_dtype(type(obj))


# MindSpore's C-style and Python-style aliases. Assigned through globals() because `bool`,
# `int` and `float` as plain names would hide the builtins from the code above.
ALIASES = {"long": int64, "bool": bool_, "int": int32, "float": float32, "short": int16,
           "ushort": uint16, "byte": int8, "ubyte": uint8, "intc": int32, "uintc": uint32,
           "intp": int64, "uintp": uint64}
globals().update(ALIASES)
__all__ += list(ALIASES)

# MindSpore's dtype groups (those of cellgrad's dtypes: no 4- or 8-bit types).
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
signed_type = int_type + float_type + complex_type
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type
__all__ += ["int_type", "uint_type", "float_type", "signed_type", "number_type", "all_types"]

# The names `import mindspore as ms` also has at its top level (cellgrad/__init__.py adds them).
TOP_LEVEL = {name: globals()[name] for name in (
    "complex64", "complex128", "dtype_to_nptype", "pytype_to_dtype", "dtype_to_pytype",
    "get_py_obj_dtype", "Int", "Type", "TensorType", "QuantDtype", "tensor_type", "number",
    "uint")}
