"""Optimizers: PyTorch's formulas where they coincide, groups, learning rates, in-place state,
errors. (MindSpore's own numbers: ms_programs/optimizers.py and lr_schedules.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, nn


def quadratic_run(make_ours, make_torch, torch, steps=5):
    """Minimise sum(a * p^2) from the same start in cellgrad and torch; returns both params."""
    start = np.array([1.0, -2.0, 0.5], np.float64)
    a = np.array([1.0, 3.0, 0.5])
    p = Parameter(Tensor(start.copy()), name="p")
    opt = make_ours([p])
    tp = torch.tensor(start.copy(), requires_grad=True)
    topt = make_torch([tp])
    for _ in range(steps):
        opt((Tensor(2 * a * p.asnumpy()),))
        topt.zero_grad()
        (torch.tensor(a) * tp * tp).sum().backward()
        topt.step()
    return p.asnumpy(), tp.detach().numpy()


@pytest.mark.parametrize("ours, theirs", [
    (lambda p: nn.SGD(p, 0.1), lambda t, p: t.optim.SGD(p, 0.1)),
    (lambda p: nn.SGD(p, 0.1, momentum=0.9, weight_decay=0.01),
     lambda t, p: t.optim.SGD(p, 0.1, momentum=0.9, weight_decay=0.01)),
    (lambda p: nn.SGD(p, 0.05, momentum=0.8, dampening=0.3),
     lambda t, p: t.optim.SGD(p, 0.05, momentum=0.8, dampening=0.3)),
    (lambda p: nn.SGD(p, 0.1, momentum=0.9, nesterov=True),
     lambda t, p: t.optim.SGD(p, 0.1, momentum=0.9, nesterov=True)),
    (lambda p: nn.Momentum(p, 0.1, 0.9), lambda t, p: t.optim.SGD(p, 0.1, momentum=0.9)),
    (lambda p: nn.Momentum(p, 0.1, 0.9, use_nesterov=True),
     lambda t, p: t.optim.SGD(p, 0.1, momentum=0.9, nesterov=True)),
    (lambda p: nn.Adam(p, 0.01, eps=1e-12), lambda t, p: t.optim.Adam(p, 0.01, eps=1e-12)),
    (lambda p: nn.Adagrad(p, accum=0.0, learning_rate=0.1),
     lambda t, p: t.optim.Adagrad(p, 0.1, eps=0.0)),
])
def test_updates_agree_with_torch(torch, ours, theirs):
    mine, ref = quadratic_run(ours, lambda p: theirs(torch, p), torch)
    # The learning rate is a float32 Parameter, as in MindSpore: agreement to float32 rounding.
    np.testing.assert_allclose(mine, ref, rtol=5e-6, atol=1e-8)


def test_state_is_updated_in_place_with_mindspore_names():
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    opt = nn.Adam([w], 0.01)
    data, moment = w.asnumpy(), opt.moment1[0].asnumpy()
    for _ in range(3):
        opt((Tensor(np.full(3, 0.5, np.float32)),))
    assert w.asnumpy() is data and opt.moment1[0].asnumpy() is moment
    assert [p.name for p in opt.get_parameters()] == [
        "global_step", "learning_rate", "w", "beta1_power", "beta2_power", "moment1.w",
        "moment2.w"]
    assert int(opt.global_step.asnumpy()[0]) == 3 and w.dtype == ms.float32


def test_parameter_groups_lr_weight_decay_and_order():
    w1 = Parameter(Tensor(np.array([1.0], np.float32)), name="w1")
    w2 = Parameter(Tensor(np.array([2.0], np.float32)), name="w2")
    opt = nn.SGD([{"params": [w1], "lr": 0.5, "weight_decay": 0.1}, {"params": [w2]},
                  {"order_params": [w2, w1]}], 0.1)
    assert [p.name for p in opt.parameters] == ["w2", "w1"]
    opt((Tensor(np.array([1.0], np.float32)), Tensor(np.array([1.0], np.float32))))
    np.testing.assert_allclose(w1.asnumpy(), [1.0 - 0.5 * (1.0 + 0.1)])
    np.testing.assert_allclose(w2.asnumpy(), [2.0 - 0.1])
    assert float(opt.get_lr_parameter(w1).asnumpy()) == 0.5


def test_learning_rate_list_and_schedule_follow_the_global_step():
    w = Parameter(Tensor(np.zeros(1, np.float32)), name="w")
    opt = nn.SGD([w], [0.1, 0.01])
    lrs = []
    for _ in range(3):
        lrs.append(float(opt.get_lr().asnumpy()))
        opt((Tensor(np.ones(1, np.float32)),))
    np.testing.assert_allclose(lrs, [0.1, 0.01, 0.01])  # the last value holds past the end
    np.testing.assert_allclose(w.asnumpy(), [-0.12], rtol=1e-6)
    sched = nn.Momentum([w], nn.WarmUpLR(0.1, 2), 0.9)
    assert float(sched.get_lr().asnumpy()) == 0.0


@pytest.mark.parametrize("make, error, message", [
    (lambda w: nn.SGD([w, 3], 0.1), TypeError,
     "all elements of the argument 'parameters' must be Parameters or group dicts, but got int"),
    (lambda w: nn.SGD([w, w], 0.1), ValueError, "the parameter 'w' is given twice"),
    (lambda w: nn.SGD([w], "fast"), TypeError, "the learning_rate must be a float"),
    (lambda w: nn.SGD([w], 0.1, weight_decay=-1.0), ValueError,
     "the 'weight_decay' must be float and must >= 0, but got '-1.0' with type 'float'"),
    (lambda w: nn.Momentum([w], 0.1, -0.5), ValueError, "'momentum' must be a float >= 0"),
    (lambda w: nn.Adam([w], beta1=1.0), ValueError, r"'beta1' must be a float in \(0, 1\)"),
    (lambda w: nn.SGD(w, 0.1), TypeError, "must be a list of Parameters"),
    (lambda w: nn.SGD([], 0.1), ValueError, "must not be empty"),
])
def test_bad_construction_names_the_optimizer(make, error, message):
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    with pytest.raises(error, match=message):
        make(w)


def test_bad_gradients_name_the_parameter():
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    opt = nn.SGD([w], 0.1)
    with pytest.raises(ValueError, match=r"tuple of 1 Tensors \(one per parameter\), but got 2"):
        opt((Tensor(np.zeros(2, np.float32)),) * 2)
    with pytest.raises(ValueError, match=r"the gradient of 'w' has shape \(3,\), but the "
                                         r"parameter has shape \(2,\)"):
        opt((Tensor(np.zeros(3, np.float32)),))
