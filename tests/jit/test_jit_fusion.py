"""ms.jit plans: the optimizer's one-call update fused into the plan (no eager Cell call, no
per-parameter Python), bit for bit equal to eager training, optimizer state included."""

import numpy as np
import pytest
from jit_models import MLP

import cellgrad as ms
from cellgrad import nn

pytest.importorskip("cellgrad_nn")
from cellgrad_jit.optim_step import OptimizerStep  # noqa: E402
from cellgrad_jit.plan import IslandStep  # noqa: E402

_NUMPY_1 = int(np.__version__.split(".")[0]) < 2


def batches(n, rows=6):
    rng = np.random.default_rng(11)
    return [(ms.Tensor(rng.standard_normal((rows, 8)).astype(np.float32)),
             ms.Tensor(rng.integers(0, 4, rows).astype(np.int32))) for _ in range(n)]


def make(opt):
    ms.set_seed(7)
    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt(net.trainable_params()))


def state(train):
    """Every Parameter of the step (network and optimizer state) as bytes, by name."""
    return {p.name: (p.asnumpy().dtype, p.asnumpy().tobytes()) for p in train.get_parameters()}


def plan_of(train):
    (plan,) = [p for p in train.construct.jit_plans.values() if hasattr(p, "sequence")]
    return plan


def groups(params):
    return [{"params": params[:2], "lr": 0.05, "weight_decay": 0.01},
            {"params": params[2:], "weight_decay": 0.0}]


OPTIMIZERS = {
    "sgd": lambda p: nn.SGD(p, 0.1),
    "sgd-momentum-nesterov-wd": lambda p: nn.SGD(p, 0.1, momentum=0.9, nesterov=True,
                                                 weight_decay=1e-3),
    "sgd-loss-scale": lambda p: nn.SGD(p, 0.1, loss_scale=4.0),
    "momentum": lambda p: nn.Momentum(p, 0.05, 0.9),
    "momentum-groups": lambda p: nn.Momentum(groups(p), 0.02, 0.9),
    "adam": lambda p: nn.Adam(p, 1e-2),
    "adam-amsgrad-wd": lambda p: nn.Adam(p, 1e-2, use_amsgrad=True, weight_decay=1e-2),
    "adamw": lambda p: nn.AdamWeightDecay(p, 1e-2, weight_decay=0.1),
    "sgd-dynamic-lr": lambda p: nn.SGD(p, [0.1, 0.05, 0.02, 0.01, 0.01, 0.01]),
}


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_fused_optimizer_matches_eager_bit_for_bit(name):
    eager, jitted = make(OPTIMIZERS[name]), make(OPTIMIZERS[name])
    ms.jit(jitted)
    data = batches(5)
    for step, (x, y) in enumerate(data):
        le, lj = eager(x, y), jitted(x, y)
        assert le.asnumpy().tobytes() == lj.asnumpy().tobytes(), step
        assert state(eager) == state(jitted), step
    stats = jitted.construct.jit_stats
    assert (stats.traces, stats.replays, stats.eager_calls) == (1, 4, 0)
    kinds = [type(s) for s in plan_of(jitted).sequence]
    assert OptimizerStep in kinds and IslandStep not in kinds
    assert ".construct((v" in plan_of(jitted).generated.source


class HalvingSGD(nn.SGD):
    """A user's optimizer with its own construct: it stays an eager call in the plan."""

    def construct(self, gradients):
        return super().construct(tuple(g * 0.5 for g in gradients))


def test_optimizer_with_own_construct_stays_an_island():
    eager, jitted = make(lambda p: HalvingSGD(p, 0.1)), make(lambda p: HalvingSGD(p, 0.1))
    ms.jit(jitted)
    for x, y in batches(3):
        assert eager(x, y).asnumpy().tobytes() == jitted(x, y).asnumpy().tobytes()
        assert state(eager) == state(jitted)
    kinds = [type(s) for s in plan_of(jitted).sequence]
    assert IslandStep in kinds and OptimizerStep not in kinds


