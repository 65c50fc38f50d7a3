"""Discrete Fourier transforms of `mindspore.ops` (`fft`, `ifft`, `rfft`, `irfft`, `hfft`,
`ihfft` and their 2-D/n-D forms), `fftshift`/`ifftshift`, `fftfreq`/`rfftfreq`.

One op computes every transform with numpy.fft: complex-to-complex, real-to-complex
(onesided) or complex-to-real, optionally conjugating its input or output (hfft is irfft of
the conjugate, ihfft the conjugate of rfft). Its backward is the adjoint transform, with
MindSpore's complex-gradient convention (as PyTorch's: dL/dRe + i dL/dIm): the inverse
transform under the dual normalisation, zero-padding or cropping undone, onesided bins
doubled where the Hermitian extension repeats them. Real inputs get the real part.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import float32, to_dtype
from cellgrad.ops import functional as F
from cellgrad.ops._registry import apply, define

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _complex_dtype(a):
    return np.complex128 if a.dtype in (np.float64, np.complex128) else np.complex64


def _real_dtype(a):
    return np.float64 if a.dtype in (np.float64, np.complex128) else np.float32


def _fit(a, axes, lengths):
    """Crop or zero-pad `a` along `axes` to `lengths`."""
    for ax, n in zip(axes, lengths):
        have = a.shape[ax]
        if have > n:
            a = np.take(a, np.arange(n), ax)
        elif have < n:
            pad = [(0, 0)] * a.ndim
            pad[ax] = (0, n - have)
            a = np.pad(a, pad)
    return a


def _fft_fwd(x, kind, axes, s, norm, inverse, conj_in, conj_out):
    a = np.conj(x) if conj_in else x
    if kind == "c2c":
        out = (np.fft.ifftn if inverse else np.fft.fftn)(a, s, axes, norm)
        out = out.astype(_complex_dtype(x), copy=False)
    elif kind == "r2c":
        out = np.fft.rfftn(a, s, axes, norm).astype(_complex_dtype(x), copy=False)
    else:
        out = np.fft.irfftn(a, s, axes, norm).astype(_real_dtype(x), copy=False)
    if conj_out:
        out = np.conj(out)
    signal = [out.shape[ax] for ax in axes]  # the lengths the transform ran over
    if kind == "r2c":
        signal[-1] = s[-1] if s is not None else x.shape[axes[-1]]
    return out, (x.shape, x.dtype.kind == "c", kind, axes, tuple(signal), norm, inverse,
                 conj_in, conj_out)


def _fft_bwd(ctx, g):
    in_shape, complex_in, kind, axes, signal, norm, inverse, conj_in, conj_out = ctx.saved
    dual = _DUAL[norm]
    # the tape carries unconjugated cotangents (ops/_complex.py): conjugate into the
    # dL/dRe + i dL/dIm convention the adjoint below is written in, and back at the end
    g = np.conj(g)
    if conj_out:
        g = np.conj(g)
    if kind == "c2c":
        r = (np.fft.fftn if inverse else np.fft.ifftn)(g, None, axes, dual)
    elif kind == "r2c":  # the onesided bins, zero-padded to the full spectrum
        r = np.fft.ifftn(_fit(g, axes[-1:], signal[-1:]), None, axes, dual)
    else:  # the bins the Hermitian extension repeats count twice
        n = signal[-1]
        r = np.fft.rfftn(g, None, axes, dual)
        weight = np.ones(n // 2 + 1)
        weight[1:(n + 1) // 2] = 2.0
        shape = [1] * r.ndim
        shape[axes[-1]] = weight.size
        r = r * weight.reshape(shape)
    if conj_in:
        r = np.conj(r)
    r = _fit(r, axes, tuple(in_shape[ax] for ax in axes))
    return np.conj(r) if complex_in else np.ascontiguousarray(r.real)


FFT = define("fft", _fft_fwd, _fft_bwd, first_order_only=True)


def _norm(op, norm):
    if norm is None:
        return "backward"
    if norm not in _DUAL:
        raise ValueError(f"For '{op}', 'norm' must be one of 'backward', 'forward', 'ortho' or "
                         f"None, but got {norm!r}.")
    return norm


def _axes(op, input, dim, s, default):
    nd = input.ndim
    if dim is None:
        dim = default if s is None or default is not None else tuple(
            range(nd - len(s), nd))
        if dim is None:
            dim = tuple(range(nd))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    out = []
    for d in dims:
        if not isinstance(d, int) or not -nd <= d < nd:
            raise ValueError(f"For '{op}', 'dim' must be in [{-nd}, {nd}) for an input of "
                             f"{nd} dimensions, but got {dim}.")
        out.append(d % nd)
    if len(set(out)) != len(out):
        raise ValueError(f"For '{op}', 'dim' must not repeat an axis, but got {dim}.")
    if s is not None:
        s = (s,) if isinstance(s, int) else tuple(s)
        if len(s) != len(out) or any(not isinstance(v, int) or v < 1 for v in s):
            raise ValueError(f"For '{op}', the signal sizes must be positive ints, one per "
                             f"transformed axis {tuple(out)}, but got {s}.")
    return tuple(out), s


def _run(op, input, s, dim, norm, kind, default, inverse=False, conj_in=False,
         conj_out=False, dual=False):
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    kinds = input.dtype.np_dtype.kind
    if input.ndim == 0:
        raise ValueError(f"For '{op}', the input must be at least 1-D, but got a 0-D tensor.")
    axes, s = _axes(op, input, dim, s, default)
    norm = _norm(op, norm)
    if dual:
        norm = _DUAL[norm]
    x = input
    if kinds not in "fc":  # integer and bool inputs transform as float32
        x = F.cast(input, float32)
    onesided = kind == "r2c" and kinds == "c"
    if onesided:  # MindSpore: a complex input's full transform, cut to the onesided bins
        kind = "c2c"
    out = apply(FFT, (x,), {"kind": kind, "axes": axes, "s": s, "norm": norm,
                            "inverse": inverse, "conj_in": conj_in, "conj_out": conj_out})
    if onesided:
        index = [slice(None)] * out.ndim
        index[axes[-1]] = slice(0, out.shape[axes[-1]] // 2 + 1)
        out = out[tuple(index)]
    return out


def _one(n):
    return None if n is None else (n,)


def fft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.fft`."""
    return _run("fft", input, _one(n), (dim,), norm, "c2c", None)


