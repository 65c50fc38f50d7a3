"""`mindspore.experimental.optim` against `torch.optim`: the same gradients give the same
parameters over several steps, and every scheduler the same learning-rate sequence."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor
from cellgrad.experimental import optim
from cellgrad.experimental.optim import lr_scheduler

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.filterwarnings("ignore:Detected call of:UserWarning")

RNG = np.random.default_rng(7)
INIT = [RNG.standard_normal((3, 4)).astype(np.float32), RNG.standard_normal(4).astype(np.float32)]
GRADS = [[RNG.standard_normal(p.shape).astype(np.float32) for p in INIT] for _ in range(12)]

# (cellgrad/torch class name, keyword arguments) for two parameter groups: lr per group.
CASES = [
    ("Adam", {"lr": 0.05}), ("Adam", {"lr": 0.05, "weight_decay": 0.1, "maximize": True}),
    ("Adam", {"lr": 0.05, "betas": (0.8, 0.9)}),
    ("AdamW", {"lr": 0.05}), ("AdamW", {"lr": 0.05, "weight_decay": 0.3, "amsgrad": True}),
    ("AdamW", {"lr": 0.05, "maximize": True}),
    ("SGD", {"lr": 0.1}), ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.2,
                                   "weight_decay": 0.05}),
    ("SGD", {"lr": 0.1, "momentum": 0.8, "nesterov": True, "maximize": True}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1}),
    ("Adadelta", {"maximize": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1,
                 "initial_accumulator_value": 0.2}),
    ("Adagrad", {"lr": 0.1, "maximize": True}),
    ("Adamax", {"lr": 0.05, "weight_decay": 0.1}), ("Adamax", {"lr": 0.05, "maximize": True}),
    ("ASGD", {"lr": 0.05, "lambd": 0.1, "t0": 3.0, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.05, "maximize": True}),
    ("NAdam", {"lr": 0.05, "weight_decay": 0.1}), ("NAdam", {"lr": 0.05, "momentum_decay": 0.05}),
    ("RAdam", {"lr": 0.05, "weight_decay": 0.1}), ("RAdam", {"lr": 0.05, "betas": (0.8, 0.9)}),
    ("RMSprop", {"lr": 0.02, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.02, "momentum": 0.9, "centered": True, "maximize": True}),
    ("Rprop", {"lr": 0.05}), ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5),
                                        "step_sizes": (0.01, 0.1), "maximize": True}),
]


@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                        enumerate(CASES)])
def test_optimizer_steps_match_torch(name, kwargs):
    ours = [Parameter(Tensor(a.copy()), name=f"p{i}") for i, a in enumerate(INIT)]
    theirs = [torch.nn.Parameter(torch.tensor(a.copy())) for a in INIT]
    lr = kwargs.get("lr", 1.0)
    opt = getattr(optim, name)([{"params": [ours[0]]}, {"params": [ours[1]], "lr": lr / 2}],
                               **kwargs)
    ref = getattr(torch.optim, name)([{"params": [theirs[0]]},
                                      {"params": [theirs[1]], "lr": lr / 2}], **kwargs)
    for grads in GRADS:
        opt(tuple(Tensor(g) for g in grads))
        for p, g in zip(theirs, grads):
            p.grad = torch.tensor(g)
        ref.step()
    for p, q in zip(ours, theirs):
        # MindSpore's Adam adds eps before the bias correction (PyTorch after): eps's scale.
        np.testing.assert_allclose(p.asnumpy(), q.detach().numpy(), rtol=2e-5, atol=2e-5)


SCHEDULERS = [
    ("StepLR", {"step_size": 3, "gamma": 0.5}),
    ("MultiStepLR", {"milestones": [2, 5, 5, 9], "gamma": 0.5}),
    ("ExponentialLR", {"gamma": 0.9}),
    ("LinearLR", {"start_factor": 0.25, "end_factor": 0.75, "total_iters": 6}),
    ("ConstantLR", {"factor": 0.5, "total_iters": 4}),
    ("PolynomialLR", {"total_iters": 8, "power": 2.0}),
    ("CosineAnnealingLR", {"T_max": 6, "eta_min": 0.01}),
    ("CosineAnnealingWarmRestarts", {"T_0": 3, "T_mult": 2, "eta_min": 0.001}),
    ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3, "step_size_down": 2,
                  "mode": "triangular2"}),
    ("CyclicLR", {"base_lr": [0.01, 0.02], "max_lr": 0.1, "step_size_up": 3,
                  "mode": "exp_range", "gamma": 0.9}),
    ("LambdaLR", {"lr_lambda": [lambda e: 0.9 ** e, lambda e: 1.0 / (e + 1)]}),
    ("MultiplicativeLR", {"lr_lambda": lambda e: 0.95}),
]


def _two_group_optimizers():
    w, b = Parameter(Tensor(np.ones(2, np.float32)), name="w"), \
        Parameter(Tensor(np.ones(1, np.float32)), name="b")
    tw, tb = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(1))
    return (optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.05}], lr=0.1),
            torch.optim.SGD([{"params": [tw]}, {"params": [tb], "lr": 0.05}], lr=0.1))


def _lrs(sched):
    return [float(v.asnumpy()) for v in sched.get_last_lr()]


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULERS, ids=[f"{n}-{i}" for i, (n, _) in
                                                              enumerate(SCHEDULERS)])
def test_scheduler_matches_torch(name, kwargs):
    opt, ref_opt = _two_group_optimizers()
    sched = getattr(lr_scheduler, name)(opt, **kwargs)
    extra = {"cycle_momentum": False} if name == "CyclicLR" else {}
    ref = getattr(torch.optim.lr_scheduler, name)(ref_opt, **kwargs, **extra)
    for _ in range(25):
        np.testing.assert_allclose(_lrs(sched), ref.get_last_lr(), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose([float(g["lr"].asnumpy()) for g in opt.param_groups],
                                   [g["lr"] for g in ref_opt.param_groups], rtol=1e-5, atol=1e-7)
        sched.step()
        ref.step()


def test_sequential_lr_matches_torch():
    opt, ref_opt = _two_group_optimizers()

    def build(mod, o):
        return mod.SequentialLR(o, [mod.LinearLR(o, start_factor=0.2, total_iters=4),
                                    mod.StepLR(o, step_size=2, gamma=0.5),
                                    mod.CosineAnnealingLR(o, T_max=5)], milestones=[4, 10])

    sched, ref = build(lr_scheduler, opt), build(torch.optim.lr_scheduler, ref_opt)
    for _ in range(20):
        np.testing.assert_allclose(_lrs(sched), ref.get_last_lr(), rtol=1e-5, atol=1e-7)
        sched.step()
        ref.step()


@pytest.mark.parametrize("kwargs", [{"patience": 2}, {"patience": 1, "cooldown": 2,
                                                      "factor": 0.5, "min_lr": 0.02},
                                    {"mode": "max", "threshold_mode": "abs", "threshold": 0.05,
                                     "patience": 1}])
def test_reduce_lr_on_plateau_matches_torch(kwargs):
    opt, ref_opt = _two_group_optimizers()
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    ref = torch.optim.lr_scheduler.ReduceLROnPlateau(ref_opt, **kwargs)
    metrics = RNG.uniform(0.5, 1.0, 30).astype(np.float32)
    for m in metrics:
        sched.step(ms.Tensor(m))
        ref.step(float(m))
        np.testing.assert_allclose(_lrs(sched), [g["lr"] for g in ref_opt.param_groups],
                                   rtol=1e-5)


def test_step_to_an_epoch_matches_torch_closed_form():
    opt, ref_opt = _two_group_optimizers()
    sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.01)
    ref = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(ref_opt, T_0=2, T_mult=2,
                                                               eta_min=0.01)
    for epoch in (1, 4, 9.5, 0.5, 13):
        sched.step(epoch)
        ref.step(epoch)
        np.testing.assert_allclose(_lrs(sched), ref.get_last_lr(), rtol=1e-5)
