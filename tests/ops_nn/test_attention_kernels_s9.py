"""MindSpore's Ascend inference attention kernels on the CPU (issue 28 item 2): RoPE, prompt /
incremental / fused-infer flash attention, the paged KV cache, speed_fusion_attention and
ring_attention_update, checked against plain numpy references written here."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops
from cellgrad.testing import gradcheck

rng = np.random.default_rng(7)


def _rotate_half(x):
    d = x.shape[-1] // 2
    return np.concatenate([-x[..., d:], x[..., :d]], -1)


def _rotate_interleaved(x):
    out = np.empty_like(x)
    out[..., 0::2] = -x[..., 1::2]
    out[..., 1::2] = x[..., 0::2]
    return out


def _softmax_attention(q, k, v, scale, keep=None, shift=0.0):
    s = q @ np.swapaxes(k, -1, -2) * scale + shift
    if keep is not None:
        s = np.where(keep, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


def _bsh(t):
    b, n, s, d = t.shape
    return t.transpose(0, 2, 1, 3).reshape(b, s, n * d)


# ---- rotary position embedding ---------------------------------------------------------------

@pytest.mark.parametrize("mode,rotate", [(0, _rotate_half), (1, _rotate_interleaved)])
@pytest.mark.parametrize("cos_shape", [(1, 1, 5, 8), (2, 1, 5, 8), (2, 3, 5, 8)])
def test_rope_values(mode, rotate, cos_shape):
    x = rng.standard_normal((2, 3, 5, 8)).astype(np.float32)
    angle = rng.uniform(-3, 3, cos_shape)
    cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    out = ops.rotary_position_embedding(ms.Tensor(x), ms.Tensor(cos), ms.Tensor(sin), mode)
    assert out.shape == x.shape and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), x * cos + rotate(x) * sin, rtol=1e-5, atol=1e-6)


def test_rope_is_a_rotation_of_pairs():
    x = rng.standard_normal((1, 1, 4, 6))
    theta = rng.uniform(-3, 3, (1, 1, 4, 3))
    cos, sin = np.cos(np.repeat(theta, 2, -1)), np.sin(np.repeat(theta, 2, -1))
    out = ops.rotary_position_embedding(ms.Tensor(x), ms.Tensor(cos), ms.Tensor(sin), 1)
    a, b = x[..., 0::2], x[..., 1::2]
    np.testing.assert_allclose(out.asnumpy()[..., 0::2], a * np.cos(theta) - b * np.sin(theta))
    np.testing.assert_allclose(out.asnumpy()[..., 1::2], b * np.cos(theta) + a * np.sin(theta))


@pytest.mark.parametrize("mode", [0, 1])
def test_rope_gradcheck(mode):
    x = ms.Tensor(rng.standard_normal((1, 2, 3, 4)))
    cos = ms.Tensor(rng.uniform(-1, 1, (1, 1, 3, 4)))
    sin = ms.Tensor(rng.uniform(-1, 1, (1, 1, 3, 4)))
    assert gradcheck(lambda a, c, s: ops.rotary_position_embedding(a, c, s, mode), x, cos, sin)


def test_rope_errors():
    x = ms.Tensor(np.zeros((1, 1, 2, 4), np.float32))
    with pytest.raises(ValueError, match="'mode' must be 0"):
        ops.rotary_position_embedding(x, x, x, 2)
    with pytest.raises(TypeError, match="'mode' must be an int"):
        ops.rotary_position_embedding(x, x, x, 0.5)
    with pytest.raises(TypeError, match="'cos' must be a Tensor"):
        ops.rotary_position_embedding(x, 1.0, x)
    odd = ms.Tensor(np.zeros((1, 1, 2, 3), np.float32))
    with pytest.raises(ValueError, match="must be even"):
        ops.rotary_position_embedding(odd, odd, odd)
    with pytest.raises(ValueError, match="must be 4-D"):
        ops.rotary_position_embedding(ms.Tensor(np.zeros((2, 4), np.float32)), x, x)


def _rope_tables(max_seq, d, interleaved):
    freqs = np.outer(np.arange(max_seq), 1.0 / 10000 ** (np.arange(0, d, 2) / d))
    emb = np.repeat(freqs, 2, -1) if interleaved else np.concatenate([freqs, freqs], -1)
    return np.cos(emb).astype(np.float32), np.sin(emb).astype(np.float32)


@pytest.mark.parametrize("cos_format", [0, 1, 2, 3])
@pytest.mark.parametrize("seq", [1, 5])
def test_apply_rotary_pos_emb(cos_format, seq):
    # the rule of MindSpore's Ascend test: formats 1 / 3 rotate interleaved pairs, 2 / 3 take
    # per-token tables, position_ids are the S positions (one per batch when S is 1)
    b, nq, nk, d, max_seq = 2, 2, 1, 8, 16
    q = rng.standard_normal((b, seq, nq * d)).astype(np.float32)
    k = rng.standard_normal((b, seq, nk * d)).astype(np.float32)
    cos, sin = _rope_tables(max_seq, d, cos_format % 2 == 1)
    pos = rng.integers(0, max_seq, b if seq == 1 else seq).astype(np.int32)
    per_token = pos[:, None] if seq == 1 else np.tile(pos, (b, 1))  # (B, S) table rows
    c, s = cos[per_token][:, :, None], sin[per_token][:, :, None]  # (B, S, 1, D)
    tables = (cos, sin) if cos_format < 2 else (c.reshape(b * seq, d), s.reshape(b * seq, d))
    rotate = _rotate_interleaved if cos_format % 2 else _rotate_half
    out_q, out_k = ops.ApplyRotaryPosEmb(cos_format)(
        ms.Tensor(q), ms.Tensor(k), *(ms.Tensor(t) for t in tables), ms.Tensor(pos))
    for got, x, n in ((out_q, q, nq), (out_k, k, nk)):
        heads = x.reshape(b, seq, n, d)
        want = (heads * c + rotate(heads) * s).reshape(x.shape)
        assert got.shape == x.shape and got.dtype == ms.float32
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_apply_rotary_pos_emb_errors():
    q = ms.Tensor(np.zeros((2, 3, 8), np.float32))
    cos = ms.Tensor(np.zeros((10, 8), np.float32))
    with pytest.raises(ValueError, match="'position_ids' must hold S = 3"):
        ops.ApplyRotaryPosEmb()(q, q, cos, cos, ms.Tensor(np.array([0, 1], np.int32)))
    with pytest.raises(ValueError, match=r"must be \(B \* S, D\) = \(6, 8\)"):
        ops.ApplyRotaryPosEmb(2)(q, q, cos, cos, ms.Tensor(np.array([0, 1, 2], np.int32)))
    with pytest.raises(ValueError, match="'cos_format' must be in"):
        ops.ApplyRotaryPosEmb(4)
    with pytest.raises(ValueError, match="multiple of the head size"):
        ops.ApplyRotaryPosEmb()(q, q, ms.Tensor(np.zeros((10, 6), np.float32)),
                                ms.Tensor(np.zeros((10, 6), np.float32)),
                                ms.Tensor(np.array([0, 1, 2], np.int32)))


# ---- prompt / incremental / fused inference attention ----------------------------------------

B, N, NKV, S1, S2, D = 2, 4, 2, 5, 6, 8
Q = rng.standard_normal((B, N, S1, D))
K = rng.standard_normal((B, NKV, S2, D))
V = rng.standard_normal((B, NKV, S2, D))
SCALE = 1 / np.sqrt(D)


def _grouped(q=Q, k=K, v=V, **kw):
    return _softmax_attention(q, np.repeat(k, N // NKV, 1), np.repeat(v, N // NKV, 1), SCALE,
                              **kw)


@pytest.mark.parametrize("layout", ["BNSD", "BSND", "BSH"])
def test_prompt_flash_attention_layouts(layout):
    convert = {"BNSD": lambda t: t, "BSND": lambda t: t.transpose(0, 2, 1, 3), "BSH": _bsh}[layout]
    out = ops.prompt_flash_attention(*(ms.Tensor(convert(t).astype(np.float32))
                                       for t in (Q, K, V)), num_heads=N, scale_value=SCALE,
                                     input_layout=layout, num_key_value_heads=NKV)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), convert(_grouped()), rtol=1e-4, atol=1e-5)


def test_prompt_flash_attention_mask_band_and_lengths():
    mask = rng.random((B, 1, S1, S2)) < 0.3
    mask[..., 0] = False
    out = ops.prompt_flash_attention(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V),
                                     attn_mask=ms.Tensor(mask), num_heads=N, scale_value=SCALE,
                                     input_layout="BNSD", num_key_value_heads=NKV)
    # sparse_mode 0 with a mask: the next_tokens=0 band (causal) applies as well
    i, j = np.arange(S1)[:, None], np.arange(S2)[None, :]
    np.testing.assert_allclose(out.asnumpy(), _grouped(keep=~mask & (j <= i)), atol=1e-10)
    out = ops.prompt_flash_attention(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V),
                                     actual_seq_lengths=[3, 5], actual_seq_lengths_kv=[4, 6],
                                     num_heads=N, scale_value=SCALE, input_layout="BNSD",
                                     num_key_value_heads=NKV)
    want = np.stack([_grouped(keep=j < kv)[b] for b, kv in enumerate((4, 6))])
    want[0, :, 3:] = 0.0
    np.testing.assert_allclose(out.asnumpy(), want, atol=1e-10)


@pytest.mark.parametrize("mode,keep", [(2, lambda i, j: j <= i),
                                       (3, lambda i, j: j <= i + S2 - S1)])
def test_prompt_flash_attention_causal_modes(mode, keep):
    i, j = np.arange(S1)[:, None], np.arange(S2)[None, :]
    out = ops.prompt_flash_attention(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V),
                                     num_heads=N, scale_value=SCALE, input_layout="BNSD",
                                     num_key_value_heads=NKV, sparse_mode=mode)
    np.testing.assert_allclose(out.asnumpy(), _grouped(keep=keep(i, j)), atol=1e-10)


def test_prompt_flash_attention_gradcheck_and_torch():
    q, k, v = (ms.Tensor(rng.standard_normal((1, 2, 3, 4))) for _ in range(3))
    fn = lambda a, b, c: ops.prompt_flash_attention(  # noqa: E731
        a, b, c, num_heads=2, scale_value=0.5, input_layout="BNSD", sparse_mode=2)
    assert gradcheck(fn, q, k, v)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.scaled_dot_product_attention(
        *(torch.tensor(t.asnumpy()) for t in (q, k, v)), is_causal=True, scale=0.5)
    np.testing.assert_allclose(fn(q, k, v).asnumpy(), want.numpy(), atol=1e-10)


def test_prompt_flash_attention_errors():
    q = ms.Tensor(Q.astype(np.float32))
    with pytest.raises(ValueError, match="'input_layout' must be one of"):
        ops.prompt_flash_attention(q, q, q, num_heads=N, input_layout="TND")
    with pytest.raises(ValueError, match="num_key_value_heads"):
        ops.prompt_flash_attention(q, ms.Tensor(K.astype(np.float32)),
                                   ms.Tensor(V.astype(np.float32)), num_heads=N,
                                   input_layout="BNSD", num_key_value_heads=3)
    with pytest.raises(ValueError, match="quantization"):
        ops.prompt_flash_attention(q, q, q, num_heads=N, input_layout="BNSD",
                                   deq_scale1=ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="must share one dtype"):
        ops.prompt_flash_attention(q, ms.Tensor(Q), q, num_heads=N, input_layout="BNSD")


def test_incre_flash_attention():
    q = rng.standard_normal((B, N, 1, D))
    out = ops.incre_flash_attention(ms.Tensor(_bsh(q)), [ms.Tensor(_bsh(K))],
                                    [ms.Tensor(_bsh(V))], actual_seq_lengths=[3, 6],
                                    num_heads=N, scale_value=SCALE, num_key_value_heads=NKV)
    j = np.arange(S2)
    want = np.stack([_grouped(q=q, keep=j < n)[b] for b, n in enumerate((3, 6))])
    np.testing.assert_allclose(out.asnumpy(), _bsh(want), atol=1e-10)
    mask = np.zeros((B, 1, 1, S2), bool)
    mask[1, ..., :2] = True
    out = ops.incre_flash_attention(ms.Tensor(q), ms.Tensor(K), ms.Tensor(V),
                                    attn_mask=ms.Tensor(mask), num_heads=N, input_layout="BNSD",
                                    scale_value=SCALE, num_key_value_heads=NKV)
    np.testing.assert_allclose(out.asnumpy(), _grouped(q=q, keep=~mask), atol=1e-10)
    with pytest.raises(ValueError, match="S axis of 'query' must be 1"):
        ops.incre_flash_attention(ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V), num_heads=N,
                                  input_layout="BNSD", num_key_value_heads=NKV)


def test_fused_infer_attention_score_lse_and_bnsd_bsnd():
    out, lse = ops.fused_infer_attention_score(
        ms.Tensor(Q), ms.Tensor(K), ms.Tensor(V), num_heads=N, scale=SCALE,
        input_layout="BNSD_BSND", num_key_value_heads=NKV, softmax_lse_flag=True)
    np.testing.assert_allclose(out.asnumpy(), _grouped().transpose(0, 2, 1, 3), atol=1e-10)
    s = Q @ np.swapaxes(np.repeat(K, 2, 1), -1, -2) * SCALE
    want = np.log(np.exp(s).sum(-1, keepdims=True))
    assert lse.shape == (B, N, S1, 1) and lse.dtype == ms.float32
    np.testing.assert_allclose(lse.asnumpy(), want, rtol=1e-5)
    out, lse = ops.fused_infer_attention_score(ms.Tensor(_bsh(Q)), ms.Tensor(_bsh(K)),
                                               ms.Tensor(_bsh(V)), num_heads=N, scale=SCALE,
                                               num_key_value_heads=NKV)
    assert lse.shape == (1,) and lse.asnumpy().tolist() == [0.0]
    np.testing.assert_allclose(out.asnumpy(), _bsh(_grouped()), atol=1e-10)
    q, k, v = (ms.Tensor(rng.standard_normal((1, 3, 4))) for _ in range(3))
    assert gradcheck(lambda a, b, c: ops.fused_infer_attention_score(
        a, b, c, num_heads=2, scale=0.7)[0], q, k, v)


# ---- paged KV cache ---------------------------------------------------------------------------

def test_reshape_and_cache_writes_in_place():
    blocks, block_size, n, d = 3, 4, 2, 3
    key = rng.standard_normal((5, n * d)).astype(np.float32)
    value = rng.standard_normal((5, n * d)).astype(np.float32)
    key_cache = ms.Tensor(np.zeros((blocks, block_size, n, d), np.float32))
    value_cache = ms.Tensor(np.zeros((blocks, block_size, n, d), np.float32))
    slots = np.array([0, 5, 11, -1, 6], np.int32)
    ops.ReshapeAndCache()(ms.Tensor(key), ms.Tensor(value), key_cache, value_cache,
                          ms.Tensor(slots))
    for x, cache in ((key, key_cache), (value, value_cache)):
        want = np.zeros((blocks * block_size, n, d), np.float32)
        for t, slot in enumerate(slots):
            if slot >= 0:
                want[slot] = x[t].reshape(n, d)
        np.testing.assert_array_equal(cache.asnumpy().reshape(-1, n, d), want)
    with pytest.raises(ValueError, match="one slot per token"):
        ops.ReshapeAndCache()(ms.Tensor(key), ms.Tensor(value), key_cache, value_cache,
                              ms.Tensor(slots[:2]))


def _paged_reference(q, kc, vc, table, lens, heads, kv_heads, scale, mask=None):
    out = []
    for t in range(q.shape[0]):
        rows = np.concatenate([kc[blk] for blk in table[t]])[:lens[t]]
        vals = np.concatenate([vc[blk] for blk in table[t]])[:lens[t]]
        k = np.repeat(rows.reshape(lens[t], kv_heads, -1), heads // kv_heads, 1)
        v = np.repeat(vals.reshape(lens[t], kv_heads, -1), heads // kv_heads, 1)
        qt = q[t].reshape(heads, -1)
        s = np.einsum("nd,snd->ns", qt, k) * scale
        if mask is not None:
            s = s + mask[t, :, 0, :lens[t]]
        p = np.exp(s - s.max(-1, keepdims=True))
        out.append(np.einsum("ns,snd->nd", p / p.sum(-1, keepdims=True), v).reshape(-1))
    return np.stack(out)


def test_paged_attention_matches_reference_and_cache_roundtrip():
    heads, kv_heads, d, blocks, block_size = 4, 2, 3, 6, 2
    kc = rng.standard_normal((blocks, block_size, kv_heads * d)).astype(np.float32)
    vc = rng.standard_normal((blocks, block_size, kv_heads * d)).astype(np.float32)
    q = rng.standard_normal((2, heads * d)).astype(np.float32)
    table = np.array([[4, 1, 0], [2, 5, 3]], np.int32)
    lens = np.array([3, 6], np.int32)
    op = ops.PagedAttention(heads, 0.5, kv_heads)
    out = op(ms.Tensor(q), ms.Tensor(kc), ms.Tensor(vc), ms.Tensor(table), ms.Tensor(lens))
    want = _paged_reference(q, kc, vc, table, lens, heads, kv_heads, 0.5)
    assert out.shape == q.shape and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    mask = rng.standard_normal((2, heads, 1, 6)).astype(np.float32)
    out = ops.PagedAttentionMask(heads, 0.5, kv_heads)(
        ms.Tensor(q), ms.Tensor(kc), ms.Tensor(vc), ms.Tensor(table), ms.Tensor(lens),
        alibi_mask=ms.Tensor(mask))
    want = _paged_reference(q, kc, vc, table, lens, heads, kv_heads, 0.5, mask)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_paged_attention_equals_dense_attention():
    heads, d, block_size, s = 2, 4, 4, 7
    k = rng.standard_normal((s, heads * d)).astype(np.float32)
    v = rng.standard_normal((s, heads * d)).astype(np.float32)
    q = rng.standard_normal((1, heads * d)).astype(np.float32)
    kc = ms.Tensor(np.zeros((3, block_size, heads, d), np.float32))
    vc = ms.Tensor(np.zeros((3, block_size, heads, d), np.float32))
    slots = np.array([8, 9, 10, 11, 0, 1, 2], np.int32)  # blocks 2 then 0
    ops.ReshapeAndCache()(ms.Tensor(k), ms.Tensor(v), kc, vc, ms.Tensor(slots))
    out = ops.PagedAttention(heads, 0.5, heads)(ms.Tensor(q), kc, vc,
                                                 ms.Tensor(np.array([[2, 0]], np.int32)),
                                                 ms.Tensor(np.array([s], np.int32)))
    dense = ops.prompt_flash_attention(ms.Tensor(q[None]), ms.Tensor(k[None]),
                                       ms.Tensor(v[None]), num_heads=heads, scale_value=0.5)
    np.testing.assert_allclose(out.asnumpy(), dense.asnumpy()[0], rtol=1e-5, atol=1e-6)


# ---- speed_fusion_attention / ring_attention_update ----------------------------------------

def test_speed_fusion_attention():
    q, k, v = (rng.standard_normal((1, 2, 3, 4)) for _ in range(3))
    res = ops.speed_fusion_attention(ms.Tensor(q), ms.Tensor(k), ms.Tensor(v), 2, "BNSD",
                                     scale=0.5)
    assert len(res) == 7
    np.testing.assert_allclose(res[0].asnumpy(), _softmax_attention(q, k, v, 0.5), atol=1e-10)
    s = q @ np.swapaxes(k, -1, -2) * 0.5
    np.testing.assert_allclose(res[1].asnumpy()[..., 0], s.max(-1), rtol=1e-5)
    assert res[1].shape == (1, 2, 3, 8)
    assert gradcheck(lambda a, b, c: ops.speed_fusion_attention(a, b, c, 2, "BNSD")[0],
                     *(ms.Tensor(t) for t in (q, k, v)))


def test_ring_attention_update_merges_two_halves():
    b, n, s, d, s2 = 1, 2, 3, 4, 5
    q = rng.standard_normal((b, n, s, d))
    k = rng.standard_normal((b, n, 2 * s2, d))
    v = rng.standard_normal((b, n, 2 * s2, d))

    def part(lo, hi):
        sc = q @ np.swapaxes(k[:, :, lo:hi], -1, -2)
        top = sc.max(-1, keepdims=True)
        e = np.exp(sc - top)
        tot = e.sum(-1, keepdims=True)
        out = (e / tot) @ v[:, :, lo:hi]
        sbh = out.transpose(2, 0, 1, 3).reshape(s, b, n * d)
        return (ms.Tensor(sbh.astype(np.float32)), ms.Tensor(np.tile(top, 8).astype(np.float32)),
                ms.Tensor(np.tile(tot, 8).astype(np.float32)))

    (o1, m1, l1), (o2, m2, l2) = part(0, s2), part(s2, 2 * s2)
    out, top, total = ops.ring_attention_update(o1, m1, l1, o2, m2, l2)
    full = _softmax_attention(q, k, v, 1.0).transpose(2, 0, 1, 3).reshape(s, b, n * d)
    np.testing.assert_allclose(out.asnumpy(), full, rtol=1e-5, atol=1e-6)
    sc = q @ np.swapaxes(k, -1, -2)
    np.testing.assert_allclose(top.asnumpy()[..., 0], sc.max(-1), rtol=1e-6)
    np.testing.assert_allclose(total.asnumpy()[..., 0],
                               np.exp(sc - sc.max(-1, keepdims=True)).sum(-1), rtol=1e-5)


def test_ring_attention_update_tnd_and_errors():
    t, n, d = 4, 2, 3
    o1, o2 = (rng.standard_normal((t, n, d)).astype(np.float32) for _ in range(2))
    m1, m2 = (rng.standard_normal((t, n, 1)) for _ in range(2))
    l1, l2 = (rng.uniform(0.5, 2, (t, n, 1)) for _ in range(2))
    args = [ms.Tensor(o1), ms.Tensor(np.tile(m1, 8).astype(np.float32)),
            ms.Tensor(np.tile(l1, 8).astype(np.float32)), ms.Tensor(o2),
            ms.Tensor(np.tile(m2, 8).astype(np.float32)),
            ms.Tensor(np.tile(l2, 8).astype(np.float32))]
    out, top, total = ops.ring_attention_update(*args, ms.Tensor(np.array([0, 1, 4])), "TND")
    m = np.maximum(m1, m2)
    w1, w2 = np.exp(m1 - m) * l1, np.exp(m2 - m) * l2
    np.testing.assert_allclose(out.asnumpy(), (o1 * w1 + o2 * w2) / (w1 + w2), rtol=1e-5)
    np.testing.assert_allclose(total.asnumpy()[..., 0], (w1 + w2)[..., 0], rtol=1e-5)
    with pytest.raises(RuntimeError, match="'actual_seq_qlen' is required"):
        ops.ring_attention_update(*args, None, "TND")
    with pytest.raises(RuntimeError, match="non-decreasing from 0"):
        ops.ring_attention_update(*args, ms.Tensor(np.array([0, 3, 2])), "TND")
    with pytest.raises(ValueError, match="'layout' must be"):
        ops.ring_attention_update(*args, None, "BSH")


def test_incre_flash_attention_2d_mask_and_float16():
    q = rng.standard_normal((B, N, 1, D))
    mask = np.zeros((B, S2), np.uint8)
    mask[0, 4:] = 1
    out = ops.incre_flash_attention(*(ms.Tensor(_bsh(t).astype(np.float16)) for t in (q, K, V)),
                                    attn_mask=ms.Tensor(mask), num_heads=N, scale_value=SCALE,
                                    num_key_value_heads=NKV)
    assert out.dtype == ms.float16 and out.shape == (B, 1, N * D)
    want = _bsh(_grouped(q=q, keep=(mask == 0)[:, None, None, :]))
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), want, atol=2e-2)


@pytest.mark.parametrize("layout", ["BSH", "BNSD"])
def test_incre_flash_attention_block_table(layout):
    block_size, blocks = 4, 5
    q = rng.standard_normal((B, N, 1, D))
    cache_k = rng.standard_normal((blocks, NKV, block_size, D))  # BNSD block cache
    cache_v = rng.standard_normal((blocks, NKV, block_size, D))
    table = np.array([[3, 0], [1, 4]], np.int32)
    lens = [6, 8]
    k = np.concatenate([cache_k[table[:, i]] for i in range(2)], 2)  # (B, NKV, 8, D)
    v = np.concatenate([cache_v[table[:, i]] for i in range(2)], 2)
    j = np.arange(8)
    want = np.stack([_grouped(q=q, k=k, v=v, keep=j < n)[b] for b, n in enumerate(lens)])
    if layout == "BSH":
        args = (_bsh(q), _bsh(cache_k), _bsh(cache_v))
        want = _bsh(want)
    else:
        args = (q, cache_k, cache_v)
    out = ops.incre_flash_attention(*(ms.Tensor(a) for a in args), actual_seq_lengths=lens,
                                    block_table=ms.Tensor(table), num_heads=N,
                                    input_layout=layout, scale_value=SCALE,
                                    num_key_value_heads=NKV, block_size=block_size)
    np.testing.assert_allclose(out.asnumpy(), want, atol=1e-10)
    out, _ = ops.fused_infer_attention_score(
        *(ms.Tensor(a) for a in args), actual_seq_lengths_kv=lens, block_table=ms.Tensor(table),
        num_heads=N, input_layout=layout, scale=SCALE, num_key_value_heads=NKV,
        block_size=block_size)
    np.testing.assert_allclose(out.asnumpy(), want, atol=1e-10)
    with pytest.raises(ValueError, match="'block_size' must be"):
        ops.incre_flash_attention(*(ms.Tensor(a) for a in args), block_table=ms.Tensor(table),
                                  num_heads=N, input_layout=layout, num_key_value_heads=NKV,
                                  block_size=3)


def test_reshape_and_cache_parameters_and_3d_key():
    bs, seq, n, d = 2, 3, 2, 4
    key = rng.standard_normal((bs, seq, n * d)).astype(np.float16)
    key_cache = ms.Parameter(ms.Tensor(np.zeros((4, 2, n, d), np.float16)), "key_cache")
    slots = np.array([7, 6, 5, 0, 1, 2], np.int32)
    out = ops.ReshapeAndCache()(ms.Tensor(key), None, key_cache, None, ms.Tensor(slots))
    assert out.shape == key.shape and out.dtype == ms.float16
    cached = key_cache.asnumpy().reshape(8, n * d)
    np.testing.assert_array_equal(cached[slots], key.reshape(-1, n * d))
    np.testing.assert_array_equal(cached[[3, 4]], 0)


def test_paged_attention_adds_attn_and_alibi_masks():
    heads, d, blocks, block_size = 2, 4, 3, 2
    kc = rng.standard_normal((blocks, block_size, heads, d)).astype(np.float32)
    vc = rng.standard_normal((blocks, block_size, heads, d)).astype(np.float32)
    q = rng.standard_normal((1, heads, d)).astype(np.float32)
    table, lens = np.array([[2, 1, 0]], np.int32), np.array([5], np.int32)
    amask = np.where(rng.random((1, 1, 1, 6)) < 0.3, -10000.0, 0.0).astype(np.float32)
    alibi = rng.uniform(-3, 0, (1, heads, 1, 6)).astype(np.float32)
    out = ops.PagedAttention(heads, 0.5, heads)(
        ms.Tensor(q), ms.Tensor(kc), ms.Tensor(vc), ms.Tensor(table), ms.Tensor(lens),
        attn_mask=ms.Tensor(amask), alibi_mask=ms.Tensor(alibi))
    want = _paged_reference(q.reshape(1, -1), kc.reshape(blocks, block_size, -1),
                            vc.reshape(blocks, block_size, -1), table, lens, heads, heads, 0.5,
                            amask + alibi)
    assert out.shape == q.shape
    np.testing.assert_allclose(out.asnumpy().reshape(1, -1), want, rtol=1e-5, atol=1e-6)
