"""Mirrors `mindspore.ops.function`, MindSpore's package of functional ops (`ops` re-exports
them): here every name of `cellgrad.ops`, as `ops.functional` (`cellgrad._paths.WHOLE_OPS`).
MindSpore's own tests `import mindspore.ops.function as F` (tests/st/ops/test_func_*.py) and
import from its modules (`ops.function.math_func`, `nn_func`, `array_func`, `random_func`).
"""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
