# The learning rate of every mindspore.experimental.optim.lr_scheduler scheduler over 20 steps,
# as get_last_lr() and optimizer.param_groups[i]["lr"] report it.
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor
from mindspore.experimental import optim
from mindspore.experimental.optim import lr_scheduler


def make_opt(lr=0.1, lr2=None):
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    if lr2 is None:
        return optim.SGD([w], lr=lr)
    b = Parameter(Tensor(np.ones(1, np.float32)), name="b")
    return optim.SGD([{"params": [w]}, {"params": [b], "lr": lr2}], lr=lr)


def fmt(values):
    return " ".join(f"{float(v.asnumpy()):.6g}" for v in values)


def run(name, build, steps=20, two_groups=False):
    opt = make_opt(0.1, 0.05 if two_groups else None)
    sched = build(opt)
    lrs = [fmt(sched.get_last_lr())]
    for _ in range(steps):
        opt(tuple(Tensor(np.zeros(p.shape, np.float32)) for p in opt.parameters))
        sched.step()
        lrs.append(fmt(sched.get_last_lr()))
    print(name, "|", ", ".join(lrs))
    print(name, "group lr", [f"{float(g['lr'].asnumpy()):.6g}" for g in opt.param_groups])


run("StepLR", lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
run("MultiStepLR", lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.5),
    two_groups=True)
run("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
run("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, end_factor=0.75,
                                                 total_iters=6))
run("LinearLR default", lambda o: lr_scheduler.LinearLR(o))
run("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4))
run("PolynomialLR", lambda o: lr_scheduler.PolynomialLR(o, total_iters=8, power=2.0))
run("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.01))
run("CosineAnnealingWarmRestarts",
    lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001))
run("CosineAnnealingWarmRestarts mult1",
    lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4))
run("CyclicLR", lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4))
run("CyclicLR triangular2", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode="triangular2"))
run("CyclicLR exp_range", lambda o: lr_scheduler.CyclicLR(
    o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9),
    two_groups=True)
run("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1.0 / (e + 1)))
run("LambdaLR list", lambda o: lr_scheduler.LambdaLR(
    o, lr_lambda=[lambda e: 0.9 ** e, lambda e: 1.0 + e]), two_groups=True)
run("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.95))
run("SequentialLR", lambda o: lr_scheduler.SequentialLR(
    o, schedulers=[lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2),
                   lr_scheduler.ExponentialLR(o, gamma=0.9)], milestones=[2]))
run("SequentialLR three", lambda o: lr_scheduler.SequentialLR(
    o, schedulers=[lr_scheduler.LinearLR(o, start_factor=0.2, total_iters=4),
                   lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
                   lr_scheduler.CosineAnnealingLR(o, T_max=5)], milestones=[4, 10]))

# ReduceLROnPlateau with a metric that stalls.
metrics = [1.0, 0.9, 0.8, 0.85, 0.86, 0.84, 0.83, 0.9, 0.9, 0.9, 0.7, 0.71, 0.72, 0.73, 0.74,
           0.75, 0.76, 0.77, 0.78, 0.79]
for kwargs in ({"patience": 2}, {"patience": 1, "cooldown": 2, "factor": 0.5, "min_lr": 0.02},
               {"mode": "max", "patience": 1, "threshold_mode": "abs", "threshold": 0.05}):
    opt = make_opt()
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    lrs = []
    for m in metrics:
        sched.step(Tensor(m, ms.float32) if "mode" in kwargs else m)
        lrs.append(fmt(sched.get_last_lr()))
    print("ReduceLROnPlateau", kwargs, "|", ", ".join(lrs))

# step(epoch) uses the closed form where there is one.
opt = make_opt()
sched = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in (5, 1, 7):
    sched.step(epoch)
    print("StepLR step", epoch, fmt(sched.get_last_lr()))
sched = lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=3, T_mult=1, eta_min=0.01)
for epoch in (1, 4, 9.5, 0.5, 2):
    sched.step(epoch)
    print("CosineAnnealingWarmRestarts step", epoch, fmt(sched.get_last_lr()))

# The learning rate the optimizer holds is a Parameter the scheduler updates in place.
opt = make_opt()
print(type(opt.param_groups[0]["lr"]).__name__, opt.param_groups[0]["lr"].name)
print(sorted(k for k in opt.param_groups[0] if k != "params"))
sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
last = sched.get_last_lr()
sched.step()
print(type(last).__name__, type(last[0]).__name__, fmt(last), fmt(sched.get_last_lr()))
print(opt.param_groups[0]["initial_lr"], sched.base_lrs)
print(sched.last_epoch)
