"""ms.jit traces once and replays: results, gradients and Parameters equal eager execution
bit for bit (the same kernels run), over training loops; what replays and what runs eagerly."""

import numpy as np
import pytest
from jit_models import MLP, LeNetBN

import cellgrad as ms
from cellgrad import nn, ops

RNG = np.random.default_rng(0)


def batches(n, shape, classes, dtype=np.float32):
    rng = np.random.default_rng(len(shape))
    return [(ms.Tensor(rng.standard_normal(shape).astype(dtype)),
             ms.Tensor(rng.integers(0, classes, shape[0]).astype(np.int32))) for _ in range(n)]


def same(a, b):
    a = a.asnumpy() if isinstance(a, ms.Tensor) else np.asarray(a)
    b = b.asnumpy() if isinstance(b, ms.Tensor) else np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def all_params_equal(net_a, net_b):
    pa, pb = net_a.get_parameters(), net_b.get_parameters()
    pairs = list(zip(pa, pb))
    assert len(pairs) == len(list(net_b.get_parameters()))
    for a, b in pairs:
        assert a.name == b.name
        assert same(a, b), a.name


def train_cell(make_net, opt, loss=None, seed=3):
    ms.set_seed(seed)
    net = make_net()
    loss = loss or nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt(net.trainable_params()))
    train.set_train(True)
    return net, train


def run_both(make_net, opt, data, seed=5, loss=None):
    """The same training loop eagerly and under ms.jit(cell); returns the losses and nets."""
    net_e, train_e = train_cell(make_net, opt, loss)
    net_j, train_j = train_cell(make_net, opt, loss)
    ms.jit(train_j)
    ms.set_seed(seed)
    losses_e = [train_e(x, y) for x, y in data]
    ms.set_seed(seed)
    losses_j = [train_j(x, y) for x, y in data]
    return losses_e, losses_j, net_e, net_j, train_j.construct.jit_stats


# ---- training steps, bit for bit ----


@pytest.mark.parametrize("opt", [lambda p: nn.SGD(p, 0.1), lambda p: nn.Momentum(p, 0.05, 0.9),
                                 lambda p: nn.Adam(p, 1e-3)], ids=["sgd", "momentum", "adam"])
def test_mlp_training_loop_equals_eager(opt):
    data = batches(6, (16, 8), 4)
    le, lj, ne, nj, stats = run_both(lambda: MLP((8, 16, 4)), opt, data)
    assert [float(a) for a in le] == [float(b) for b in lj]
    assert all(same(a, b) for a, b in zip(le, lj))
    all_params_equal(ne, nj)
    assert (stats.traces, stats.replays, stats.eager_calls) == (1, 5, 0)
    assert float(le[-1]) != float(le[0])  # the parameters did move


def test_lenet_batchnorm_train_mode_equals_eager():
    data = batches(4, (4, 1, 32, 32), 10)
    le, lj, ne, nj, stats = run_both(LeNetBN, lambda p: nn.Adam(p, 1e-3), data)
    assert all(same(a, b) for a, b in zip(le, lj))
    all_params_equal(ne, nj)  # moving mean and variance included
    names = [p.name for p in nj.get_parameters()]
    assert any("moving_mean" in n for n in names)
    assert stats.replays == 3 and stats.eager_calls == 0


class DropNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Dense(8, 32), nn.Dense(32, 4)
        self.drop = nn.Dropout(p=0.4)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.drop(self.relu(self.fc1(x))))


def test_dropout_draws_fresh_masks_as_eager():
    data = batches(5, (16, 8), 4)
    le, lj, ne, nj, stats = run_both(DropNet, lambda p: nn.SGD(p, 0.1), data)
    assert all(same(a, b) for a, b in zip(le, lj))
    all_params_equal(ne, nj)
    assert stats.replays == 4

    # a replayed call draws a new mask each time: two replays on one input differ
    net = DropNet()
    net.set_train(True)
    f = ms.jit(lambda x: net(x))
    x = data[0][0]
    outs = [f(x) for _ in range(3)]
    assert f.jit_stats.replays == 2
    assert not same(outs[1], outs[2])


class TinyLSTM(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 12, batch_first=True)
        self.fc = nn.Dense(12, 3)

    def construct(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1, :])


def test_lstm_training_equals_eager():
    data = batches(3, (4, 5, 6), 3)
    le, lj, ne, nj, stats = run_both(TinyLSTM, lambda p: nn.Momentum(p, 0.05, 0.9), data)
    assert all(same(a, b) for a, b in zip(le, lj))
    all_params_equal(ne, nj)
    assert (stats.traces, stats.replays) == (1, 2)


