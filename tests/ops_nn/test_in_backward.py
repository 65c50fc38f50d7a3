"""TrainOneStepCell's optimizer update run inside the backward pass (`optim.in_backward`): bit
for bit the step of a separate `value_and_grad` + `optimizer(grads)` loop, for SGD (plain,
momentum, nesterov, weight decay, loss scale, parameter groups), Momentum and AdamWeightDecay;
parameters whose arrays a later rule still reads, recompute cells and parameter hooks fall back
to the update after the backward."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad_nn.optim import in_backward

pytestmark = pytest.mark.skipif(int(np.__version__.split(".")[0]) < 2,
                                reason="the group kernel (and so the early update) needs numpy 2")


@pytest.fixture(autouse=True)
def small_networks_too(monkeypatch):
    """These networks are far below the size from which the early update pays."""
    monkeypatch.setattr(in_backward, "MIN_BYTES", 0)

STEPS = 4


def mlp(seed=0):
    ms.set_seed(seed)
    return nn.SequentialCell([nn.Dense(12, 16), nn.ReLU(), nn.Dense(16, 16), nn.ReLU(),
                              nn.Dense(16, 5)])


def data(step):
    rng = np.random.default_rng(10 + step)
    return (Tensor(rng.standard_normal((8, 12)).astype(np.float32)),
            Tensor(rng.integers(0, 5, 8).astype(np.int32)))


def loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def bits(p):
    a = np.ascontiguousarray(p.asnumpy())
    return a.view(f"u{a.itemsize}").copy()


def reference(make_net, make_opt, steps=STEPS):
    """Parameters after `steps` of value_and_grad + optimizer(grads): the update after the
    backward."""
    net = make_net()
    opt = make_opt(net)
    with_loss = nn.WithLossCell(net, loss_fn())
    vg = ms.value_and_grad(with_loss, None, opt.parameters)
    losses = []
    for s in range(steps):
        loss, grads = vg(*data(s))
        opt(grads)
        losses.append(float(loss.asnumpy()))
    return [bits(p) for p in opt.parameters], losses, opt


def trained(make_net, make_opt, steps=STEPS):
    net = make_net()
    opt = make_opt(net)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt)
    losses = [float(train(*data(s)).asnumpy()) for s in range(steps)]
    return [bits(p) for p in opt.parameters], losses, opt


OPTIMIZERS = {
    "sgd": lambda net: nn.SGD(net.trainable_params(), 0.05),
    "sgd_momentum_wd": lambda net: nn.SGD(net.trainable_params(), 0.05, momentum=0.9,
                                          weight_decay=0.01),
    "sgd_nesterov_scale": lambda net: nn.SGD(net.trainable_params(), 0.05, momentum=0.8,
                                             nesterov=True, loss_scale=4.0),
    "sgd_groups": lambda net: nn.SGD([
        {"params": [p for p in net.trainable_params() if "bias" in p.name], "lr": 0.2,
         "weight_decay": 0.1},
        {"params": [p for p in net.trainable_params() if "bias" not in p.name]}], 0.05),
    "sgd_schedule": lambda net: nn.SGD(net.trainable_params(), [0.1, 0.05, 0.02, 0.01]),
    "momentum": lambda net: nn.Momentum(net.trainable_params(), 0.05, 0.9,
                                        use_nesterov=True),
    "adamw": lambda net: nn.AdamWeightDecay(net.trainable_params(), 0.01, weight_decay=0.1),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_same_bits_as_update_after_backward(name):
    want, want_loss, ref_opt = reference(mlp, OPTIMIZERS[name])
    got, got_loss, opt = trained(mlp, OPTIMIZERS[name])
    assert got_loss == want_loss
    for w, g in zip(want, got):
        assert np.array_equal(w, g)
    assert int(opt.global_step.asnumpy()[0]) == STEPS
    # the early path ran (from the second step on, once every cell took its plain call path)
    assert all(opt._in_backward.done)


def test_states_match():
    _, _, ref_opt = reference(mlp, OPTIMIZERS["sgd_momentum_wd"])
    _, _, opt = trained(mlp, OPTIMIZERS["sgd_momentum_wd"])
    for a, b in zip(ref_opt.accum, opt.accum):
        assert np.array_equal(bits(a), bits(b))


class Tied(nn.Cell):
    """The second layer's weight is also read, without gradient, by an op before it: that
    op's rule runs after the weight's gradient is complete and needs the old weight."""

    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(12, 16)
        self.d2 = nn.Dense(16, 16)
        self.d3 = nn.Dense(16, 5)

    def construct(self, x):
        h = ops.relu(self.d1(x))
        h = ops.matmul(h, ops.stop_gradient(self.d2.weight).T)
        return self.d3(ops.relu(self.d2(h)))


def tied():
    ms.set_seed(3)
    return Tied()


def test_array_still_read_by_a_later_rule_waits():
    want, want_loss, _ = reference(tied, OPTIMIZERS["sgd"])
    got, got_loss, opt = trained(tied, OPTIMIZERS["sgd"])
    assert got_loss == want_loss
    for w, g in zip(want, got):
        assert np.array_equal(w, g)
    names = [p.name for p in opt.parameters]
    done = dict(zip(names, opt._in_backward.done))
    assert not done["d2.weight"] and done["d1.weight"] and done["d3.weight"]


def recomputed():
    net = mlp(1)
    net[2].recompute()
    return net


def test_recompute_cell_updates_after_backward():
    want, want_loss, _ = reference(recomputed, OPTIMIZERS["sgd"])
    got, got_loss, opt = trained(recomputed, OPTIMIZERS["sgd"])
    assert got_loss == want_loss
    for w, g in zip(want, got):
        assert np.array_equal(w, g)
    assert not any(opt._in_backward.done)


def test_parameter_hook_keeps_its_gradient():
    pytest.importorskip("cellgrad_hooks", reason="hooks come from cellgrad-hooks")
    seen = []

    def make_opt(net):
        net[0].weight.register_hook(lambda g: seen.append(g.asnumpy().copy()) or g * 2)
        return nn.SGD(net.trainable_params(), 0.05)

    want, want_loss, _ = reference(mlp, make_opt)
    n_ref = len(seen)
    got, got_loss, opt = trained(mlp, make_opt)
    assert n_ref == STEPS and len(seen) == 2 * STEPS
    assert got_loss == want_loss
    for w, g in zip(want, got):
        assert np.array_equal(w, g)
    done = dict(zip([p.name for p in opt.parameters], opt._in_backward.done))
    assert not done["0.weight"] and done["2.weight"]
    assert len(opt.parameters[0]._node.hooks) == 1  # the user's hook, ours gone


def test_hooks_removed_after_the_step():
    net = mlp()
    opt = nn.SGD(net.trainable_params(), 0.05)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt)
    for s in range(2):
        train(*data(s))
    assert all(not p._node.hooks and p._node.grad_buffer is None for p in opt.parameters)
    # the weight gradients went through one shared array per shape (return_grad=False)
    assert {k[0] for k in opt._in_backward.scratch} == {(16, 12), (16,), (16, 16), (5, 16),
                                                         (5,)}


def test_returned_gradients_are_the_gradients():
    net = mlp()
    opt = nn.SGD(net.trainable_params(), 0.05)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt, return_grad=True)
    train(*data(0))
    before = [p.asnumpy().copy() for p in opt.parameters]
    _, grads = train(*data(1))
    assert all(opt._in_backward.done)
    for b, p, g in zip(before, opt.parameters, grads):
        assert np.array_equal(p.asnumpy(), b - g.asnumpy() * np.float32(0.05))


def test_subclass_with_own_construct_is_not_fused():
    class Halved(nn.SGD):
        def construct(self, gradients):
            return super().construct(tuple(g / 2 for g in gradients))

    for cls, fused in ((nn.SGD, True), (Halved, False)):
        net = mlp()
        net(data(0)[0])  # every cell took its plain call path once
        opt = cls(net.trainable_params(), 0.05)
        assert opt._updates_in_backward(net) is None  # not called yet: its call path unknown
        opt(tuple(ops.zeros_like(p) for p in opt.parameters))
        assert (opt._updates_in_backward(net) is not None) == fused


def test_hook_on_the_optimizer_call_is_not_fused():
    pytest.importorskip("cellgrad_hooks", reason="hooks come from cellgrad-hooks")
    net = mlp()
    net(data(0)[0])
    opt = nn.SGD(net.trainable_params(), 0.05)
    opt(tuple(ops.zeros_like(p) for p in opt.parameters))
    opt.register_forward_pre_hook(lambda cell, args: None)
    assert opt._updates_in_backward(net) is None


def test_small_parameters_update_after_backward(monkeypatch):
    monkeypatch.setattr(in_backward, "MIN_BYTES", 8 << 20)
    net = mlp()
    opt = nn.SGD(net.trainable_params(), 0.05)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt)
    for s in range(2):
        train(*data(s))
    assert not any(opt._in_backward.done)
    assert opt._updates_in_backward(net) is None
