"""Recurrent layers and cells (`cellgrad.nn.LSTM`, `nn.GRU`, `nn.RNN`, `nn.LSTMCell`, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ("recurrent",)

_WHERE = {
    "layers": "RNN LSTM GRU",
    "cells": "RNNCell LSTMCell GRUCell",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
EXPORTS.update({f"ops.{name}": f"primitives:{name}" for name in ("DynamicRNN", "DynamicGRUV2",
                                                                   "LSTM")})