def test_function_step_with_value_and_grad_and_optimizer():
    """A whole step as a function: forward, value_and_grad, optimizer update."""
    def make():
        ms.set_seed(1)
        net = MLP((8, 16, 4))
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        grad_fn = ms.value_and_grad(lambda x, y: loss(net(x), y), None, opt.parameters)

        def step(x, y):
            value, grads = grad_fn(x, y)
            opt(grads)
            return value, grads

        return net, step

    net_e, step_e = make()
    net_j, step_j = make()
    step_j = ms.jit(step_j)
    kept = []
    for x, y in batches(5, (16, 8), 4):
        (ve, ge), (vj, gj) = step_e(x, y), step_j(x, y)
        assert same(ve, vj)
        assert all(same(a, b) for a, b in zip(ge, gj))
        kept.append([g.asnumpy().copy() for g in gj])
        assert all(np.array_equal(g.asnumpy(), k) for g, k in zip(gj, kept[-1]))
    all_params_equal(net_e, net_j)
    assert step_j.jit_stats.replays == 4
    # gradients returned to the caller are fresh arrays per call (no buffer reuse)
    assert not np.array_equal(kept[0][0], kept[-1][0])


def test_input_gradients_and_python_results():
    w = ms.Parameter(ms.Tensor(RNG.standard_normal((3, 3)).astype(np.float32)), name="w")

    def f(x, scale):
        y = ops.tanh(ops.matmul(x, w)) * scale + x * x
        return y.sum(), {"shape": y.shape, "scale": scale, "tag": "ok"}, [y]

    def g(x):
        return ms.grad(lambda a: f(a, 2.0)[0], 0)(x)

    fj, gj = ms.jit(f), ms.jit(g)
    for _ in range(3):
        x = ms.Tensor(RNG.standard_normal((4, 3)).astype(np.float32))
        ea, ja = f(x, 2.0), fj(x, 2.0)
        assert same(ea[0], ja[0]) and same(ea[2][0], ja[2][0])
        assert ja[1] == {"shape": (4, 3), "scale": 2.0, "tag": "ok"}
        assert isinstance(ja[2], list)
        assert same(g(x), gj(x))
    assert fj.jit_stats.replays == 2 and gj.jit_stats.replays == 2


def test_construct_decorated_and_cell_passed_to_jit():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)

        @ms.jit
        def construct(self, x):
            return ops.relu(self.fc(x)) * 2

    ms.set_seed(0)
    net = Net()
    plain = MLP((4, 8, 3))
    jitted = ms.jit(MLP((4, 8, 3)))
    jitted.load_parameter_slice = None
    for p, q in zip(plain.get_parameters(), jitted.get_parameters()):
        q.set_data(p.data.copy())
    for _ in range(3):
        x = ms.Tensor(RNG.standard_normal((5, 4)).astype(np.float32))
        expected = ops.relu(net.fc(x)) * 2
        assert same(net(x), expected)
        assert same(plain(x), jitted(x))
    assert Net.construct.jit_stats.replays == 2
    assert jitted.construct.jit_stats.replays == 2


# ---- guards ----


def test_guards_retrace_on_shape_dtype_scalar_and_phase():
    net = MLP((4, 8, 3))
    f = ms.jit(lambda x, k: net(x) * k)
    x32 = ms.Tensor(np.ones((2, 4), np.float32))
    f(x32, 2.0)
    f(x32, 2.0)
    assert (f.jit_stats.traces, f.jit_stats.replays) == (1, 1)
    assert same(f(x32, 3.0), net(x32) * 3.0)  # another Python scalar: another trace
    assert same(f(ms.Tensor(np.ones((5, 4), np.float32)), 2.0),
                net(ms.Tensor(np.ones((5, 4), np.float32))) * 2.0)
    assert f.jit_stats.traces == 3
    net.set_train(True)
    f(x32, 2.0)
    assert f.jit_stats.traces == 4  # the training phase changed
    net.set_train(False)
    f(x32, 2.0)
    assert f.jit_stats.traces == 5

    bn = nn.BatchNorm1d(4)
    h = ms.jit(lambda x: bn(x))
    bn.set_train(True)
    xs = ms.Tensor(RNG.standard_normal((6, 4)).astype(np.float32))
    h(xs)
    h(xs)
    bn.set_train(False)
    assert same(h(xs), bn(xs))  # eval mode: the moving statistics, not the batch's
    assert h.jit_stats.traces == 2


def test_parameter_replaced_or_reshaped_retraces():
    w = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="w")
    f = ms.jit(lambda x: ops.matmul(x, w))
    x = ms.Tensor(np.ones((1, 3), np.float32))
    f(x)
    assert same(f(x), ms.Tensor(np.full((1, 2), 3, np.float32)))
    w.set_data(ms.Tensor(np.full((3, 2), 2, np.float32)))  # same shape: the live value
    assert same(f(x), ms.Tensor(np.full((1, 2), 6, np.float32)))
    w.set_data(ms.Tensor(np.ones((3, 5), np.float32)), slice_shape=True)  # a new trace
    assert same(f(x), ms.Tensor(np.full((1, 5), 3, np.float32)))
    assert f.jit_stats.traces == 2


