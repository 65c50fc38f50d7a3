"""MindSpore 2.10 CPU kernels that have no Python Primitive in MindSpore: user code declares a
`PrimitiveWithInfer` of that name (MindSpore's tests do) and PyNative runs the C++ kernel.
`primitive._run_by_name` finds them by name (`kernel_by_name`), after `cellgrad.ops`; they
are not public.
"""

import numpy as np

from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, kernel_by_name, prim_attr_register

_SHIFT_TYPES = "{Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int64], Tensor[Bool]}"


@kernel_by_name
class Shift(Primitive):
    """MindSpore's CPU 'Shift' kernel: `Shift(periods=1, axis=-1)(x, fill_value)` moves x's
    elements `periods` places along `axis` (towards the end when positive) and fills the
    places left empty with `fill_value`, cast to x's dtype (all of them when `|periods|` is
    at least the axis' length), like `pandas.DataFrame.shift`."""

    @prim_attr_register
    def __init__(self, periods=1, axis=-1):
        self.periods = C.integer("Shift", "periods", periods)
        self.axis = C.integer("Shift", "axis", axis)

    def __call__(self, x, fill_value):
        from cellgrad._core._buffer import make_tensor

        C.tensor("Shift", "x", x)
        data = x._data
        if data.dtype not in (np.float32, np.float64, np.int32, np.int64, np.bool_):
            raise TypeError(f"For primitive[Shift], the input argument[x] must be a type of "
                            f"{_SHIFT_TYPES}, but got Tensor[{x.dtype}].")
        fill = fill_value._data if hasattr(fill_value, "_data") else np.asarray(fill_value)
        if fill.size != 1:
            raise ValueError(f"For 'Shift', 'fill_value' must be a scalar, but got shape "
                             f"{fill.shape}.")
        axis = C.axis("Shift", "axis", self.axis, data.ndim)
        out = np.full_like(data, fill.reshape(()).astype(data.dtype))
        length, periods = data.shape[axis] if data.ndim else 1, self.periods
        if abs(periods) < length:
            src = [slice(None)] * data.ndim
            dst = [slice(None)] * data.ndim
            src[axis] = slice(0, length - periods) if periods >= 0 else slice(-periods, None)
            dst[axis] = slice(periods, None) if periods >= 0 else slice(0, length + periods)
            out[tuple(dst)] = data[tuple(src)]
        return make_tensor(out)
