"""Mirrors MindSpore's C++ binding module `mindspore._c_expression` as far as its own tests use
it: `TensorPy`, the base class of every Tensor (MindSpore's tests/mindspore_test_framework
checks `isinstance(x, _c_expression.TensorPy)`). In cellgrad that base is the Cython
`TensorBuffer`, which `Tensor` and `Parameter` extend as MindSpore's Tensor extends TensorPy.
The module's other bindings (graph executors, kernels, pijit) are MindSpore's compiler and
runtime, which cellgrad does not have.
"""

from cellgrad._core._buffer import TensorBuffer as TensorPy

__all__ = ["TensorPy"]
