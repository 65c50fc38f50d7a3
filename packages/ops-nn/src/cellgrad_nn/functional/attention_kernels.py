"""MindSpore's inference attention kernels on the CPU: rotary position embedding, prompt /
incremental / fused-infer flash attention, the paged KV cache (`ReshapeAndCache`,
`PagedAttention`, `PagedAttentionMask`), `speed_fusion_attention` and `ring_attention_update`.

MindSpore runs these on Ascend only; this follows their documented semantics on top of the fused
attention op of `cellgrad_nn.attention.kernel` (differentiable in query, key and value).
Quantized (int8) paths, shared prefixes and compressed (2048 x 2048) mask templates with
content other than the causal triangle are refused with a message saying so.
"""

import numpy as np

from cellgrad import ops
from cellgrad.dtype import bfloat16, bool_, float16, float32, float64, int8, int64, uint8
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.attention.kernel import attention
from cellgrad_nn.functional.flash_attention import _attention

_INT_MAX = 2147483647
_FLOATS = (float16, float32, bfloat16, float64)  # float64: CPU extension (gradchecks)


def _check_tensor(name, arg, value):
    if not isinstance(value, ops.Tensor):
        raise TypeError(f"For '{name}', '{arg}' must be a Tensor, but got "
                        f"{type(value).__name__}.")


# ---- rotary position embedding -------------------------------------------------------------

