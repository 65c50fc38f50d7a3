"""`mindspore.experimental.optim` and `.lr_scheduler`: the names MindSpore 2.10 has, parameter
groups with their lr Parameter, the updates by hand for one step, schedulers driving the
optimizer, step(epoch) closed forms, and the errors."""

import json
import math
import pathlib

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad.experimental import optim
from cellgrad.experimental.optim import lr_scheduler

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "signatures" /
                      "mindspore-2.10.json").read_text())["namespaces"]


def _param(values, name="w"):
    return Parameter(Tensor(np.asarray(values, np.float32)), name=name)


def _grads(*arrays):
    return tuple(Tensor(np.asarray(a, np.float32)) for a in arrays)


@pytest.mark.parametrize("namespace", ["experimental.optim", "experimental.optim.lr_scheduler"])
def test_every_name_mindspore_has_is_provided(namespace):
    module = ms
    for part in namespace.split("."):
        module = getattr(module, part)
    recorded = set(FIXTURE[namespace])
    ours = {n for n in dir(module) if not n.startswith("_") and isinstance(getattr(module, n),
                                                                            type)}
    assert recorded <= ours, sorted(recorded - ours)
    assert len(recorded) == (12 if namespace == "experimental.optim" else 14)


def test_import_paths():
    import cellgrad.experimental.optim.lr_scheduler as sched_module
    from cellgrad.experimental.optim import Adam, Optimizer

    assert sched_module.StepLR is lr_scheduler.StepLR
    assert issubclass(Adam, Optimizer) and issubclass(Optimizer, nn.Cell)
    assert issubclass(lr_scheduler.StepLR, lr_scheduler.LRScheduler)


def test_param_groups_hold_lr_parameters_and_defaults():
    w, b = _param([1.0, 2.0]), _param([0.5], "b")
    opt = optim.Adam([{"params": [w]}, {"params": b, "lr": 0.01, "betas": (0.8, 0.9)}], lr=0.1)
    g0, g1 = opt.param_groups
    assert g0["params"] == [w] and g1["params"] == [b]
    assert isinstance(g0["lr"], Parameter) and g0["lr"].name == "learning_rate_group_0"
    assert g1["lr"].name == "learning_rate_group_1" and g1["lr"].dtype == ms.float32
    assert float(g0["lr"].asnumpy()) == pytest.approx(0.1)
    assert float(g1["lr"].asnumpy()) == pytest.approx(0.01)
    assert g0["betas"] == (0.9, 0.999) and g1["betas"] == (0.8, 0.9)
    assert g0["weight_decay"] == 0.0 and g0["amsgrad"] is False and g0["maximize"] is False
    assert opt.group_start_id == [0, 1, 2] and list(opt.parameters) == [w, b]
    assert opt.lrs == [g0["lr"], g1["lr"]]
    assert [p.name for p in opt.exp_avg] == ["exp_avg.w", "exp_avg.b"]
    assert list(opt.state_dict()) == ["w", "b", "exp_avg.w", "exp_avg.b", "exp_avg_sq.w",
                                      "exp_avg_sq.b", "max_exp_avg_sq.w", "max_exp_avg_sq.b",
                                      "state_step"]
    assert str(opt).startswith("Adam (\nParameter Group 0\n    amsgrad: False\n")


def test_one_adam_step_by_hand():
    g = np.array([0.5, -2.0], np.float32)
    w = _param([1.0, 2.0])
    opt = optim.Adam([w], lr=0.1, weight_decay=0.2)
    opt(_grads(g))
    g64 = g + 0.2 * np.array([1.0, 2.0])
    m, v = 0.1 * g64, 0.001 * g64 ** 2
    expect = np.array([1.0, 2.0]) - 0.1 * math.sqrt(0.001) / 0.1 * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(w.asnumpy(), expect, rtol=1e-6)
    assert int(opt.state_step.asnumpy()) == 1


def test_adam_ignores_amsgrad_as_mindspore_does_but_adamw_honours_it():
    def run(cls, amsgrad):
        w = _param([1.0, -1.0])
        opt = cls([w], lr=0.1, betas=(0.9, 0.5), amsgrad=amsgrad)
        for g in ([3.0, -3.0], [0.1, 0.1], [0.1, 0.1]):
            opt(_grads(g))
        return w.asnumpy()

    np.testing.assert_array_equal(run(optim.Adam, True), run(optim.Adam, False))
    assert not np.allclose(run(optim.AdamW, True), run(optim.AdamW, False))


