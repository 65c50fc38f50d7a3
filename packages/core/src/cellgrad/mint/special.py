"""`cellgrad.mint.special`, mirroring `mindspore.mint.special`; `erfc` and `log_softmax` come
from cellgrad-ops-nn."""

from cellgrad import ops
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.mint._compositions import sinc

__all__ = ["exp2", "expm1", "log1p", "round", "sinc"]


def exp2(input):
    """Mirrors `mindspore.mint.special.exp2`."""
    return ops.exp2(input)


def expm1(input):
    """Mirrors `mindspore.mint.special.expm1`."""
    return ops.expm1(input)


def log1p(input):
    """Mirrors `mindspore.mint.special.log1p`."""
    return ops.log1p(input)


def round(input):
    """Mirrors `mindspore.mint.special.round`: halves to even, as torch."""
    return ops.round(input)


__getattr__, __dir__ = _plugin_names(__name__)