def _rotate(x, mode):
    d = x.shape[-1]
    if mode == 0:
        x1, x2 = x[..., :d // 2], x[..., d // 2:]
        return ops.cat((-x2, x1), -1)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return ops.reshape(ops.stack((-x2, x1), -1), x.shape)


def rotary_position_embedding(x, cos, sin, mode=0):
    """Mirrors `mindspore.ops.rotary_position_embedding`: x * cos + rotate(x) * sin, with
    rotate_half (mode 0, GPT-NeoX) or rotate_interleaved (mode 1, GPT-J); differentiable in x,
    cos and sin."""
    name = "rotary_position_embedding"
    for arg, value in (("x", x), ("cos", cos), ("sin", sin)):
        _check_tensor(name, arg, value)
    if isinstance(mode, bool) or not isinstance(mode, int):
        raise TypeError(f"For '{name}', 'mode' must be an int, but got {type(mode).__name__}.")
    if mode not in (0, 1):
        raise ValueError(f"For '{name}', 'mode' must be 0 (rotate_half) or 1 "
                         f"(rotate_interleaved), but got {mode}.")
    if x.ndim != 4 or cos.ndim != 4 or sin.ndim != 4:
        raise ValueError(f"For '{name}', 'x', 'cos' and 'sin' must be 4-D, but got "
                         f"{x.shape}, {cos.shape} and {sin.shape}.")
    if x.dtype not in _FLOATS or cos.dtype != x.dtype or sin.dtype != x.dtype:
        raise TypeError(f"For '{name}', 'x', 'cos' and 'sin' must share one dtype of float16, "
                        f"bfloat16 or float32, but got {x.dtype}, {cos.dtype} and {sin.dtype}.")
    if x.shape[-1] % 2:
        raise ValueError(f"For '{name}', the last axis D of 'x' must be even, but got "
                         f"{x.shape[-1]}.")
    if cos.shape != sin.shape or cos.shape[-1] != x.shape[-1] or any(
            c not in (1, s) for c, s in zip(cos.shape, x.shape)):
        raise ValueError(f"For '{name}', 'cos' and 'sin' must broadcast to 'x' {x.shape} "
                         f"along the last axis, but got {cos.shape} and {sin.shape}.")
    return x * cos + _rotate(x, mode) * sin


class ApplyRotaryPosEmb(Primitive):
    """Mirrors `mindspore.ops.ApplyRotaryPosEmb(cos_format)(query, key, cos, sin,
    position_ids)`: RoPE of query / key ((T, H), (B, S, H) or (B, S, N, D)) in place of
    MindSpore's fused kernel; returns (query, key) rotated. cos_format 0 / 1: cos and sin are
    (max_seq_len, D) tables read at `position_ids` (the S positions, or one per batch when
    S = 1); 2 / 3: they are already (B * S, D) per token. 0 / 2 rotate halves, 1 / 3 rotate
    interleaved pairs."""

    @prim_attr_register
    def __init__(self, cos_format=0):
        if isinstance(cos_format, bool) or not isinstance(cos_format, int):
            raise TypeError(f"For 'ApplyRotaryPosEmb', 'cos_format' must be an int, but got "
                            f"{type(cos_format).__name__}.")
        if cos_format not in (0, 1, 2, 3):
            raise ValueError(f"For 'ApplyRotaryPosEmb', 'cos_format' must be in [0, 3], but "
                             f"got {cos_format}.")

    def _table(self, name, table, position_ids, b, s):
        d = table.shape[-1]
        if self.cos_format in (2, 3):
            if table.shape[0] != b * s:
                raise ValueError(f"For '{name}', with cos_format {self.cos_format} 'cos' and "
                                 f"'sin' must be (B * S, D) = ({b * s}, {d}), but got "
                                 f"{table.shape}.")
            return ops.reshape(table, (b, s, 1, d))
        count = position_ids.shape[0]
        rows = ops.gather(table, position_ids, 0)
        if count == b * s:
            return ops.reshape(rows, (b, s, 1, d))
        if count == s:
            return ops.reshape(rows, (1, s, 1, d))
        if s == 1 and count == b:
            return ops.reshape(rows, (b, 1, 1, d))
        raise ValueError(f"For '{name}', 'position_ids' must hold S = {s} positions (or B = "
                         f"{b} when S is 1), but got {count}.")

    def __call__(self, query, key, cos, sin, position_ids):
        name = "ApplyRotaryPosEmb"
        for arg, value in (("query", query), ("key", key), ("cos", cos), ("sin", sin),
                           ("position_ids", position_ids)):
            _check_tensor(name, arg, value)
        if cos.ndim != 2 or cos.shape != sin.shape:
            raise ValueError(f"For '{name}', 'cos' and 'sin' must be 2-D of one shape, but got "
                             f"{cos.shape} and {sin.shape}.")
        if position_ids.ndim != 1:
            raise ValueError(f"For '{name}', 'position_ids' must be 1-D, but got "
                             f"{position_ids.shape}.")
        d = cos.shape[-1]
        lead = query.ndim - 2 if query.ndim == 4 else query.ndim - 1
        if query.ndim not in (2, 3, 4) or key.ndim != query.ndim or \
                key.shape[:lead] != query.shape[:lead]:
            raise ValueError(f"For '{name}', 'query' and 'key' must be (T, H), (B, S, H) or "
                             f"(B, S, N, D) with the same leading axes, but got {query.shape} "
                             f"and {key.shape}.")
        b, s = (1, query.shape[0]) if query.ndim == 2 else query.shape[:2]
        c = ops.cast(self._table(name, cos, position_ids, b, s), query.dtype)
        n = ops.cast(self._table(name, sin, position_ids, b, s), query.dtype)
        outs = []
        for arg, x in (("query", query), ("key", key)):
            if x.shape[-1] % d:
                raise ValueError(f"For '{name}', the last axis of '{arg}' {x.shape[-1]} must "
                                 f"be a multiple of the head size D = {d}.")
            heads = ops.reshape(x, (b, s, -1, d))
            rotated = heads * c + _rotate(heads, self.cos_format % 2) * n
            outs.append(ops.reshape(rotated, x.shape))
        return tuple(outs)


# ---- prompt / incremental / fused inference attention ----------------------------------------

def _seq_lengths(name, arg, value, batch, limit):
    if value is None:
        return None
    lengths = np.asarray(value.asnumpy() if isinstance(value, ops.Tensor) else value,
                         dtype=np.int64).reshape(-1)
    if lengths.size == 1 and batch > 1:
        lengths = np.repeat(lengths, batch)
    if lengths.size != batch or (lengths < 0).any() or (lengths > limit).any():
        raise ValueError(f"For '{name}', '{arg}' must hold B = {batch} lengths in [0, {limit}], "
                         f"but got {lengths.tolist()}.")
    return lengths


def _keep(sparse_mode, s1, s2, pre, nxt, masked):
    """Which (query, key) pairs a sparse mode keeps, or None for all."""
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse_mode == 0:
        if not masked or (pre >= _INT_MAX and nxt >= _INT_MAX):
            return None
        return (j >= i - pre) & (j <= i + nxt)
    if sparse_mode == 2:
        return j <= i
    if sparse_mode == 3:
        return j <= i + (s2 - s1)
    if sparse_mode == 4:
        shift = s2 - s1
        return (j >= i + shift - pre) & (j <= i + shift + nxt)
    return None


def _given_mask(name, mask, batch, s1, s2):
    """A user mask (True / 1 = discard) as a (B|1, 1, S1, S2) boolean keep array."""
    if mask.dtype not in (bool_, int8, uint8, float16):
        raise TypeError(f"For '{name}', the dtype of 'atten_mask' must be bool, int8, uint8 or "
                        f"float16, but got {mask.dtype}.")
    keep = mask.asnumpy() == 0
    if keep.ndim < 2 or keep.ndim > 4 or keep.shape[-2:] != (s1, s2) or \
            (keep.ndim > 2 and keep.shape[0] not in (1, batch)) or \
            (keep.ndim == 4 and keep.shape[1] != 1):
        raise ValueError(f"For '{name}', 'atten_mask' must be (Q_S, KV_S), (B|1, Q_S, KV_S) or "
                         f"(B|1, 1, Q_S, KV_S) with Q_S, KV_S = {s1}, {s2}, but got "
                         f"{keep.shape}.")
    return keep.reshape((keep.shape[0] if keep.ndim > 2 else 1, 1, s1, s2))


def _split_layout(name, layout, query, num_heads):
    """(to BNSD, from BNSD) for one of BSH, BSND, BNSD, BNSD_BSND."""
    if layout not in ("BSH", "BSND", "BNSD", "BNSD_BSND"):
        raise ValueError(f"For '{name}', 'input_layout' must be one of BSH, BSND, BNSD or "
                         f"BNSD_BSND, but got {layout}.")
    ndim = 3 if layout == "BSH" else 4
    if query.ndim != ndim:
        raise ValueError(f"For '{name}', 'query' must be {ndim}-D for layout {layout}, but got "
                         f"shape {query.shape}.")

    def to_bnsd(t, heads):
        if layout in ("BNSD", "BNSD_BSND"):
            return t
        if layout == "BSH":
            b, s, h = t.shape
            t = ops.reshape(t, (b, s, heads, h // heads))
        return ops.transpose(t, (0, 2, 1, 3))

    def from_bnsd(t):
        if layout == "BNSD":
            return t
        t = ops.transpose(t, (0, 2, 1, 3))
        if layout == "BSH":
            b, s, n, d = t.shape
            t = ops.reshape(t, (b, s, n * d))
        return t

    return to_bnsd, from_bnsd


def _heads_of(layout, t, d):
    if layout == "BSH":
        return t.shape[-1] // d
    return t.shape[2 if layout == "BSND" else 1]


def _infer_attention(name, query, key, value, *, mask, pse, actual_q, actual_kv, num_heads,
                     num_kv_heads, scale, pre, nxt, layout, sparse_mode, lse=False):
    """softmax(scale * Q K^T + pse, masked) V for the inference kernels, in `layout`; query
    rows past `actual_q` (and fully masked rows) are zero, as on Ascend."""
    for arg, t in (("query", query), ("key", key), ("value", value)):
        _check_tensor(name, arg, t)
    if query.dtype not in _FLOATS or key.dtype != query.dtype or value.dtype != query.dtype:
        raise TypeError(f"For '{name}', 'query', 'key' and 'value' must share one dtype of "
                        f"float16, bfloat16 or float32 (int8 quantization is Ascend-only), "
                        f"but got {query.dtype}, {key.dtype} and {value.dtype}.")
    if isinstance(num_heads, bool) or not isinstance(num_heads, int) or num_heads <= 0:
        raise ValueError(f"For '{name}', 'num_heads' must be a positive int, but got "
                         f"{num_heads}.")
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise ValueError(f"For '{name}', 'sparse_mode' must be in [0, 4], but got "
                         f"{sparse_mode}.")
    to_bnsd, from_bnsd = _split_layout(name, layout, query, num_heads)
    if layout == "BSH" and query.shape[-1] % num_heads:
        raise ValueError(f"For '{name}', the hidden size of 'query' {query.shape[-1]} must be "
                         f"divisible by 'num_heads' {num_heads}.")
    if layout != "BSH" and _heads_of(layout, query, 0) != num_heads:
        raise ValueError(f"For '{name}', the N axis of 'query' must equal 'num_heads' "
                         f"{num_heads}, but got shape {query.shape}.")
    dtype = float32 if query.dtype in (float16, bfloat16) else query.dtype
    q = to_bnsd(ops.cast(query, dtype), num_heads)
    d = q.shape[-1]
    kv_heads = num_kv_heads or num_heads
    if num_heads % kv_heads or _heads_of(layout, key, d) != kv_heads:
        raise ValueError(f"For '{name}', 'num_key_value_heads' {num_kv_heads} must divide "
                         f"'num_heads' {num_heads} and equal the heads of 'key' (shape "
                         f"{key.shape}).")
    k = to_bnsd(ops.cast(key, dtype), kv_heads)
    v = to_bnsd(ops.cast(value, dtype), kv_heads)
    if k.shape[-1] != d or v.shape[-1] != d or k.shape[:3] != v.shape[:3] or \
            k.shape[0] != q.shape[0]:
        raise ValueError(f"For '{name}', 'key' and 'value' must match 'query' in B and D and "
                         f"each other in S, but got {query.shape}, {key.shape} and "
                         f"{value.shape}.")
    if kv_heads != num_heads:
        k = ops.repeat_interleave(k, num_heads // kv_heads, 1)
        v = ops.repeat_interleave(v, num_heads // kv_heads, 1)
    b, _, s1, _ = q.shape
    s2 = k.shape[2]
    keep = np.ones((1, 1, s1, s2), dtype=bool)
    band = _keep(sparse_mode, s1, s2, pre, nxt, mask is not None)
    if band is not None:
        keep = keep & band
    if mask is not None and sparse_mode in (0, 1):
        keep = keep & _given_mask(name, mask, b, s1, s2)
    lengths_q = _seq_lengths(name, "actual_seq_lengths", actual_q, b, s1)
    lengths_kv = _seq_lengths(name, "actual_seq_lengths_kv", actual_kv, b, s2)
    if lengths_kv is not None:
        keep = keep & (np.arange(s2)[None, :] < lengths_kv[:, None])[:, None, None, :]
    rows = keep.any(axis=-1, keepdims=True)
    if lengths_q is not None:
        rows = rows & (np.arange(s1)[None, :] < lengths_q[:, None])[:, None, :, None]
    safe = keep | ~keep.any(axis=-1, keepdims=True)
    additive = ops.cast(ops.Tensor(np.where(safe, 0.0, -np.inf)), dtype)
    if pse is not None:
        _check_tensor(name, "pse_shift", pse)
        additive = additive + ops.cast(pse, dtype)[..., :s1, :s2]
    out = attention(q, k, v, additive, scale=float(scale))
    if not rows.all():
        out = out * ops.cast(ops.Tensor(rows.astype(np.float32)), dtype)
    result = ops.cast(from_bnsd(out), query.dtype)
    if not lse:
        return result
    scores = np.matmul(q.asnumpy().astype(np.float64),
                       np.swapaxes(k.asnumpy().astype(np.float64), -1, -2)) * float(scale)
    scores = scores + additive.asnumpy()
    top = scores.max(axis=-1, keepdims=True)
    lse_value = top + np.log(np.exp(scores - top).sum(axis=-1, keepdims=True))
    lse_value = np.where(rows, lse_value, np.inf)
    return result, ops.Tensor(lse_value.astype(np.float32))


def _refuse(name, **given):
    used = [arg for arg, value in given.items() if value is not None]
    if used:
        raise ValueError(f"For '{name}', {', '.join(repr(a) for a in used)} (int8 quantization "
                         f"/ shared prefix / padding) is supported by the Ascend kernel only: "
                         f"pass float query, key and value without them on the CPU.")


def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                           actual_seq_lengths_kv=None, pse_shift=None, deq_scale1=None,
                           quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0,
                           pre_tokens=2147483647, next_tokens=0, input_layout='BSH',
                           num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """Mirrors `mindspore.ops.prompt_flash_attention` (full inference; layouts BSH, BSND,
    BNSD, BNSD_BSND; grouped key/value heads; mask True/1 = discard)."""
    name = "PromptFlashAttention"
    _refuse(name, deq_scale1=deq_scale1, quant_scale1=quant_scale1, deq_scale2=deq_scale2,
            quant_scale2=quant_scale2, quant_offset2=quant_offset2)
    return _infer_attention(name, query, key, value, mask=attn_mask, pse=pse_shift,
                            actual_q=actual_seq_lengths, actual_kv=actual_seq_lengths_kv,
                            num_heads=num_heads, num_kv_heads=num_key_value_heads,
                            scale=scale_value, pre=pre_tokens, nxt=next_tokens,
                            layout=input_layout, sparse_mode=sparse_mode)


def _one_kv(name, arg, t):
    if isinstance(t, (list, tuple)):
        if not t:
            raise ValueError(f"For '{name}', '{arg}' must not be an empty list.")
        return ops.cat(tuple(t), 0)
    return t


def _paged_kv(name, key, value, block_table, block_size, layout):
    """Key / value gathered from a block cache (num_blocks, block_size, kvH) (BSH / BSND) or
    (num_blocks, kvN, block_size, D) (BNSD) through `block_table` (B, max_blocks)."""
    _check_tensor(name, "block_table", block_table)
    axis = 2 if layout == "BNSD" else 1
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size <= 0 or \
            key.shape[axis] != block_size:
        raise ValueError(f"For '{name}', 'block_size' must be the block axis of the paged "
                         f"'key' {key.shape}, but got {block_size}.")
    table = block_table.asnumpy().astype(np.int64)
    if table.ndim != 2 or (table < 0).any() or (table >= key.shape[0]).any():
        raise ValueError(f"For '{name}', 'block_table' must be (B, max_blocks) of block ids in "
                         f"[0, {key.shape[0]}), but got {table.tolist()}.")
    index = ops.Tensor(table.reshape(-1))
    b, blocks = table.shape

    def gather(t):
        t = ops.gather(t, index, 0)
        if layout == "BNSD":
            t = ops.transpose(ops.reshape(t, (b, blocks) + t.shape[1:]), (0, 2, 1, 3, 4))
            return ops.reshape(t, (b, t.shape[1], blocks * block_size, t.shape[-1]))
        return ops.reshape(t, (b, blocks * block_size) + t.shape[2:])

    return gather(key), gather(value)


def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                          pse_shift=None, dequant_scale1=None, quant_scale1=None,
                          dequant_scale2=None, quant_scale2=None, quant_offset2=None,
                          antiquant_scale=None, antiquant_offset=None, block_table=None,
                          num_heads=1, input_layout='BSH', scale_value=1.0,
                          num_key_value_heads=0, block_size=0, inner_precise=1,
                          kv_padding_size=None):
    """Mirrors `mindspore.ops.incre_flash_attention` (one new query token per batch against
    the cached key / value; `key` / `value` a Tensor, a list of per-batch Tensors or, with
    `block_table`, a block cache; `actual_seq_lengths` the valid key length per batch)."""
    name = "IncreFlashAttention"
    _refuse(name, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
            dequant_scale2=dequant_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
            antiquant_offset=antiquant_offset, kv_padding_size=kv_padding_size)
    key, value = _one_kv(name, "key", key), _one_kv(name, "value", value)
    if input_layout not in ("BSH", "BSND", "BNSD"):
        raise ValueError(f"For '{name}', 'input_layout' must be BSH, BSND or BNSD, but got "
                         f"{input_layout}.")
    if block_table is not None:
        key, value = _paged_kv(name, key, value, block_table, block_size, input_layout)
    _check_tensor(name, "query", query)
    s_axis = 2 if input_layout == "BNSD" else 1
    if query.ndim > s_axis and query.shape[s_axis] != 1:
        raise ValueError(f"For '{name}', the S axis of 'query' must be 1 (one new token), but "
                         f"got shape {query.shape}.")
    if attn_mask is not None and attn_mask.ndim in (2, 3):  # (B, KV_S) / (B, 1, KV_S)
        attn_mask = ops.reshape(attn_mask, (attn_mask.shape[0], 1, 1, attn_mask.shape[-1]))
    return _infer_attention(name, query, key, value, mask=attn_mask, pse=pse_shift,
                            actual_q=None, actual_kv=actual_seq_lengths, num_heads=num_heads,
                            num_kv_heads=num_key_value_heads, scale=scale_value,
                            pre=_INT_MAX, nxt=_INT_MAX, layout=input_layout, sparse_mode=0)


def fused_infer_attention_score(query, key, value, *, pse_shift=None, atten_mask=None,
                                actual_seq_lengths=None, actual_seq_lengths_kv=None,
                                dequant_scale1=None, quant_scale1=None, dequant_scale2=None,
                                quant_scale2=None, quant_offset2=None, antiquant_scale=None,
                                antiquant_offset=None, key_antiquant_scale=None,
                                key_antiquant_offset=None, value_antiquant_scale=None,
                                value_antiquant_offset=None, block_table=None,
                                query_padding_size=None, kv_padding_size=None,
                                key_shared_prefix=None, value_shared_prefix=None,
                                actual_shared_prefix_len=None, num_heads=1, scale=1.0,
                                pre_tokens=2147483647, next_tokens=2147483647,
                                input_layout='BSH', num_key_value_heads=0, sparse_mode=0,
                                inner_precise=1, block_size=0, antiquant_mode=0,
                                key_antiquant_mode=0, value_antiquant_mode=0,
                                softmax_lse_flag=False):
    """Mirrors `mindspore.ops.fused_infer_attention_score`: (attention_out, softmax_lse), the
    latter (B, N, Q_S, 1) float32 log-sum-exp of the masked scores when `softmax_lse_flag`,
    else zeros (1,)."""
    name = "FusedInferAttentionScore"
    _refuse(name, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
            dequant_scale2=dequant_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
            antiquant_offset=antiquant_offset, key_antiquant_scale=key_antiquant_scale,
            key_antiquant_offset=key_antiquant_offset,
            value_antiquant_scale=value_antiquant_scale,
            value_antiquant_offset=value_antiquant_offset,
            query_padding_size=query_padding_size, kv_padding_size=kv_padding_size,
            key_shared_prefix=key_shared_prefix, value_shared_prefix=value_shared_prefix,
            actual_shared_prefix_len=actual_shared_prefix_len)
    key, value = _one_kv(name, "key", key), _one_kv(name, "value", value)
    if block_table is not None:
        key, value = _paged_kv(name, key, value, block_table, block_size,
                               "BNSD" if input_layout.startswith("BNSD") else input_layout)
    out = _infer_attention(name, query, key, value, mask=atten_mask, pse=pse_shift,
                           actual_q=actual_seq_lengths, actual_kv=actual_seq_lengths_kv,
                           num_heads=num_heads, num_kv_heads=num_key_value_heads, scale=scale,
                           pre=pre_tokens, nxt=next_tokens, layout=input_layout,
                           sparse_mode=sparse_mode, lse=softmax_lse_flag)
    if softmax_lse_flag:
        return out
    return out, ops.zeros((1,), float32)


def speed_fusion_attention(query, key, value, head_num, input_layout, *, pse=None,
                           padding_mask=None, atten_mask=None, scale=1.0, keep_prob=1.0,
                           pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                           prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None,
                           sparse_mode=0, gen_mask_parallel=True, sync=False,
                           pse_type=1, q_start_idx=None, kv_start_idx=None):
    """Mirrors `mindspore.ops.speed_fusion_attention`: (attention_out, softmax_max,
    softmax_sum, softmax_out, seed, offset, numels) with the training flash attention of
    `ops.flash_attention_score` (pse_type 1: `pse` added to the scaled scores)."""
    name = "speed_fusion_attention"
    if pse_type != 1 or q_start_idx is not None or kv_start_idx is not None:
        raise ValueError(f"For '{name}', only pse_type 1 (pse added after scaling) without "
                         f"q_start_idx / kv_start_idx is supported on the CPU, but got "
                         f"pse_type {pse_type}.")
    softmax_max, softmax_sum, softmax_out, out = _attention(
        "FlashAttentionScore", query, key, value, head_num, pse, None, padding_mask,
        atten_mask, prefix, actual_seq_qlen, actual_seq_kvlen, keep_prob, scale, pre_tokens,
        next_tokens, input_layout, sparse_mode, stats=True)
    # cellgrad draws dropout from its own generator: no Philox seed / offset to hand back
    numels = 0 if keep_prob == 1.0 else int(np.prod(softmax_max.shape[:-1])) * _kv_len(
        key, input_layout)
    return (out, softmax_max, softmax_sum, softmax_out, ops.Tensor([0], int64),
            ops.Tensor([0], int64), numels)


def _kv_len(key, layout):
    return key.shape[{"BSH": 1, "BSND": 1, "SBH": 0, "BNSD": 2}.get(layout, 0)]


# ---- paged KV cache ---------------------------------------------------------------------------

class ReshapeAndCache(Primitive):
    """Mirrors `mindspore.ops.ReshapeAndCache()(key, value, key_cache, value_cache,
    slot_mapping)`: token t's key (T, H) goes to slot slot_mapping[t] of key_cache
    (num_blocks, block_size, N, D) or (num_blocks, block_size, H), in place (negative
    slots are skipped); returns `key` (the op's output is shaped and typed as `key`)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, key, value=None, key_cache=None, value_cache=None, slot_mapping=None):
        name = "ReshapeAndCache"
        if key_cache is None or slot_mapping is None:
            raise ValueError(f"For '{name}', 'key_cache' and 'slot_mapping' are required.")
        slots = slot_mapping.asnumpy().astype(np.int64).reshape(-1)
        pairs = [("key", key, key_cache)]
        if value is not None:
            pairs.append(("value", value, value_cache))
        for arg, x, cache in pairs:
            if cache is None:
                raise ValueError(f"For '{name}', '{arg}_cache' is required with '{arg}'.")
            flat = cache.asnumpy().reshape(cache.shape[0] * cache.shape[1], -1)
            rows = x.asnumpy().reshape(x.shape[0] if x.ndim == 2 else -1, flat.shape[1])
            if rows.shape[0] != slots.size:
                raise ValueError(f"For '{name}', 'slot_mapping' must hold one slot per token "
                                 f"of '{arg}' ({rows.shape[0]}), but got {slots.size}.")
            if (slots >= flat.shape[0]).any():
                raise ValueError(f"For '{name}', 'slot_mapping' must be below num_blocks * "
                                 f"block_size = {flat.shape[0]}, but got {slots.max()}.")
            used = slots >= 0
            flat[slots[used]] = rows[used].astype(flat.dtype)
            cache.assign_value(ops.Tensor(flat.reshape(cache.shape), cache.dtype))
        return key


def _gather_blocks(cache, table, length):
    """One sequence's first `length` cached rows (length, N, D) from its block table row."""
    block_size = cache.shape[1]
    blocks = table[: -(-length // block_size)]
    rows = cache[blocks].reshape((-1,) + cache.shape[2:])
    return rows[:length]


def _paged(name, query, key_cache, value_cache, block_tables, context_lens, mask, head_num,
           scale, kv_head_num):
    for arg, t in (("query", query), ("key_cache", key_cache), ("block_tables", block_tables),
                   ("context_lens", context_lens)):
        _check_tensor(name, arg, t)
    if value_cache is None:
        value_cache = key_cache
    q = query.asnumpy().astype(np.float64)
    tokens = q.shape[0]
    q = q.reshape(tokens, head_num, -1)
    kc = key_cache.asnumpy().astype(np.float64)
    vc = value_cache.asnumpy().astype(np.float64)
    kc = kc.reshape(kc.shape[:2] + (kv_head_num, -1))
    vc = vc.reshape(vc.shape[:2] + (kv_head_num, -1))
    table = block_tables.asnumpy().astype(np.int64)
    lens = context_lens.asnumpy().astype(np.int64).reshape(-1)
    if lens.size != tokens or table.shape[0] != tokens:
        raise ValueError(f"For '{name}', 'block_tables' and 'context_lens' must have one row "
                         f"per query token ({tokens}), but got {table.shape} and {lens.shape}.")
    if head_num % kv_head_num:
        raise ValueError(f"For '{name}', 'kv_head_num' {kv_head_num} must divide 'head_num' "
                         f"{head_num}.")
    group = head_num // kv_head_num
    extra = None if mask is None else mask.asnumpy().astype(np.float64)
    out = np.empty(q.shape[:2] + (vc.shape[-1],))
    for t in range(tokens):
        keys = np.repeat(_gather_blocks(kc, table[t], lens[t]), group, axis=1)
        values = np.repeat(_gather_blocks(vc, table[t], lens[t]), group, axis=1)
        scores = np.einsum("nd,snd->ns", q[t], keys) * scale
        if extra is not None:
            scores = scores + extra[t].reshape(-1, extra.shape[-1])[..., :lens[t]]
        scores -= scores.max(axis=-1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=-1, keepdims=True)
        out[t] = np.einsum("ns,snd->nd", p, values)
    return ops.Tensor(out.reshape(query.shape[:-1] + (-1,)).astype(query.asnumpy().dtype),
                      query.dtype)


class PagedAttention(Primitive):
    """Mirrors `mindspore.ops.PagedAttention(head_num, scale_value, kv_head_num)(query,
    key_cache, value_cache, block_tables, context_lens, ...)`: decode attention of each token
    (T, head_num * D) over its first context_lens[t] cached keys, found through its row of
    block_tables in key_cache / value_cache (num_blocks, block_size, kv_head_num * D)."""

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT',
                 mask_mode='MASK_DEFAULT', mla_v_dim=0):
        pass

    def __call__(self, query, key_cache, value_cache=None, block_tables=None, context_lens=None,
                 antiquant_scale=None, antiquant_offset=None, attn_mask=None, q_seq_lens=None,
                 alibi_mask=None):
        _refuse("PagedAttention", antiquant_scale=antiquant_scale,
                antiquant_offset=antiquant_offset, q_seq_lens=q_seq_lens)
        masks = [m for m in (attn_mask, alibi_mask) if m is not None]
        mask = None if not masks else masks[0] if len(masks) == 1 else \
            ops.cast(masks[0], float32) + ops.cast(masks[1], float32)
        return _paged("PagedAttention", query, key_cache, value_cache, block_tables,
                      context_lens, mask, self.head_num, self.scale_value, self.kv_head_num)


class PagedAttentionMask(Primitive):
    """Mirrors `mindspore.ops.PagedAttentionMask(head_num, scale_value, kv_head_num)(query,
    key_cache, value_cache, block_tables, context_lens, antiquant_scale, antiquant_offset,
    alibi_mask)`: `PagedAttention` with an additive (T, head_num, 1, max_context) mask."""

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT'):
        pass

    def __call__(self, query, key_cache, value_cache, block_tables, context_lens,
                 antiquant_scale=None, antiquant_offset=None, alibi_mask=None):
        _refuse("PagedAttentionMask", antiquant_scale=antiquant_scale,
                antiquant_offset=antiquant_offset)
        return _paged("PagedAttentionMask", query, key_cache, value_cache, block_tables,
                      context_lens, alibi_mask, self.head_num, self.scale_value,
                      self.kv_head_num)


# ---- ring attention -----------------------------------------------------------------------

def ring_attention_update(prev_attn_out, prev_softmax_max, prev_softmax_sum, cur_attn_out,
                          cur_softmax_max, cur_softmax_sum, actual_seq_qlen=None, layout='SBH'):
    """Mirrors `mindspore.ops.ring_attention_update`: merges two partial attention results
    by their softmax statistics ((B, N, S, 8) for SBH, (T, N, 8) for TND): returns
    (attn_out, softmax_max, softmax_sum)."""
    name = "ring_attention_update"
    if layout not in ("SBH", "TND"):
        raise ValueError(f"For '{name}', 'layout' must be 'SBH' or 'TND', but got {layout}.")
    if layout == "TND":
        if actual_seq_qlen is None:
            raise RuntimeError(f"For '{name}', 'actual_seq_qlen' is required with layout TND.")
        cum = np.asarray(actual_seq_qlen.asnumpy() if isinstance(actual_seq_qlen, ops.Tensor)
                         else actual_seq_qlen).reshape(-1)
        if cum.size == 0 or cum[0] != 0 or cum[-1] != prev_attn_out.shape[0] or \
                (np.diff(cum) < 0).any():
            raise RuntimeError(f"For '{name}', 'actual_seq_qlen' must be non-decreasing from 0 "
                               f"to T = {prev_attn_out.shape[0]}, but got {cum.tolist()}.")
    m1, m2 = prev_softmax_max, cur_softmax_max
    top = ops.maximum(m1, m2)
    w1 = ops.exp(m1 - top) * prev_softmax_sum
    w2 = ops.exp(m2 - top) * cur_softmax_sum
    total = w1 + w2

    def weight(w):
        w = (w / total)[..., :1]
        if layout == "TND":
            return w
        s, b, h = prev_attn_out.shape
        n = w.shape[1]
        w = ops.transpose(w, (2, 0, 1, 3))
        return ops.reshape(ops.repeat_interleave(w, h // n, 3), (s, b, h))

    dtype = prev_attn_out.dtype
    out = ops.cast(prev_attn_out, float32) * weight(w1) + \
        ops.cast(cur_attn_out, float32) * weight(w2)
    return ops.cast(out, dtype), top, total
