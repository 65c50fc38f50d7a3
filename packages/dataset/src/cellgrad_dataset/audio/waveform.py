"""Waveform and masking transforms: Resample (torchaudio's windowed-sinc), DCShift,
FrequencyMasking, TimeMasking."""

import math

import numpy as np

from cellgrad_dataset.audio.spectral import _waveform
from cellgrad_dataset.audio.utils import ResampleMethod
from cellgrad_dataset.transforms.base import TensorOperation, pipeline_error
from cellgrad_dataset.transforms.randomness import RandomDraws


def _sinc_kernels(orig, new, lowpass_filter_width, rolloff, method, beta):
    base = min(orig, new) * rolloff
    width = math.ceil(lowpass_filter_width * orig / base)
    idx = np.arange(-width, width + orig, dtype=np.float64)[None, :] / orig
    t = (np.arange(0, -new, -1, dtype=np.float64)[:, None] / new + idx) * base
    t = np.clip(t, -lowpass_filter_width, lowpass_filter_width)
    if method == ResampleMethod.SINC_INTERPOLATION:
        win = np.cos(t * math.pi / lowpass_filter_width / 2) ** 2
    else:
        beta = 14.769656459379492 if beta is None else beta
        win = np.i0(beta * np.sqrt(1 - (t / lowpass_filter_width) ** 2)) / np.i0(beta)
    t = t * math.pi
    safe = np.where(t == 0, 1.0, t)
    kernels = np.where(t == 0, 1.0, np.sin(safe) / safe) * win * (base / orig)
    return kernels, width


class Resample(TensorOperation):
    """Mirrors `mindspore.dataset.audio.Resample`: band-limited resampling of <..., time>."""

    def __init__(self, orig_freq=16000, new_freq=16000,
                 resample_method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
                 rolloff=0.99, beta=None):
        if orig_freq <= 0 or new_freq <= 0 or lowpass_filter_width <= 0 or \
                not 0 < rolloff <= 1:
            raise ValueError(f"Resample: need positive frequencies and lowpass_filter_width and "
                             f"rolloff in (0, 1]; got {orig_freq}, {new_freq}, "
                             f"{lowpass_filter_width}, {rolloff}.")
        self.orig_freq, self.new_freq = orig_freq, new_freq
        self.resample_method = ResampleMethod(resample_method)
        self.lowpass_filter_width, self.rolloff, self.beta = lowpass_filter_width, rolloff, beta

    def _apply(self, wave):
        wave = _waveform("Resample", wave)
        if self.orig_freq == self.new_freq:
            return wave
        g = math.gcd(int(self.orig_freq), int(self.new_freq))
        orig, new = int(self.orig_freq) // g, int(self.new_freq) // g
        kernels, width = _sinc_kernels(orig, new, self.lowpass_filter_width, self.rolloff,
                                       self.resample_method, self.beta)
        length = wave.shape[-1]
        x = wave.reshape(-1, length).astype(np.float64)
        x = np.pad(x, [(0, 0), (width, width + orig)])
        frames = np.lib.stride_tricks.sliding_window_view(x, kernels.shape[1], axis=-1)[:, ::orig]
        out = (frames @ kernels.T).reshape(x.shape[0], -1)
        target = math.ceil(new * length / orig)
        out = out[:, :target].reshape(wave.shape[:-1] + (target,))
        return out.astype(wave.dtype if wave.dtype.kind == "f" else np.float32)


class DCShift(TensorOperation):
    """Mirrors `mindspore.dataset.audio.DCShift`: add `shift`, limiting peaks with
    `limiter_gain` (else clipping to [-1, 1])."""

    def __init__(self, shift, limiter_gain=None):
        if not -2.0 <= shift <= 2.0:
            raise ValueError(f"Input shift is not within the required interval of [-2.0, 2.0], "
                             f"got {shift}.")
        self.shift, self.limiter_gain = shift, limiter_gain

    def _apply(self, wave):
        wave = _waveform("DCShift", wave)
        x, shift, gain = wave.astype(np.float64), self.shift, self.limiter_gain
        if gain is None or shift == 0:
            out = np.clip(x + shift, -1, 1)
        else:
            thr = 1.0 - (abs(shift) - gain)
            if shift > 0:
                hot = x > thr
                limited = np.minimum((x - thr) * gain / (1 - thr) + thr + shift, thr)
                out = np.where(hot, limited, np.clip(x + shift, -1, 1))
            else:
                hot = x < -thr
                limited = np.maximum((x + thr) * gain / (1 - thr) - thr + shift, -thr)
                out = np.where(hot, limited, np.clip(x + shift, -1, 1))
        return out.astype(wave.dtype if wave.dtype.kind == "f" else np.float32)


class _Masking(TensorOperation, RandomDraws):
    """A band along `axis` (of <..., freq, time>) set to mask_value: with `iid_masks` each
    example draws its width ~ U[0, param] and start; else the band is [mask_start,
    mask_start + param) (as MindSpore)."""

    _axis = -1

    def __init__(self, iid_masks, param, mask_start, mask_value):
        if param < 0 or mask_start < 0:
            raise ValueError(f"{type(self).__name__}: the mask parameter and mask_start must "
                             f"be non-negative, got {param} and {mask_start}.")
        self.iid_masks, self.mask_start, self.mask_value = iid_masks, mask_start, mask_value
        self._param = param

    def _apply(self, spec):
        spec = np.asarray(spec)
        name = type(self).__name__
        if spec.ndim < 2:
            raise pipeline_error(name, f"the input should be <..., freq, time>, got shape "
                                       f"{spec.shape}.")
        size = spec.shape[self._axis]
        if self._param > size:
            raise pipeline_error(name, f"the mask parameter {self._param} exceeds the axis "
                                       f"length {size}.")
        out, rng = spec.copy(), self._rng()
        groups = out.reshape((-1,) + spec.shape[-2:]) if self.iid_masks else out[None]
        if not self.iid_masks and self.mask_start + self._param > size:
            raise pipeline_error(name, f"mask_start {self.mask_start} plus the mask length "
                                       f"{self._param} exceeds the axis length {size}.")
        for g in groups:
            if self.iid_masks:
                width = int(rng.integers(self._param + 1))
                start = int(rng.integers(size - width + 1))
            else:
                width, start = self._param, self.mask_start
            band = [slice(None)] * 2
            band[self._axis] = slice(start, start + width)
            g[..., band[0], band[1]] = self.mask_value
        return out


class FrequencyMasking(_Masking):
    """Mirrors `mindspore.dataset.audio.FrequencyMasking`."""

    _axis = -2

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)
        self.freq_mask_param = freq_mask_param


class TimeMasking(_Masking):
    """Mirrors `mindspore.dataset.audio.TimeMasking`."""

    _axis = -1

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)
        self.time_mask_param = time_mask_param


class Contrast(TensorOperation):
    """Mirrors `mindspore.dataset.audio.Contrast` (sox's contrast effect):
    sin(x * pi / 2 + amount / 750 * sin(x * 2 * pi))."""

    def __init__(self, enhancement_amount=75.0):
        if not 0 <= enhancement_amount <= 100:
            raise ValueError(f"Input enhancement_amount is not within the required interval of "
                             f"[0, 100], got {enhancement_amount}.")
        self.enhancement_amount = enhancement_amount

    def _apply(self, wave):
        wave = _waveform("Contrast", wave)
        x = wave.astype(np.float64) * (math.pi / 2)
        out = np.sin(x + self.enhancement_amount / 750.0 * np.sin(x * 4))
        return out.astype(wave.dtype if wave.dtype.kind == "f" else np.float32)
