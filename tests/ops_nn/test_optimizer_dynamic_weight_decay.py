"""weight_decay given as a Cell: called with global_step once per step (MindSpore 2.10)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn

VALUES = [0.5, 0.01, 0.2]


class Schedule(nn.Cell):
    def __init__(self):
        super().__init__()
        self.values = Tensor(VALUES, ms.float32)
        self.calls = 0

    def construct(self, global_step):
        self.calls += 1
        return self.values[global_step]


def _net():
    w = Tensor(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32))
    return nn.Dense(3, 2, weight_init=w, bias_init=Tensor(np.array([0.5, -0.5], np.float32)))


def _grads(net):
    return tuple(Tensor(np.full(p.shape, 0.25, np.float32)) for p in net.trainable_params())


@pytest.mark.parametrize("loss_scale", [1.0, 2.0])
def test_momentum_schedule_matches_the_hand_update(loss_scale):
    net, sched = _net(), Schedule()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=sched,
                      loss_scale=loss_scale)
    assert opt.dynamic_weight_decay and opt.dynamic_decay_flags is True
    assert opt.decay_flags == (True, True)
    w = net.weight.asnumpy().astype(np.float64).copy()
    m = np.zeros_like(w)
    for step in range(3):
        np.testing.assert_allclose(opt.get_weight_decay().asnumpy(),
                                   [VALUES[step] * loss_scale], rtol=1e-6)
        opt(_grads(net))
        g = (0.25 + VALUES[step] * loss_scale * w) / loss_scale
        m = 0.9 * m + g
        w = w - 0.1 * m
        np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-5)
    assert sched.calls == 3 + 3  # one per step, one per get_weight_decay


def _adamw(param, wd_per_step, b1=0.9, b2=0.999, eps=1e-6, lr=0.1):
    p = param.astype(np.float64).copy()
    m, v = np.zeros_like(p), np.zeros_like(p)
    out = []
    for wd in wd_per_step:
        m = b1 * m + (1 - b1) * 0.25
        v = b2 * v + (1 - b2) * 0.25 ** 2
        p = p - lr * (m / (np.sqrt(v) + eps) + wd * p)
        out.append(p.copy())
    return out


def test_adamweightdecay_group_schedule_only_on_its_group():
    net = _net()
    w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    opt = nn.AdamWeightDecay([{"params": [net.weight], "weight_decay": 0.0},
                              {"params": [net.bias], "weight_decay": Schedule()}], 0.1)
    assert opt.decay_flags == (False, True) and opt.dynamic_decay_flags == (False, True)
    want_w, want_b = _adamw(w0, [0.0] * 3), _adamw(b0, VALUES)
    for step in range(3):
        wd = opt.get_weight_decay()
        assert wd[0].asnumpy() == 0.0
        np.testing.assert_allclose(wd[1].asnumpy(), [VALUES[step]], rtol=1e-6)
        opt(_grads(net))
        np.testing.assert_allclose(net.weight.asnumpy(), want_w[step], rtol=1e-5)
        np.testing.assert_allclose(net.bias.asnumpy(), want_b[step], rtol=1e-5)


def test_schedule_cell_is_a_subcell_and_parameter_names_are_unchanged():
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, weight_decay=Schedule())
    assert [n for n, _ in opt.cells_and_names()] == ["", "weight_decay",
                                                     "weight_decay.weight_decay"]
    assert [p.name for p in opt.get_parameters()][:2] == ["global_step", "learning_rate"]


def test_weight_decay_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="must be int, float or Cell.but got <class 'str'>"):
        nn.Momentum(_net().trainable_params(), 0.1, 0.9, weight_decay="0.1")
    with pytest.raises(ValueError, match="must >= 0"):
        nn.Momentum(_net().trainable_params(), 0.1, 0.9, weight_decay=-0.1)


def test_schedule_giving_several_values_is_an_error():
    class Bad(nn.Cell):
        def construct(self, global_step):
            return Tensor([0.1, 0.2])

    opt = nn.Momentum(_net().trainable_params(), 0.1, 0.9, weight_decay=Bad())
    with pytest.raises(ValueError, match="one value per step"):
        opt(_grads(_net()))
