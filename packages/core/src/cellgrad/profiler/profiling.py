"""`mindspore.profiler.profiling`, MindSpore 1.x's module: `Profiler` is `mindspore.profiler`'s
in MindSpore 2.10 (a DeprecationWarning on import says so)."""

from cellgrad._namespace import moved_module as _moved_module
from cellgrad._namespace import plugin_names as _plugin_names

_moved_module(__name__)
__getattr__, __dir__ = _plugin_names(__name__)
