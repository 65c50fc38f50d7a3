"""Fused optimizer Primitives (ops/_prim_update_fused.py): the values MindSpore 2.10's CPU
kernels print are replayed by ms_programs/fused_optim_s9; here the in-place writes, outputs,
repeated indices, the ops with no CPU kernel in MindSpore (checked against numpy loops written
from their documented formulas) and the argument errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops

RNG = np.random.default_rng(3)
V = RNG.uniform(-1, 1, (4, 3)).astype(np.float32)
A = RNG.uniform(0.1, 1, (4, 3)).astype(np.float32)
G = RNG.uniform(-1, 1, (3, 3)).astype(np.float32)
IDX = np.array([3, 1, 3], np.int32)


def P(values, name, dtype=ms.float32):
    return Parameter(Tensor(np.array(values, np.float32), dtype), name=name)


def T(x):
    return Tensor(np.array(x, np.float32))


def summed_rows():
    """Gradient rows merged by index with a plain loop."""
    merged = {}
    for row, i in zip(G, IDX):
        merged[int(i)] = merged.get(int(i), 0) + row.astype(np.float64)
    return merged


ADAM_SCALARS = (0.9, 0.999, 0.1, 0.9, 0.999, 1e-8)


def adam_row(var, m, v, g, nesterov=False):
    b1p, b2p, lr, b1, b2, eps = ADAM_SCALARS
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    step = m * b1 + (1 - b1) * g if nesterov else m
    return var - lr * np.sqrt(1 - b2p) / (1 - b1p) * step / (np.sqrt(v) + eps), m, v


@pytest.mark.parametrize("lazy", [False, True])
def test_sparse_adam_merges_repeats_and_lazy_touches_only_those_rows(lazy):
    var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
    op = ops.FusedSparseLazyAdam() if lazy else ops.FusedSparseAdam()
    out = op(var, m, v, *map(T, ADAM_SCALARS), Tensor(G), Tensor(IDX))
    merged = summed_rows()
    for r in range(4):
        g = merged.get(r)
        if g is None and lazy:
            want = (V[r], A[r] * 0.1, A[r])
        else:
            want = adam_row(V[r], A[r] * 0.1, A[r], np.zeros(3) if g is None else g)
        for param, w in zip((var, m, v), want):
            np.testing.assert_allclose(param.asnumpy()[r], w, rtol=2e-5, atol=1e-7)
    assert isinstance(out, tuple) and len(out) == 3
    np.testing.assert_array_equal(out[0].asnumpy(), var.asnumpy())


def test_sparse_adam_nesterov_leaves_rows_without_gradient():
    var, m, v = P(V, "v"), P(A * 0.1, "m"), P(A, "vv")
    ops.FusedSparseAdam(use_nesterov=True)(var, m, v, *map(T, ADAM_SCALARS), Tensor(G),
                                           Tensor(IDX))
    np.testing.assert_array_equal(var.asnumpy()[[0, 2]], V[[0, 2]])
    np.testing.assert_allclose(m.asnumpy()[0], 0.9 * A[0] * 0.1, rtol=1e-6)
    want = adam_row(V[3], A[3] * 0.1, A[3], summed_rows()[3], nesterov=True)[0]
    np.testing.assert_allclose(var.asnumpy()[3], want, rtol=2e-5)


def test_sparse_ftrl_and_proximal_adagrad_rows():
    var, acc, lin = P(V, "v"), P(A, "a"), P(V * 0.1, "l")
    out = ops.FusedSparseFtrl(0.1, 0.01, 0.02, -0.5)(var, acc, lin, Tensor(G), Tensor(IDX))
    assert len(out) == 3
    for r, g in summed_rows().items():
        new_acc = A[r] + g * g
        linear = V[r] * 0.1 + g - (np.sqrt(new_acc) - np.sqrt(A[r])) / 0.1 * V[r]
        quad = np.sqrt(new_acc) / 0.1 + 2 * 0.02
        want = [(np.sign(x) * 0.01 - x) / q if abs(x) > 0.01 else 0 for x, q in zip(linear, quad)]
        np.testing.assert_allclose(var.asnumpy()[r], want, rtol=2e-5, atol=1e-7)
        np.testing.assert_allclose(lin.asnumpy()[r], linear, rtol=2e-5)
    np.testing.assert_array_equal(var.asnumpy()[[0, 2]], V[[0, 2]])
    var, acc = P(V, "v"), P(A, "a")
    out = ops.FusedSparseProximalAdagrad()(var, acc, T(0.5), T(0.3), T(0.1), Tensor(G),
                                           Tensor(IDX))
    assert len(out) == 2
    for r, g in summed_rows().items():
        accum = A[r] + g * g
        rate = 0.5 / np.sqrt(accum)
        prox = V[r] - rate * g
        want = np.sign(prox) / (1 + rate * 0.1) * np.maximum(np.abs(prox) - rate * 0.3, 0)
        np.testing.assert_allclose(var.asnumpy()[r], want, rtol=2e-5, atol=1e-7)
        np.testing.assert_allclose(acc.asnumpy()[r], accum, rtol=1e-6)


def test_adam_no_update_param_returns_the_step_and_updates_moments():
    m, v = P(A[:3] * 0.1, "m"), P(A[:3], "vv")
    step = ops.AdamNoUpdateParam()(m, v, *map(T, ADAM_SCALARS), Tensor(G))
    new_var, new_m, new_v = adam_row(np.zeros((3, 3)), A[:3] * 0.1, A[:3], G)
    np.testing.assert_allclose(step.asnumpy(), new_var, rtol=2e-5)
    np.testing.assert_allclose(m.asnumpy(), new_m, rtol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), new_v, rtol=1e-6)
    assert step.dtype == ms.float32 and step.shape == (3, 3)


@pytest.mark.parametrize("dtype", [ms.float32, ms.float16])
def test_fused_cast_adam_weight_decay_keeps_the_variable_dtype(dtype):
    var, m, v = P(V, "v", dtype), P(A * 0.1, "m"), P(A, "vv")
    grad = Tensor(G[[0, 1, 2, 0]], dtype)
    out = ops.FusedCastAdamWeightDecay()(var, m, v, 0.1, 0.9, 0.999, 1e-8, 0.01, grad, 2.0)
    g = grad.asnumpy().astype(np.float64) / 2
    w = V.astype(dtype == ms.float16 and np.float16 or np.float32).astype(np.float64)
    new_m = 0.9 * A * 0.1 + 0.1 * g
    new_v = 0.999 * A + 0.001 * g * g
    want = w - 0.1 * (new_m / (np.sqrt(new_v) + 1e-8) + 0.01 * w)
    assert var.dtype == dtype and m.dtype == ms.float32 and len(out) == 3
    tol = 1e-3 if dtype == ms.float16 else 1e-6
    np.testing.assert_allclose(var.asnumpy(), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(m.asnumpy(), new_m, rtol=1e-5)


def test_fused_weight_scale_apply_momentum_formula():
    var, acc = P(V, "v"), P(A, "a")
    out = ops.FusedWeightScaleApplyMomentum()(T(0.01), T(0.5), var, acc, T(0.1), Tensor(G[[0, 1,
                                              2, 0]]), T(0.9))
    want_acc = np.empty((4, 3))
    want_var = np.empty((4, 3))
    for i in range(4):
        for j in range(3):
            grad = (G[[0, 1, 2, 0]][i, j] + 0.01 * V[i, j]) * 0.5
            want_acc[i, j] = 0.9 * A[i, j] + grad
            want_var[i, j] = V[i, j] - 0.1 * want_acc[i, j]
    # float32 arithmetic against a float64 reference: an absolute floor for elements near 0
    np.testing.assert_allclose(acc.asnumpy(), want_acc, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(var.asnumpy(), want_var, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(out.asnumpy(), var.asnumpy())


def test_lars_update_documented_example_clip_and_zero_norms():
    weight = np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]], np.float32)
    gradient = np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]], np.float32)
    sums = T((weight ** 2).sum()), T((gradient ** 2).sum())
    out = ops.LARSUpdate()(Tensor(weight), Tensor(gradient), *sums, 0.0, 1.0)
    np.testing.assert_allclose(out.asnumpy(), [[0.0005265, 0.0005265, 0.00065813],
                                               [0.00026325, 0.0005265, 0.00039488]], rtol=1e-4)
    w_norm, g_norm = np.sqrt((weight ** 2).sum()), np.sqrt((gradient ** 2).sum())
    coeff = 0.5 * w_norm / (g_norm + 0.1 * w_norm + 1e-5)
    got = ops.LARSUpdate(1e-5, 0.5, True)(Tensor(weight), Tensor(gradient), *sums, T(0.1), 0.2)
    want = min(max(coeff / 0.2, 0), 1) * 0.2 * (gradient + 0.1 * weight)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)
    zero = ops.LARSUpdate()(Tensor(weight), Tensor(gradient), T(0.0), sums[1], 0.1, 1.0)
    np.testing.assert_allclose(zero.asnumpy(), gradient + 0.1 * weight, rtol=1e-6)


def adafactor_ref(g, p, row, col, flags, eps=(1e-30, 1e-3), clip=1.0, b1=0.9, b2=0.8,
                  wd=1e-2, lr=0.03, exp_avg=None):
    scale, first, decay = flags
    sq = g * g + eps[0]
    row = b2 * row + (1 - b2) * sq.mean(-1)
    col = b2 * col + (1 - b2) * sq.mean(-2)
    update = np.empty_like(g)
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            update[i, j] = g[i, j] / np.sqrt(row[i] / row.mean() * col[j])
    update /= max(1, np.sqrt((update ** 2).mean()) / clip)
    if scale:
        lr = lr * max(eps[1], np.sqrt((p ** 2).mean()))
    update = update * lr
    if first:
        update = b1 * exp_avg + (1 - b1) * update
    if decay:
        update = update + wd * lr * p
    return p - update, row, col


@pytest.mark.parametrize("flags", [(False, False, False), (True, True, True)])
def test_fused_ada_factor_factored_step(flags):
    g = RNG.uniform(-1, 1, (3, 4))
    p0 = RNG.uniform(-1, 1, (3, 4))
    param, exp_avg = P(p0, "p"), P(np.full((3, 4), 0.05), "ea")
    row, col, eas = P(np.full(3, 0.5), "r"), P(np.full(4, 0.4), "c"), P(np.zeros((3, 4)), "s")
    out = ops.FusedAdaFactorWithGlobalNorm(*flags)((1e-30, 1e-3), 1.0, 0.9, 0.8, 1e-2, 0.03,
                                                   Tensor(g * 2, ms.float32), param, exp_avg, row,
                                                   col, eas, T(2.0))
    want_p, want_r, want_c = adafactor_ref(g.astype(np.float32), p0.astype(np.float32),
                                           np.full(3, 0.5), np.full(4, 0.4), flags,
                                           exp_avg=np.full((3, 4), 0.05))
    np.testing.assert_allclose(param.asnumpy(), want_p, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(row.asnumpy(), want_r, rtol=1e-5)
    np.testing.assert_allclose(col.asnumpy(), want_c, rtol=1e-5)
    assert isinstance(out, tuple) and len(out) == 1
    np.testing.assert_array_equal(eas.asnumpy(), 0)


def test_errors_name_the_function_and_argument():
    with pytest.raises(TypeError, match="For 'FusedSparseFtrl', the type of 'lr' should be "
                                        "'float', but got type 'int'"):
        ops.FusedSparseFtrl(1, 0.0, 0.0, -0.5)
    with pytest.raises(ValueError, match="'l1' must be float and must >= 0"):
        ops.FusedSparseFtrl(0.1, -1.0, 0.0, -0.5)
    with pytest.raises(ValueError, match="'lr_power' must <= 0, but got 0.5"):
        ops.FusedSparseFtrl(0.1, 0.0, 0.0, 0.5)
    with pytest.raises(TypeError, match="'use_nesterov' should be 'bool'"):
        ops.FusedSparseAdam(use_nesterov=1)
    with pytest.raises(TypeError, match="For 'LARSUpdate', the type of 'epsilon'"):
        ops.LARSUpdate(1)
    with pytest.raises(TypeError, match="'enable_first_moment' should be 'bool'"):
        ops.FusedAdaFactor(enable_first_moment=None)
    var, acc = P(V, "v"), P(A, "a")
    with pytest.raises(ValueError, match=r"For 'FusedSparseProximalAdagrad', the indices must "
                                         r"be in \[0, 4\)"):
        ops.FusedSparseProximalAdagrad()(var, acc, T(0.1), T(0.0), T(0.0), Tensor(G),
                                         Tensor(np.array([0, 4, 1], np.int32)))
    np.testing.assert_array_equal(var.asnumpy(), V)
    with pytest.raises(ValueError, match="the shape of 'accumulation' must be the shape"):
        ops.FusedWeightScaleApplyMomentum()(T(0.0), T(1.0), var, P(A[:2], "a"), T(0.1),
                                            Tensor(G), T(0.9))
    with pytest.raises(TypeError, match="expected 9 inputs"):
        ops.AdamNoUpdateParam()(acc, acc)
    with pytest.raises(TypeError, match="shape of 'gradient' must be the shape of 'weight'"):
        ops.LARSUpdate()(Tensor(V), Tensor(G), T(1.0), T(1.0), 0.0, 1.0)


def test_operations_namespace_has_the_same_classes():
    from cellgrad.ops import operations as P_

    for name in ("FusedSparseAdam", "FusedSparseLazyAdam", "FusedSparseFtrl",
                 "FusedSparseProximalAdagrad", "AdamNoUpdateParam", "FusedCastAdamWeightDecay",
                 "FusedWeightScaleApplyMomentum", "LARSUpdate", "FusedAdaFactor",
                 "FusedAdaFactorWithGlobalNorm"):
        assert getattr(P_, name) is getattr(ops, name)


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def lstm_ref(x, h, c, w, b, forget_bias=1.0):
    """One LSTM step, gates in "ijfo" order, with plain loops over the hidden units."""
    n, hidden = h.shape
    xh = np.concatenate([x, h], 1).astype(np.float64)
    gates = xh @ w.astype(np.float64) + b
    outs = [np.empty((n, hidden)) for _ in range(7)]
    for r in range(n):
        for k in range(hidden):
            i, j, f, o = (gates[r, g * hidden + k] for g in range(4))
            it, jt, ft, ot = sigmoid(i), np.tanh(j), sigmoid(f + forget_bias), sigmoid(o)
            ct = ft * c[r, k] + it * jt
            for out, value in zip(outs, (ct, ot * np.tanh(ct), it, jt, ft, ot, np.tanh(ct))):
                out[r, k] = value
    return outs


def lstm_inputs(seed=5):
    rng = np.random.default_rng(seed)
    shapes = ((2, 3), (2, 4), (2, 4), (7, 16), (16,))
    return [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]


def test_basic_lstm_cell_values_and_dtypes():
    arrays = lstm_inputs()
    out = ops.BasicLSTMCell(forget_bias=0.5)(*map(Tensor, arrays))
    want = lstm_ref(*arrays, forget_bias=0.5)
    assert len(out) == 7
    for got, ref in zip(out, want):
        np.testing.assert_allclose(got.asnumpy().astype(np.float64), ref, rtol=1e-3, atol=1e-3)
    assert out[1].dtype == ms.float16 and out[0].dtype == ms.float32
    np.testing.assert_allclose(out[0].asnumpy(), want[0], rtol=1e-5, atol=1e-6)


def test_basic_lstm_cell_gradient_matches_finite_differences():
    arrays = lstm_inputs(6)
    prim = ops.BasicLSTMCell()

    def loss(*ts):
        ct, ht = prim(*ts)[:2]
        return (ct * ct).sum() + ht.astype(ms.float32).sum()

    grads = ms.grad(loss, grad_position=(0, 1, 2, 3, 4))(*map(Tensor, arrays))

    def loss_np(values):
        ct, ht = lstm_ref(*values)[:2]
        return (ct * ct).sum() + ht.sum()

    eps = 1e-3
    for pos, grad in enumerate(grads):
        numeric = np.zeros(arrays[pos].shape)
        for idx in np.ndindex(arrays[pos].shape):
            plus = [a.astype(np.float64) for a in arrays]
            minus = [a.astype(np.float64) for a in arrays]
            plus[pos][idx] += eps
            minus[pos][idx] -= eps
            numeric[idx] = (loss_np(plus) - loss_np(minus)) / (2 * eps)
        # ht is float16 in the forward, so its share of the gradient carries fp16 rounding
        np.testing.assert_allclose(grad.asnumpy(), numeric, rtol=2e-2, atol=2e-3)


def test_basic_lstm_cell_gradient_matches_torch():
    torch = pytest.importorskip("torch")
    x, h, c, w, b = lstm_inputs(7)
    prim = ops.BasicLSTMCell(forget_bias=0.0)
    grads = ms.grad(lambda *ts: prim(*ts)[0].sum(), grad_position=(0, 3))(
        *map(Tensor, (x, h, c, w, b)))
    cell = torch.nn.LSTMCell(3, 4)
    ijfo = w.T.reshape(4, 4, 7)  # torch orders the gates i, f, g(=j), o
    with torch.no_grad():
        ifgo = np.concatenate([ijfo[0], ijfo[2], ijfo[1], ijfo[3]])
        cell.weight_ih.copy_(torch.tensor(ifgo[:, :3]))
        cell.weight_hh.copy_(torch.tensor(ifgo[:, 3:]))
        bias = b.reshape(4, 4)
        cell.bias_ih.copy_(torch.tensor(np.concatenate([bias[0], bias[2], bias[1], bias[3]])))
        cell.bias_hh.zero_()
    tx = torch.tensor(x, requires_grad=True)
    _, tc = cell(tx, (torch.tensor(h), torch.tensor(c)))
    tc.sum().backward()
    np.testing.assert_allclose(grads[0].asnumpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    gw = np.concatenate([cell.weight_ih.grad.numpy(), cell.weight_hh.grad.numpy()], 1)
    gw = gw.reshape(4, 4, 7)
    want_w = np.concatenate([gw[0], gw[2], gw[1], gw[3]]).T
    np.testing.assert_allclose(grads[1].asnumpy(), want_w, rtol=1e-5, atol=1e-6)


def test_basic_lstm_cell_errors():
    with pytest.raises(TypeError, match="the type of 'keep_prob' should be 'float'"):
        ops.BasicLSTMCell(keep_prob=1)
    with pytest.raises(ValueError, match=r"'keep_prob' must be in range \[0.0, 1.0\]"):
        ops.BasicLSTMCell(keep_prob=1.5)
    with pytest.raises(ValueError, match="'activation'"):
        ops.BasicLSTMCell(activation="relu")
    x, h, c, w, b = map(Tensor, lstm_inputs())
    with pytest.raises(ValueError, match=r"'w_shape' must be equal to"):
        ops.BasicLSTMCell()(x, h, c, Tensor(np.zeros((6, 16), np.float32)), b)
    with pytest.raises(TypeError, match="'x_dtype' must be float16 or float32"):
        ops.BasicLSTMCell()(Tensor(np.zeros((2, 3))), h, c, w, b)
