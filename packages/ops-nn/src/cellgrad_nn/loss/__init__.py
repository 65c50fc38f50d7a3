"""Loss cells (`cellgrad.nn.SoftmaxCrossEntropyWithLogits`, `MSELoss`, `LossBase`, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_NAMES = ("LossBase MSELoss L1Loss SmoothL1Loss KLDivLoss BCELoss BCEWithLogitsLoss "
          "SoftmaxCrossEntropyWithLogits CrossEntropyLoss NLLLoss")

EXPORTS: dict = {f"nn.{name}": f"losses:{name}" for name in _NAMES.split()}