def ifft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.ifft`."""
    return _run("ifft", input, _one(n), (dim,), norm, "c2c", None, inverse=True)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.fft2`."""
    return _run("fft2", input, s, dim, norm, "c2c", None)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.ifft2`."""
    return _run("ifft2", input, s, dim, norm, "c2c", None, inverse=True)


def fftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.fftn`."""
    return _run("fftn", input, s, dim, norm, "c2c", None)


def ifftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.ifftn`."""
    return _run("ifftn", input, s, dim, norm, "c2c", None, inverse=True)


def rfft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.rfft`: the onesided transform of a real input."""
    return _run("rfft", input, _one(n), (dim,), norm, "r2c", None)


def irfft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.irfft`: the real signal of a onesided spectrum (length
    2 * (m - 1) unless `n` is given)."""
    return _run("irfft", input, _one(n), (dim,), norm, "c2r", None)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.rfft2`."""
    return _run("rfft2", input, s, dim, norm, "r2c", None)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.irfft2`."""
    return _run("irfft2", input, s, dim, norm, "c2r", None)


def rfftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.rfftn`."""
    return _run("rfftn", input, s, dim, norm, "r2c", None)


def irfftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.irfftn`."""
    return _run("irfftn", input, s, dim, norm, "c2r", None)


def hfft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.hfft`: the real transform of a Hermitian-symmetric signal given
    by its first half (irfft of the conjugate under the dual normalisation)."""
    return _run("hfft", input, _one(n), (dim,), norm, "c2r", None, conj_in=True, dual=True)


def ihfft(input, n=None, dim=-1, norm=None):
    """Mirrors `mindspore.ops.ihfft`: the inverse of hfft (conjugate of rfft, dual
    normalisation)."""
    return _run("ihfft", input, _one(n), (dim,), norm, "r2c", None, conj_out=True, dual=True)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.hfft2`."""
    return _run("hfft2", input, s, dim, norm, "c2r", None, conj_in=True, dual=True)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """Mirrors `mindspore.ops.ihfft2`."""
    return _run("ihfft2", input, s, dim, norm, "r2c", None, conj_out=True, dual=True)


def hfftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.hfftn`."""
    return _run("hfftn", input, s, dim, norm, "c2r", None, conj_in=True, dual=True)


def ihfftn(input, s=None, dim=None, norm=None):
    """Mirrors `mindspore.ops.ihfftn`."""
    return _run("ihfftn", input, s, dim, norm, "r2c", None, conj_out=True, dual=True)


def _shift(op, input, dim, sign):
    if not isinstance(input, TensorBuffer):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    if input.ndim == 0:
        return input
    axes, _ = _axes(op, input, dim, None, None)
    out = input
    for ax in axes:
        n = input.shape[ax]
        k = (sign * (n // 2)) % n if n else 0
        if k:
            idx = make_tensor(((np.arange(n) - k) % n).astype(np.int32), None, 0)
            out = F.gather(out, idx, ax)
    return out


def fftshift(input, dim=None):
    """Mirrors `mindspore.ops.fftshift`: the zero frequency moved to the centre."""
    return _shift("fftshift", input, dim, 1)


def ifftshift(input, dim=None):
    """Mirrors `mindspore.ops.ifftshift`: the inverse of fftshift."""
    return _shift("ifftshift", input, dim, -1)


def _frequencies(values, dtype):
    # computed in float32 and then cast, as MindSpore's
    dtype = float32 if dtype is None else to_dtype(dtype)
    return make_tensor(values.astype(np.float32).astype(dtype.np_dtype), None, 0, dtype)


def fftfreq(n, d=1.0, dtype=None):
    """Mirrors `mindspore.ops.fftfreq`: the sample frequencies of an n-point transform
    (Float32 by default)."""
    return _frequencies(np.fft.fftfreq(n, d), dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """Mirrors `mindspore.ops.rfftfreq`: the sample frequencies of rfft's bins."""
    return _frequencies(np.fft.rfftfreq(n, d), dtype)
