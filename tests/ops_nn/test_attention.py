"""The fused attention op, nn.MultiheadAttention and the Transformer cells: gradients in
float64, PyTorch's numbers, masks, dropout, errors. (MindSpore's numbers, parameter names and
messages: ms_programs/attention_layers.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import nn, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.attention.kernel import attention

RNG = np.random.default_rng(3)
GRADCHECKED = {"scaled_dot_product_attention"}  # test_nn_op_registry: gradchecked below


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def test_fused_attention_gradients_in_float64_with_a_mask_and_weights():
    q, k, v = (RNG.normal(size=s) for s in ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 5)))
    mask = RNG.normal(size=(1, 3, 4, 6))

    def fn(a, b, c, m):
        out, w = attention(a, b, c, m, scale=0.4, need_weights=True)
        return out.sum() * 0.3 + (w * w).sum()

    assert gradcheck(fn, T(q), T(k), T(v), T(mask))
    assert gradcheck(lambda a, b, c: attention(a, b, c, None, scale=1.0), T(q), T(k), T(v))


def test_fused_attention_is_softmax_of_scores_times_values():
    q, k, v = (RNG.normal(size=s) for s in ((2, 4, 3), (2, 5, 3), (2, 5, 2)))
    mask = np.where(RNG.random((2, 4, 5)) < 0.3, -np.inf, 0.0)
    mask[:, :, 0] = 0.0
    out, w = attention(T(q), T(k), T(v), T(mask), scale=0.5, need_weights=True)
    s = q @ k.transpose(0, 2, 1) * 0.5 + mask
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(w.asnumpy(), p, rtol=1e-12)
    np.testing.assert_allclose(out.asnumpy(), p @ v, rtol=1e-12)


def test_attention_dropout_is_seeded_scaled_and_its_gradient_uses_the_same_mask():
    q, k, v = (T(RNG.normal(size=(1, 2, 6, 4))) for _ in range(3))
    ms.set_seed(5)
    out1, w1 = attention(q, k, v, scale=0.5, dropout_p=0.5, need_weights=True)
    ms.set_seed(5)
    out2, w2 = attention(q, k, v, scale=0.5, dropout_p=0.5, need_weights=True)
    np.testing.assert_array_equal(w1.asnumpy(), w2.asnumpy())
    dropped = w1.asnumpy()
    assert 0.2 < (dropped == 0).mean() < 0.8
    _, w_eval = attention(q, k, v, scale=0.5, dropout_p=0.5, training=False, need_weights=True)
    kept = dropped != 0
    np.testing.assert_allclose(dropped[kept], w_eval.asnumpy()[kept] * 2, rtol=1e-12)
    ms.set_seed(5)
    g = ms.grad(lambda c: attention(q, k, c, scale=0.5, dropout_p=0.5).sum())(v)
    np.testing.assert_allclose(g.asnumpy(), dropped.transpose(0, 1, 3, 2).sum(-1, keepdims=True)
                               * np.ones(4), rtol=1e-12)


def test_grad_of_grad_through_attention_is_refused_clearly():
    q = T(RNG.normal(size=(1, 2, 3)))
    inner = ms.grad(lambda a: attention(a, a, a, scale=1.0).sum())
    with pytest.raises(RuntimeError, match="scaled_dot_product_attention.*first-order only"):
        ms.grad(lambda a: inner(a).sum())(q)


def _copy_mha(ours, theirs):
    import torch

    with torch.no_grad():
        theirs.in_proj_weight.copy_(torch.tensor(ours.in_proj_weight.asnumpy()))
        theirs.in_proj_bias.copy_(torch.tensor(ours.in_proj_bias.asnumpy()))
        theirs.out_proj.weight.copy_(torch.tensor(ours.out_proj.weight.asnumpy()))
        theirs.out_proj.bias.copy_(torch.tensor(ours.out_proj.bias.asnumpy()))


def test_multihead_attention_matches_pytorch_with_masks_and_gradients():
    torch = pytest.importorskip("torch")
    ms.set_seed(1)
    ours = nn.MultiheadAttention(8, 2, batch_first=True)
    theirs = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    _copy_mha(ours, theirs)
    x = RNG.normal(size=(3, 5, 8)).astype(np.float32)
    mem = RNG.normal(size=(3, 6, 8)).astype(np.float32)
    fmask = RNG.normal(size=(5, 6)).astype(np.float32)
    kpm = np.zeros((3, 6), bool)
    kpm[0, -2:] = True
    # A float attn_mask with a bool key_padding_mask: padding is -inf (PyTorch). MindSpore 2.10
    # adds the bool mask as 1.0 here (README: differs on purpose).
    xt, mt = torch.tensor(x, requires_grad=True), torch.tensor(mem, requires_grad=True)
    to, tw = theirs(xt, mt, mt, attn_mask=torch.tensor(fmask), key_padding_mask=torch.tensor(kpm))
    (to.square().sum() + tw.sum()).backward()
    xo, mo = ms.Tensor(x), ms.Tensor(mem)

    def loss(a, b):
        o, w = ours(a, b, b, attn_mask=ms.Tensor(fmask), key_padding_mask=ms.Tensor(kpm))
        return (o * o).sum() + w.sum()

    got = ours(xo, mo, mo, attn_mask=ms.Tensor(fmask), key_padding_mask=ms.Tensor(kpm))
    np.testing.assert_allclose(got[0].asnumpy(), to.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[1].asnumpy(), tw.detach().numpy(), rtol=1e-4, atol=1e-6)
    ga, gb = ms.grad(loss, (0, 1))(xo, mo)
    np.testing.assert_allclose(ga.asnumpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gb.asnumpy(), mt.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_transformer_encoder_layer_matches_pytorch_pre_and_post_norm():
    torch = pytest.importorskip("torch")
    for norm_first in (False, True):
        ours = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first,
                                          activation="gelu")
        theirs = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first,
                                                  activation="gelu")
        _copy_mha(ours.self_attn, theirs.self_attn)
        pairs = [(ours.dense1, theirs.linear1), (ours.dense2, theirs.linear2)]
        with torch.no_grad():
            for a, b in pairs:
                b.weight.copy_(torch.tensor(a.weight.asnumpy()))
                b.bias.copy_(torch.tensor(a.bias.asnumpy()))
        x = RNG.normal(size=(5, 2, 8)).astype(np.float32)
        causal = np.triu(np.ones((5, 5), bool), 1)
        want = theirs(torch.tensor(x), src_mask=torch.tensor(causal)).detach().numpy()
        got = ours(ms.Tensor(x), src_mask=ms.Tensor(causal)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_bad_inputs_name_the_argument():
    m = nn.MultiheadAttention(8, 2)
    x = ms.Tensor(np.ones((4, 2, 8), np.float32))
    with pytest.raises(ValueError, match="divisible by 'num_heads'"):
        nn.MultiheadAttention(8, 3)
    with pytest.raises(ValueError, match="The shape of the `attn_mask` should be \\(4, 4\\)"):
        m(x, x, x, attn_mask=ms.Tensor(np.zeros((4, 5), bool)))
    with pytest.raises(ValueError, match="The `embed_dim` should be 8, but got 6"):
        m(ms.Tensor(np.ones((4, 2, 6), np.float32)), x, x)
    with pytest.raises(ValueError, match="key_padding_mask"):
        m(x, x, x, key_padding_mask=ms.Tensor(np.zeros((2, 4), np.int32)))
    with pytest.raises(ValueError, match="must be relu/gelu"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")
    with pytest.raises(ValueError, match="nn.ReLU or nn.GELU"):
        nn.TransformerEncoderLayer(8, 2, activation=nn.Sigmoid())
    assert nn.TransformerEncoderLayer(8, 2, activation=ops.gelu).activation is ops.gelu
