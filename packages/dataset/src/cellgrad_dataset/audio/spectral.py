"""Spectral audio transforms: Spectrogram, MelScale, MelSpectrogram, AmplitudeToDB,
melscale_fbanks, create_dct, ComplexNorm, Angle, Magphase, ComputeDeltas (torchaudio's
algorithms, which MindSpore's C++ audio kernels follow). The time axis is the last one."""

import math

import numpy as np

from cellgrad_dataset.audio.utils import (
    BorderType,
    MelType,
    NormMode,
    NormType,
    ScaleType,
    WindowType,
)
from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error

_NP_PAD = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge",
           BorderType.REFLECT: "reflect", BorderType.SYMMETRIC: "symmetric"}


def window(kind, length):
    """A periodic window of `length` samples (float64)."""
    n = np.arange(length)
    if length == 1:
        return np.ones(1)
    x = 2 * np.pi * n / length
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(x)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(x)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(x) + 0.08 * np.cos(2 * x)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * n / length - 1)
    if kind == WindowType.KAISER:
        beta = 12.0
        return np.i0(beta * np.sqrt(np.clip(1 - (2 * n / length - 1) ** 2, 0, None))) / np.i0(
            beta)
    raise ValueError(f"window must be a WindowType, but got {kind!r}.")


def _waveform(op, wave):
    wave = np.asarray(wave)
    if wave.ndim < 1 or wave.dtype.kind not in "fiu":
        raise pipeline_error(op, f"the input should be a real waveform <..., time>, got dtype "
                                 f"{wave.dtype} and shape {wave.shape}.")
    return wave


