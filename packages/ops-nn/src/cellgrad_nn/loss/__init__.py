"""Loss cells (`cellgrad.nn.SoftmaxCrossEntropyWithLogits`, `MSELoss`, `LossBase`, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_NAMES = ("LossBase MSELoss L1Loss SmoothL1Loss KLDivLoss BCELoss BCEWithLogitsLoss "
          "SoftmaxCrossEntropyWithLogits CrossEntropyLoss NLLLoss")

_WHERE = {
    "losses": _NAMES,
    "margin": "MarginRankingLoss CosineEmbeddingLoss SoftMarginLoss MultiMarginLoss "
              "MultiLabelSoftMarginLoss MultilabelMarginLoss TripletMarginLoss HingeEmbeddingLoss",
    "regression": "HuberLoss MAELoss RMSELoss PoissonNLLLoss GaussianNLLLoss",
    "segmentation": "DiceLoss MultiClassDiceLoss FocalLoss",
    "extra": "TripletMarginWithDistanceLoss CTCLoss SampledSoftmaxLoss",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
EXPORTS["nn.loss.loss.get_half_ln_2_pi"] = "extra:get_half_ln_2_pi"
EXPORTS["nn.loss.loss.constexpr"] = "extra:constexpr"
