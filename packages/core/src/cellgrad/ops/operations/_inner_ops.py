"""Mirrors the Primitives of MindSpore's private `mindspore.ops.operations._inner_ops` that its
own tests use eagerly (tests/st/ops/dynamic_shape/grad/test_grad_of_dynamic.py and the ~60
files built on it, tests/st/ops/cpu/test_*_op.py): the dynamic-shape markers, which on an eager
CPU pass their input through, and the type/shape checks.

cellgrad has no compile-time shapes, so every shape is concrete: `ConvertToDynamic` and
`GpuConvertToDynamicShape` return the input's values (a new Tensor, gradients flow through), and
`ErrorOnDynamicShapeInput` never finds a dynamic shape.
"""

from cellgrad import dtype as _dtype
from cellgrad._core._buffer import TensorBuffer
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ClipByNorm", "ConvertToDynamic", "CopyWithSlice", "DynamicBroadcastTo",
           "ErrorOnDynamicShapeInput", "GpuConvertToDynamicShape", "IsSubClass", "SameTypeShape"]


def _identity(name, input_x):
    from cellgrad.ops._registry import OPS, apply

    C.tensor(name, "input", input_x)
    return apply(OPS["identity"], (input_x,))


class ConvertToDynamic(Primitive):
    """Mirrors `_inner_ops.ConvertToDynamic(is_dynamic_rank=False)(input)`: marks the shape
    (or rank) unknown to the graph compiler; eagerly the input's values."""

    @prim_attr_register
    def __init__(self, is_dynamic_rank=False):
        if not isinstance(is_dynamic_rank, bool):
            raise TypeError("For 'ConvertToDynamic', the 'is_dynamic_rank' must be bool, but got "
                            f"{type(is_dynamic_rank).__name__}.")

    def __call__(self, input):  # noqa: A002 (MindSpore's name)
        return _identity("ConvertToDynamic", input)


class GpuConvertToDynamicShape(Primitive):
    """Mirrors `_inner_ops.GpuConvertToDynamicShape()(input)` (deprecated in MindSpore 2.8):
    marks the shape unknown to the graph compiler; eagerly the input's values."""

    def __call__(self, input):  # noqa: A002
        return _identity("GpuConvertToDynamicShape", input)


class ErrorOnDynamicShapeInput(Primitive):
    """Mirrors `_inner_ops.ErrorOnDynamicShapeInput()(input)`: raises on a dynamic shape, which
    eager Tensors never have; the input's values."""

    def __call__(self, input):  # noqa: A002
        return _identity("ErrorOnDynamicShapeInput", input)


class DynamicBroadcastTo(Primitive):
    """Mirrors `_inner_ops.DynamicBroadcastTo()(input_x, shape)`: `ops.broadcast_to` with the
    shape an input."""

    def __call__(self, input_x, shape):
        from cellgrad.ops import broadcast_to

        C.tensor("DynamicBroadcastTo", "input_x", input_x)
        if isinstance(shape, TensorBuffer):
            shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
        return broadcast_to(input_x, shape)


class SameTypeShape(Primitive):
    """Mirrors `_inner_ops.SameTypeShape()(input_x, input_y)`: `input_x` when both have the same
    dtype and shape, else MindSpore's TypeError / ValueError."""

    def __call__(self, input_x, input_y):
        for arg, value in (("x", input_x), ("y", input_y)):
            if not isinstance(value, TensorBuffer):
                raise TypeError(f"For 'SameTypeShape', the type of '{arg}' should be 'Tensor', "
                                f"but got type '{type(value).__name__}'.")
        if input_x.dtype != input_y.dtype:
            raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: "
                            f"{input_y.dtype}, but got {input_x.dtype}.")
        if tuple(input_x.shape) != tuple(input_y.shape):
            raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: "
                             f"{tuple(input_y.shape)}, but got {tuple(input_x.shape)}.")
        return input_x


# The kind each type belongs to (MindSpore's type hierarchy: Int32 < Int < Number).
_KIND_OF = {**{d: "Int" for d in _dtype.int_type}, **{d: "UInt" for d in _dtype.uint_type},
            **{d: "Float" for d in (_dtype.float16, _dtype.float32, _dtype.float64)},
            **{d: "Complex" for d in _dtype.complex_type},
            _dtype.bfloat16: "BFloat", _dtype.bool_: "Bool",
            **dict.fromkeys(("Int", "UInt", "Float", "Complex", "BFloat", "Bool"), "Number")}


def _type_key(value):
    """A type as a key of `_KIND_OF`: the dtype itself, or the name of an abstract kind."""
    if value is _dtype.Int:
        return "Int"
    if value is _dtype.Float or value is _dtype.Float():
        return "Float"
    if value is _dtype.number or value is _dtype.uint:
        return str(value)
    return value


