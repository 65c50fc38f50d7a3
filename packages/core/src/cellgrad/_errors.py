"""Exception classes that are both MindSpore's class and the Python class cellgrad raises.

MindSpore raises many shape and range errors from its C++ kernels as RuntimeError where
cellgrad raises ValueError or IndexError: these derive from both, so `except RuntimeError:`
written for MindSpore and `except ValueError:` written for cellgrad both catch them.
"""


class ShapeError(ValueError, RuntimeError):
    """Input shapes an op cannot take together (MindSpore: RuntimeError)."""


class ValueRangeError(ValueError, RuntimeError):
    """A value outside what the op takes, e.g. a class label (MindSpore: RuntimeError)."""


class IndexRangeError(IndexError, RuntimeError):
    """An index outside the axis it indexes (MindSpore: RuntimeError)."""
