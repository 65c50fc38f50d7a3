"""The short-time Fourier transform (`ops.stft`, the `STFT` primitive) and `FFTWithSize`, as
compositions of the FFTs of `_fft` with gathers, so they are differentiable (MindSpore 2.10's
STFT has no bprop: differs on purpose)."""

import numpy as np

from cellgrad._core._buffer import TensorBuffer, make_tensor
from cellgrad.dtype import complex64, complex128, float32
from cellgrad.ops import _fft
from cellgrad.ops import functional as F
from cellgrad.ops._complex import imag, real
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["stft", "STFT", "FFTWithSize"]

_NORM_IDS = {"backward": 0, "forward": 1, "ortho": 2}
_NORM_NAMES = {v: k for k, v in _NORM_IDS.items()}
_PAD_MODES = {"REFLECT": "reflect", "SYMMETRIC": "symmetric", "CONSTANT": "constant"}


def _is_complex(t):
    return t.dtype in (complex64, complex128)


def _index(values):
    return make_tensor(np.asarray(values, np.int32), None, 0)


def _pad_last(x, pad, mode):
    """`x` padded by `pad` on both sides of its last axis ('REFLECT', 'SYMMETRIC', 'CONSTANT')."""
    n = x.shape[-1]
    if mode == "CONSTANT":
        zeros = F.zeros(x.shape[:-1] + (pad,), x.dtype)
        return F.concat([zeros, x, zeros], -1)
    if mode == "REFLECT" and pad >= n:
        raise ValueError(f"For 'stft', reflect padding by {pad} needs a signal longer than "
                         f"{pad}, but got length {n}.")
    return F.gather(x, _index(np.pad(np.arange(n), pad, mode=_PAD_MODES[mode])), x.ndim - 1)


def _frames(op, x, window, n_fft, hop_length, win_length, normalized, onesided,
            return_complex):
    if not isinstance(x, TensorBuffer) or x.ndim not in (1, 2):
        got = x.shape if isinstance(x, TensorBuffer) else type(x).__name__
        raise ValueError(f"For '{op}', 'x' must be a 1-D or 2-D Tensor, but got {got}.")
    length = x.shape[-1]
    if not 0 < n_fft <= length:
        raise ValueError(f"For '{op}', 'n_fft' must be in (0, {length}] for a signal of length "
                         f"{length}, but got {n_fft}.")
    if hop_length <= 0 or not 0 < win_length <= n_fft:
        raise ValueError(f"For '{op}', 'hop_length' must be positive and 'win_length' in (0, "
                         f"n_fft], but got {hop_length} and {win_length}.")
    if tuple(window.shape) != (win_length,):
        raise ValueError(f"For '{op}', 'window' must have shape ({win_length},), but got "
                         f"{window.shape}.")
    left = (n_fft - win_length) // 2
    if win_length < n_fft:  # the window sits centred in the frame
        window = F.concat([F.zeros((left,), window.dtype), window,
                           F.zeros((n_fft - win_length - left,), window.dtype)], 0)
    count = 1 + (length - n_fft) // hop_length
    idx = np.arange(count)[:, None] * hop_length + np.arange(n_fft)[None, :]
    frames = F.gather(x, _index(idx.reshape(-1)), x.ndim - 1)
    frames = F.reshape(frames, x.shape[:-1] + (count, n_fft)) * window
    spec = _fft.rfft(frames) if onesided else _fft.fft(frames)
    if normalized:
        spec = spec * (n_fft ** -0.5)
    spec = F.swapaxes(spec, -1, -2)
    if return_complex:
        return spec
    return F.stack([real(spec), imag(spec)], -1)


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True,
         pad_mode="REFLECT", normalized=False, onesided=None, return_complex=None):
    """Mirrors `mindspore.ops.stft`: (frequencies, frames) per signal, complex unless
    `return_complex` is False (then real and imaginary parts on a last axis of 2)."""
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    window = F.ones((win_length,), float32) if window is None else window
    if onesided is None:
        onesided = not _is_complex(x) and not _is_complex(window)
    if return_complex is None:
        return_complex = _is_complex(x) or _is_complex(window)
    if center:
        if not isinstance(center, bool):
            raise TypeError(f"For 'stft', 'center' must be a bool, but got {center!r}.")
        if x.ndim not in (1, 2):
            raise ValueError(f"Expected a 1-D tensor or a 2-D tensor, but got {x.ndim}")
        if pad_mode not in _PAD_MODES:
            raise ValueError(f"For 'stft', 'pad_mode' must be one of {list(_PAD_MODES)}, but "
                             f"got {pad_mode!r}.")
        x = _pad_last(x, n_fft // 2, pad_mode)
    return STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x, window)


class STFT(Primitive):
    """Mirrors `mindspore.ops.STFT`: `(x, window)` without centring padding."""

    @prim_attr_register
    def __init__(self, n_fft, hop_length, win_length, normalized, onesided, return_complex):
        pass

    def __call__(self, x, window):
        return _frames("STFT", x, window, self.n_fft, self.hop_length, self.win_length,
                       self.normalized, self.onesided, self.return_complex)


class FFTWithSize(Primitive):
    """Mirrors `mindspore.ops.FFTWithSize`: the FFT over the last `signal_ndim` axes (complex,
    real-to-complex or, with `inverse`, complex-to-real sized by `signal_sizes`)."""

    @prim_attr_register
    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True,
                 signal_sizes=()):
        if signal_ndim not in (1, 2, 3):
            raise ValueError(f"For 'FFTWithSize', 'signal_ndim' must be 1, 2 or 3, but got "
                             f"{signal_ndim}.")
        if norm not in _NORM_IDS:
            raise ValueError(f"For 'FFTWithSize', 'norm' must be one of {list(_NORM_IDS)}, "
                             f"but got {norm!r}.")
        self.add_prim_attr("norm", _NORM_IDS[norm])  # MindSpore shows its enum value

    def __call__(self, x):
        dims = tuple(range(-self.signal_ndim, 0))
        norm = _NORM_NAMES[self.norm]
        if not self.real:
            return (_fft.ifftn if self.inverse else _fft.fftn)(x, None, dims, norm)
        if not self.inverse:
            return (_fft.rfftn if self.onesided else _fft.fftn)(x, None, dims, norm)
        sizes = tuple(self.signal_sizes) or None
        if not self.onesided:
            return real(_fft.ifftn(x, sizes, dims, norm))
        return _fft.irfftn(x, sizes, dims, norm)