@pytest.mark.parametrize("early", [True, False], ids=["in-backward", "after-backward"])
def test_fused_update_runs_the_kernel_no_per_parameter_python(monkeypatch, early):
    import cellgrad_jit.plan as plan
    from cellgrad_nn.optim import optimizer as optimizer_module

    if _NUMPY_1:
        pytest.skip("the one-call update is off under numpy 1.x (per-parameter path there)")
    monkeypatch.setattr(plan, "EARLY_UPDATES", early)
    jitted = make(lambda p: nn.Momentum(p, 0.05, 0.9))
    ms.jit(jitted)
    data = batches(3)
    jitted(*data[0])
    jitted(*data[1])
    took, kernel = [], optimizer_module.group_update
    monkeypatch.setattr(optimizer_module, "group_update",
                        lambda *a, **k: took.append(kernel(*a, **k)) or took[-1])
    fallback, gradient = [], optimizer_module.Optimizer._gradient
    monkeypatch.setattr(optimizer_module.Optimizer, "_gradient",
                        lambda *a: fallback.append(a) or gradient(*a))
    jitted(*data[2])
    (p,) = jitted.construct.jit_plans.values()
    if early:  # each parameter by the kernel inside the backward, right after its gradient
        assert took == [] and jitted.optimizer._in_backward.done == [True] * 4
        assert p.generated.source.count(".hook(") == 4
    else:  # one kernel call took all four parameters, on the replay's arrays
        assert took == [4] and p.early is None
    assert fallback == []  # the per-parameter numpy path never ran
    assert jitted.construct.jit_stats.replays == 2


def test_a_declined_early_update_uses_its_own_gradient():
    # when the in-backward update of a weight is declined, the update after the backward must
    # get that weight's gradient, not the shared array a later layer overwrote
    if _NUMPY_1:
        pytest.skip("the early update rides on the one-call update, off under numpy 1.x")
    def square(opt):  # fc1 and fc2 weights of one shape: their gradients share an array
        ms.set_seed(7)
        net = MLP((8, 8, 8))
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt(net.trainable_params()))

    eager, jitted = square(lambda p: nn.SGD(p, 0.1)), square(lambda p: nn.SGD(p, 0.1))
    ms.jit(jitted)
    data = batches(5)
    for x, y in data[:2]:
        assert eager(x, y).asnumpy().tobytes() == jitted(x, y).asnumpy().tobytes()
    early = jitted.optimizer._in_backward
    second = jitted.optimizer.parameters[2]  # fc2.weight: its gradient is made first
    one = early._one
    early._one = lambda args, g: 0 if args[0][0] is second else one(args, g)
    for x, y in data[2:]:
        assert eager(x, y).asnumpy().tobytes() == jitted(x, y).asnumpy().tobytes()
        assert state(eager) == state(jitted)
    assert early.done == [True, True, False, True]
    (p,) = jitted.construct.jit_plans.values()
    assert p.early.shared  # the weight gradients did share an array


def test_returned_gradients_are_not_shared_arrays():
    def make_r(opt):
        ms.set_seed(7)
        net = MLP()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt(net.trainable_params()),
                                   return_grad=True)

    eager, jitted = make_r(lambda p: nn.SGD(p, 0.1)), make_r(lambda p: nn.SGD(p, 0.1))
    ms.jit(jitted)
    for x, y in batches(3):
        (le, ge), (lj, gj) = eager(x, y), jitted(x, y)
        assert le.asnumpy().tobytes() == lj.asnumpy().tobytes()
        assert [g.asnumpy().tobytes() for g in ge] == [g.asnumpy().tobytes() for g in gj]
        assert state(eager) == state(jitted)
    grads = [g.asnumpy() for g in gj]
    assert len({id(g) for g in grads}) == 4 and not np.shares_memory(grads[0], grads[2])


def test_hook_on_the_optimizer_retraces_and_stays_correct():
    pytest.importorskip("cellgrad_hooks", reason="Cell hooks come from cellgrad-hooks")
    eager, jitted = make(lambda p: nn.SGD(p, 0.1)), make(lambda p: nn.SGD(p, 0.1))
    ms.jit(jitted)
    data = batches(4)
    for x, y in data[:2]:
        eager(x, y), jitted(x, y)
    seen = []
    for t in (eager, jitted):
        t.optimizer.register_forward_pre_hook(lambda cell, inputs: seen.append(1))
    for x, y in data[2:]:
        assert eager(x, y).asnumpy().tobytes() == jitted(x, y).asnumpy().tobytes()
    assert state(eager) == state(jitted)
    assert len(seen) == 4  # the hook fired in both, at every step


def deep_sgd(depth=3, width=128, return_grad=False):
    """Dense weights of 64 KiB and plain SGD: eager takes their step inside the dW product."""
    ms.set_seed(7)
    layers = []
    for _ in range(depth):
        layers += [nn.Dense(width, width), nn.ReLU()]
    net = nn.SequentialCell(layers)
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.05), return_grad=return_grad)


