"""The Transformer's fast paths: the packed self-attention op (one projection in, heads as
strided views), the softmax row kernels and the layer-norm kernel, each against the plain
formulas and gradchecked in float64; higher orders through LayerNorm still work."""

import numpy as np
import pytest
from cellgrad_nn._kernels.layer_norm import layer_norm_backward, layer_norm_forward
from cellgrad_nn._kernels.softmax import softmax_grad, softmax_rows

import cellgrad as ms
from cellgrad import nn, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.attention.kernel import attention, packed_self_attention

RNG = np.random.default_rng(11)
GRADCHECKED = {"packed_self_attention", "layer_norm"}  # test_nn_op_registry


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def _split(qkv, heads, batch_first):
    """The reference: q, k, v as (N, H, L, D) copies."""
    a = qkv if batch_first else qkv.transpose(1, 0, 2)
    n, length, e3 = a.shape
    d = e3 // 3 // heads
    return [np.ascontiguousarray(a[..., i * heads * d:(i + 1) * heads * d]
                                 .reshape(n, length, heads, d).transpose(0, 2, 1, 3))
            for i in range(3)]


@pytest.mark.parametrize("batch_first", [True, False])
def test_packed_self_attention_is_attention_of_the_split_projection(batch_first):
    qkv = RNG.normal(size=(3, 5, 3 * 8) if batch_first else (5, 3, 3 * 8))
    mask = np.where(RNG.random((3, 1, 1, 5)) < 0.3, -np.inf, 0.0)
    mask[..., 0] = 0.0
    out, w = packed_self_attention(T(qkv), T(mask), heads=2, scale=0.5,
                                   batch_first=batch_first, need_weights=True)
    q, k, v = _split(qkv, 2, batch_first)
    want, want_w = attention(T(q), T(k), T(v), T(mask), scale=0.5, need_weights=True)
    want = want.asnumpy().transpose(0, 2, 1, 3).reshape(3, 5, 8)
    np.testing.assert_allclose(out.asnumpy(), want if batch_first else want.transpose(1, 0, 2),
                               rtol=1e-12)
    np.testing.assert_allclose(w.asnumpy(), want_w.asnumpy(), rtol=1e-12)
    assert out.shape == ((3, 5, 8) if batch_first else (5, 3, 8))


@pytest.mark.parametrize("batch_first", [True, False])
def test_packed_self_attention_gradients_in_float64(batch_first):
    qkv = RNG.normal(size=(2, 4, 3 * 6) if batch_first else (4, 2, 3 * 6))
    mask = RNG.normal(size=(1, 3, 4, 4))

    def fn(a, m):
        out, w = packed_self_attention(a, m, heads=3, scale=0.3, batch_first=batch_first,
                                       need_weights=True)
        return (out * out).sum() * 0.3 + (w * w).sum()

    assert gradcheck(fn, T(qkv), T(mask))
    assert gradcheck(lambda a: packed_self_attention(a, heads=2, scale=1.0,
                                                     batch_first=batch_first), T(qkv))


def test_packed_self_attention_dropout_uses_one_mask_both_ways():
    qkv = T(RNG.normal(size=(1, 6, 3 * 4)))
    ms.set_seed(4)
    out, w = packed_self_attention(qkv, heads=1, scale=0.5, batch_first=True, dropout_p=0.5,
                                   need_weights=True)
    dropped = w.asnumpy()
    assert 0.2 < (dropped == 0).mean() < 0.8
    ms.set_seed(4)
    g = ms.grad(lambda a: packed_self_attention(a, heads=1, scale=0.5, batch_first=True,
                                                dropout_p=0.5).sum())(qkv).asnumpy()
    # d out / d v = the dropped probabilities' column sums, for every feature of v
    np.testing.assert_allclose(g[0, :, 8:], dropped[0, 0].sum(0)[:, None] * np.ones(4),
                               rtol=1e-12)