def test_sgd_momentum_and_dampening_by_hand():
    w = _param([1.0])
    opt = optim.SGD([w], lr=0.5, momentum=0.9, dampening=0.5, weight_decay=0.1)
    opt(_grads([2.0]))  # first step: the buffer is the gradient itself (no dampening)
    buf = 2.0 + 0.1 * 1.0
    w1 = 1.0 - 0.5 * buf
    np.testing.assert_allclose(w.asnumpy(), [w1], rtol=1e-6)
    opt(_grads([1.0]))
    buf = 0.9 * buf + 0.5 * (1.0 + 0.1 * w1)
    np.testing.assert_allclose(w.asnumpy(), [w1 - 0.5 * buf], rtol=1e-6)


def test_scheduler_changes_the_lr_the_optimizer_uses():
    w = _param([0.0])
    opt = optim.SGD([w], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    moves = []
    for _ in range(3):
        before = float(w.asnumpy()[0])
        opt(_grads([1.0]))
        moves.append(before - float(w.asnumpy()[0]))
        sched.step()
    np.testing.assert_allclose(moves, [1.0, 0.5, 0.25])
    assert float(opt.param_groups[0]["lr"].asnumpy()) == 0.125
    assert float(opt.param_groups[0]["initial_lr"].asnumpy()) == 1.0


def test_a_float_lr_put_in_a_group_is_used():
    w = _param([0.0])
    opt = optim.SGD([w], lr=1.0)
    opt.param_groups[0]["lr"] = 0.25
    opt(_grads([1.0]))
    np.testing.assert_allclose(w.asnumpy(), [-0.25])


def test_get_last_lr_returns_tensors_that_do_not_follow_later_steps():
    opt = optim.SGD([_param([0.0])], lr=0.1)
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    last = sched.get_last_lr()
    sched.step()
    assert isinstance(last, list) and isinstance(last[0], Tensor)
    assert float(last[0].asnumpy()) == pytest.approx(0.1)
    assert float(sched.get_last_lr()[0].asnumpy()) == pytest.approx(0.05)
    assert float(sched.last_epoch.asnumpy()) == 1.0


@pytest.mark.parametrize(("build", "closed_form"), [
    (lambda o: lr_scheduler.StepLR(o, 3, gamma=0.5), lambda e: 0.5 ** (e // 3)),
    (lambda o: lr_scheduler.MultiStepLR(o, [2, 4, 4], gamma=0.5),
     lambda e: 0.5 ** sum(m <= e for m in (2, 4, 4))),
    (lambda o: lr_scheduler.ExponentialLR(o, 0.9), lambda e: 0.9 ** e),
    (lambda o: lr_scheduler.LinearLR(o, 0.5, 1.0, 4), lambda e: 0.5 + 0.5 * min(e, 4) / 4),
    (lambda o: lr_scheduler.ConstantLR(o, 0.5, 3), lambda e: 0.5 if e < 3 else 1.0),
    (lambda o: lr_scheduler.PolynomialLR(o, 4, 2.0), lambda e: (1 - min(e, 4) / 4) ** 2),
    (lambda o: lr_scheduler.CosineAnnealingLR(o, 5), lambda e: (1 + math.cos(math.pi * e / 5))
     / 2),
])
def test_step_to_an_epoch_uses_the_closed_form(build, closed_form):
    opt = optim.SGD([_param([0.0])], lr=1.0)
    sched = build(opt)
    for epoch in (5, 1, 3, 7, 0):
        sched.step(epoch)
        assert float(sched.get_last_lr()[0].asnumpy()) == pytest.approx(closed_form(epoch),
                                                                         rel=1e-6, abs=1e-7)


def test_warm_restarts_jump_with_t_mult():
    opt = optim.SGD([_param([0.0])], lr=1.0)
    sched = lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)
    sched.step(7)  # cycles of 2, 4, 8 epochs: epoch 7 is 1 into the third
    assert float(sched.T_i.asnumpy()) == 8.0 and float(sched.T_cur.asnumpy()) == 1.0
    assert float(opt.param_groups[0]["lr"].asnumpy()) == pytest.approx(
        (1 + math.cos(math.pi / 8)) / 2, rel=1e-6)


def test_resuming_needs_initial_lr():
    opt = optim.SGD([_param([0.0])], lr=1.0)
    with pytest.raises(KeyError, match=r"'initial_lr' is not specified in param_groups\[0\]"):
        lr_scheduler.StepLR(opt, 2, last_epoch=3)
    opt.param_groups[0]["initial_lr"] = 1.0
    sched = lr_scheduler.StepLR(opt, 2, gamma=0.5, last_epoch=3)
    assert float(sched.last_epoch.asnumpy()) == 4.0
    assert float(sched.get_last_lr()[0].asnumpy()) == pytest.approx(0.5)


def test_reduce_lr_on_plateau_by_hand():
    opt = optim.SGD([_param([0.0])], lr=1.0)
    sched = lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5, min_lr=0.3)
    lrs = []
    for metric in (1.0, 1.0, 1.0, 0.5, 0.6, 0.7, 0.8, 0.9):
        sched.step(metric)
        lrs.append(float(sched.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(lrs, [1.0, 1.0, 0.5, 0.5, 0.5, 0.3, 0.3, 0.3], rtol=1e-6)
    assert float(sched.best.asnumpy()) == 0.5


def test_sequential_lr_restarts_the_next_scheduler_at_the_milestone():
    opt = optim.SGD([_param([0.0])], lr=1.0)
    sched = lr_scheduler.SequentialLR(
        opt, [lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=5),
              lr_scheduler.ExponentialLR(opt, gamma=0.5)], milestones=[2])
    lrs = [float(sched.get_last_lr()[0].asnumpy())]
    for _ in range(4):
        sched.step()
        lrs.append(float(sched.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(lrs, [0.1, 0.1, 1.0, 0.5, 0.25], rtol=1e-6)


def test_a_custom_optimizer_on_the_base_class():
    class MySGD(optim.Optimizer):
        def __init__(self, params, lr):
            super().__init__(params, {"lr": lr})

        def construct(self, gradients):
            for group_id, group in enumerate(self.param_groups):
                start = self.group_start_id[group_id]
                for i, param in enumerate(group["params"]):
                    ms.ops.assign(param, param - gradients[start + i] * group["lr"])

    w, b = _param([1.0]), _param([1.0], "b")
    opt = MySGD([w], 0.5)
    opt.add_param_group({"params": b, "lr": 0.1})
    opt(_grads([1.0], [1.0]))
    np.testing.assert_allclose([w.asnumpy()[0], b.asnumpy()[0]], [0.5, 0.9], rtol=1e-6)


def test_training_a_dense_layer_lowers_the_loss():
    ms.set_seed(1)
    net = nn.Dense(3, 1)
    x = Tensor(np.random.default_rng(0).standard_normal((16, 3)).astype(np.float32))
    y = Tensor((x.asnumpy() @ np.array([[1.0], [-2.0], [0.5]])).astype(np.float32))
    opt = optim.AdamW(net.trainable_params(), lr=0.1)
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=40)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, opt.parameters)
    first = None
    for _ in range(40):
        loss, grads = grad_fn(x, y)
        opt(grads)
        sched.step()
        first = first if first is not None else float(loss.asnumpy())
    assert float(loss.asnumpy()) < first / 20


def test_errors():
    w = _param([1.0])
    with pytest.raises(ValueError, match="number of gradients"):
        optim.SGD([w], lr=0.1)(_grads([1.0], [2.0]))
    with pytest.raises(TypeError, match="Optimizer can only optimize Parameters"):
        optim.SGD([Tensor(np.ones(1, np.float32))], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        optim.Adam([{"params": [w]}, {"params": [w]}])
    with pytest.raises(TypeError, match="'learning_rate' must be int, float or Tensor"):
        optim.Adam([{"params": [w], "lr": "0.1"}])
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        lr_scheduler.MultiplicativeLR(optim.SGD([w], lr=0.1), [abs, abs])
    with pytest.raises(ValueError, match="epoch should be a non-negative"):
        lr_scheduler.CosineAnnealingWarmRestarts(optim.SGD([_param([1.0], "v")], lr=0.1),
                                                 2).step(-1)