def stft_power(wave, n_fft, win_length, hop_length, pad, kind, power, normalized, center,
               pad_mode, onesided):
    """torchaudio's spectrogram: <..., freq, frames> (complex as [..., 2] when power is None)."""
    dtype = wave.dtype if wave.dtype.kind == "f" else np.float32
    x = wave.astype(np.float64)
    lead = [(0, 0)] * (x.ndim - 1)
    if pad:
        x = np.pad(x, lead + [(pad, pad)])
    if center:
        x = np.pad(x, lead + [(n_fft // 2, n_fft // 2)], mode=_NP_PAD[BorderType(pad_mode)])
    if x.shape[-1] < n_fft:
        raise pipeline_error("Spectrogram", f"the waveform ({x.shape[-1]} samples after "
                                            f"padding) is shorter than n_fft={n_fft}.")
    win = np.zeros(n_fft)
    left = (n_fft - win_length) // 2
    win[left:left + win_length] = window(WindowType(kind), win_length)
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft, axis=-1)[..., ::hop_length, :]
    spec = (np.fft.rfft if onesided else np.fft.fft)(frames * win, axis=-1)
    if normalized:
        spec = spec / np.sqrt((win ** 2).sum())
    spec = np.swapaxes(spec, -1, -2)
    if power is None:
        return np.stack([spec.real, spec.imag], -1).astype(dtype)
    mag = np.abs(spec)
    return (mag if power == 1.0 else mag ** power).astype(dtype)


class Spectrogram(TensorOperation):
    """Mirrors `mindspore.dataset.audio.Spectrogram`: <..., time> to <..., freq, frames>."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        self.n_fft, self.pad = n_fft, pad
        self.win_length = n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 2 if hop_length is None else hop_length
        if not 0 < self.win_length <= n_fft or self.hop_length <= 0:
            raise ValueError(f"Spectrogram: need 0 < win_length <= n_fft and hop_length > 0, "
                             f"got n_fft={n_fft}, win_length={win_length}, "
                             f"hop_length={hop_length}.")
        self.window, self.power, self.normalized = WindowType(window), power, normalized
        self.center, self.pad_mode, self.onesided = center, BorderType(pad_mode), onesided

    def _apply(self, wave):
        return stft_power(_waveform("Spectrogram", wave), self.n_fft, self.win_length,
                          self.hop_length, self.pad, self.window, self.power, self.normalized,
                          self.center, self.pad_mode, self.onesided)


def _hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    freq = np.asarray(freq, np.float64)
    mels = freq / (200.0 / 3)
    logstep = math.log(6.4) / 27.0
    return np.where(freq >= 1000.0, 15.0 + np.log(np.maximum(freq, 1e-10) / 1000.0) / logstep,
                    mels)


def _mel_to_hz(mels, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    logstep = math.log(6.4) / 27.0
    return np.where(mels >= 15.0, 1000.0 * np.exp(logstep * (mels - 15.0)), mels * 200.0 / 3)


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE,
                    mel_type=MelType.HTK):
    """Mirrors `mindspore.dataset.audio.melscale_fbanks`: the <n_freqs, n_mels> triangular
    filter bank (float32)."""
    mel_type, norm = MelType(mel_type), NormType(norm)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    fb = np.maximum(0.0, np.minimum(down, up))
    if norm == NormType.SLANEY:
        fb *= 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])
    return fb.astype(np.float32)


class MelScale(TensorOperation):
    """Mirrors `mindspore.dataset.audio.MelScale`: <..., n_stft, time> to <..., n_mels, time>."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201,
                 norm=NormType.NONE, mel_type=MelType.HTK):
        self.n_mels, self.sample_rate, self.f_min, self.f_max = n_mels, sample_rate, f_min, f_max
        self.n_stft, self.norm, self.mel_type = n_stft, NormType(norm), MelType(mel_type)
        top = float(sample_rate // 2) if f_max is None else f_max
        self._fb = melscale_fbanks(n_stft, f_min, top, n_mels, sample_rate, norm, mel_type)

    def _apply(self, spec):
        spec = np.asarray(spec)
        if spec.ndim < 2 or spec.shape[-2] != self.n_stft:
            raise pipeline_error("MelScale", f"the input should be <..., freq={self.n_stft}, "
                                             f"time>, got shape {spec.shape}.")
        out = np.swapaxes(np.swapaxes(spec, -1, -2).astype(np.float64) @ self._fb, -1, -2)
        return out.astype(spec.dtype if spec.dtype.kind == "f" else np.float32)


class MelSpectrogram(TensorOperation):
    """Mirrors `mindspore.dataset.audio.MelSpectrogram`: Spectrogram, then MelScale."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None,
                 f_min=0.0, f_max=None, pad=0, n_mels=128, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True,
                 norm=NormType.NONE, mel_scale=MelType.HTK):
        self._spec = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized,
                                 center, pad_mode, onesided)
        self._mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)
        self.sample_rate, self.n_fft, self.n_mels = sample_rate, n_fft, n_mels

    def _apply(self, wave):
        return self._mel(self._spec(wave))


class AmplitudeToDB(TensorOperation):
    """Mirrors `mindspore.dataset.audio.AmplitudeToDB`: 10 (power) or 20 (magnitude) times
    log10(max(x, amin) / ref_value), floored at max - top_db over the last three axes."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        if ref_value <= 0 or amin <= 0:
            raise ValueError("AmplitudeToDB: ref_value and amin must be positive.")
        self.stype, self.ref_value = ScaleType(stype), ref_value
        self.amin, self.top_db = amin, top_db

    def _apply(self, spec):
        spec = np.asarray(spec)
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        db = multiplier * np.log10(np.maximum(spec.astype(np.float64), self.amin))
        db -= multiplier * math.log10(max(self.amin, self.ref_value))
        if self.top_db is not None:
            axes = tuple(range(max(db.ndim - 3, 0), db.ndim))
            db = np.maximum(db, db.max(axis=axes, keepdims=True) - self.top_db)
        return db.astype(spec.dtype if spec.dtype.kind == "f" else np.float32)


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """Mirrors `mindspore.dataset.audio.create_dct`: the <n_mels, n_mfcc> DCT-II matrix."""
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (n + 0.5) * k)
    if NormMode(norm) == NormMode.ORTHO:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T.astype(np.float32)


def _complex(op, x):
    x = np.asarray(x)
    if x.ndim < 1 or x.shape[-1] != 2:
        raise pipeline_error(op, f"the input should be complex as <..., 2>, got shape "
                                 f"{x.shape}.")
    return x


class ComplexNorm(TensorOperation):
    """Mirrors `mindspore.dataset.audio.ComplexNorm`: |z| ** power of <..., 2> input."""

    def __init__(self, power=1.0):
        self.power = power

    def _apply(self, x):
        x = _complex("ComplexNorm", x)
        return (np.hypot(x[..., 0], x[..., 1]) ** self.power).astype(x.dtype)


class Angle(TensorOperation):
    """Mirrors `mindspore.dataset.audio.Angle`: the phase of <..., 2> complex input."""

    def _apply(self, x):
        x = _complex("Angle", x)
        return np.arctan2(x[..., 1], x[..., 0]).astype(x.dtype)


class Magphase(TensorOperation):
    """Mirrors `mindspore.dataset.audio.Magphase`: (|z| ** power, phase)."""

    def __init__(self, power=1.0):
        self.power = power

    def _apply(self, x):
        x = _complex("Magphase", x)
        return ComplexNorm(self.power)(x), Angle()(x)


class ComputeDeltas(TensorOperation):
    """Mirrors `mindspore.dataset.audio.ComputeDeltas`: the regression deltas along time."""

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        if win_length < 3:
            raise ValueError(f"ComputeDeltas: win_length must be >= 3, got {win_length}.")
        self.win_length, self.pad_mode = win_length, BorderType(pad_mode)

    def _apply(self, spec):
        spec = np.asarray(spec)
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3.0
        padded = np.pad(spec.astype(np.float64), [(0, 0)] * (spec.ndim - 1) + [(n, n)],
                        mode=_NP_PAD[self.pad_mode])
        frames = np.lib.stride_tricks.sliding_window_view(padded, 2 * n + 1, axis=-1)
        out = frames @ np.arange(-n, n + 1, dtype=np.float64) / denom
        return out.astype(spec.dtype if spec.dtype.kind == "f" else np.float32)


class SpectralCentroid(TensorOperation):
    """Mirrors `mindspore.dataset.audio.SpectralCentroid`: the magnitude-weighted mean
    frequency of each frame, <..., time> to <..., 1, frames>."""

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0,
                 window=WindowType.HANN):
        self.sample_rate = sample_rate
        self._spec = Spectrogram(n_fft, win_length, hop_length, pad, window, power=1.0)
        self.n_fft, self.win_length = n_fft, self._spec.win_length
        self.hop_length, self.pad, self.window = self._spec.hop_length, pad, WindowType(window)

    def _apply(self, wave):
        spec = self._spec(wave).astype(np.float64)
        freqs = np.linspace(0, self.sample_rate // 2, 1 + self.n_fft // 2).reshape(-1, 1)
        out = (freqs * spec).sum(axis=-2, keepdims=True) / spec.sum(axis=-2, keepdims=True)
        return out.astype(np.float32)
