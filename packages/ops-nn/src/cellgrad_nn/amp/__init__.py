"""`cellgrad.amp`, mirroring `mindspore.amp`: mixed precision and loss scaling.

In cellgrad-ops-nn because it wraps nn cells and training steps. Read by `cellgrad_nn.plugin`
without importing the modules below.
"""

OP_MODULES: tuple = ()

_WHERE = {
    "mixed": "auto_mixed_precision custom_mixed_precision get_white_list get_black_list",
    "build": "build_train_network",
    "scaler": "LossScaler StaticLossScaler DynamicLossScaler all_finite",
    "managers": "LossScaleManager FixedLossScaleManager DynamicLossScaleManager",
}

EXPORTS: dict = {
    **{f"amp.{name}": f"{module}:{name}"
       for module, names in _WHERE.items() for name in names.split()},
    # MindSpore also has build_train_network at the top level and in mindspore.train
    "build_train_network": "build:build_train_network",
    "train.build_train_network": "build:build_train_network",
}
