"""Tensor methods about dtypes, complex values and memory layout (an area of
`_tensor_methods.AREAS`): `real`/`imag`/`conj`/`angle`, `H`/`mH`/`mT`, `is_complex`,
`is_floating_point`, `is_signed`, `byte`/`short`/`bfloat16`, `itemsize`/`nbytes`/`strides`,
`stride()`, `storage_offset()`, `data_ptr()`."""

import numpy as np

from cellgrad import dtype as D
from cellgrad.ops import _complex as C
from cellgrad.ops import functional as F

THIN = {"real": C.real, "imag": C.imag, "conj": C.conj, "angle": C.angle,
        "isreal": C.isreal, "adjoint": C.adjoint}


def is_complex(self):
    """Mirrors `mindspore.Tensor.is_complex`."""
    return self._dtype.is_complex


def is_floating_point(self):
    """Mirrors `mindspore.Tensor.is_floating_point` (float16/32/64, bfloat16)."""
    return self._dtype.is_floating_point


def is_signed(self):
    """Mirrors `mindspore.Tensor.is_signed`. MindSpore 2.10's PyNative method answers False for
    Float16 (its dtype's own `is_signed` says True); recorded, and kept."""
    return self._dtype.is_signed and self._dtype is not D.float16


def _cast_wrapping(self, dtype):
    # MindSpore's float -> integer cast truncates and wraps (-1.7 -> 255 as UInt8); numpy's
    # direct float -> uint8 cast is undefined for out-of-range values, so go through Int64.
    if self._dtype.kind >= 2 and not self._dtype.is_complex:
        return F.cast(F.cast(self, D.int64), dtype)
    return F.cast(self, dtype)


def byte(self):
    """Mirrors `mindspore.Tensor.byte`: the values as UInt8."""
    return _cast_wrapping(self, D.uint8)


def short(self):
    """Mirrors `mindspore.Tensor.short`: the values as Int16."""
    return _cast_wrapping(self, D.int16)


def bfloat16(self):
    """Mirrors `mindspore.Tensor.bfloat16` (needs ml_dtypes: `cellgrad-core[bfloat16]`)."""
    return F.cast(self, D.bfloat16)


def _h(self):
    if self.ndim != 2:
        raise ValueError(f"For tensor.H, only 2-D Tensor is supported, but got {self.ndim}-D.")
    return C.conj(F.transpose(self, (1, 0)))


def _m_t(self):
    if self.ndim < 2:
        raise ValueError(f"The 'axis' must be in the range of [-{max(self.ndim, 1)}, "
                         f"{max(self.ndim, 1)}), but got -2.")
    return F.swapaxes(self, -2, -1)


def _m_h(self):
    return C.conj(_m_t(self))


def _itemsize(self):
    return self._dtype.itemsize


def _nbytes(self):
    return self._data.size * self._dtype.itemsize


def _strides(self):
    # MindSpore reports the strides of its contiguous host copy (what asnumpy returns).
    out, step = [], self._dtype.itemsize
    for n in reversed(self._data.shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def stride(self, dim=None):
    """Mirrors `mindspore.Tensor.stride`: the step, in elements, of each axis of the storage
    (a transposed or sliced view keeps its base's steps); one axis's with `dim`."""
    size = self._data.itemsize
    steps = [s // size for s in self._data.strides]
    return steps if dim is None else steps[dim]


def _root(arr):
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


def storage_offset(self):
    """Mirrors `mindspore.Tensor.storage_offset`: where the tensor starts in its storage, in
    elements (a view's offset into the array it was sliced from)."""
    arr = self._data
    return (arr.ctypes.data - _root(arr).ctypes.data) // arr.itemsize


def data_ptr(self):
    """Mirrors `mindspore.Tensor.data_ptr`: the address of the first element."""
    return self._data.ctypes.data


METHODS = {
    "is_complex": is_complex, "is_floating_point": is_floating_point, "is_signed": is_signed,
    "byte": byte, "short": short, "bfloat16": bfloat16,
    "H": property(_h, doc="Mirrors `mindspore.Tensor.H`: the conjugate transpose (2-D)."),
    "mT": property(_m_t, doc="Mirrors `mindspore.Tensor.mT`: the last two axes swapped."),
    "mH": property(_m_h, doc="Mirrors `mindspore.Tensor.mH`: `mT`, conjugated."),
    "itemsize": property(_itemsize, doc="Mirrors `mindspore.Tensor.itemsize`: bytes per element."),
    "nbytes": property(_nbytes, doc="Mirrors `mindspore.Tensor.nbytes`: bytes of all elements."),
    "strides": property(_strides, doc="Mirrors `mindspore.Tensor.strides`: byte steps per axis "
                                      "of the contiguous values."),
    "stride": stride, "storage_offset": storage_offset, "data_ptr": data_ptr,
}
