"""Mirrors `mindspore.ops.operations.math_ops`: every Primitive class of `cellgrad.ops`
(cellgrad does not keep the split of `ops.operations` into modules; see `cellgrad._paths`),
and the module's own `AddV2`."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["AddV2"]


class AddV2(Primitive):
    """Mirrors `math_ops.AddV2()(x, y)`: `x + y` for Tensors of one shape (no broadcasting)
    and numeric dtypes (mixed dtypes promote as `ops.add`); differentiable."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x", "y"], outputs=["output"])

    def __call__(self, x, y):
        from cellgrad.ops import add

        shapes = []
        for arg, value in (("x", x), ("y", y)):
            if isinstance(value, TensorBuffer) and value.dtype.py_name == "bool_":
                raise TypeError(f"For primitive[AddV2], the input argument[{arg}] must be a "
                                f"numeric Tensor, but got Tensor[Bool].")
            shapes.append(list(value.shape) if isinstance(value, TensorBuffer) else [])
        if shapes[0] != shapes[1]:
            raise ValueError(f"For primitive[AddV2], the input_shape: {shapes[0]} must be equal "
                             f"to {shapes[1]}")
        return add(x, y)


__getattr__, __dir__ = _plugin_names(__name__)
