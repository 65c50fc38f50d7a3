"""Optimizer-update primitives (ops/_prim_update.py): the values MindSpore 2.10 prints are
replayed by ms_programs/apply_prims; here the ops MindSpore's CPU build lacks are checked
against their documented formulas, with in-place writes, outputs and errors."""

import numpy as np
import pytest

from cellgrad import Parameter, Tensor, ops

RNG = np.random.default_rng(1)
V = RNG.uniform(-1, 1, (3, 2)).astype(np.float32)
A = RNG.uniform(0.1, 1, (3, 2)).astype(np.float32)
G = RNG.uniform(-1, 1, (3, 2)).astype(np.float32)


def P(values, name):
    return Parameter(Tensor(np.array(values, np.float32)), name=name)


def test_keras_momentum_both_ways():
    for nesterov in (False, True):
        var, acc = P(V, "v"), P(A, "a")
        out_v, out_a = ops.ApplyKerasMomentum(use_nesterov=nesterov)(var, acc, 0.1, Tensor(G),
                                                                      0.9)
        accum = 0.9 * A - 0.1 * G
        want = V + (0.9 * accum - 0.1 * G if nesterov else accum)
        np.testing.assert_allclose(var.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(acc.asnumpy(), accum, rtol=1e-6)
        np.testing.assert_array_equal(out_v.asnumpy(), var.asnumpy())


def test_sparse_proximal_adagrad_rows_only_with_repeats_summed():
    var, acc = P(V, "v"), P(A, "a")
    idx = Tensor(np.array([2, 2], np.int32))
    ops.SparseApplyProximalAdagrad()(var, acc, 0.1, 0.01, 0.02, Tensor(G[:2]), idx)
    g = G[0] + G[1]
    accum = A[2] + g * g
    rate = 0.1 / np.sqrt(accum)
    prox = V[2] - rate * g
    want = np.sign(prox) / (1 + rate * 0.02) * np.maximum(np.abs(prox) - rate * 0.01, 0)
    np.testing.assert_allclose(var.asnumpy()[2], want, rtol=1e-5)
    np.testing.assert_array_equal(var.asnumpy()[:2], V[:2])
    np.testing.assert_allclose(acc.asnumpy()[2], accum, rtol=1e-6)


def test_sparse_ftrl_v2_shrinkage_and_sparse_adadelta():
    var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
    idx = Tensor(np.array([1], np.int32))
    ops.SparseApplyFtrlV2(0.1, 0.01, 0.02, 0.1, -0.5)(var, acc, lin, Tensor(G[:1]), idx)
    shrunk = G[0] + 2 * 0.1 * V[1]
    na = A[1] + G[0] ** 2
    linear = V[1] * 0.1 + shrunk - (np.sqrt(na) - np.sqrt(A[1])) / 0.1 * V[1]
    quad = np.sqrt(na) / 0.1 + 2 * 0.02
    want = np.where(np.abs(linear) > 0.01, (np.sign(linear) * 0.01 - linear) / quad, 0)
    np.testing.assert_allclose(var.asnumpy()[1], want, rtol=1e-5)
    np.testing.assert_allclose(lin.asnumpy()[1], linear, rtol=1e-5)
    var, acc, upd = P(V, "v"), P(A, "a"), P(A * 0.5, "u")
    out = ops.SparseApplyAdadelta(1e-6)(var, acc, upd, 0.1, 0.9, Tensor(G[:1]), idx)
    assert len(out) == 3
    accum = 0.9 * A[1] + 0.1 * G[0] ** 2
    update = np.sqrt(A[1] * 0.5 + 1e-6) * G[0] / np.sqrt(accum + 1e-6)
    np.testing.assert_allclose(var.asnumpy()[1], V[1] - 0.1 * update, rtol=1e-5)


def test_sgd_first_step_and_later_steps():
    var, acc, st = P(V, "v"), P(A, "a"), P(np.ones((3, 2)), "s")
    sgd = ops.SGD(0.0, 0.0, False)
    sgd(var, Tensor(G), Tensor(np.float32(0.1)), acc, Tensor(np.float32(0.9)), st)
    np.testing.assert_allclose(acc.asnumpy(), G)  # the first step starts at the gradient
    assert st.asnumpy().sum() == 0
    sgd(var, Tensor(G), Tensor(np.float32(0.1)), acc, Tensor(np.float32(0.9)), st)
    np.testing.assert_allclose(acc.asnumpy(), 1.9 * G, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), V - 0.1 * G - 0.19 * G, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="'dampening' must be 0"):
        ops.SGD(0.1, 0.0, True)


def test_adam_updates_parameters_and_returns_them():
    var, m, v = P(V, "v"), P(np.zeros((3, 2)), "m"), P(np.zeros((3, 2)), "vv")
    out = ops.Adam()(var, m, v, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, Tensor(G))
    # the first Adam step moves each weight by about lr * sqrt(1-b2)/(1-b1) * sign(g)
    step = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9) * 0.1 * G / (np.sqrt(0.001) * np.abs(G) + 1e-8)
    np.testing.assert_allclose(var.asnumpy(), V - step, rtol=1e-4)
    assert [o.shape for o in out] == [(3, 2)] * 3
    np.testing.assert_array_equal(out[1].asnumpy(), m.asnumpy())


def test_errors():
    var, acc = P(V, "v"), P(A[:2], "a")
    with pytest.raises(ValueError, match="the shape of 'accum' must be the shape of 'var'"):
        ops.ApplyAdagrad()(var, acc, 0.1, Tensor(G))
    with pytest.raises(TypeError, match="expected 4 inputs"):
        ops.ApplyAdagrad()(var, acc, 0.1)
    with pytest.raises(ValueError, match=r"indices must be in \[0, 3\)"):
        ops.SparseApplyAdagrad(0.1)(P(V, "v"), P(A, "a"), Tensor(G[:1]),
                                    Tensor(np.array([3], np.int32)))
