"""Mirrors `mindspore.ops.composite.base`, where MindSpore defines `GradOperation`, `HyperMap`,
`Map`, `MultitypeFuncGraph`, ...: the same objects as `ops.composite`'s (`cellgrad._paths`),
and `core`. MindSpore's tests/st/pynative/grad/test_common_grad.py imports `GradOperation`
from here.
"""

from cellgrad._namespace import plugin_names as _plugin_names


def core(fn=None, **flags):
    """Mirrors `ops.composite.base.core`: sets `fn._func_graph_flags` to `{'core': True,
    **flags}` (replacing earlier flags) and returns `fn`, or a decorator when `fn` is None.
    The flags steer MindSpore's graph compiler; cellgrad keeps them for code that reads them."""

    def deco(fn):
        fn._func_graph_flags = {"core": True, **flags}
        return fn

    return deco if fn is None else deco(fn)


__getattr__, __dir__ = _plugin_names(__name__)
