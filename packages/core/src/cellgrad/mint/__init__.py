"""`cellgrad.mint`, mirroring `mindspore.mint`: the PyTorch-style API (`input`, `dim`,
`keepdim`, torch's defaults and returns) on cellgrad's differentiable ops.

Thin renames live in one table (`cellgrad.mint._thin`), the rest in `cellgrad.mint._written`;
names that need cellgrad-ops-nn (`conv2d`, ...) are exported here by that package.
"""

from cellgrad.mint import _thin, _written, linalg, special  # noqa: F401
from cellgrad.mint._written import *  # noqa: F403

globals().update(_thin.FUNCTIONS)

__all__ = sorted({*_thin.FUNCTIONS, *_written.__all__})

from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
