"""`cellgrad.parallel`, mirroring `mindspore.parallel`: MindSpore's model-parallel API
(strategies, layouts, checkpoint transforms) is not in cellgrad, which runs data parallelism
(cellgrad-distributed); `parallel._utils` holds the context helpers training code imports."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
