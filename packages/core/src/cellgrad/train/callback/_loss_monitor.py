"""Mirrors MindSpore's private `mindspore.train.callback._loss_monitor`, which real code
imports from: names of `cellgrad.train`, the same objects (see `cellgrad._paths`)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
