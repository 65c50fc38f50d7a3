"""`ops.flash_attention_score` and `ops.operations.nn_ops.FlashAttentionScore` on the CPU: the
fused attention op of `cellgrad_nn.attention.kernel` (softmax(scale * Q K^T + pse, masked) V
with dropout, its backward beside it) behind MindSpore's layouts, masks and sparse modes.

MindSpore's kernel runs on Ascend only; this follows its documented semantics: layouts BSH,
BNSD, SBH and BSND (TND, variable lengths, is refused), grouped key/value heads, `attn_mask`
True/1 = discard, `real_shift` added to the scores, sparse modes 0 (the `pre_tokens` /
`next_tokens` band), 1, 2 (causal from the top left) and 3 (causal from the bottom right).
"""

import numpy as np

from cellgrad import ops
from cellgrad.dtype import bool_, float16, float32, uint8
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.attention.kernel import attention

_INT_MAX = 2147483647
_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND", "TND")


def _to_bnsd(t, layout, heads):
    if layout == "BNSD":
        return t
    if layout == "BSND":
        return ops.transpose(t, (0, 2, 1, 3))
    if layout == "SBH":
        t = ops.transpose(t, (1, 0, 2))
    b, s, h = t.shape
    return ops.transpose(ops.reshape(t, (b, s, heads, h // heads)), (0, 2, 1, 3))


def _from_bnsd(t, layout):
    if layout == "BNSD":
        return t
    t = ops.transpose(t, (0, 2, 1, 3))
    if layout == "BSND":
        return t
    b, s, n, d = t.shape
    t = ops.reshape(t, (b, s, n * d))
    return ops.transpose(t, (1, 0, 2)) if layout == "SBH" else t


def _kv_heads(t, layout, d):
    h = t.shape[-1] if layout in ("BSH", "SBH") else None
    return h // d if h is not None else t.shape[1 if layout == "BNSD" else 2]


def _keep(sparse_mode, s1, s2, pre_tokens, next_tokens):
    """Which (query, key) pairs a sparse mode keeps, or None for all."""
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse_mode == 0:
        if pre_tokens >= _INT_MAX and next_tokens >= _INT_MAX:
            return None
        return (j >= i - pre_tokens) & (j <= i + next_tokens)
    if sparse_mode == 2:
        return j <= i
    if sparse_mode == 3:
        return j <= i + (s2 - s1)
    return None


def _scores_mask(name, attn_mask, real_shift, sparse_mode, s1, s2, pre, nxt, dtype):
    """The additive (B|1, N|1, S1, S2) mask: -inf where discarded, plus `real_shift`."""
    keep = _keep(sparse_mode, s1, s2, pre, nxt)
    if attn_mask is not None and sparse_mode in (0, 1):
        if attn_mask.dtype not in (bool_, uint8):
            raise TypeError(f"For '{name}', the dtype of 'attn_mask' must be bool or uint8, but "
                            f"got {attn_mask.dtype}.")
        given = attn_mask.asnumpy() == 0
        if given.ndim not in (2, 4) or given.shape[-2:] != (s1, s2):
            raise RuntimeError(f"For '{name}', 'attn_mask' must be (B, N1, S1, S2), (B, 1, S1, "
                               f"S2) or (S1, S2) = ({s1}, {s2}), but got {given.shape}.")
        keep = given if keep is None else (given & keep)
    mask = None
    if keep is not None:
        mask = ops.cast(ops.Tensor(np.where(keep, 0.0, -np.inf)), dtype)
    if real_shift is not None:
        shift = ops.cast(real_shift, dtype)
        mask = shift if mask is None else mask + shift
    return mask


def _attention(name, query, key, value, head_num, real_shift, drop_mask, padding_mask,
               attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen, keep_prob, scale,
               pre_tokens, next_tokens, input_layout, sparse_mode, stats):
    if input_layout not in _LAYOUTS:
        raise ValueError(f"For '{name}', 'input_layout' must be one of {list(_LAYOUTS)}, but "
                         f"got {input_layout}.")
    if input_layout == "TND" or actual_seq_qlen is not None or actual_seq_kvlen is not None:
        raise ValueError(f"For '{name}', the variable-length layout TND (actual_seq_qlen / "
                         f"actual_seq_kvlen) is not supported on the CPU: pad the batch to one "
                         f"length and pass 'attn_mask' with layout BSND or BNSD.")
    if sparse_mode not in (0, 1, 2, 3):
        raise RuntimeError(f"For '{name}', sparse_mode {sparse_mode} (band / prefix / "
                           f"compressed masks) is not supported on the CPU: pass the full "
                           f"'attn_mask' with sparse_mode 0 or 1.")
    if drop_mask is not None or prefix is not None or padding_mask is not None:
        raise ValueError(f"For '{name}', 'drop_mask', 'padding_mask' and 'prefix' are not "
                         f"supported on the CPU (cellgrad draws the dropout mask from "
                         f"'keep_prob' itself).")
    if not isinstance(head_num, int) or head_num <= 0:
        raise RuntimeError(f"For '{name}', 'head_num' must be an int greater than 0, but got "
                           f"{head_num}.")
    if query.dtype != key.dtype or key.dtype != value.dtype:
        raise TypeError(f"For '{name}', 'query', 'key' and 'value' must have one dtype, but got "
                        f"{query.dtype}, {key.dtype} and {value.dtype}.")
    dtype = float32 if query.dtype == float16 else query.dtype
    q = _to_bnsd(ops.cast(query, dtype), input_layout, head_num)
    d = q.shape[-1]
    kv_heads = _kv_heads(key, input_layout, d)
    if kv_heads <= 0 or head_num % kv_heads:
        raise RuntimeError(f"For '{name}', 'head_num' {head_num} must be divisible by the key "
                           f"heads N2 = {kv_heads}.")
    k = _to_bnsd(ops.cast(key, dtype), input_layout, kv_heads)
    v = _to_bnsd(ops.cast(value, dtype), input_layout, kv_heads)
    if k.shape[-1] != d or v.shape[-1] != d:
        raise RuntimeError(f"For '{name}', the D axis of 'query', 'key' and 'value' must be the "
                           f"same, but got {d}, {k.shape[-1]} and {v.shape[-1]}.")
    if kv_heads != head_num:
        k = ops.repeat_interleave(k, head_num // kv_heads, 1)
        v = ops.repeat_interleave(v, head_num // kv_heads, 1)
    s1, s2 = q.shape[2], k.shape[2]
    mask = _scores_mask(name, attn_mask, real_shift, sparse_mode, s1, s2, pre_tokens,
                        next_tokens, dtype)
    out = attention(q, k, v, mask, scale=scale, dropout_p=1.0 - keep_prob)
    out = ops.cast(_from_bnsd(out, input_layout), query.dtype)
    if not stats:
        return out
    scores = np.matmul(q.asnumpy(), np.swapaxes(k.asnumpy(), -1, -2)) * scale
    if mask is not None:
        scores = scores + mask.asnumpy()
    top = scores.max(axis=-1, keepdims=True)
    total = np.exp(scores - top).sum(axis=-1, keepdims=True)
    eight = (1,) * (scores.ndim - 1) + (8,)
    return (ops.Tensor(np.tile(top, eight).astype(np.float32)),
            ops.Tensor(np.tile(total, eight).astype(np.float32)),
            ops.zeros((0,), query.dtype), out)


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
                          actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0,
                          pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """Mirrors `mindspore.ops.flash_attention_score`: attention_out, shaped and typed as
    `query` (see the module for what the CPU supports)."""
    return _attention("FlashAttentionScore", query, key, value, head_num, real_shift, drop_mask,
                      padding_mask, attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen,
                      keep_prob, scalar_value, pre_tokens, next_tokens, input_layout,
                      sparse_mode, stats=False)


class FlashAttentionScore(Primitive):
    """Mirrors `mindspore.ops.operations.nn_ops.FlashAttentionScore(head_num, ...)(query, key,
    value, real_shift, drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen,
    actual_seq_kvlen)`: (softmax_max, softmax_sum, softmax_out, attention_out), the first two
    (B, N1, S1, 8) float32 row statistics of the scores, softmax_out empty (reserved in
    MindSpore too)."""

    @prim_attr_register
    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                 next_tokens=2147483647, inner_precise=0, input_layout="BSH", sparse_mode=0):
        if not isinstance(keep_prob, float) or not 0.0 < keep_prob <= 1.0:
            raise ValueError(f"For 'FlashAttentionScore', 'keep_prob' must be a float in "
                             f"(0.0, 1.0], but got {keep_prob}.")

    def __call__(self, query, key, value, real_shift=None, drop_mask=None, padding_mask=None,
                 attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None):
        return _attention("FlashAttentionScore", query, key, value, self.head_num, real_shift,
                          drop_mask, padding_mask, attn_mask, prefix, actual_seq_qlen,
                          actual_seq_kvlen, self.keep_prob, self.scale_value, self.pre_tokens,
                          self.next_tokens, self.input_layout, self.sparse_mode, stats=True)
