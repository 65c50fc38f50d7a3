"""MindSpore's type lattice as `MultitypeFuncGraph` dispatches on it in PyNative: the type of
a Python object (`mindspore.common.dtype._get_py_obj_dtype`), the types a registration string
names (`typing.str_to_type`) and the subclass test between them."""

import inspect

import numpy as np

from cellgrad._core._buffer import DType, TensorBuffer


class MsType:
    """One node of the lattice; prints as MindSpore prints its type (`mindspore.number`)."""

    __slots__ = ("name", "bases")

    def __init__(self, name, bases=()):
        self.name = name
        self.bases = frozenset(bases)  # every ancestor, not only the direct parent

    def is_subclass(self, other):
        return other is self or other.name in self.bases

    def __eq__(self, other):
        return isinstance(other, MsType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"mindspore.{self.name}"


def _t(name, *bases):
    return MsType(name, bases)


# registration string -> type; a scalar dtype's bases are its family and "number"
_NUMBER = ("number",)
_FAMILIES = {"int": ("Int", ["int8", "int16", "int32", "int64"]),
             "uint": ("UInt", ["uint8", "uint16", "uint32", "uint64"]),
             "float": ("Float", ["float16", "float32", "float64"]),
             "bfloat": (None, ["bfloat16"]),
             "complex": ("Complex", ["complex64", "complex128"])}
BY_NAME = {
    "Tensor": _t("tensor"), "Number": _t("number"), "Bool": _t("bool", *_NUMBER),
    "Tuple": _t("tuple_"), "List": _t("list_"), "String": _t("string_"),
    "None": _t("type_none"), "Function": _t("function"), "TypeType": _t("type_type"),
    "Dictionary": _t("Dictionary"), "Slice": _t("Slice"), "Ellipsis": _t("Ellipsis"),
    "Keyword": _t("Keyword"), "Problem": _t("unknown"), "Undetermined": _t("Undetermined"),
    "RowTensor": _t("RowTensor"), "COOTensor": _t("COOTensor"), "CSRTensor": _t("CSRTensor"),
    "MapTensor": _t("MapTensor"), "RefKeyType": _t("RefKeyType"), "UMonad": _t("UMonad"),
    "IOMonad": _t("IOMonad"),
}
for _family, (_label, _members) in _FAMILIES.items():
    if _label:
        BY_NAME[_label] = _t(_family, *_NUMBER)
    for _m in _members:
        BY_NAME[_m[0].upper() + _m[1:].replace("int", "Int")] = _t(_m, _family, *_NUMBER)
BY_NAME["BFloat16"] = BY_NAME.pop("Bfloat16")
_SCALAR = {t.name: t for t in BY_NAME.values()}
TENSOR, FUNCTION, TYPE_TYPE = BY_NAME["Tensor"], BY_NAME["Function"], BY_NAME["TypeType"]


class _TensorOf(MsType):
    """`mindspore.tensor[float32]`: what a Tensor argument reports; a subclass of 'Tensor'."""

    __slots__ = ()

    def __init__(self, dtype):
        super().__init__(f"tensor[{str(dtype).lower()}]", ("tensor",))


def from_name(name):
    """The type a registration names: a string or a dtype (`register("Tensor", ms.int32)`)."""
    if isinstance(name, str):
        if name not in BY_NAME:
            raise RuntimeError(f"Unsupported type name: {name}!")
        return BY_NAME[name]
    if isinstance(name, DType):
        return _SCALAR["bool" if name.kind == 0 else str(name).lower()]
    if isinstance(name, MsType):
        return name
    raise TypeError(f"For 'MultitypeFuncGraph', register only support str or "
                    f"<class 'mindspore._c_expression.typing.Type'>, but got 'type_input': "
                    f"{name}.")


_PY = {list: "list_", tuple: "tuple_", type(None): "type_none", bool: "bool", int: "int64",
       float: "float64", complex: "complex128", str: "string_", np.bool_: "bool",
       np.str_: "string_", **{getattr(np, n): n for n in (
           "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64")}}


def _from_pytype(cls):
    if cls in _PY:
        return _SCALAR[_PY[cls]]
    raise NotImplementedError(f"The python type {cls} cannot be converted to MindSpore type.")


def of(obj):
    """The type of a runtime argument, as `mindspore.common.dtype._get_py_obj_dtype`."""
    if isinstance(obj, TensorBuffer):
        return _TensorOf(obj.dtype)
    # sparse tensors name their type; MindSpore dispatches them so under jit (PyNative refuses)
    sparse = getattr(type(obj), "_ms_type_name", None)
    if sparse is not None:
        return BY_NAME[sparse]
    if (getattr(obj, "__primitive_flag__", False) or hasattr(obj, "construct")
            or inspect.isfunction(obj) or _is_primitive(obj)):
        return FUNCTION
    if isinstance(obj, DType):
        return TYPE_TYPE
    return _from_pytype(obj if isinstance(obj, type) else type(obj))


def _is_primitive(obj):
    from cellgrad.ops.primitive import Primitive

    return isinstance(obj, Primitive)