def test_cache_is_bounded_and_warns_when_it_keeps_retracing():
    from cellgrad_jit.replay import MAX_CACHE

    f = ms.jit(lambda x, k: x * k)
    x = ms.Tensor(np.ones(3, np.float32))
    with pytest.warns(RuntimeWarning, match="traced .* times: its guards"):
        for k in range(MAX_CACHE + 2):
            assert same(f(x, float(k)), x * float(k))
    assert len(f.jit_plans) == MAX_CACHE
    assert f.jit_stats.evictions == 2


# ---- what runs eagerly, and why ----


def test_data_dependent_branch_falls_back_to_eager():
    def f(x):
        if x.sum() > 0:
            return x * 2
        return x - 1

    fj = ms.jit(f)
    pos, neg = ms.Tensor(np.ones(3, np.float32)), ms.Tensor(-np.ones(3, np.float32))
    for t in (pos, neg, pos, neg):
        assert same(fj(t), f(t))
    assert fj.jit_stats.replays == 0
    assert "bool() read a Tensor's values" in fj.jit_stats.last_fallback

    for read in (lambda x: x * float(x[0]), lambda x: x * x.asnumpy()[0].item(),
                 lambda x: x + ms.Tensor(x.asnumpy() * 2),
                 lambda x: x * float(np.asarray(x).sum()),  # the buffer protocol
                 lambda x: x * float(memoryview(x)[0])):
        rj = ms.jit(read)
        for t in (pos, neg):
            assert same(rj(t), read(t))
        assert rj.jit_stats.replays == 0


def test_fullgraph_names_the_unsupported_construct():
    @ms.jit(fullgraph=True)
    def f(x):
        return x * 2 if float(x.sum()) > 0 else x

    with pytest.raises(RuntimeError, match=r"fullgraph=True, '.*f' cannot be captured as one "
                                           r"graph: float\(\) read a Tensor's values"):
        f(ms.Tensor(np.ones(2, np.float32)))


def test_cell_hooks_fire_under_jit():
    pytest.importorskip("cellgrad_hooks")
    net = MLP((4, 8, 3))
    f = ms.jit(lambda x: net(x))
    x = ms.Tensor(np.ones((2, 4), np.float32))
    f(x)
    f(x)
    assert f.jit_stats.replays == 1
    seen = []
    handle = net.fc1.register_forward_hook(lambda cell, inp, out: seen.append(out.shape))
    f(x)
    f(x)
    assert seen == [(2, 8), (2, 8)]
    handle.remove()
    f(x)
    f(x)
    assert len(seen) == 2
    assert f.jit_stats.replays >= 2


def test_tensor_hooks_fire_under_jit():
    pytest.importorskip("cellgrad_hooks")
    w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
    seen = []

    def f(x):
        y = x * w
        y.register_hook(lambda g: seen.append(g))
        return y.sum()

    step = ms.jit(lambda x: ms.grad(f, None, [w])(x))
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    for _ in range(3):
        assert same(step(x)[0], x)
    assert len(seen) == 3
    assert step.jit_stats.replays == 0
    assert "gradient hook" in step.jit_stats.last_fallback


def test_jitted_function_inside_grad_runs_eagerly():
    w = ms.Parameter(ms.Tensor(np.full(3, 2.0, np.float32)), name="w")
    f = ms.jit(lambda x: (x * w).sum())
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    g = ms.grad(f, 0)(x)
    assert same(g, w)
    assert "inside a gradient transform" in f.jit_stats.last_fallback


def test_jit_signature_checks():
    with pytest.raises(ValueError, match="capture_mode"):
        ms.jit(lambda x: x, capture_mode="graph")
    with pytest.raises(TypeError, match="fullgraph"):
        ms.jit(lambda x: x, fullgraph="yes")
    with pytest.raises(TypeError, match="must be a function or a Cell, but got int"):
        ms.jit(3)
    for mode in ("ast", "bytecode", "trace"):
        f = ms.jit(lambda x: x + 1, capture_mode=mode, jit_level="O1")
        x = ms.Tensor(np.ones(2, np.float32))
        assert same(f(x), x + 1) and same(f(x), x + 1)
        assert f.jit_stats.replays == 1