def wide_batches(n, rows=32, width=128):
    rng = np.random.default_rng(5)
    return [(ms.Tensor(rng.standard_normal((rows, width)).astype(np.float32)),
             ms.Tensor(rng.standard_normal((rows, width)).astype(np.float32)))
            for _ in range(n)]


def test_replay_takes_sgd_steps_inside_dense_products_as_eager(monkeypatch):
    # the jitted step must take the same fused W -= lr * g.T @ x as eager (same numbers,
    # no separate dW and update), not compute dW and update after it
    if _NUMPY_1:
        pytest.skip("in-backward updates are off under numpy 1.x")
    from cellgrad_nn.functional import _dense_sgd

    fused, step = [], _dense_sgd.step
    monkeypatch.setattr(_dense_sgd, "step", lambda w, *a: fused.append(w.shape) or step(w, *a))
    eager, jitted = deep_sgd(), deep_sgd()
    ms.jit(jitted)
    data = wide_batches(4)
    for i, (x, y) in enumerate(data):
        fused.clear()
        le = eager(x, y)
        took_eager = list(fused)
        fused.clear()
        lj = jitted(x, y)
        assert le.asnumpy().tobytes() == lj.asnumpy().tobytes(), i
        assert state(eager) == state(jitted), i
        if i:  # replays: every weight fused, as in eager
            assert took_eager == [(128, 128)] * 3 and fused == took_eager, i
    assert jitted.construct.jit_stats.replays == 3
    assert jitted.optimizer._in_backward.done == [True] * 6  # biases by the in-backward hook


def test_replay_returning_gradients_does_not_fuse_their_steps(monkeypatch):
    # with return_grad the caller reads every weight gradient: each must be computed
    if _NUMPY_1:
        pytest.skip("in-backward updates are off under numpy 1.x")
    from cellgrad_nn.functional import _dense_sgd

    fused, step = [], _dense_sgd.step
    monkeypatch.setattr(_dense_sgd, "step", lambda w, *a: fused.append(w.shape) or step(w, *a))
    eager, jitted = deep_sgd(return_grad=True), deep_sgd(return_grad=True)
    ms.jit(jitted)
    for x, y in wide_batches(3):
        (le, ge), (lj, gj) = eager(x, y), jitted(x, y)
        assert le.asnumpy().tobytes() == lj.asnumpy().tobytes()
        for a, b in zip(ge, gj):
            assert a.asnumpy().tobytes() == b.asnumpy().tobytes()
        assert state(eager) == state(jitted)
    assert fused == []


def test_an_eager_cell_running_its_own_gradient_before_the_backward_updates_nothing_early():
    # an island (a Cell that reads values) computing gradients of the same loss before the
    # step's backward: the in-backward updates must not fire in its backward, or the step's
    # forward would run on weights already updated (and a fused step corrupt them)
    def build():
        ms.set_seed(7)
        layers = []
        for _ in range(3):
            layers += [nn.Dense(128, 128), nn.ReLU()]
        net = nn.SequentialCell(layers)
        loss_net = nn.WithLossCell(net, nn.MSELoss())
        opt = nn.SGD(net.trainable_params(), 0.05)
        grad_fn = ms.value_and_grad(loss_net, None, opt.parameters)

        class Monitor(nn.Cell):
            def __init__(self):
                super().__init__()
                self.norms = []

            def construct(self, x, y):
                _, gs = grad_fn(x, y)
                self.norms.append(float(sum(float((g * g).sum().asnumpy()) for g in gs)))
                return x

        monitor = Monitor()

        def step(x, y):
            loss, grads = grad_fn(monitor(x, y), y)
            opt(grads)
            return loss

        return step, net, monitor

    (eager, e_net, e_mon), (jitted, j_net, j_mon) = build(), build()
    jitted = ms.jit(jitted)
    for x, y in wide_batches(4):
        assert eager(x, y).asnumpy().tobytes() == jitted(x, y).asnumpy().tobytes()
        for a, b in zip(e_net.trainable_params(), j_net.trainable_params()):
            assert a.asnumpy().tobytes() == b.asnumpy().tobytes()
    assert e_mon.norms == j_mon.norms and np.isfinite(j_mon.norms).all()
    assert jitted.jit_stats.replays == 3
