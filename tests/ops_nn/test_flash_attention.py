"""ops.flash_attention_score / ops.operations.nn_ops.FlashAttentionScore on the CPU (an Ascend
kernel in MindSpore 2.10: checked against its documented semantics and PyTorch's
scaled_dot_product_attention)."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.ops.operations.nn_ops import FlashAttentionScore
from cellgrad.testing import gradcheck

B, N, S1, S2, D = 2, 4, 5, 6, 8
rng = np.random.default_rng(0)
Q = rng.standard_normal((B, N, S1, D))
K = rng.standard_normal((B, 2, S2, D))  # grouped: 2 key/value heads for 4 query heads
V = rng.standard_normal((B, 2, S2, D))
SCALE = 1 / np.sqrt(D)


def _reference(mask=None, shift=0.0):
    k, v = np.repeat(K, 2, 1), np.repeat(V, 2, 1)
    s = Q @ np.swapaxes(k, -1, -2) * SCALE + shift
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v, s


def _bsh(t):
    b, n, s, d = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, s, n * d)


@pytest.mark.parametrize("layout", ["BNSD", "BSND", "BSH", "SBH"])
def test_layouts_and_grouped_heads(layout):
    convert = {"BNSD": lambda t: t, "BSND": lambda t: t.transpose(0, 2, 1, 3), "BSH": _bsh,
               "SBH": lambda t: _bsh(t).transpose(1, 0, 2)}[layout]
    out = ops.flash_attention_score(*(ms.Tensor(convert(t)) for t in (Q, K, V)), N,
                                    scalar_value=SCALE, input_layout=layout)
    np.testing.assert_allclose(out.asnumpy(), convert(_reference()[0]), atol=1e-12)


def test_masks_sparse_modes_and_real_shift():
    causal = np.triu(np.ones((S1, S2), bool), 1)
    shift = rng.standard_normal((1, N, S1, S2))
    q, k, v = ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V)
    masked = ops.flash_attention_score(q, k, v, N, ms.Tensor(shift), attn_mask=ms.Tensor(causal),
                                       scalar_value=SCALE, input_layout="BNSD")
    np.testing.assert_allclose(masked.asnumpy(), _reference(causal, shift)[0], atol=1e-12)
    left_up = ops.flash_attention_score(q, k, v, N, scalar_value=SCALE, input_layout="BNSD",
                                        sparse_mode=2)
    np.testing.assert_allclose(left_up.asnumpy(), _reference(causal)[0], atol=1e-12)
    right_down = np.triu(np.ones((S1, S2), bool), 1 + S2 - S1)
    out = ops.flash_attention_score(q, k, v, N, scalar_value=SCALE, input_layout="BNSD",
                                    sparse_mode=3)
    np.testing.assert_allclose(out.asnumpy(), _reference(right_down)[0], atol=1e-12)
    band = ops.flash_attention_score(q, k, v, N, scalar_value=SCALE, input_layout="BNSD",
                                     pre_tokens=1, next_tokens=0, attn_mask=ms.Tensor(causal))
    i, j = np.arange(S1)[:, None], np.arange(S2)[None]
    np.testing.assert_allclose(band.asnumpy(), _reference((j > i) | (j < i - 1))[0], atol=1e-12)


def test_primitive_returns_row_statistics_and_gradients_flow():
    prim = FlashAttentionScore(N, scale_value=SCALE, input_layout="BNSD")
    top, total, reserved, out = prim(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V))
    want, scores = _reference()
    np.testing.assert_allclose(out.asnumpy(), want, atol=1e-12)
    assert top.shape == total.shape == (B, N, S1, 8) and top.dtype == ms.float32
    np.testing.assert_allclose(top.asnumpy()[..., 3], scores.max(-1), rtol=1e-6)
    np.testing.assert_allclose(total.asnumpy()[..., 0],
                               np.exp(scores - scores.max(-1, keepdims=True)).sum(-1), rtol=1e-6)
    assert reserved.shape == (0,)
    causal = ms.Tensor(np.triu(np.ones((S1, S2), np.uint8), 1))
    assert gradcheck(lambda q, k, v: ops.flash_attention_score(
        q, k, v, N, attn_mask=causal, scalar_value=SCALE, input_layout="BNSD"),
        ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V))


def test_matches_torch_sdpa_in_float16():
    torch = pytest.importorskip("torch")
    q, k, v = (t.astype(np.float16) for t in (Q, np.repeat(K, 2, 1), np.repeat(V, 2, 1)))
    out = ops.flash_attention_score(ms.Tensor(q), ms.Tensor(k), ms.Tensor(v), N,
                                    scalar_value=SCALE, input_layout="BNSD")
    ref = torch.nn.functional.scaled_dot_product_attention(
        *(torch.tensor(t.astype(np.float32)) for t in (q, k, v)), is_causal=False)
    assert out.dtype == ms.float16
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), ref.numpy(), atol=2e-3)


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(input_layout="XYZ"), ValueError, "'input_layout' must be one of"),
    (dict(input_layout="TND"), ValueError, "TND"),
    (dict(sparse_mode=4), RuntimeError, "sparse_mode 4"),
    (dict(attn_mask=ms.Tensor(np.zeros((S1, S2), np.float32))), TypeError, "bool or uint8"),
    (dict(attn_mask=ms.Tensor(np.zeros((3, 3), bool))), RuntimeError, "'attn_mask' must be"),
])
def test_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ops.flash_attention_score(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V), N,
                                  **{"input_layout": "BNSD", **kwargs})
    with pytest.raises(RuntimeError, match="divisible"):
        ops.flash_attention_score(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V), 3,
                                  input_layout="BNSD")
