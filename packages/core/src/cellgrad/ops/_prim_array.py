"""Array primitives over existing ops and functions: AddN, CumSum, Meshgrid, Identity, Eye,
DType, Size; and the in-place ones on Parameters: AssignAdd, ScatterAdd, ScatterNdUpdate."""

import numpy as np

from cellgrad import dtype as _dtype
from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops._prim_index import _nd_index, getitem
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["AddN", "AssignAdd", "CumSum", "DType", "Eye", "Identity", "Meshgrid", "ScatterAdd",
           "ScatterNdUpdate", "Size"]


class AddN(Primitive):
    """Mirrors `mindspore.ops.AddN()(x)`: `ops.addn`; a Tensor is taken as the sequence of its
    rows, as MindSpore's primitive does."""

    def __call__(self, x):
        from cellgrad.ops import addn

        if isinstance(x, TensorBuffer):
            x = [getitem(x, i) for i in range(x.shape[0])] if x.ndim else [x]
        if isinstance(x, (list, tuple)) and not x:
            raise ValueError("For primitive[AddN], the input num must be greater than or equal "
                             "to 1, but got 0.")
        return addn(x)


class CumSum(Primitive):
    """Mirrors `mindspore.ops.CumSum(exclusive=False, reverse=False)(input, axis)`."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        C.boolean("CumSum", "exclusive", exclusive)
        C.boolean("CumSum", "reverse", reverse)

    def __call__(self, input, axis):
        from cellgrad.ops.functional import _CUMSUM_TYPES, concat, cumsum, flip, zeros

        C.dtype_in("CumSum", "x", input, "iufcV", _CUMSUM_TYPES)
        if isinstance(axis, TensorBuffer):
            axis = axis._data.item()
        axis = C.axis("CumSum", "axis", axis, input.ndim)
        x = flip(input, (axis,)) if self.reverse else input
        out = cumsum(x, axis)
        if self.exclusive and input.ndim:
            head = list(input.shape)
            head[axis] = 1
            out = concat((zeros(tuple(head), input.dtype),
                          getitem(out, (slice(None),) * axis + (slice(0, -1),))), axis)
        return flip(out, (axis,)) if self.reverse else out


class Meshgrid(Primitive):
    """Mirrors `mindspore.ops.Meshgrid(indexing='xy')(inputs)`: `ops.meshgrid` of a tuple of
    1-D Tensors."""

    @prim_attr_register
    def __init__(self, indexing="xy"):
        if indexing not in ("xy", "ij"):
            raise ValueError(f"For 'Meshgrid', 'indexing' must be 'xy' or 'ij', but got "
                             f"{indexing!r}.")

    def __call__(self, inputs):
        from cellgrad.ops import meshgrid

        if not isinstance(inputs, (list, tuple)):
            raise TypeError(f"For 'Meshgrid', 'inputs' must be a list or tuple of Tensors, but "
                            f"got {type(inputs).__name__}.")
        return meshgrid(*inputs, indexing=self.indexing)


class Identity(Primitive):
    """Mirrors `mindspore.ops.Identity()(input_x)`: a new Tensor with the same values."""

    def __call__(self, input_x):
        from cellgrad.ops._registry import OPS, apply

        C.tensor("Identity", "input_x", input_x)
        return apply(OPS["identity"], (input_x,))


class Eye(Primitive):
    """Mirrors `mindspore.ops.Eye()(n, m, t)`: an n x m identity matrix of dtype `t`."""

    def __call__(self, n, m, t):
        from cellgrad.ops.functional import eye

        n, m = C.integer("Eye", "n", n), C.integer("Eye", "m", m)
        if n < 0 or m < 0:
            raise ValueError(f"For 'Eye', 'n' and 'm' must be non-negative, but got n={n}, "
                             f"m={m}.")
        if not isinstance(t, _dtype.DType):
            raise TypeError(f"For 'Eye', 't' must be a mindspore dtype, but got {t!r}.")
        return eye(n, m, t)


class DType(Primitive):
    """Mirrors `mindspore.ops.DType()(input_x)`: the Tensor's dtype."""

    def __call__(self, input_x):
        if not isinstance(input_x, TensorBuffer):
            raise TypeError(f"For Primitive[Dtype], the input argument[input_x] must be a "
                            f"Tensor, CSRTensor or COOTensor, but got {type(input_x)}.")
        return input_x.dtype


class Size(Primitive):
    """Mirrors `mindspore.ops.Size()(input_x)`: the number of elements, as an int."""

    def __call__(self, input_x):
        if not isinstance(input_x, TensorBuffer):
            raise TypeError(f"For 'Size', input must be a Tensor, but got: "
                            f"{type(input_x).__name__}.")
        return int(input_x._data.size)


# ---- in place: the variable (a Parameter) is written; the result is a Tensor of its data ----
def _written(variable):
    return make_tensor(variable._data, None, 0, variable.dtype)


def _updates(op, variable, updates, shape):
    src = updates._data if isinstance(updates, TensorBuffer) else np.asarray(updates)
    if src.shape != tuple(shape):
        raise ValueError(f"For '{op}', the shape of 'updates' must be {tuple(shape)}, but got "
                         f"{src.shape}.")
    return src.astype(variable._data.dtype, copy=False)


class AssignAdd(Primitive):
    """Mirrors `mindspore.ops.AssignAdd()(variable, value)`: `ops.assign_add`, in place."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, variable, value):
        from cellgrad.ops import assign_add

        return assign_add(variable, value)


class ScatterAdd(Primitive):
    """Mirrors `mindspore.ops.ScatterAdd(use_locking=False)(input_x, indices, updates)`:
    `input_x[indices] += updates` in place along the first axis (repeats accumulate)."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        C.boolean("ScatterAdd", "use_locking", use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        C.tensor(self.name, "input_x", input_x)
        idx = C.indices(self.name, "indices", indices)
        n = input_x.shape[0]
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise RuntimeError(f"For '{self.name}', the 'indices' must be in [0, {n}), but got "
                               f"values in [{idx.min()}, {idx.max()}].")
        src = _updates(self.name, input_x, updates, idx.shape + tuple(input_x.shape[1:]))
        np.add.at(input_x._data, idx, src)
        return _written(input_x)


class ScatterNdUpdate(Primitive):
    """Mirrors `mindspore.ops.ScatterNdUpdate(use_locking=True)(input_x, indices, updates)`:
    writes `updates` at the N-d `indices` of `input_x` in place."""

    @prim_attr_register
    def __init__(self, use_locking=True):
        C.boolean("ScatterNdUpdate", "use_locking", use_locking)
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input_x, indices, updates):
        C.tensor("ScatterNdUpdate", "input_x", input_x)
        idx = C.indices("ScatterNdUpdate", "indices", indices)
        index = _nd_index("ScatterNdUpdate", input_x.shape, idx)
        shape = idx.shape[:-1] + tuple(input_x.shape[idx.shape[-1]:])
        input_x._data[index] = _updates("ScatterNdUpdate", input_x, updates, shape)
        return _written(input_x)