def test_self_attention_module_matches_the_separate_projection_path():
    ms.set_seed(2)
    m = nn.MultiheadAttention(8, 2, batch_first=True)
    x = T(RNG.normal(size=(3, 5, 8)), np.float32)
    kpm = ms.Tensor(np.array([[False] * 4 + [True], [False] * 5, [True] + [False] * 4]))
    causal = ms.Tensor(np.triu(np.ones((5, 5), bool), 1))
    fast = m(x, x, x, key_padding_mask=kpm, attn_mask=causal)  # query is key is value
    slow = m(x, x * 1, x * 1, key_padding_mask=kpm, attn_mask=causal)
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    ga = ms.grad(lambda a: (m(a, a, a, attn_mask=causal)[0] ** 2).sum())(x)
    gb = ms.grad(lambda a: (m(a, a * 1, a * 1, attn_mask=causal)[0] ** 2).sum())(x)
    np.testing.assert_allclose(ga.asnumpy(), gb.asnumpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("n", [1, 7, 64, 200])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_row_kernels_are_the_formulas(n, dtype):
    s = RNG.normal(size=(3, 4, n)).astype(dtype) * 30
    s[0, 0, : n // 2] = -np.inf
    s[0, 1, 0] = -200.0  # exp underflows to 0
    scaled = s * dtype(0.7)  # rounded as the kernel rounds it; the rest in float64
    e = np.exp((scaled - scaled.max(-1, keepdims=True)).astype(np.float64))
    want = e / e.sum(-1, keepdims=True)
    got = s.copy()
    softmax_rows(got, 0.7)
    # float32: Cephes' expf is within 1 ulp, the sum and division round once more; below
    # float32's smallest normal (1.2e-38) it gives 0 where numpy gives a subnormal
    f32 = dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6 if f32 else 1e-14, atol=2e-38 if f32 else 0)
    assert got.dtype == dtype
    d = RNG.normal(size=s.shape).astype(dtype)
    want_d = (d - (d * got).sum(-1, keepdims=True)) * got * 0.5
    softmax_grad(d, got, 0.5)
    np.testing.assert_allclose(d, want_d, rtol=1e-5, atol=1e-6)


def test_softmax_rows_keeps_nan_and_all_masked_rows_as_numpy():
    s = np.array([[0.0, np.nan, 1.0], [-np.inf, -np.inf, -np.inf], [1.0, 2.0, 3.0]], np.float32)
    softmax_rows(s, 1.0)
    assert np.isnan(s[0]).any() and np.isnan(s[1]).all()
    np.testing.assert_allclose(s[2], np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum(), rtol=1e-6)


def test_softmax_kernels_refuse_bad_arrays():
    with pytest.raises(TypeError, match="softmax_rows: arrays must be float32 or float64"):
        softmax_rows(np.zeros((2, 3), np.int64), 1.0)
    with pytest.raises(ValueError, match="softmax_rows: arrays must be C-contiguous"):
        softmax_rows(np.zeros((3, 2)).T, 1.0)
    with pytest.raises(ValueError, match="softmax_grad: 'array' must have shape \\(2, 3\\)"):
        softmax_grad(np.zeros((2, 3)), np.zeros((2, 4)), 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layer_norm_kernel_is_the_formula(dtype):
    x = RNG.normal(size=(6, 300)).astype(dtype) * 2 + 1
    w, b = RNG.normal(size=300).astype(dtype), RNG.normal(size=300).astype(dtype)
    y, mean, var, rstd = (np.empty_like(x), np.empty(6, dtype), np.empty(6, dtype),
                          np.empty(6, dtype))
    layer_norm_forward(x, w, b, 1e-5, y, mean, var, rstd)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(mean, x.mean(1), rtol=tol)
    np.testing.assert_allclose(var, x.var(1), rtol=tol)
    xhat = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y, xhat * w + b, rtol=tol * 10, atol=tol * 10)
    g = RNG.normal(size=x.shape).astype(dtype)
    dx, dw, db = np.empty_like(x), np.zeros(300), np.zeros(300)
    layer_norm_backward(g, x, mean, rstd, w, dx, dw, db)
    gw = g * w
    want = (gw - gw.mean(1, keepdims=True) - xhat * (gw * xhat).mean(1, keepdims=True)) \
        / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(dx, want, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(dw, (g * xhat).sum(0), rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(db, g.sum(0), rtol=tol * 10, atol=tol * 10)
    with pytest.raises(ValueError, match="layer_norm_forward: 'column array' must have shape"):
        layer_norm_forward(x, w[:5], b, 1e-5, y, mean, var, rstd)
    with pytest.raises(TypeError, match="layer_norm_backward: 'dw' must be float64"):
        layer_norm_backward(g, x, mean, rstd, w, dx, dw.astype(np.float32), db)


def test_layer_norm_gradients_in_float64_and_second_order():
    ln = nn.LayerNorm((5,), epsilon=1e-5, dtype=ms.float64)
    ln.gamma.set_data(T(RNG.normal(size=5)))
    ln.beta.set_data(T(RNG.normal(size=5)))
    x = T(RNG.normal(size=(2, 3, 5)))
    assert gradcheck(lambda a: ln(a) ** 2, x)
    assert gradcheck(lambda a, w, b: ops.layer_norm(a, (5,), w, b, 1e-5) ** 3, x,
                     T(RNG.normal(size=5)), T(RNG.normal(size=5)))
    # grad of grad: the kernel's op hands higher orders to the recorded formulas; a
    # non-contiguous input (the plain path) gives the same numbers
    inner = ms.grad(lambda a: (ln(a) ** 3).sum())
    fast = ms.grad(lambda a: (inner(a) ** 2).sum())(x).asnumpy()
    xt = ms.Tensor(np.ascontiguousarray(x.asnumpy().transpose(2, 1, 0))).transpose(2, 1, 0)
    inner_t = ms.grad(lambda a: (ln(a) ** 3).sum())
    slow = ms.grad(lambda a: (inner_t(a) ** 2).sum())(xt).asnumpy()
    np.testing.assert_allclose(fast, slow, rtol=1e-9, atol=1e-12)


def test_layer_norm_kernel_path_keeps_the_statistics_outputs():
    x = RNG.normal(size=(4, 6)).astype(np.float32)
    prim = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)
    y, mean, var = prim(ms.Tensor(x), ms.Tensor(np.ones(6, np.float32)),
                        ms.Tensor(np.zeros(6, np.float32)))
    np.testing.assert_allclose(mean.asnumpy(), x.mean(1, keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), (x - x.mean(1, keepdims=True))
                               / np.sqrt(x.var(1, keepdims=True) + 1e-5), rtol=1e-4, atol=1e-5)
    assert mean.shape == (4, 1) and mean.dtype == ms.float32


def test_replay_tolerates_a_flip_of_the_last_printed_digit_only():
    # attention_layers' grad_in_proj_weight[0, 7] is 0.2573499 in float64: MindSpore's float32
    # gives 0.25734967 (prints 0.2573), the vectorised softmax 0.2573501 (prints 0.2574)
    from cellgrad.ms_replay import same_line

    assert same_line("[0.2573 -1.0]", "[0.2574 -1.0]")
    assert not same_line("0.2573", "0.2575")
    assert not same_line("0.0012", "0.0014")
    assert not same_line("0.257", "0.2574")
