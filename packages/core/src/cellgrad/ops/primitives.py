"""MindSpore's primitive-class forms (`ops.Add()(x, y)`, `ops.Sort(descending=True)`, ...).

Each is a thin callable over the functional op; constructor arguments are the primitive's
attributes, call arguments its inputs.
"""

import numpy as np

from cellgrad.dtype import int32, to_dtype
from cellgrad.ops import _prim_checks, _reduce
from cellgrad.ops import functional as F
from cellgrad.ops._prim_array import *  # noqa: F403
from cellgrad.ops._prim_index import *  # noqa: F403
from cellgrad.ops._prim_math import *  # noqa: F403
from cellgrad.ops._prim_other import *  # noqa: F403
from cellgrad.ops._prim_scalar import *  # noqa: F403
from cellgrad.ops.primitive import (  # noqa: F401  (re-exported: ops.PrimitiveWithInfer, ...)
    Primitive,
    PrimitiveWithCheck,
    PrimitiveWithInfer,
    constexpr,
    prim_arg_register,
    prim_attr_register,
)


def _simple(name, fn):
    def __call__(self, *args):
        return fn(*args)

    return type(name, (Primitive,), {"__call__": __call__,
                                     "__doc__": f"Mirrors `mindspore.ops.{name}`."})


Add = _simple("Add", F.add)
Sub = _simple("Sub", F.sub)
Mul = _simple("Mul", F.mul)
Div = _simple("Div", F.div)
RealDiv = _simple("RealDiv", F.div)
FloorDiv = _simple("FloorDiv", F.floor_div)
Pow = _simple("Pow", F.pow)
Maximum = _simple("Maximum", F.maximum)
Minimum = _simple("Minimum", F.minimum)
Neg = _simple("Neg", F.neg)
Abs = _simple("Abs", F.abs)
Exp = _simple("Exp", F.exp)
Log = _simple("Log", F.log)
Sqrt = _simple("Sqrt", F.sqrt)
Rsqrt = _simple("Rsqrt", F.rsqrt)
Square = _simple("Square", F.square)
Sin = _simple("Sin", F.sin)
Cos = _simple("Cos", F.cos)
Tanh = _simple("Tanh", F.tanh)
Sigmoid = _simple("Sigmoid", F.sigmoid)
Sign = _simple("Sign", F.sign)
Greater = _simple("Greater", F.gt)
GreaterEqual = _simple("GreaterEqual", F.ge)
Less = _simple("Less", F.lt)
LessEqual = _simple("LessEqual", F.le)
Equal = _simple("Equal", F.eq)
NotEqual = _simple("NotEqual", F.ne)
LogicalAnd = _simple("LogicalAnd", F.logical_and)
LogicalOr = _simple("LogicalOr", F.logical_or)
LogicalNot = _simple("LogicalNot", F.logical_not)
LogicalXor = _simple("LogicalXor", F.logical_xor)
Floor = _simple("Floor", F.floor)
Ceil = _simple("Ceil", F.ceil)
IsNan = _simple("IsNan", F.isnan)
IsInf = _simple("IsInf", F.isinf)
IsFinite = _simple("IsFinite", F.isfinite)
Select = _simple("Select", F.select)
MaskedFill = _simple("MaskedFill", F.masked_fill)
MaskedSelect = _simple("MaskedSelect", F.masked_select)
Reshape = _simple("Reshape", F.reshape)
Transpose = _simple("Transpose", F.transpose)
ExpandDims = _simple("ExpandDims", F.expand_dims)
BroadcastTo = None  # defined below (takes the shape as an attribute)
Tile = _simple("Tile", F.tile)
Cast = _simple("Cast", F.cast)
ZerosLike = _simple("ZerosLike", F.zeros_like)
OnesLike = _simple("OnesLike", F.ones_like)
Assign = _simple("Assign", F.assign)
StopGradient = _simple("StopGradient", F.stop_gradient)
UnsortedSegmentSum = _simple("UnsortedSegmentSum", F.unsorted_segment_sum)
Fill = _simple("Fill", F.fill)
Reciprocal = _simple("Reciprocal", F.reciprocal)
Round = _simple("Round", F.round)


class ACos(Primitive):
    """Mirrors `mindspore.ops.ACos`: elementwise arccosine (float and complex inputs)."""

    def __call__(self, input):
        return F.acos(_prim_checks.dtype_in(
            "ACos", "input", _prim_checks.called_with("ACos", "input", input), "fc",
            "{Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32], "
            "Tensor[Float64]}"))


class TensorAdd(Primitive):
    """Mirrors `mindspore.ops.TensorAdd`, MindSpore 1.x's name of `Add` (named Add)."""

    substitute_name = "Add"

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, x, y):
        return F.add(x, y)


class Flatten(Primitive):
    """Mirrors `mindspore.ops.Flatten`: keeps dimension 0, flattens the rest."""

    def __call__(self, input_x):
        return F.flatten(input_x)


class Ones(Primitive):
    """Mirrors `mindspore.ops.Ones()(shape, type)`."""

    def __call__(self, shape, type=None):
        return F.ones(shape, type)


class Zeros(Primitive):
    """Mirrors `mindspore.ops.Zeros()(shape, type)`."""

    def __call__(self, shape, type=None):
        return F.zeros(shape, type)


class Shape(Primitive):
    """Mirrors `mindspore.ops.Shape`: the shape as a tuple."""

    def __call__(self, x):
        return tuple(x.shape)


