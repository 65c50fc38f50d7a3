"""Mirrors `mindspore.train.dataset_helper`: `DatasetHelper` and `connect_network_with_dataset`
of `cellgrad.train`, the same objects (see `cellgrad._paths`)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