def _is_subclass(sub_type, type_):
    if isinstance(sub_type, _dtype.TensorType) or isinstance(type_, _dtype.TensorType):
        return isinstance(sub_type, _dtype.TensorType) and isinstance(
            type_, _dtype.TensorType) and type_.element_type() in (None, sub_type.element_type())
    key, target = _type_key(sub_type), _type_key(type_)
    while key is not None:
        if key is target or key == target:
            return True
        key = _KIND_OF.get(key)
    return False


class IsSubClass(Primitive):
    """Mirrors `_inner_ops.IsSubClass()(sub_type, type_)`: whether the type `sub_type` is
    `type_` or one of its kinds (`mstype.int32` is a `mstype.number`; `mstype.Int`,
    `mstype.Float`, `mstype.uint` and `mstype.number` are kinds). cellgrad's `mstype.int_` /
    `float_` are int64 / float32 (MindSpore's are the kinds Int / Float): pass `mstype.Int` /
    `mstype.Float` for those."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, sub_type, type_):
        for arg, value in (("sub_type", sub_type), ("type_", type_)):
            if not (isinstance(value, _dtype.Type) or value in (_dtype.Int, _dtype.Float)):
                raise TypeError(f"For 'IsSubClass', the type of '{arg}' should be 'Type', but "
                                f"got type '{type(value).__name__}'.")
        return _is_subclass(sub_type, type_)


class ClipByNorm(Primitive):
    """Mirrors `_inner_ops.ClipByNorm(axis=None)(x, clip_norm)`: `x * clip_norm /
    max(l2_norm(x, axis), clip_norm)`, the norm kept as a dimension of 1 on `axis` (all axes
    when None); differentiable in both inputs. MindSpore 2.10's CPU kernel mis-indexes the norm
    when `axis` is not every axis; this is the formula its docs state."""

    @prim_attr_register
    def __init__(self, axis=None):
        axis = () if axis is None else axis
        if not isinstance(axis, (int, tuple, list)) or isinstance(axis, bool):
            raise TypeError(f"For 'ClipByNorm', the type of 'axis' should be one of "
                            f"'['int', 'tuple', 'list']', but got type '{type(axis).__name__}'.")
        self.axis = axis

    def __call__(self, x, clip_norm):
        import cellgrad.ops as ops

        if not (isinstance(x, TensorBuffer) and isinstance(clip_norm, TensorBuffer)):
            raise TypeError("For 'ClipByNorm', the input args must be tensor.")
        if x.dtype not in (_dtype.float16, _dtype.float32):
            raise TypeError(f"For primitive[ClipByNorm], the input argument[x] must be a type of "
                            f"{{Float16, Float32}}, but got {x.dtype}.")
        axes = (self.axis,) if isinstance(self.axis, int) else tuple(self.axis)
        for a in axes:
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"The value in attribute `axis` should be within "
                                 f"[{-x.ndim}, {x.ndim}) range.")
        axes = axes or tuple(range(x.ndim))
        xf = x.astype(_dtype.float32)
        norm = ops.sqrt(ops.sum(xf * xf, dim=axes, keepdim=True))
        clip = clip_norm.astype(_dtype.float32)
        return xf * clip / ops.maximum(norm, clip)


class CopyWithSlice(Primitive):
    """Mirrors `_inner_ops.CopyWithSlice()(x, y)` (also `ops.CopyWithSlice`): copies `y`'s
    values into `x` in place and returns `x`. `x` may be a view (`ops.transpose`, a slice):
    the write reaches the Tensor it views, as MindSpore's strided copy does."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, x, y):
        if not isinstance(x, TensorBuffer) or not isinstance(y, TensorBuffer):
            which = "self_tensor" if not isinstance(x, TensorBuffer) else "src_tensor"
            raise RuntimeError(f"For 'CopyWithSlice', the pointer[{which}] is null: 'x' and 'y' "
                               f"must be Tensors, but got {type(x).__name__} and "
                               f"{type(y).__name__}.")
        if x.dtype != y.dtype:
            raise RuntimeError(f"For 'CopyWithSlice', self_tensor->data_type is not equal to "
                               f"src_tensor->data_type: {x.dtype} and {y.dtype}.")
        if tuple(x.shape) != tuple(y.shape):
            raise RuntimeError(f"For 'CopyWithSlice', storage_info->shape is not equal to "
                               f"src_tensor->shape(): {list(x.shape)} and {list(y.shape)}.")
        x.copy_(y)
        return x


__getattr__, __dir__ = _plugin_names(__name__)
