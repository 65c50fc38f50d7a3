"""`cellgrad.numpy`, mirroring `mindspore.numpy`: numpy's API on Tensors, differentiable.

As in MindSpore the functions live in modules by theme (array creation, array manipulation,
logic, math); the dtypes are the top level's.
"""

from cellgrad.numpy._copy_round import around, copy, copy_, round  # noqa: A004, F401 (not in __all__)
from cellgrad.numpy.array_creations import *  # noqa: F403
from cellgrad.numpy.array_creations import __all__ as _creations
from cellgrad.numpy.array_ops import *  # noqa: F403
from cellgrad.numpy.array_ops import __all__ as _array_ops
from cellgrad.numpy.logic_ops import *  # noqa: F403
from cellgrad.numpy.logic_ops import __all__ as _logic_ops
from cellgrad.numpy.math_ops import *  # noqa: F403
from cellgrad.numpy.math_ops import __all__ as _math_ops

__all__ = [*_creations, *_array_ops, *_logic_ops, *_math_ops]
