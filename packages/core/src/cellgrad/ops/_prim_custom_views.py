"""`ops.Custom` in its Python-function form, and MindSpore's view Primitives (TransposeView,
TransposeExtView, SelectView), which on numpy arrays are the ordinary functions."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import to_dtype
from cellgrad.ops import functional as F
from cellgrad.ops._prim_leftovers import _morph_cell
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["Custom", "TransposeView", "TransposeExtView", "SelectView"]

_FUNC_TYPES = ["hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc"]


class Custom(Primitive):
    """Mirrors `mindspore.ops.Custom(func, out_shape=None, out_dtype=None, func_type='pyfunc',
    bprop=None, reg_info=None)` for func_type 'pyfunc' (what MindSpore runs on the CPU): `func`
    gets the inputs as numpy arrays; its results come back as Tensors of `out_dtype` and
    `out_shape` (each a value, or a function of the input shapes / dtypes). Its gradient is
    `bprop(*inputs, out, dout)` on Tensors; without `bprop` a gradient request is an error, as
    in MindSpore. The kernel-compiling types ('hybrid', 'akg', 'aot', 'tbe', 'aicpu') say why
    they cannot run here ('aot' when called: its `func` is checked as MindSpore does first)."""

    @prim_attr_register
    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None,
                 reg_info=None):
        if func_type not in _FUNC_TYPES:
            raise ValueError(f"For 'Custom', 'func_type': {func_type}, 'func': {func}, "
                             f"'func_type' must be one of {_FUNC_TYPES}, but got {func_type}")
        if func_type == "aot":  # checked as MindSpore does; running it is the error
            _check_aot_func(func, out_shape)
            self.func, self.bprop = func, bprop
            return
        if func_type != "pyfunc":
            from cellgrad._not_provided import _CUSTOM

            raise RuntimeError(f"For 'Custom', func_type '{func_type}' {_CUSTOM}.")
        if not callable(func):
            raise TypeError(f"For 'Custom', 'func_type': pyfunc, 'func' must be a Python "
                            f"function, but got {type(func)}.")
        if bprop is not None and not callable(bprop):
            raise TypeError(f"For 'Custom', 'bprop' must be a function, but got {type(bprop)}.")
        self.func, self.out_shape, self.out_dtype, self.bprop = func, out_shape, out_dtype, bprop
        self._cell = None

    def __call__(self, *args):
        if self.func_type == "aot":
            from cellgrad._not_provided import _CUSTOM

            raise RuntimeError(f"For 'Custom', func_type 'aot' {_CUSTOM}.")
        if self._cell is None:
            self._cell = _morph_cell(self._run, self.bprop or _no_bprop)
        return self._cell(*args)

    def _run(self, *args):
        arrays = [a.asnumpy() if isinstance(a, TensorBuffer) else np.asarray(a) for a in args]
        shapes = _infer(self.out_shape, [list(a.shape) for a in arrays])
        dtypes = _infer(self.out_dtype, [to_dtype(a.dtype) for a in arrays])
        results = self.func(*arrays)
        multi = isinstance(results, tuple)
        results = results if multi else (results,)
        if shapes is not None and multi != _is_multi_shape(shapes):
            raise RuntimeError(f"For 'Custom', 'func' returned {len(results)} outputs, which "
                               f"does not match 'out_shape' {shapes}.")
        shapes = shapes if multi and shapes is not None else [shapes] * len(results)
        dtypes = dtypes if isinstance(dtypes, (tuple, list)) else [dtypes] * len(results)
        outs = []
        for value, shape, dtype in zip(results, shapes, dtypes):
            arr = np.asarray(value)
            if dtype is not None:
                arr = arr.astype(to_dtype(dtype).np_dtype, copy=False)
            if shape is not None and tuple(arr.shape) != tuple(shape):
                raise RuntimeError(f"For 'Custom', an output of 'func' has shape "
                                   f"{tuple(arr.shape)}, but 'out_shape' says {tuple(shape)}.")
            outs.append(make_tensor(np.ascontiguousarray(arr)))
        return tuple(outs) if multi else outs[0]


def _check_aot_func(func, out_shape):
    """MindSpore's checks of an 'aot' `func`: 'file:func' (or a kernel name with a callable
    `out_shape`), the file inside $MS_CUSTOM_AOT_WHITE_LIST when that is set."""
    import os

    prefix = f"For 'Custom', 'func_type': aot, 'func': {func}"
    if not isinstance(func, str):
        raise TypeError(f"{prefix}, 'func' must be of type str, but got {type(func)}")
    parts = func.split(":")
    if len(parts) != 2:
        if callable(out_shape):
            return
        raise TypeError(f"{prefix}, 'func' should be like 'file_name:func_name', but got {func}")
    legal = os.environ.get("MS_CUSTOM_AOT_WHITE_LIST")
    path = os.path.realpath(parts[0])
    if legal is not None:
        legal = os.path.realpath(legal)
        if "akg_kernel_meta" not in path and os.path.commonpath([path, legal]) != legal:
            raise TypeError(f"{prefix}, the legal path for the file is {legal}, but the file is "
                            f"{path}")


def _infer(spec, values):
    return spec(*values) if callable(spec) and not isinstance(spec, type) else spec


def _is_multi_shape(shapes):
    return bool(shapes) and isinstance(shapes[0], (tuple, list))


def _no_bprop(*args):
    raise RuntimeError("Illegal primitive Custom's bprop not defined")


class TransposeView(Primitive):
    """Mirrors `mindspore.ops.TransposeView()(input, input_perm)`: `ops.transpose`."""

    def __call__(self, input, input_perm):
        return F.transpose(input, input_perm)


class TransposeExtView(Primitive):
    """Mirrors `mindspore.ops.TransposeExtView()(input, dim0, dim1)`: `ops.swapaxes`."""

    def __call__(self, input, dim0, dim1):
        from cellgrad.ops import swapaxes

        return swapaxes(input, dim0, dim1)


class SelectView(Primitive):
    """Mirrors `mindspore.ops.SelectView()(input, index, dim)`: the slice at `index` of
    axis `dim`, that axis removed (`Tensor.select(dim, index)`)."""

    def __call__(self, input, index, dim):
        return input.select(dim, index)
