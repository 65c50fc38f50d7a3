"""`mindspore.experimental.optim` and its `lr_scheduler`: the PyTorch-style optimizers (param
groups, a learning rate Parameter per group) and schedulers. Read by `cellgrad_nn.plugin`
without importing the modules below."""

_OPTIMIZERS = {
    "Optimizer": "optimizer", "Adam": "adam", "AdamW": "adam", "Adamax": "adam",
    "NAdam": "adam", "RAdam": "adam", "SGD": "sgd", "ASGD": "sgd", "Rprop": "sgd",
    "Adadelta": "adaptive", "Adagrad": "adaptive", "RMSprop": "adaptive",
}

_SCHEDULERS = ("LRScheduler StepLR LinearLR ExponentialLR PolynomialLR MultiplicativeLR "
               "ConstantLR MultiStepLR LambdaLR SequentialLR ReduceLROnPlateau CyclicLR "
               "CosineAnnealingWarmRestarts CosineAnnealingLR").split()

EXPORTS: dict = {
    **{f"experimental.optim.{name}": f"{module}:{name}" for name, module in _OPTIMIZERS.items()},
    **{f"experimental.optim.lr_scheduler.{name}": f"lr_scheduler:{name}"
       for name in _SCHEDULERS},
    **{f"mint.optim.{name}": f"mint_optim:{name}" for name in ("Adam", "AdamW", "FusedAdamW",
                                                                "SGD")},
}
