"""Plain SGD fused into Dense's weight-gradient product (`functional._dense_sgd`): in a
TrainOneStepCell whose gradients nobody reads, a large Dense weight becomes W - lr * dW, dW
being the same product, rounded once or (OpenBLAS's small-matrix kernels) twice as the separate
update, by what `rounding` measured; everything else is the usual step bit for bit. Weights whose
array another rule still reads, tied weights, returned gradients, momentum, weight decay and
loss scale keep the separate update."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad_nn._kernels import update
from cellgrad_nn.functional import _dense_sgd

pytestmark = [
    pytest.mark.skipif(int(np.__version__.split(".")[0]) < 2,
                       reason="the group kernel (and so the early update) needs numpy 2"),
    pytest.mark.skipif(not _dense_sgd._FN, reason="needs numpy's ILP64 OpenBLAS"),
]

STEPS = 3
LR = 0.05
BATCH = 32


def mlp(seed=0):
    ms.set_seed(seed)
    # 64 KB and 256 KB weights fuse; the last (10 KB) and the biases do not
    return nn.SequentialCell([nn.Dense(64, 256), nn.ReLU(), nn.Dense(256, 256), nn.ReLU(),
                              nn.Dense(256, 10)])


def data(step, batch=BATCH):
    rng = np.random.default_rng(20 + step)
    return (Tensor(rng.standard_normal((batch, 64)).astype(np.float32)),
            Tensor(rng.integers(0, 10, batch).astype(np.int32)))


def loss_fn():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")



def fused(p):
    return p.ndim == 2 and p.asnumpy().nbytes >= _dense_sgd.MIN_BYTES


def once(p):
    """Whether the fused step rounds once for this weight (else as the separate update)."""
    return fused(p) and _dense_sgd.rounding(p.asnumpy().dtype, *p.shape, BATCH) == 1


def reference(make_net, once=once, steps=STEPS):
    """Parameters after value_and_grad + the update by hand: rounded once where `once(p)`
    from the second step on (the first runs the usual update: no cell's call path is known
    yet), the separate kernel's two roundings (numpy's p - g * lr) elsewhere."""
    net = make_net()
    params = net.trainable_params()
    vg = ms.value_and_grad(nn.WithLossCell(net, loss_fn()), None, params)
    losses = []
    for s in range(steps):
        loss, grads = vg(*data(s))
        losses.append(float(loss.asnumpy()))
        for p, g in zip(params, grads):
            w, dw = p.asnumpy(), g.asnumpy()
            if s and once(p):
                update.sgd_step(w, dw, LR, once=True)
            else:
                w -= dw * np.float32(LR)
    return [p.asnumpy().copy() for p in params], losses


def trained(make_net, steps=STEPS, **kw):
    net = make_net()
    opt = nn.SGD(net.trainable_params(), LR)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt, **kw)
    losses = []
    for s in range(steps):
        out = train(*data(s))
        losses.append(float((out[0] if kw.get("return_grad") else out).asnumpy()))
    return [p.asnumpy().copy() for p in opt.parameters], losses, opt


def done(opt):
    return dict(zip([p.name for p in opt.parameters], opt._in_backward.done))


def assert_same(want, got):
    for w, g in zip(want, got):
        assert w.dtype == g.dtype and np.array_equal(w, g)


def test_large_weights_take_one_rounding_in_the_product():
    want, want_loss = reference(mlp)
    got, got_loss, opt = trained(mlp)
    assert got_loss == want_loss
    assert_same(want, got)
    d = done(opt)
    assert d["0.weight"] and d["2.weight"]  # fused in the product
    assert not d["4.weight"] and not d["0.bias"]  # a small network: the rest after the backward
    # on x86 OpenBLAS the 256 x 256 weight takes the once-rounding kernel: not the two-rounding
    # step (so the comparison above can fail); the 256 x 64 one the small-matrix kernel
    assert [_dense_sgd.rounding(np.float32, *s, BATCH) for s in ((256, 64), (256, 256))] \
        == [2, 1]
    two, _ = reference(mlp, once=lambda p: False)
    assert not np.array_equal(two[2], got[2])
    # the hooks, buffers and registrations are gone after the step
    assert not _dense_sgd.STEPS
    assert all(not p._node.hooks and p._node.grad_buffer is None for p in opt.parameters)


@pytest.mark.parametrize("batch_refused", [False, True])
def test_the_rest_of_the_step_is_one_kernel_call(monkeypatch, batch_refused):
    from cellgrad_nn.optim import in_backward

    calls = []
    real = in_backward.group_update

    def spy(kind, params, *args, **kw):
        calls.append(len(params))
        if batch_refused and len(params) > 1:
            return 0  # as for a parameter the kernel cannot take: the per-parameter path
        return real(kind, params, *args, **kw)

    monkeypatch.setattr(in_backward, "group_update", spy)
    want, want_loss = reference(mlp)
    got, got_loss, _ = trained(mlp)
    assert got_loss == want_loss
    assert_same(want, got)
    # steps 2 and 3: the two fused weights in the product, the other four in one call (or,
    # refused, one call each)
    per_step = [4, 1, 1, 1, 1] if batch_refused else [4]
    assert calls == per_step * (STEPS - 1)


def test_disabled_is_the_usual_step(monkeypatch):
    monkeypatch.setattr(_dense_sgd, "ENABLED", False)
    want, want_loss = reference(mlp, once=lambda p: False)
    got, got_loss, opt = trained(mlp)
    assert got_loss == want_loss
    assert_same(want, got)
    assert not any(opt._in_backward.done)  # a small network: no early step without fusing


def test_returned_gradients_keep_the_separate_update():
    want, _ = reference(mlp, once=lambda p: False)
    got, _, opt = trained(mlp, return_grad=True)
    assert_same(want, got)


@pytest.mark.parametrize("kw", [{"momentum": 0.9}, {"weight_decay": 0.01},
                                {"loss_scale": 2.0}])
def test_other_sgd_options_do_not_fuse(kw):
    net = mlp()
    opt = nn.SGD(net.trainable_params(), LR, **kw)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), opt)
    train(*data(0))
    train(*data(1))
    assert opt._in_backward.fusable == [] and not any(opt._in_backward.done)


class Reuse(nn.Cell):
    """The middle weight read again: "before" by an op without gradient ahead of it (that
    op's rule runs after Dense's and needs the old weight), "twice" by the same Dense applied
    twice (its gradient has two parts: no rule has it whole)."""

    def __init__(self, how):
        super().__init__()
        self.d1 = nn.Dense(64, 256)
        self.d2 = nn.Dense(256, 256)
        self.d3 = nn.Dense(256, 10)
        self.how = how

    def construct(self, x):
        h = ops.relu(self.d1(x))
        if self.how == "before":
            h = ops.matmul(h, ops.stop_gradient(self.d2.weight).T) * 0.1
        else:
            h = ops.relu(self.d2(h))
        return self.d3(ops.relu(self.d2(h)))


@pytest.mark.parametrize("how", ["before", "twice"])
def test_weight_read_again_is_not_fused(how):
    def make():
        ms.set_seed(4)
        return Reuse(how)

    # d2's step rounds twice: the usual update (after the backward, or its hook's), not fused
    want, want_loss = reference(make, once=lambda p: once(p) and p.name != "d2.weight")
    got, got_loss, opt = trained(make)
    assert got_loss == want_loss
    assert_same(want, got)
    d = done(opt)
    assert d["d1.weight"] and (how == "twice" or not d["d2.weight"])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,n,k", [(256, 64, 32), (100, 37, 5), (512, 784, 64), (64, 64, 64),
                                   (256, 256, 256)])
def test_step_is_the_product_then_its_rounding(dtype, m, n, k):
    rng = np.random.default_rng(1)
    g = rng.standard_normal((k, m)).astype(dtype)
    x = rng.standard_normal((k, n)).astype(dtype)
    w = rng.standard_normal((m, n)).astype(dtype)
    once, twice = w.copy(), w.copy()
    update.sgd_step(once, np.matmul(g.T, x), 0.01, once=True)
    update.sgd_step(twice, np.matmul(g.T, x), 0.01)
    got = _dense_sgd.step(w, g, x, 0.01)
    # one block of K on OpenBLAS's x86 kernels: always one of the two
    assert got == _dense_sgd.rounding(dtype, m, n, k) and got in (1, 2)
    assert np.array_equal(w, once if got == 1 else twice)
    assert not np.array_equal(once, twice)  # so the line above tells them apart


def test_step_refuses_what_it_cannot_take():
    rng = np.random.default_rng(2)
    g = rng.standard_normal((8, 16)).astype(np.float32)
    x = rng.standard_normal((8, 12)).astype(np.float32)
    w = rng.standard_normal((16, 12)).astype(np.float32)
    keep = w.copy()
    assert not _dense_sgd.step(w, g.astype(np.float64), x, 0.1)  # mixed dtypes
    assert not _dense_sgd.step(w, g, np.asfortranarray(x), 0.1)  # not C-contiguous
    assert not _dense_sgd.step(w[:, :6], g, x[:, :6], 0.1)  # a view of W
    assert not _dense_sgd.step(w.T.copy(), g, x, 0.1)  # shapes do not chain
    assert np.array_equal(w, keep)


def test_a_split_of_k_is_measured_not_assumed():
    # a batch far above any kernel's K block: the fused call would round once per block
    rng = np.random.default_rng(3)
    k, m, n = 3000, 64, 48
    g = rng.standard_normal((k, m)).astype(np.float32)
    x = rng.standard_normal((k, n)).astype(np.float32)
    w = rng.standard_normal((m, n)).astype(np.float32)
    keep = w.copy()
    assert _dense_sgd.rounding(np.float32, m, n, k) == 0
    assert not _dense_sgd.step(w, g, x, 0.01)
    assert np.array_equal(w, keep)  # refused: untouched, the caller takes the usual path
