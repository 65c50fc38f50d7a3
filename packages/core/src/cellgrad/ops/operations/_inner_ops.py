"""Mirrors the Primitives of MindSpore's private `mindspore.ops.operations._inner_ops` that its
own tests use eagerly (tests/st/ops/dynamic_shape/grad/test_grad_of_dynamic.py and the ~60
files built on it, tests/st/ops/cpu/test_*_op.py): the dynamic-shape markers, which on an eager
CPU pass their input through, and the type/shape checks.

cellgrad has no compile-time shapes, so every shape is concrete: `ConvertToDynamic` and
`GpuConvertToDynamicShape` return the input's values (a new Tensor, gradients flow through), and
`ErrorOnDynamicShapeInput` never finds a dynamic shape.
"""

from cellgrad._core._buffer import TensorBuffer
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ConvertToDynamic", "DynamicBroadcastTo", "ErrorOnDynamicShapeInput",
           "GpuConvertToDynamicShape", "SameTypeShape"]


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
        C.tensor("SameTypeShape", "input_x", input_x)
        C.tensor("SameTypeShape", "input_y", input_y)
        if input_x.dtype != input_y.dtype:
            raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: "
                            f"{input_y.dtype}, but got {input_x.dtype}.")
        if tuple(input_x.shape) != tuple(input_y.shape):
            raise ValueError(f"For 'SameTypeShape', the x shape should be = y shape: "
                             f"{tuple(input_y.shape)}, but got {tuple(input_x.shape)}.")
        return input_x


__getattr__, __dir__ = _plugin_names(__name__)
