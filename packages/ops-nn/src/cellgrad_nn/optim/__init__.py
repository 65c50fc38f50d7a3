"""Optimizers and learning-rate schedules (`cellgrad.nn.SGD`, `Adam`, `CosineDecayLR`, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

EXPORTS: dict = {}
