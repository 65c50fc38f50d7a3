"""`cellgrad.mint`, mirroring `mindspore.mint`: the PyTorch-style API (`input`, `dim`,
`keepdim`, torch's defaults and returns) on cellgrad's differentiable ops.

Thin renames live in one table (`cellgrad.mint._thin`), the rest in `_creation`, `_reductions`
and `_compositions`; names that need cellgrad-ops-nn (`conv2d`, ...) are exported here by that
package.
"""

from cellgrad.mint import _compositions, _creation, _reductions, _thin, linalg, special  # noqa: F401
from cellgrad.mint._compositions import *  # noqa: F403
from cellgrad.mint._creation import *  # noqa: F403
from cellgrad.mint._reductions import *  # noqa: F403

globals().update(_thin.FUNCTIONS)

__all__ = sorted({*_thin.FUNCTIONS, *_creation.__all__, *_reductions.__all__,
                  *_compositions.__all__})

from cellgrad._namespace import plugin_names as _plugin_names  # noqa: E402

__getattr__, __dir__ = _plugin_names(__name__)
