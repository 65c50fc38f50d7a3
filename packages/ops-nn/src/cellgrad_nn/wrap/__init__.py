"""Training wrappers (`cellgrad.nn.WithLossCell`, `TrainOneStepCell`, loss scaling).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_WHERE = {
    "cells": "WithLossCell WithEvalCell TrainOneStepCell",
    "loss_scale": "TrainOneStepWithLossScaleCell FixedLossScaleUpdateCell "
                  "DynamicLossScaleUpdateCell",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
