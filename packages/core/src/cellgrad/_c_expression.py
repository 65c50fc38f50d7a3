"""Mirrors MindSpore's C++ binding module `mindspore._c_expression` as far as its own tests use
it: `TensorPy`, the base class of every Tensor (MindSpore's tests/mindspore_test_framework
checks `isinstance(x, _c_expression.TensorPy)`). In cellgrad that base is the Cython
`TensorBuffer`, which `Tensor` and `Parameter` extend as MindSpore's Tensor extends TensorPy.
`CreationType` (how a view tensor was made) and `get_code_extra` (a function's PIJit compile
record) are the values MindSpore's tests import. The module's other bindings (graph
executors, kernels, pijit) are MindSpore's compiler and runtime, which cellgrad does not have.
"""

import enum
import types

from cellgrad._core._buffer import TensorBuffer as TensorPy

__all__ = ["CreationType", "TensorPy", "get_code_extra", "security"]


class CreationType(enum.Enum):
    """Mirrors `mindspore._c_expression.CreationType`: how a view tensor was created, which
    decides whether MindSpore lets an in-place op write into it under autograd."""

    DEFAULT = 0
    NO_GRAD_MODE = 1
    MULTI_OUTPUT = 2
    CUSTOM_BPROP = 3

    def __int__(self):
        return self.value

    __index__ = __int__


def get_code_extra(arg0):
    """Mirrors `mindspore._c_expression.get_code_extra`: a copy of the PIJit compile result
    attached to a function or code object, None when it has none. cellgrad compiles no Python
    bytecode (its `jit` replays a captured op graph), so every function answers None, which is
    what MindSpore answers for a function PIJit has not compiled."""
    return None


def _enable_security():
    """Mirrors `mindspore._c_expression.security.enable_security`: whether the build strips
    summary, dump and profiling (MindSpore's ENABLE_SECURITY); cellgrad keeps them all."""
    return False


# MindSpore's tests/security_utils.py does `from mindspore._c_expression import security`
security = types.ModuleType("cellgrad._c_expression.security", "Mirrors MindSpore's build flag.")
security.enable_security = _enable_security
