"""Mirrors `mindspore.dataset.audio.utils`: the enums the audio transforms take."""

from enum import Enum


class WindowType(str, Enum):
    """Analysis windows (periodic, as torch's)."""

    BARTLETT: str = "bartlett"
    BLACKMAN: str = "blackman"
    HAMMING: str = "hamming"
    HANN: str = "hann"
    KAISER: str = "kaiser"


class BorderType(str, Enum):
    """Padding modes."""

    CONSTANT: str = "constant"
    EDGE: str = "edge"
    REFLECT: str = "reflect"
    SYMMETRIC: str = "symmetric"


class NormType(str, Enum):
    """Mel filter bank normalization."""

    SLANEY: str = "slaney"
    NONE: str = "none"


class NormMode(str, Enum):
    """DCT normalization."""

    ORTHO: str = "ortho"
    NONE: str = "none"


class MelType(str, Enum):
    """Mel scales."""

    HTK: str = "htk"
    SLANEY: str = "slaney"


class ResampleMethod(str, Enum):
    """Resampling windows of `Resample`."""

    SINC_INTERPOLATION: str = "sinc_interpolation"
    KAISER_WINDOW: str = "kaiser_window"


class ScaleType(str, Enum):
    """What `AmplitudeToDB` receives: power or magnitude."""

    POWER: str = "power"
    MAGNITUDE: str = "magnitude"
