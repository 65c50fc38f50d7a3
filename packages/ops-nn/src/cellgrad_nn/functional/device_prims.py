"""Primitives tied to an accelerator's hardware: the overflow-status primitives
(`FloatStatus`, `NPUAllocFloatStatus`, `NPUGetFloatStatus`, `NPUClearFloatStatus`) and the
deprecated mask pair `DropoutGenMask` / `DropoutDoMask`.

`FloatStatus` (a GPU kernel) is meaningful anywhere and runs here. The others read the Ascend
NPU's overflow register or produce its bit-packed dropout mask; MindSpore 2.10's CPU build
raises "Unsupported op [...] on CPU" for them, and so does cellgrad, naming what to use
instead.
"""

import warnings

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._prim_attrs import of_type


class FloatStatus(Primitive):
    """Mirrors `mindspore.ops.FloatStatus()(x)`: a (1,) Float32 tensor, 1.0 when `x` holds a
    NaN or an infinity, else 0.0. No gradient flows through it. MindSpore 2.10 runs it on GPU
    only (its CPU build raises); cellgrad gives the GPU's result."""

    def __call__(self, x):
        if not isinstance(x, Tensor) or \
                x.asnumpy().dtype.type not in (np.float16, np.float32, np.float64):
            raise TypeError(f"For primitive[FloatStatus], the input argument[x] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got "
                            f"{_checks.describe(x)}.")
        flag = not np.isfinite(x.asnumpy()).all()
        return Tensor(np.array([1.0 if flag else 0.0], np.float32))


def _unsupported(name, why, instead):
    return RuntimeError(f"Unsupported op [{name}] on CPU: {why} (MindSpore 2.10's CPU build "
                        f"raises the same). Use {instead} instead.")


_OVERFLOW_INSTEAD = ("ops.FloatStatus()(x) or ops.isfinite(x).all() on the values to check, "
                     "or nn.TrainOneStepWithLossScaleCell, which checks the gradients itself")


class _NPUStatus(Primitive):
    def __call__(self, *args):
        raise _unsupported(self.name, "it works on the Ascend NPU's floating-point overflow "
                           "register, which a CPU does not have", _OVERFLOW_INSTEAD)


class NPUAllocFloatStatus(_NPUStatus):
    """Mirrors `mindspore.ops.NPUAllocFloatStatus` (Ascend only: calling it raises
    RuntimeError on the CPU, as in MindSpore)."""


class NPUGetFloatStatus(_NPUStatus):
    """Mirrors `mindspore.ops.NPUGetFloatStatus` (Ascend only: calling it raises RuntimeError
    on the CPU, as in MindSpore)."""


class NPUClearFloatStatus(_NPUStatus):
    """Mirrors `mindspore.ops.NPUClearFloatStatus` (Ascend only: calling it raises
    RuntimeError on the CPU, as in MindSpore)."""


_DROPOUT_INSTEAD = "ops.Dropout(keep_prob)(x) or ops.dropout(x, p)"


def _deprecated(name):
    warnings.warn(f"ops.{name} is deprecated since MindSpore 1.5 and does not run on the CPU: "
                  f"use {_DROPOUT_INSTEAD}.", DeprecationWarning, stacklevel=4)


class DropoutGenMask(Primitive):
    """Mirrors `mindspore.ops.DropoutGenMask(Seed0=0, Seed1=0)`, deprecated since MindSpore
    1.5: calling it raises RuntimeError on the CPU, as in MindSpore (its bit-packed mask is
    an accelerator kernel's format)."""

    @prim_attr_register
    def __init__(self, Seed0=0, Seed1=0):
        _deprecated(self.name)
        for name, seed in (("Seed0", Seed0), ("Seed1", Seed1)):
            of_type(self.name, name, seed, int)
        self.init_prim_io_names(inputs=["shape", "keep_prob"], outputs=["output"])
        self.add_prim_attr("side_effect_hidden", True)

    def __call__(self, shape, keep_prob):
        raise _unsupported(self.name, "it makes an accelerator kernel's bit-packed dropout "
                           "mask", _DROPOUT_INSTEAD)


class DropoutDoMask(Primitive):
    """Mirrors `mindspore.ops.DropoutDoMask()`, deprecated since MindSpore 1.5: calling it
    raises RuntimeError on the CPU, as in MindSpore."""

    @prim_attr_register
    def __init__(self):
        _deprecated(self.name)

    def __call__(self, input_x, mask, keep_prob):
        raise _unsupported(self.name, "it applies an accelerator kernel's bit-packed dropout "
                           "mask", _DROPOUT_INSTEAD)
