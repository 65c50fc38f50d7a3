# mindspore.experimental.optim's PyTorch-style API: param_groups and their repr, the lr
# Parameter a scheduler updates, state_dict keys, a float lr put in a group, and the errors.
import numpy as np
from mindspore import Parameter, Tensor
from mindspore.experimental import optim
from mindspore.experimental.optim import lr_scheduler


def params():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    b = Parameter(Tensor(np.ones(1, np.float32)), name="b")
    return w, b


w, b = params()
opt = optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5, "momentum": 0.9}], lr=0.1)
print(opt)
print(list(opt.state_dict().keys()))
print(opt.param_groups[1]["lr"], opt.param_groups[1]["params"][0].name)
print(opt.group_start_id, len(opt.parameters))
sched = lr_scheduler.StepLR(opt, 2)
print(opt)
print(opt.param_groups[1]["initial_lr"], sched.base_lrs)
grads = (Tensor(np.array([1.0, -2.0], np.float32)), Tensor(np.array([3.0], np.float32)))
opt(grads)
opt(grads)
print(w.asnumpy(), b.asnumpy())
opt.param_groups[0]["lr"] = 1.0  # a plain float replaces the group's Parameter
opt(grads)
print(w.asnumpy(), b.asnumpy())

w, b = params()
opt = optim.Adam([w, b], lr=0.1, weight_decay=0.01)
print(opt)
print(list(opt.state_dict().keys()))
print(opt.state_step)
opt((Tensor(np.array([1.0, -2.0], np.float32)), Tensor(np.array([3.0], np.float32))))
print(opt.state_step.asnumpy(), opt.exp_avg[0].asnumpy(), opt.exp_avg_sq[1].asnumpy())


def error(fn):
    try:
        fn()
    except (TypeError, ValueError, KeyError) as exc:
        print(type(exc).__name__, exc)


w, b = params()
error(lambda: optim.Adam([w], lr=-0.1))
error(lambda: optim.Adam([w], betas=(1.0, 0.9)))
error(lambda: optim.Adam([w], weight_decay=-1.0))
error(lambda: optim.AdamW([w], eps=-1.0))
error(lambda: optim.SGD([w], lr=0.1, nesterov=True))
error(lambda: optim.SGD([w], lr=-0.1))
error(lambda: optim.SGD([w], lr=0.1, momentum=-0.5))
error(lambda: optim.SGD({w}, lr=0.1))
error(lambda: optim.SGD([], lr=0.1))
error(lambda: optim.SGD(None, lr=0.1))
error(lambda: optim.SGD([{"params": [w]}, {"params": [w, b]}], lr=0.1))
error(lambda: optim.SGD([{"params": {w}}], lr=0.1))
error(lambda: optim.SGD([w], lr=0.1, weight_decay=-0.1))
error(lambda: optim.Adagrad([w], lr=0.0))
error(lambda: optim.Adagrad([w], lr_decay=-1.0))
error(lambda: optim.Adadelta([w], rho=1.5))
error(lambda: optim.Adamax([w], betas=(0.9, 1.0)))
error(lambda: optim.NAdam([w], momentum_decay=-1.0))
error(lambda: optim.RAdam([w], eps=0.0))
error(lambda: optim.RMSprop([w], alpha=-1.0))
error(lambda: optim.Rprop([w], etas=(0.5, 1.0)))
error(lambda: optim.Rprop([w], etas=(1.5, 1.2)))
error(lambda: optim.ASGD([w], lambd=1))
error(lambda: optim.ASGD([w], t0=10))
opt = optim.SGD([w], lr=0.1)
error(lambda: lr_scheduler.StepLR(opt, 2, gamma=1))
error(lambda: lr_scheduler.StepLR(opt, 2.0))
error(lambda: lr_scheduler.StepLR(opt, 2, last_epoch=-2))
error(lambda: lr_scheduler.ExponentialLR(opt, 1))
error(lambda: lr_scheduler.LinearLR(opt, start_factor=0.0))
error(lambda: lr_scheduler.LinearLR(opt, end_factor=1.5))
error(lambda: lr_scheduler.ConstantLR(opt, factor=2.0))
error(lambda: lr_scheduler.PolynomialLR(opt, power=-1.0))
error(lambda: lr_scheduler.PolynomialLR(opt, power=1))
error(lambda: lr_scheduler.MultiStepLR(opt, [1.0]))
error(lambda: lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0]))
error(lambda: lr_scheduler.CosineAnnealingLR(opt, 2.0))
error(lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, 0))
error(lambda: lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=0))
error(lambda: lr_scheduler.CyclicLR(opt, 0.01, 0.1, mode="other"))
error(lambda: lr_scheduler.CyclicLR(opt, [0.01, 0.02], 0.1))
error(lambda: lr_scheduler.ReduceLROnPlateau(opt, factor=1.0))
error(lambda: lr_scheduler.ReduceLROnPlateau(opt, mode="mean"))
error(lambda: lr_scheduler.ReduceLROnPlateau(opt, threshold_mode="x"))
error(lambda: lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]))
error(lambda: lr_scheduler.ReduceLROnPlateau("opt"))
error(lambda: lr_scheduler.StepLR("opt", 2))
error(lambda: lr_scheduler.SequentialLR(opt, [lr_scheduler.StepLR(opt, 2)], [3]))
error(lambda: lr_scheduler.StepLR(optim.SGD([b], lr=0.1), 2, last_epoch=3))