def test_in_place_writes_outside_ops_run_eagerly():
    class Acc(nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="total")

        @ms.jit
        def construct(self, x):
            ops.assign(self.total, self.total + x)
            return self.total * 1

    net = Acc()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    for k in range(1, 4):
        assert net(x).asnumpy().tolist() == [k, 2 * k]
    assert net.total.asnumpy().tolist() == [3, 6]
    assert "assign wrote into a Tensor in place" in Acc.construct.jit_stats.last_fallback

    buf = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="buf")

    def raw(x):
        y = x * 2
        buf._data += 1  # a write no core function reports: the copy kept at trace shows it
        return y + buf

    rj = ms.jit(raw)
    outs = [rj(x3).asnumpy().tolist() for x3 in [ms.Tensor(np.ones(3, np.float32))] * 3]
    assert outs == [[3.0] * 3, [4.0] * 3, [5.0] * 3]
    assert "Parameter 'buf' was changed in place" in rj.jit_stats.last_fallback


@pytest.mark.parametrize("generate", [True, False], ids=["generated", "interpreted"])
@pytest.mark.parametrize("buffers", [True, False], ids=["buffers", "fresh-arrays"])
def test_generated_and_interpreted_replays_agree(monkeypatch, generate, buffers):
    import cellgrad_jit.plan as plan

    monkeypatch.setattr(plan, "GENERATE", generate)
    monkeypatch.setattr(plan, "BUFFERS", buffers)
    w = ms.Parameter(ms.Tensor(RNG.standard_normal((6, 6)).astype(np.float32)), name="w")

    def chain(x):
        y = x * w
        for _ in range(3):
            y = ops.tanh(y) * 0.5 + ops.sigmoid(y) * y - ops.exp(-y * y) * 0.1
        return (y - x).sum()

    grad_fn = ms.value_and_grad(chain, None, [w])
    step = ms.jit(lambda x: grad_fn(x))
    for _ in range(4):
        x = ms.Tensor(RNG.standard_normal((6, 6)).astype(np.float32))
        (ve, (ge,)), (vj, (gj,)) = grad_fn(x), step(x)
        assert same(ve, vj) and same(ge, gj)
    assert step.jit_stats.replays == 3
    replay = next(iter(step.jit_plans.values())).generated
    assert generate == hasattr(replay, "source")
    if generate:
        assert "def replay(tensors):" in replay.source and "out=B" in replay.source or \
            not buffers


SCALE = 2.0


def test_python_values_read_from_closures_globals_and_cells_are_guarded():
    global SCALE
    net = MLP((4, 8, 3))
    net.factor = 1.5
    shift = 1.0

    def f(x):
        return net(x) * net.factor * SCALE + shift

    fj = ms.jit(f)
    x = ms.Tensor(np.ones((2, 4), np.float32))
    assert same(fj(x), f(x)) and same(fj(x), f(x))
    assert fj.jit_stats.replays == 1
    net.factor = 3.0
    assert same(fj(x), f(x))
    SCALE = 5.0
    assert same(fj(x), f(x))
    shift = -2.0  # noqa: F841 (read by f through its closure)
    assert same(fj(x), f(x))
    assert fj.jit_stats.traces == 4
    assert same(fj(x), f(x)) and fj.jit_stats.replays == 2


@pytest.mark.parametrize("dtype,scalar", [(np.int32, 2.5), (np.int8, 300), (np.uint8, -1),
                                          (np.float16, 1e5), (np.bool_, 1), (np.int64, True),
                                          (np.float64, 0.1)])
def test_scalar_promotion_replays_as_eager(dtype, scalar):
    f = ms.jit(lambda x: x * scalar + x)
    x = ms.Tensor(np.array([1, 0, 1], dtype))
    expected = x * scalar + x
    for _ in range(3):
        out = f(x)
        assert out.dtype == expected.dtype and same(out, expected)
    assert f.jit_stats.replays == 2


def test_a_returned_parameter_is_the_parameter():
    w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    f = ms.jit(lambda x: (x * w, w))
    x = ms.Tensor(np.full(2, 3.0, np.float32))
    for _ in range(3):
        y, p = f(x)
        assert p is w and same(y, x * w)
    assert f.jit_stats.replays == 2


def test_an_error_during_a_replay_names_the_plan():
    table = ms.Parameter(ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)), name="t")
    f = ms.jit(lambda i: ops.gather(table, i, 0) * 2)
    good = ms.Tensor(np.array([0, 3], np.int32))
    assert same(f(good), ops.gather(table, good, 0) * 2)
    assert same(f(good), ops.gather(table, good, 0) * 2)
    bad = ms.Tensor(np.array([0, 9], np.int32))
    with pytest.raises(Exception) as info:
        f(bad)
    with pytest.raises(type(info.value)):
        ops.gather(table, bad, 0)
    assert f.jit_stats.replays == 2
    assert "'input_indices' should be in the range [0, 4), but got 9" in str(info.value)
    assert any("while replaying the ms.jit plan of" in n for n in info.value.__notes__)
