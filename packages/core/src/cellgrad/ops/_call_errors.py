"""MindSpore's error for a primitive called with argument types its signature does not accept:

    Failed calling ACos with "ACos()(input=string)".
    The valid calling should be:
    "ACos()(input=<Tensor>)".

One builder for every op function: it names the primitive, its attributes and inputs with
the types it got (MindSpore's spelling: string, float, List<int, int>, ...) and the types each
accepts."""

import numbers

import numpy as np

from cellgrad._core._buffer import TensorBuffer

__all__ = ["bad_call", "prim_name", "type_name"]

# function name -> MindSpore primitive, where it is not the function's CamelCase
_PRIMS = {"acos": "ACos", "arccos": "ACos", "asin": "Asin", "arcsin": "Asin", "atan": "Atan",
          "arctan": "Atan", "isinf": "IsInf", "isfinite": "IsFinite", "isnan": "IsNan",
          "negative": "Neg", "absolute": "Abs", "le": "LessEqual", "gt": "Greater",
          "ge": "GreaterEqual", "eq": "Equal", "ne": "NotEqual", "lt": "Less",
          "floor_divide": "FloorDiv", "remainder": "FloorMod"}


def prim_name(fn_name):
    """The MindSpore primitive behind the ops function `fn_name` (`acos` -> `ACos`)."""
    name = _PRIMS.get(fn_name)
    return name or "".join(p[:1].upper() + p[1:] for p in fn_name.split("_"))


def type_name(v):
    """MindSpore's name for the type of a call argument."""
    if isinstance(v, TensorBuffer):
        return "Tensor"
    if v is None:
        return "None"
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, numbers.Integral):
        return "int"
    if isinstance(v, numbers.Real):
        return "float"
    if isinstance(v, numbers.Complex):
        return "complex"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (list, tuple)):
        inner = ", ".join(type_name(x) for x in v)
        return f"{'List' if isinstance(v, list) else 'Tuple'}<{inner}>"
    if type(v).__name__ == "DType":
        return "mindspore.dtype"
    return type(v).__name__


def bad_call(prim, inputs, valid, attrs=(), attr_valid=()):
    """The TypeError MindSpore raises for `prim(**attrs)(**inputs)`: `inputs`/`attrs` are
    (name, value) pairs, `valid`/`attr_valid` the accepted type names of each, e.g. "Tensor"
    or "Number, Tensor"."""
    def got(pairs):
        return ", ".join(f"{n}={type_name(v)}" for n, v in pairs)

    def want(pairs, kinds):
        return ", ".join(f"{n}=<{k}>" for (n, _), k in zip(pairs, kinds))

    return TypeError(f'Failed calling {prim} with "{prim}({got(attrs)})({got(inputs)})".\n'
                     f"The valid calling should be: \n"
                     f'"{prim}({want(attrs, attr_valid)})({want(inputs, valid)})".')
