"""vmap's batched replay (cellgrad._vmap_batched): per-op batching rules against a Python loop
over the batch in float64, per-example gradients of vmap(grad) against the loop and
torch.func.vmap, and the fallback to the loop when a function's ops may differ per example."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import _vmap_batched, ops

RNG = np.random.default_rng(7)
B = 5


def T(a):
    return ms.Tensor(np.asarray(a, np.float64))


@pytest.fixture
def paths(monkeypatch):
    """Which path each vmap call took: "batched" or "loop"."""
    taken = []
    for name in ("map_call", "grad_call"):
        original = getattr(_vmap_batched, name)

        def spy(*a, _original=original):
            got = _original(*a)
            taken.append("loop" if got[0] is None else "batched")
            return got

        monkeypatch.setattr(_vmap_batched, name, spy)
    return taken


def loop(fn, args, axes):
    """fn per slice, stacked at 0 (numpy): the reference."""
    size = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    outs = []
    for i in range(size):
        sl = [a if ax is None else ms.Tensor(np.take(a.asnumpy(), i, ax))
              for a, ax in zip(args, axes)]
        outs.append(fn(*sl))
    if isinstance(outs[0], (tuple, list)):
        return [np.stack([o[k].asnumpy() for o in outs]) for k in range(len(outs[0]))]
    return np.stack([o.asnumpy() for o in outs])


def close(got, want):
    if isinstance(want, list):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            close(g, w)
        return
    assert got.dtype == ms.float64
    assert got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-12)


def mlp_loss(w1, b1, w2, b2, x, y):
    """A per-example loss in core ops only: tanh layer, log-softmax by hand, one-hot target."""
    h = ops.tanh(ops.matmul(w1, x) + b1)
    z = ops.matmul(w2, h) + b2
    z = z - ops.amax(z, 0, True)
    logp = z - ops.log(ops.sum(ops.exp(z), 0, keepdim=True))
    return -ops.sum(logp * y) + 0.5 * ops.mean(w1 * w1)


def mlp_args():
    w1, b1 = T(RNG.normal(size=(6, 4))), T(RNG.normal(size=6))
    w2, b2 = T(RNG.normal(size=(3, 6))), T(RNG.normal(size=3))
    x = T(RNG.normal(size=(B, 4)))
    y = T(np.eye(3)[RNG.integers(0, 3, B)])
    return w1, b1, w2, b2, x, y


def test_per_example_gradients_match_the_loop(paths):
    args = mlp_args()
    g = ms.grad(mlp_loss, (0, 1, 2, 3))
    axes = (None,) * 4 + (0, 0)
    got = ms.vmap(g, in_axes=axes)(*args)
    assert paths == ["batched"]
    assert [t.shape for t in got] == [(B, 6, 4), (B, 6), (B, 3, 6), (B, 3)]
    close(list(got), loop(g, args, axes))


def test_per_example_gradients_of_batched_inputs_and_an_int_position(paths):
    args = mlp_args()
    axes = (None,) * 4 + (0, 0)
    for pos in (4, (0, 4)):
        g = ms.grad(mlp_loss, pos)
        got = ms.vmap(g, in_axes=axes)(*args)
        want = loop(g, args, axes)
        close(got if isinstance(pos, int) else list(got), want)
    assert paths == ["batched", "batched"]


def test_per_example_gradients_with_the_batch_on_another_axis_and_out_axes(paths):
    w1, b1, w2, b2, x, y = mlp_args()
    xt = T(x.asnumpy().T)  # (4, B): mapped over axis 1
    g = ms.grad(mlp_loss, (0, 1))
    got = ms.vmap(g, in_axes=(None, None, None, None, 1, 0), out_axes=(2, 1))(
        w1, b1, w2, b2, xt, y)
    want = loop(g, (w1, b1, w2, b2, xt, y), (None,) * 4 + (1, 0))
    close(got[0], np.moveaxis(want[0], 0, 2))
    close(got[1], np.moveaxis(want[1], 0, 1))
    assert paths == ["batched"]


def test_per_example_gradients_average_to_the_batched_gradient():
    w1, b1, w2, b2, x, y = mlp_args()

    def batch_loss(w1, b1, w2, b2):
        per = ms.vmap(mlp_loss, in_axes=(None,) * 4 + (0, 0))(w1, b1, w2, b2, x, y)
        return ops.mean(per)

    mean = ms.grad(batch_loss, (0, 1, 2, 3))(w1, b1, w2, b2)
    per = ms.vmap(ms.grad(mlp_loss, (0, 1, 2, 3)), in_axes=(None,) * 4 + (0, 0))(
        w1, b1, w2, b2, x, y)
    for p, m in zip(per, mean):
        np.testing.assert_allclose(p.asnumpy().mean(0), m.asnumpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, fn, shapes, axes", [
    ("binary broadcast", lambda a, b: a * b - a / (b * b + 1), [(3,), (B, 2, 3)], (None, 0)),
    ("lower rank batched", lambda a, b: a + b, [(B, 3), (2, 3)], (0, None)),
    ("matmul vec @ mat", lambda a, b: ops.matmul(a, b), [(B, 3), (3, 4)], (0, None)),
    ("matmul mat @ vec", lambda a, b: ops.matmul(a, b), [(4, 3), (B, 3)], (None, 0)),
    ("matmul mat @ mat", lambda a, b: ops.matmul(a, b), [(4, 3), (B, 3, 2)], (None, 0)),
    ("matmul both", lambda a, b: ops.matmul(a, b), [(B, 4, 3), (B, 3)], (0, 0)),
    ("matmul both vec", lambda a, b: ops.matmul(a, b), [(B, 3), (B, 3)], (0, 0)),
    ("matmul stacked", lambda a, b: ops.matmul(a, b), [(B, 2, 4, 3), (3, 2)], (0, None)),
    ("reductions", lambda a: ops.sum(a, 1) + ops.mean(a) + ops.amax(a, -1).sum(),
     [(B, 2, 3)], (0,)),
    ("keepdims", lambda a: ops.sum(a, (0, 1), keepdim=True) * ops.amin(a, 0, True),
     [(B, 2, 3)], (0,)),
    ("shape ops", lambda a: ops.transpose(ops.reshape(a, (3, 2)), (1, 0))[:, None, 1:]
     .squeeze(1).expand_dims(0), [(B, 2, 3)], (0,)),
    ("broadcast_to", lambda a: ops.broadcast_to(a, (4, 2, 3)) * 2, [(B, 3)], (0,)),
    ("getitem", lambda a: a[1] + a[..., 0:1] + a[None, 0, -1], [(B, 2, 3)], (0,)),
    ("cumsum", lambda a: ops.cumsum(a, 1) + ops.cumsum(a, -2), [(B, 2, 3)], (0,)),
    ("batch on axis 2", lambda a, b: ops.exp(a) @ b, [(2, 3, B), (3, 2)], (2, None)),
])
def test_batching_rules_match_the_loop(paths, name, fn, shapes, axes):
    args = [T(RNG.normal(size=s)) for s in shapes]
    got = ms.vmap(fn, in_axes=axes)(*args)
    assert paths == ["batched"], name
    close(got, loop(fn, args, axes))


def test_gradients_flow_through_the_batched_replay():
    a, x = T(RNG.normal(size=(4, 3))), T(RNG.normal(size=(B, 3)))

    def f(a, x):
        return ops.sum(ms.vmap(lambda a, xi: ops.tanh(ops.matmul(a, xi)), (None, 0))(a, x))

    ga, gx = ms.grad(f, (0, 1))(a, x)
    t = np.tanh(x.asnumpy() @ a.asnumpy().T)
    np.testing.assert_allclose(ga.asnumpy(), ((1 - t * t).T @ x.asnumpy()), rtol=1e-10)
    np.testing.assert_allclose(gx.asnumpy(), (1 - t * t) @ a.asnumpy(), rtol=1e-10)


def test_vmap_of_grad_under_an_outer_grad_loops_and_stays_differentiable(paths):
    w, x = T(RNG.normal(size=(2, 3))), T(RNG.normal(size=(B, 3)))
    inner = ms.vmap(ms.grad(lambda w, xi: ops.sum(ops.matmul(w, xi) ** 2)), (None, 0))

    def outer(w):
        return ops.sum(inner(w, x))

    got = ms.grad(outer)(w)
    xs = x.asnumpy()  # d/dw of sum_b 2 (1.w x_b)(1.x_b)
    want = 2 * np.outer(np.ones(2), (xs.sum(1)[:, None] * xs).sum(0))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10)
    assert paths == ["loop"]


def test_value_dependent_python_falls_back_to_the_loop(paths, capsys):
    x = T(np.array([[1.0, 2.0], [-1.0, -2.0], [3.0, -5.0]]))

    def branchy(v):
        print("called")
        return v * 2 if float(ops.sum(v)) > 0 else v * 0 - 1

    got = ms.vmap(branchy)(x)
    np.testing.assert_array_equal(got.asnumpy(), [[2, 4], [-1, -1], [-1, -1]])
    assert paths == ["loop"]
    assert capsys.readouterr().out.count("called") == 3  # the trace's run is the first slice


def test_random_draws_and_ops_without_a_rule_fall_back(paths):
    x = T(RNG.normal(size=(B, 3)))
    got = ms.vmap(lambda v: ops.sort(v)[0] * 2)(x)
    np.testing.assert_allclose(got.asnumpy(), np.sort(x.asnumpy(), 1) * 2)
    ms.set_seed(3)
    r = ms.vmap(lambda v: v + ops.rand(3, dtype=ms.float64))(x)
    assert r.shape == (B, 3)
    assert paths == ["loop", "loop"]


def test_errors_stay_those_of_the_loop():
    x = T(RNG.normal(size=(B, 3)))
    with pytest.raises(RuntimeError, match="out_axes 3 is out of range"):
        ms.vmap(lambda v: v * 2, out_axes=3)(x)
    with pytest.raises(RuntimeError, match="out_axes None cannot be given"):
        ms.vmap(lambda v: v * 2, out_axes=None)(x)


def _nn():
    pytest.importorskip("cellgrad_nn")


def test_nn_ops_rules_match_the_loop(paths):
    _nn()
    x = T(RNG.normal(size=(B, 2, 4)))
    w, b = T(RNG.normal(size=(3, 4))), T(RNG.normal(size=3))
    y = ms.Tensor(RNG.integers(0, 4, (B, 2)).astype(np.int32))
    y[0, 1] = -100  # ignored target: the per-example mean counts the others

    def f(x, y):
        h = ops.relu(ops.dense(x, w, b))
        return (ops.softmax(h, -1).sum(1), ops.log_softmax(x, axis=1)[0],
                ops.cross_entropy(x, y), ops.cross_entropy(x, y, reduction="sum"),
                ops.cross_entropy(x, y, reduction="none"))

    got = ms.vmap(f)(x, y)
    assert paths == ["batched"]
    close(list(got), loop(f, (x, y), (0, 0)))


def test_per_example_gradients_through_dense_relu_and_cross_entropy(paths):
    _nn()
    w1, b1 = T(RNG.normal(size=(6, 4))), T(RNG.normal(size=6))
    w2, b2 = T(RNG.normal(size=(3, 6))), T(RNG.normal(size=3))
    x = T(RNG.normal(size=(B, 4)))
    y = ms.Tensor(RNG.integers(0, 3, B).astype(np.int32))

    def loss(w1, b1, w2, b2, x, y):
        h = ops.relu(ops.dense(x[None], w1, b1))
        return ops.cross_entropy(ops.dense(h, w2, b2), y[None])

    g = ms.grad(loss, (0, 1, 2, 3))
    axes = (None,) * 4 + (0, 0)
    got = ms.vmap(g, in_axes=axes)(w1, b1, w2, b2, x, y)
    assert paths == ["batched"]
    close(list(got), loop(g, (w1, b1, w2, b2, x, y), axes))


def test_per_example_gradients_match_torch_func():
    _nn()
    torch = pytest.importorskip("torch")
    from torch.func import grad as tgrad
    from torch.func import vmap as tvmap

    w1, b1 = RNG.normal(size=(6, 4)), RNG.normal(size=6)
    w2, b2 = RNG.normal(size=(3, 6)), RNG.normal(size=3)
    x, y = RNG.normal(size=(B, 4)), RNG.integers(0, 3, B)

    def ours(w1, b1, w2, b2, x, y):
        h = ops.relu(ops.matmul(w1, x) + b1)
        return ops.cross_entropy((ops.matmul(w2, h) + b2)[None], y[None])

    def theirs(p, x, y):
        h = torch.relu(p[0] @ x + p[1])
        return torch.nn.functional.cross_entropy((p[2] @ h + p[3])[None], y[None])

    got = ms.vmap(ms.grad(ours, (0, 1, 2, 3)), in_axes=(None,) * 4 + (0, 0))(
        *(T(a) for a in (w1, b1, w2, b2, x)), ms.Tensor(y.astype(np.int32)))
    want = tvmap(tgrad(theirs), in_dims=(None, 0, 0))(
        tuple(torch.tensor(a) for a in (w1, b1, w2, b2)), torch.tensor(x), torch.tensor(y))
    for g, t in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), t.numpy(), rtol=1e-10, atol=1e-12)


def test_batching_rules_match_torch_func_vmap():
    torch = pytest.importorskip("torch")
    a, x = RNG.normal(size=(4, 3)), RNG.normal(size=(B, 2, 3))

    def ours(a, v):
        return ops.sum(ops.exp(ops.matmul(v, a.T)), -1) / ops.amax(v)

    def theirs(a, v):
        return torch.exp(v @ a.T).sum(-1) / v.max()

    got = ms.vmap(ours, in_axes=(None, 0))(T(a), T(x))
    want = torch.func.vmap(theirs, in_dims=(None, 0))(torch.tensor(a), torch.tensor(x))
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), rtol=1e-12)


def test_dense_over_an_ensemble_of_weights(paths):
    _nn()
    w, b = T(RNG.normal(size=(B, 3, 4))), T(RNG.normal(size=(B, 3)))
    x = T(RNG.normal(size=(2, 4)))

    def f(w, b, x):
        return ops.dense(x, w, b) + ops.dense(x[0], w)

    got = ms.vmap(f, in_axes=(0, 0, None))(w, b, x)
    assert paths == ["batched"]
    close(got, loop(f, (w, b, x), (0, 0, None)))


def test_reductions_over_no_axis_and_of_a_scalar(paths):
    x = T(RNG.normal(size=(B, 2, 3)))
    got = ms.vmap(lambda v: ops.ReduceSum()(v, ()) + ops.sum(v, (0, 1)))(x)
    close(got, loop(lambda v: ops.ReduceSum()(v, ()) + ops.sum(v, (0, 1)), (x,), (0,)))
    s = T(RNG.normal(size=B))
    got = ms.vmap(lambda v: ops.cumsum(v * 2, 0))(T(RNG.normal(size=(B, 1))))
    assert got.shape == (B, 1)
    got = ms.vmap(lambda v: ops.sum(v, 0) * 3)(s)
    np.testing.assert_allclose(got.asnumpy(), s.asnumpy() * 3)
    assert paths[:2] == ["batched", "batched"]


def test_tensors_made_outside_dispatch_send_vmap_to_the_loop(paths):
    x = T(RNG.normal(size=(B, 3)))
    c = T(RNG.normal(size=3))  # made before the call: a constant of the replay

    def kernel_like(v):  # an array kernel wrapping its result, as the Apply* updates do
        return ms.Tensor(np.asarray(v._data) ** 2) + v * c

    got = ms.vmap(kernel_like)(x)
    np.testing.assert_allclose(got.asnumpy(), x.asnumpy() ** 2 + x.asnumpy() * c.asnumpy())
    got = ms.vmap(lambda v: v * c + ops.exp(c))(x)
    np.testing.assert_allclose(got.asnumpy(), x.asnumpy() * c.asnumpy() + np.exp(c.asnumpy()))
    assert paths == ["loop", "batched"]


def test_updates_in_place_per_example_keep_the_loop(paths):
    var = ms.Parameter(T(np.ones((B, 2))), name="var")
    delta = T(RNG.normal(size=(B, 2)))
    out = ms.vmap(ops.ApplyGradientDescent(), in_axes=(0, None, 0))(var, T(0.5), delta)
    want = 1 - 0.5 * delta.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), want)
    np.testing.assert_allclose(var.asnumpy(), want)
    assert paths == ["loop"]


def test_stack_concat_and_nested_vmap(paths):
    x, c = T(RNG.normal(size=(B, 2, 3))), T(RNG.normal(size=(2, 3)))

    def f(v):
        return ops.concat((ops.stack((v, c, v * 2), -1), v[..., None]), axis=-1)

    got = ms.vmap(f)(x)
    assert got.shape == (B, 2, 3, 4)
    close(got, loop(f, (x,), (0,)))
    inner = ms.vmap(lambda r: ops.exp(r) * r.sum())
    got = ms.vmap(inner)(x)
    want = np.exp(x.asnumpy()) * x.asnumpy().sum(-1, keepdims=True)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    # the inner vmap loops under the outer trace (reported first), the outer replays it batched
    assert paths == ["batched", "loop", "batched"]
