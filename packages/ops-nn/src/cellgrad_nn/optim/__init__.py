"""Optimizers and learning-rate schedules (`cellgrad.nn.SGD`, `Adam`, `CosineDecayLR`, ...).

Read by `cellgrad_nn.plugin` without importing the modules below: `EXPORTS` maps a MindSpore
qualname to `module:attr` in this package; `OP_MODULES` names modules with an `OPS` tuple.
"""

OP_MODULES: tuple = ()

_WHERE = {
    "optimizer": "Optimizer",
    "sgd": "SGD Momentum ASGD",
    "adam": "Adam AdamWeightDecay LazyAdam AdaMax",
    "adaptive": "RMSProp Adagrad Adadelta",
    "proximal": "FTRL ProximalAdagrad",
    "rprop": "Rprop",
    "adafactor": "AdaFactor",
    "adam_offload": "AdamOffload",
    "device_wrappers": "AdaSumByGradWrapCell AdaSumByDeltaWeightWrapCell OptTFTWrapper",
    "layerwise": "Lamb LARS",
    "lr_schedule": "LearningRateSchedule ExponentialDecayLR NaturalExpDecayLR InverseDecayLR "
                   "CosineDecayLR PolynomialDecayLR WarmUpLR",
    "dynamic_lr": "piecewise_constant_lr exponential_decay_lr natural_exp_decay_lr "
                  "inverse_decay_lr cosine_decay_lr polynomial_decay_lr warmup_lr",
}

EXPORTS: dict = {f"nn.{name}": f"{module}:{name}"
                 for module, names in _WHERE.items() for name in names.split()}
# MindSpore has this decorator at its module path only (optimizers written for MindSpore use it)
EXPORTS["nn.optim.optimizer.opt_init_args_register"] = "optimizer:opt_init_args_register"
