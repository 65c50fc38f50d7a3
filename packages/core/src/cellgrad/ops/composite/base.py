"""Mirrors `mindspore.ops.composite.base`, where MindSpore defines `GradOperation`, `HyperMap`,
`Map`, `MultitypeFuncGraph`, ...: the same objects as `ops.composite`'s (`cellgrad._paths`).
MindSpore's tests/st/pynative/grad/test_common_grad.py imports `GradOperation` from here.
"""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
