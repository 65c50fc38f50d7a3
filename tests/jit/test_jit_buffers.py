"""ms.jit plans write elementwise results into arrays allocated once and shared by liveness:
the replay allocates almost nothing for them, results stay bit for bit eager, and nothing a
caller holds is overwritten by the next replay."""

import numpy as np

import cellgrad as ms
from cellgrad import ops
from cellgrad_jit import plan as P

RNG = np.random.default_rng(4)


def same(a, b):
    a, b = a.asnumpy(), b.asnumpy()
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def chain(x):
    y = x * 1.5
    for _ in range(6):
        y = ops.tanh(y) * 0.5 + ops.exp(-y * y) * y - 0.25
    return y * 2.0


def test_elementwise_buffers_are_shared_and_results_equal_eager():
    f = ms.jit(chain)
    held = []
    for _ in range(4):
        x = ms.Tensor(RNG.standard_normal((8, 16)).astype(np.float32))
        out = f(x)
        assert same(out, chain(x))
        held.append((out, out.asnumpy().copy()))
    # results the caller holds were not overwritten by later replays
    assert all(out.asnumpy().tobytes() == copy.tobytes() for out, copy in held)
    (plan,) = f.jit_plans.values()
    buffered = [s for s in plan.steps if type(s) is P.OpStep and s.buf is not None]
    assert len(buffered) >= 30  # every elementwise op but the result's
    # liveness: a handful of arrays serve them all
    assert plan.buffers <= 4
    assert len({id(s.buf) for s in buffered}) == plan.buffers
    assert "out=B" in plan.generated.source


def test_buffered_values_saved_for_the_backward_keep_their_own_arrays():
    w = ms.Parameter(ms.Tensor(RNG.standard_normal((5, 5)).astype(np.float32)), name="w")

    def loss(x):
        return (chain(x * w) - x).sum()

    grad_fn = ms.value_and_grad(loss, None, [w])
    step = ms.jit(lambda x: grad_fn(x))
    for _ in range(4):
        x = ms.Tensor(RNG.standard_normal((5, 5)).astype(np.float32))
        (ve, (ge,)), (vj, (gj,)) = grad_fn(x), step(x)
        assert same(ve, vj) and same(ge, gj)
    assert step.jit_stats.replays == 3
    (plan,) = step.jit_plans.values()
    ops_ = [s for s in plan.steps if type(s) is P.OpStep]
    # a value the backward reads keeps its array: no later op writes into it
    checked = 0
    for i, s in enumerate(ops_):
        if s.buf is not None and s.keep and s.op.save == 2:
            assert all(t.buf is not s.buf for t in ops_[i + 1:])
            checked += 1
    assert checked >= 6


def test_a_buffer_does_not_leak_into_the_result_of_a_view_op():
    def f(x):
        y = ops.exp(x) + 1.0
        return y.reshape(-1), y * 0.5

    fj = ms.jit(f)
    outs = []
    for _ in range(3):
        x = ms.Tensor(RNG.standard_normal((3, 4)).astype(np.float32))
        (a, b), (c, d) = fj(x), f(x)
        assert same(a, c) and same(b, d)
        outs.append((a, a.asnumpy().copy()))
    assert all(o.asnumpy().tobytes() == c.tobytes() for o, c in outs)


def test_gradients_nobody_reads_are_not_computed():
    w1 = ms.Parameter(ms.Tensor(RNG.standard_normal((4, 4)).astype(np.float32)), name="w1")
    w2 = ms.Parameter(ms.Tensor(RNG.standard_normal((4, 4)).astype(np.float32)), name="w2")

    def loss(x):
        h = ops.tanh(ops.matmul(x, w1))
        return (ops.matmul(h, w2) ** 2).sum()

    grad_fn = ms.value_and_grad(loss, 0, [w1, w2])

    def only_w2(x):
        value, (gx, (g1, g2)) = grad_fn(x)
        return value, g2  # gx and g1 are never read

    f = ms.jit(only_w2)
    for _ in range(3):
        x = ms.Tensor(RNG.standard_normal((3, 4)).astype(np.float32))
        (ve, ge), (vj, gj) = only_w2(x), f(x)
        assert same(ve, vj) and same(ge, gj)
    assert f.jit_stats.replays == 2
    (plan,) = f.jit_plans.values()
    (grad,) = [s for s in plan.steps if type(s) is P.GradStep]
    assert len(grad.outputs) == 1
    # the walk stops at the second matmul: tanh and the first matmul are not differentiated
    walked = [w[1].name for _, w in grad.walk]
    assert "tanh" not in walked and walked.count("matmul") <= 1
    kept = [s.op.name for s in plan.steps if type(s) is P.OpStep and s.keep]
    assert "tanh" not in kept
