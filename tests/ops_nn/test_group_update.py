"""Optimizer updates of a whole group in one kernel call (`update.group_update`): bit for bit
the per-parameter path's numbers over several steps, for SGD, Momentum, Adam and
AdamWeightDecay, with weight decay, nesterov, amsgrad, loss scale, parameter groups of
different learning rates, float64, and parameters the kernel cannot take."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn
from cellgrad_nn._kernels import update

# The optimizers call the group kernel under numpy 2 only (optimizer._NUMPY_1): its rounding
# follows numpy 2's scalar promotion, and numpy 1.x keeps the per-parameter path's numbers.
pytestmark = pytest.mark.skipif(int(np.__version__.split(".")[0]) < 2,
                                reason="the group kernel runs under numpy 2 only")

SHAPES = [(8, 5), (5,), (3, 4, 2), (), (6,)]
NAMES = ["w1", "b1", "w2", "gamma", "beta"]


def params(dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return [Parameter(Tensor(rng.standard_normal(s).astype(dtype)), name=n)
            for s, n in zip(SHAPES, NAMES)]


def grads(step, dtype=np.float32):
    rng = np.random.default_rng(100 + step)
    return tuple(Tensor((rng.standard_normal(s) * 3).astype(dtype)) for s in SHAPES)


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.itemsize}")


def run(make, fast, steps=4, dtype=np.float32, tamper=None):
    ps = params(dtype)
    if tamper is not None:
        tamper(ps)
    opt = make(ps)
    if not fast:
        opt._group = None  # the per-parameter path, as before the kernel
    for step in range(steps):
        opt(grads(step, dtype))
    return opt


def assert_same(make, **kw):
    fast, slow = run(make, True, **kw), run(make, False, **kw)
    got = {p.name: p.asnumpy() for p in fast.get_parameters()}
    want = {p.name: p.asnumpy() for p in slow.get_parameters()}
    assert got.keys() == want.keys()
    for name in want:
        np.testing.assert_array_equal(bits(got[name]), bits(want[name]), err_msg=name)
    return fast


def groups(ps, **extra):
    return [{"params": ps[:2], "lr": 0.05, "weight_decay": 0.01},
            {"params": ps[2:4], "lr": 0.2}, {"params": ps[4:], **extra}]


CASES = {
    "sgd": lambda ps: nn.SGD(ps, 0.1),
    "sgd_wd": lambda ps: nn.SGD(ps, 0.1, weight_decay=0.01),
    "sgd_scale": lambda ps: nn.SGD(ps, 0.1, weight_decay=0.003, loss_scale=128.0),
    "sgd_momentum": lambda ps: nn.SGD(ps, 0.1, momentum=0.9, weight_decay=0.01),
    "sgd_dampening": lambda ps: nn.SGD(ps, 0.1, momentum=0.8, dampening=0.3),
    "sgd_nesterov": lambda ps: nn.SGD(ps, 0.1, momentum=0.9, nesterov=True, loss_scale=4.0),
    "sgd_groups": lambda ps: nn.SGD(groups(ps), 0.1, momentum=0.5),
    "sgd_lr_list": lambda ps: nn.SGD(ps, [0.1, 0.05, 0.01, 0.3]),
    "momentum": lambda ps: nn.Momentum(ps, 0.1, 0.9),
    "momentum_nesterov": lambda ps: nn.Momentum(ps, 0.1, 0.9, weight_decay=0.02,
                                                use_nesterov=True),
    "momentum_groups": lambda ps: nn.Momentum(groups(ps, weight_decay=0.5), 0.03, 0.7,
                                              loss_scale=16.0),
    "adam": lambda ps: nn.Adam(ps, 1e-2),
    "adam_wd_scale": lambda ps: nn.Adam(ps, 1e-2, weight_decay=0.01, loss_scale=64.0),
    "adam_nesterov": lambda ps: nn.Adam(ps, 1e-2, use_nesterov=True),
    "adam_amsgrad": lambda ps: nn.Adam(ps, 1e-2, use_amsgrad=True, eps=1e-6),
    "adam_groups": lambda ps: nn.Adam(groups(ps), 1e-3),
    "adam_schedule": lambda ps: nn.Adam(ps, nn.CosineDecayLR(1e-4, 1e-2, 3)),
    "adamw": lambda ps: nn.AdamWeightDecay(ps, 1e-2, weight_decay=0.1),
    "adamw_groups": lambda ps: nn.AdamWeightDecay(groups(ps, weight_decay=0.0), 1e-2,
                                                  weight_decay=0.3),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_group_update_is_the_per_parameter_path_bit_for_bit(case, dtype):
    opt = assert_same(CASES[case], dtype=dtype)
    lrs = [lr.value(0) for lr in opt._lr_kinds]
    assert opt._update_group(opt.parameters, grads(0, dtype), lrs) == len(SHAPES)
    moved = params(dtype)
    assert any(not np.array_equal(p.asnumpy(), q.asnumpy())
               for p, q in zip(opt.parameters, moved))


@pytest.mark.parametrize("case", ["sgd_momentum", "momentum", "adam", "adamw"])
def test_the_kernel_takes_every_parameter_it_can(case):
    opt = CASES[case](params())
    opt(grads(0))  # (Adam's bias correction is set per step)
    lrs = [lr.value(0) for lr in opt._lr_kinds]
    assert opt._update_group(opt.parameters, grads(0), lrs) == len(SHAPES)


def test_a_parameter_the_kernel_cannot_take_goes_the_per_parameter_way():
    def fortran(ps):  # the third parameter not C-contiguous: the kernel stops there
        ps[2]._data = np.asfortranarray(ps[2].asnumpy())  # (set_data would copy it)
        assert not ps[2].asnumpy().flags.c_contiguous

    for case in ("sgd_momentum", "adam", "sgd"):
        assert_same(CASES[case], tamper=fortran)
    opt = CASES["adam"](params())
    opt(grads(0))
    fortran(list(opt.parameters))
    lrs = [lr.value(0) for lr in opt._lr_kinds]
    assert opt._update_group(opt.parameters, grads(0), lrs) == 2


def test_float16_parameters_take_the_per_parameter_path():
    ps = [Parameter(Tensor(np.ones(3, np.float16)), name="h")]
    opt = nn.SGD(ps, 0.5)
    assert opt._update_group(opt.parameters, (Tensor(np.ones(3, np.float16)),), [0.5]) == 0
    opt((Tensor(np.ones(3, np.float16)),))
    np.testing.assert_array_equal(ps[0].asnumpy(), np.full(3, 0.5, np.float16))


def test_a_gradient_of_the_wrong_shape_still_raises_the_optimizers_error():
    opt = nn.SGD(params(), 0.1)
    bad = list(grads(0))
    bad[1] = Tensor(np.ones(4, np.float32))
    with pytest.raises(ValueError, match="the gradient of 'b1' has shape"):
        opt(tuple(bad))


def test_a_subclass_with_its_own_update_is_not_bypassed():
    class Halved(nn.SGD):
        def _update(self, i, param, grad, lr):
            param -= grad * np.float32(lr / 2)

    ps = params()
    before = ps[0].asnumpy().copy()
    Halved(ps, 0.2)(grads(0))
    np.testing.assert_array_equal(ps[0].asnumpy(), before - grads(0)[0].asnumpy() *
                                  np.float32(0.1))


def test_a_learning_rate_schedule_runs_once_per_step_for_all_parameters():
    calls = []

    class Counted(nn.learning_rate_schedule.LearningRateSchedule if hasattr(
            nn, "learning_rate_schedule") else nn.CosineDecayLR.__mro__[1]):
        def construct(self, global_step):
            calls.append(int(global_step.asnumpy().reshape(-1)[0]))
            return Tensor(np.float32(0.1))

    ps = params()
    sched = Counted()
    opt = nn.SGD([{"params": ps[:2], "lr": sched}, {"params": ps[2:], "lr": sched}], 0.1)
    for step in range(3):
        opt(grads(step))
    assert calls == [0, 1, 2]


def test_group_update_checks_its_arguments():
    ps = params()
    with pytest.raises(ValueError, match="group_update: states, gradients"):
        update.group_update(update.SGD_PLAIN, ps, grads(0)[:2], (), [0.1], [0] * 5, [0.0] * 5,
                            1.0)


def test_a_training_step_matches_the_per_parameter_path():
    def train(fast):
        ms.set_seed(3)
        net = nn.SequentialCell([nn.Dense(6, 5), nn.ReLU(), nn.Dense(5, 3)])
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=1e-3)
        if not fast:
            opt._group = None
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        rng = np.random.default_rng(4)
        x, y = (Tensor(rng.standard_normal(s).astype(np.float32)) for s in ((7, 6), (7, 3)))
        for _ in range(5):
            step(x, y)
        return [p.asnumpy() for p in net.trainable_params()]

    for a, b in zip(train(True), train(False)):
        np.testing.assert_array_equal(bits(a), bits(b))
