"""`cellgrad.dataset.audio`, mirroring the part of `mindspore.dataset.audio` (2.10) real code
uses: Spectrogram, MelScale, MelSpectrogram, AmplitudeToDB, Resample, the masks, DCShift,
Contrast, SpectralCentroid, ComplexNorm/Angle/Magphase, ComputeDeltas, melscale_fbanks,
create_dct and the enums (torchaudio's algorithms, which MindSpore's follow; outputs match
it to float32 rounding)."""

from cellgrad_dataset.audio import utils  # noqa: F401
from cellgrad_dataset.audio.spectral import (
    AmplitudeToDB,
    Angle,
    ComplexNorm,
    ComputeDeltas,
    Magphase,
    MelScale,
    MelSpectrogram,
    SpectralCentroid,
    Spectrogram,
    create_dct,
    melscale_fbanks,
)
from cellgrad_dataset.audio.utils import (
    BorderType,
    MelType,
    NormMode,
    NormType,
    ResampleMethod,
    ScaleType,
    WindowType,
)
from cellgrad_dataset.audio.waveform import (
    Contrast,
    DCShift,
    FrequencyMasking,
    Resample,
    TimeMasking,
)

__all__ = [
    "AmplitudeToDB", "Angle", "BorderType", "ComplexNorm", "ComputeDeltas", "Contrast", "DCShift",
    "FrequencyMasking", "Magphase", "MelScale", "MelSpectrogram", "MelType", "NormMode",
    "NormType", "Resample", "ResampleMethod", "ScaleType", "SpectralCentroid", "Spectrogram",
    "TimeMasking",
    "WindowType", "create_dct", "melscale_fbanks",
]
