"""Window functions of `mindspore.ops` and their Primitive classes, with MindSpore's argument
rules: `bartlett_window`/`blackman_window` take the length as an integer Tensor (their
primitives' input), `hamming_window`/`hann_window`/`kaiser_window` as a Python int; lengths
0 and 1 of the last three give Float64 ones, as MindSpore's; hann and kaiser are Float64
unless `dtype` is given, the others Float32."""

import math

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float16, float32, float64, to_dtype
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window", "BartlettWindow", "BlackmanWindow", "HammingWindow"]

_FLOATS = (float16, float32, float64)
_TYPE_IDS = {float32: 0, float16: 1, float64: 11}


def _tensor_of(values, dtype):
    return make_tensor(np.asarray(values).astype(dtype.np_dtype), None, 0, dtype)


def _primitive_length(name, window_length, rank):
    if not isinstance(window_length, TensorBuffer):
        kind = type(window_length).__name__.capitalize()
        kind = {"Int": "Int64", "Float": "Float32", "Bool": "Bool"}.get(kind, kind)
        raise TypeError(f"For Primitive[{name}], the type of input argument[window_length] must "
                        f"be Tensor but got {kind}.")
    if str(window_length.dtype) not in ("Int32", "Int64"):
        raise TypeError(f"For primitive[{name}], the input argument[window_length] must be a "
                        f"type of {{Tensor[Int32], Tensor[Int64]}}, but got "
                        f"Tensor[{window_length.dtype}].")
    if window_length.ndim != rank:
        if rank == 0:
            raise ValueError(f"For '{name}', the dim of window_length must be 0, but got: "
                             f"{window_length.ndim}.")
        raise ValueError(f"For primitive[{name}], the length dim must be equal to 1, but got "
                         f"{window_length.ndim}.")
    n = int(np.asarray(window_length._data).reshape(-1)[0])
    if not 0 <= n <= 1000000:
        raise ValueError(f"For '{name}', the value range of window_length must be [0, 1000000], "
                         f"but got: {n}.")
    return n


def _check_attrs(name, periodic, dtype):
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{name}', the type of 'periodic' should be 'bool', but got type "
                        f"'{type(periodic).__name__}'.")
    dtype = to_dtype(dtype)
    if dtype not in _FLOATS:
        raise TypeError(f"For '{name}', the 'dtype' should be one of [mindspore.float16, "
                        f"mindspore.float32, mindspore.float64], but got 'mindspore."
                        f"{str(dtype).lower()}'.")
    return dtype


def _cosine_sum(n, periodic, coefficients):
    """a0 - a1 cos(x) + a2 cos(2x), x = 2 pi i / (N - 1) for i < n, N = n + 1 when periodic."""
    if n <= 1:
        return np.ones(n)
    big = n + 1 if periodic else n
    i = np.arange(n, dtype=np.float64)
    x = 2 * math.pi * i / (big - 1)
    a0, a1, a2 = coefficients
    return (a0 + a2 * np.cos(2 * x)) - a1 * np.cos(x)  # this order: exact zeros at the ends