class Squeeze(Primitive):
    """Mirrors `mindspore.ops.Squeeze(axis=())`."""

    @prim_attr_register
    def __init__(self, axis=()):
        pass

    def __call__(self, x):
        return F.squeeze(x, None if self.axis == () else self.axis)


class BroadcastTo(Primitive):  # noqa: F811
    @prim_attr_register
    def __init__(self, shape):
        self.shape = tuple(shape)

    def __call__(self, x):
        return F.broadcast_to(x, self.shape)


class _Reduce(Primitive):
    _fn = None

    @prim_attr_register
    def __init__(self, keep_dims=False):
        pass

    def __call__(self, x, axis=()):
        axis = _reduce.tensor_axis(axis, type(self).__name__)
        axis = None if axis == () or axis == [] else axis
        return type(self)._fn(x, axis, self.keep_dims)


class ReduceSum(_Reduce):
    """Mirrors `mindspore.ops.ReduceSum(keep_dims=False, skip_mode=False)(x, axis=())`;
    `skip_mode` returns the input unchanged when `axis` is empty."""

    @prim_attr_register
    def __init__(self, keep_dims=False, skip_mode=False):
        pass

    def __call__(self, x, axis=()):
        axis = _reduce.tensor_axis(axis, "ReduceSum")
        if self.skip_mode and (axis == () or axis == []):
            return x
        return super().__call__(x, axis)

    _fn = staticmethod(F.sum)


class ReduceMean(_Reduce):
    _fn = staticmethod(F.mean)


class ReduceMax(_Reduce):
    _fn = staticmethod(F.amax)


class ReduceMin(_Reduce):
    _fn = staticmethod(F.amin)


class ReduceProd(_Reduce):
    _fn = staticmethod(F.prod)


class ReduceAll(_Reduce):
    _fn = staticmethod(F.all)


class ReduceAny(_Reduce):
    _fn = staticmethod(F.any)


class Argmax(Primitive):
    """Mirrors `mindspore.ops.Argmax(axis=-1, output_type=int32)`."""

    @prim_attr_register
    def __init__(self, axis=-1, output_type=int32):
        self.output_type = to_dtype(output_type)

    def __call__(self, x):
        return F.cast(F.argmax(x, self.axis), self.output_type)


class Argmin(Argmax):
    def __call__(self, x):
        return F.cast(F.argmin(x, self.axis), self.output_type)


class Concat(Primitive):
    @prim_attr_register
    def __init__(self, axis=0):
        pass

    def __call__(self, tensors):
        return F.concat(tensors, self.axis)


class Stack(Concat):
    def __call__(self, tensors):
        return F.stack(tensors, self.axis)


class Split(Primitive):
    """Mirrors `mindspore.ops.Split(axis=0, output_num=1)`."""

    @prim_attr_register
    def __init__(self, axis=0, output_num=1):
        pass

    def __call__(self, x):
        dim = x.shape[self.axis]
        if dim % self.output_num:
            raise ValueError(f"For 'Split', dimension {self.axis} of shape {x.shape} is not "
                             f"divisible by output_num {self.output_num}.")
        return F.split(x, dim // self.output_num, self.axis)


class Gather(Primitive):
    """Mirrors `mindspore.ops.Gather(batch_dims=0)(input_params, input_indices, axis)`."""

    @prim_attr_register
    def __init__(self, batch_dims=0):
        pass

    def __call__(self, input_params, input_indices, axis):
        return F.gather(input_params, input_indices, axis, self.batch_dims)


class MatMul(Primitive):
    """Mirrors `mindspore.ops.MatMul(transpose_a=False, transpose_b=False)` (2-D)."""

    @prim_attr_register
    def __init__(self, transpose_a=False, transpose_b=False):
        pass

    def __call__(self, a, b):
        if self.transpose_a:
            a = F.swapaxes(a, -1, -2)
        if self.transpose_b:
            b = F.swapaxes(b, -1, -2)
        return F.matmul(a, b)


BatchMatMul = type("BatchMatMul", (MatMul,), {"__doc__": "Mirrors `mindspore.ops.BatchMatMul`."})


class Sort(Primitive):
    """Mirrors `mindspore.ops.Sort(axis=-1, descending=False)`: (values, Int32 indices)."""

    @prim_attr_register
    def __init__(self, axis=-1, descending=False):
        pass

    def __call__(self, x):
        from cellgrad.ops import _sort
        from cellgrad.ops._registry import apply

        return apply(_sort.SORT, (x,), {"axis": self.axis, "descending": self.descending,
                                        "index_dtype": np.int32})


class TopK(Primitive):
    """Mirrors `mindspore.ops.TopK(sorted=True)(x, k)`: (values, Int32 indices), last axis."""

    @prim_attr_register
    def __init__(self, sorted=True):
        pass

    def __call__(self, x, k):
        from cellgrad.ops import _sort
        from cellgrad.ops._registry import apply

        return apply(_sort.TOPK, (x,), {"k": int(k), "axis": -1, "index_dtype": np.int32})


class ClipByValue(Primitive):
    def __call__(self, x, clip_value_min=None, clip_value_max=None):
        return F.clip_by_value(x, clip_value_min, clip_value_max)


__all__ = [n for n, v in list(globals().items())
           if isinstance(v, type) and issubclass(v, Primitive) and not n.startswith("_")]
__all__ += ["constexpr", "prim_arg_register", "prim_attr_register"]
