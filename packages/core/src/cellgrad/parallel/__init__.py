"""`cellgrad.parallel`, mirroring `mindspore.parallel`: MindSpore's model-parallel API
(strategies, layouts, checkpoint transforms) is not in cellgrad, which runs data parallelism
(cellgrad-distributed); `parallel._utils` holds the context helpers training code imports,
and the strategy-search options are kept (`set_algo_parameters`)."""

from cellgrad.parallel.algo_parameters import (
    get_algo_parameters,
    reset_algo_parameters,
    set_algo_parameters,
)
from cellgrad.parallel.checkpoint_transform import (
    load_segmented_checkpoints,
    merge_sliced_parameter,
)

__all__ = ["get_algo_parameters", "reset_algo_parameters", "set_algo_parameters",
           "merge_sliced_parameter", "load_segmented_checkpoints"]

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
