"""Mirrors `mindspore.ops.operations.sparse_ops`: the sparse Primitives cellgrad has
(`cellgrad._paths`). MindSpore's tests/st/ops/dynamic_shape/grad/test_sparse_*.py import them
from here."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
