"""Mirrors `mindspore.nn.optim.adafactor`: names of `cellgrad.nn` and `cellgrad`, the same
objects (see `cellgrad._paths`; MindSpore's tests/ut/python/nn/optim/test_adafactor.py)."""

from cellgrad._namespace import plugin_names as _plugin_names

__getattr__, __dir__ = _plugin_names(__name__)