class BartlettWindow(Primitive):
    """Mirrors `mindspore.ops.BartlettWindow`: the triangular window of a 0-D length Tensor."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=float32):
        self._dtype = _check_attrs("BartlettWindow", periodic, dtype)
        self.add_prim_attr("max_length", 1000000)

    def __call__(self, window_length):
        n = _primitive_length("BartlettWindow", window_length, 0)
        if n <= 1:
            return _tensor_of(np.ones(n), self._dtype)
        big = n + 1 if self.periodic else n
        i = np.arange(n, dtype=np.float64)
        return _tensor_of(1.0 - np.abs(2.0 * i / (big - 1) - 1.0), self._dtype)


class BlackmanWindow(Primitive):
    """Mirrors `mindspore.ops.BlackmanWindow`: 0.42 - 0.5 cos + 0.08 cos(2x) of a 0-D length
    Tensor."""

    @prim_attr_register
    def __init__(self, periodic=True, dtype=float32):
        self._dtype = _check_attrs("BlackmanWindow", periodic, dtype)
        self.add_prim_attr("max_length", 1000000)

    def __call__(self, window_length):
        n = _primitive_length("BlackmanWindow", window_length, 0)
        return _tensor_of(_cosine_sum(n, self.periodic, (0.42, 0.5, 0.08)), self._dtype)


class HammingWindow(Primitive):
    """Mirrors `mindspore.ops.HammingWindow`: alpha - beta cos of a 1-D, one-element length
    Tensor (computed in float32, then cast, as MindSpore's kernel)."""

    @prim_attr_register
    def __init__(self, periodic=True, alpha=0.54, beta=0.46, dtype=float32):
        self._dtype = _check_attrs("HammingWindow", periodic, dtype)
        self.add_prim_attr("dtype", _TYPE_IDS[self._dtype])  # MindSpore shows its type id
        for name, v in (("alpha", alpha), ("beta", beta)):
            if not isinstance(v, float):
                raise TypeError(f"For 'HammingWindow', the type of '{name}' should be 'float', "
                                f"but got type '{type(v).__name__}'.")

    def __call__(self, length):
        n = _primitive_length("HammingWindow", length, 1)
        if n <= 1:
            return _tensor_of(np.ones(n), self._dtype)
        big = n + 1 if self.periodic else n
        i = np.arange(n, dtype=np.float32)
        w = np.float32(self.alpha) - np.float32(self.beta) * np.cos(
            np.float32(2 * math.pi) * i / np.float32(big - 1))
        return _tensor_of(w.astype(np.float32), self._dtype)


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """Mirrors `mindspore.ops.bartlett_window` (the length is an integer Tensor)."""
    return BartlettWindow(periodic, float32 if dtype is None else dtype)(window_length)


def blackman_window(window_length, periodic=True, *, dtype=None):
    """Mirrors `mindspore.ops.blackman_window` (the length is an integer Tensor)."""
    return BlackmanWindow(periodic, float32 if dtype is None else dtype)(window_length)


def _int_length(op, window_length):
    if not isinstance(window_length, int) or isinstance(window_length, bool):
        raise TypeError(f"For '{op}', 'window_length' must be a non-negative integer, but got "
                        f"{type(window_length)}")
    if window_length < 0:
        raise ValueError(f"For '{op}', 'window_length' must be a non-negative integer, but got "
                         f"{window_length}")


def _float_dtype(op, dtype):
    if dtype is not None and to_dtype(dtype) not in _FLOATS:
        raise TypeError(f"For '{op}', 'dtype' must be floating point dtypes, but got {dtype}.")


def _bool_periodic(op, periodic):
    if not isinstance(periodic, (bool, np.bool_)):
        raise TypeError(f"For '{op}', 'periodic' must be a variable of Boolean type, but got "
                        f"{type(periodic)}")


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """Mirrors `mindspore.ops.hamming_window`."""
    op = "array function 'hamming_window'"
    if not isinstance(window_length, int) or isinstance(window_length, bool):
        raise TypeError(f"For {op}, 'window_length' must be int, but got {type(window_length)}.")
    if window_length < 0:
        raise ValueError(f"For {op}, 'window_length' must be non negative number.")
    if not isinstance(periodic, bool):
        raise TypeError(f"For {op}, 'periodic' must be bool, but got {type(periodic)}.")
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not isinstance(v, float):
            raise TypeError(f"For {op}, '{name}' must be float, but got {type(v)}.")
    if window_length <= 1:
        return _tensor_of(np.ones(window_length), float64)
    if dtype is not None and to_dtype(dtype) not in _FLOATS:
        raise TypeError(f"For {op}, 'dtype' must be floating point dtypes, but got {dtype}.")
    length = make_tensor(np.array([window_length], np.int32), None, 0)
    return HammingWindow(periodic, alpha, beta, float32 if dtype is None else dtype)(length)


def _numpy_window(w, periodic, dtype):
    out = _tensor_of(w, float64)
    if dtype is not None:
        out = F.cast(out, dtype)
    return out[:-1] if periodic else out


def hann_window(window_length, periodic=True, *, dtype=None):
    """Mirrors `mindspore.ops.hann_window` (Float64 unless `dtype` is given)."""
    _int_length("hann_window", window_length)
    if window_length <= 1:
        return _tensor_of(np.ones(window_length), float64)
    _bool_periodic("hann_window", periodic)
    _float_dtype("hann_window", dtype)
    big = window_length + 1 if periodic else window_length
    w = 0.5 - 0.5 * np.cos(2 * math.pi / (big - 1) * np.arange(big))
    return _numpy_window(w, periodic, dtype)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """Mirrors `mindspore.ops.kaiser_window` (Float64 unless `dtype` is given)."""
    _bool_periodic("kaiser_window", periodic)
    _int_length("kaiser_window", window_length)
    if window_length <= 1:
        return _tensor_of(np.ones(window_length), float64)
    _float_dtype("kaiser_window", dtype)
    big = window_length + 1 if periodic else window_length
    n = np.arange(big)
    half = (big - 1) / 2.0
    w = np.i0(beta * np.sqrt(1 - ((n - half) / half) ** 2.0)) / np.i0(float(beta))
    return _numpy_window(w, periodic, dtype)
