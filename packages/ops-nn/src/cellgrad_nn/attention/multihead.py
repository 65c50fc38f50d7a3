"""`nn.MultiheadAttention` and the functional form it runs (MindSpore's
`ops.function.nn_func.multi_head_attention_forward`, PyTorch's semantics).

Masks: `attn_mask` 2-D (L, S) or 3-D (batch*heads, L, S), `key_padding_mask` (batch, S);
bool (or uint8) True means "do not attend", float masks are added to the scores.
"""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common.initializer import (
    HeUniform,
    Uniform,
    XavierNormal,
    XavierUniform,
    initializer,
)
from cellgrad.common.tensor import Tensor
from cellgrad.dtype import bool_, float32, uint8
from cellgrad.nn import Cell
from cellgrad.parameter import Parameter
from cellgrad_nn.attention.kernel import attention, packed_self_attention
from cellgrad_nn.functional.linear import dense
from cellgrad_nn.layers.linear import Dense

__all__ = ["MultiheadAttention", "multi_head_attention_forward"]


def _is_float(t):
    return np.issubdtype(t.asnumpy().dtype, np.floating) if isinstance(t, Tensor) else False


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads):
    q, k, v = query.ndim, key.ndim, value.ndim
    if q == 3:
        if k != 3 or v != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, "
                             f"but got `key` with {k}D and `value` with {v}D.")
    elif q == 2:
        if k != 2 or v != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, "
                             f"but got `key` with {k}D and `value` with {v}D.")
    else:
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got "
                         f"`query` with {q}D.")
    if key_padding_mask is not None:
        want = 2 if q == 3 else 1
        if key_padding_mask.ndim != want:
            raise ValueError(f"For {'batched' if q == 3 else 'unbatched'} `query`, the "
                             f"`key_padding_mask` must be `None` or {want}D, but got "
                             f"`key_padding_mask` with {key_padding_mask.ndim}D.")
        if key_padding_mask.dtype != bool_ and not _is_float(key_padding_mask):
            raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if attn_mask is not None and attn_mask.ndim not in (2, 3):
        raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got "
                         f"{attn_mask.ndim}.")
    return q == 3


def _additive(mask, dtype):
    """A mask as numbers added to the scores: bool/uint8 True -> -inf; floats kept (a Tensor,
    so a float mask stays on the tape)."""
    if mask.dtype == uint8 or mask.dtype == bool_:
        m = mask.asnumpy().astype(bool)
        return Tensor(np.where(m, -np.inf, 0.0).astype(dtype))
    if not _is_float(mask):
        raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not "
                         f"{mask.dtype}.")
    return mask


def _pad_last(mask, dtype):
    """One more key position, never masked (bias_k/bias_v, add_zero_attn)."""
    pad_shape = mask.shape[:-1] + (1,)
    return ops.cat([mask, Tensor(np.zeros(pad_shape, dtype))], axis=-1)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False,
                                 k_is_v=False, q_is_k=False, dtype=float32, need_weights=True,
                                 batch_first=False):
    """Mirrors MindSpore's `multi_head_attention_forward` (sequence-first inputs; batch-first
    with `batch_first`, cellgrad's addition for nn.MultiheadAttention)."""
    batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if batched and q_is_k and k_is_v and not use_separate_proj_weight and bias_k is None \
            and bias_v is None and not add_zero_attn and static_k is None and static_v is None \
            and in_proj_weight is not None:
        return _self_attention(query, embed_dim_to_check, num_heads, in_proj_weight,
                               in_proj_bias, dropout_p, out_proj_weight, out_proj_bias, training,
                               key_padding_mask, attn_mask, average_attn_weights, is_causal,
                               need_weights, batch_first)
    if batch_first and batched:
        query, key, value = (ops.swapaxes(t, 1, 0) for t in (query, key, value))
        out, weights = multi_head_attention_forward(
            query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
            bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training,
            key_padding_mask, attn_mask, use_separate_proj_weight, q_proj_weight, k_proj_weight,
            v_proj_weight, static_k, static_v, average_attn_weights, is_causal, k_is_v, q_is_k,
            dtype, need_weights)
        return ops.swapaxes(out, 1, 0), weights
    if not batched:
        query, key, value = (ops.expand_dims(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = ops.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` "
                         f"{num_heads}.")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise ValueError(f"The sequence length and batch dims of `key`: {key.shape[:2]} do "
                             f"not match `value`: {value.shape[:2]}.")
    elif key.shape != value.shape:
        raise ValueError(f"The shape of `key` {key.shape} does not match `value` {value.shape}.")
    np_dtype = query.asnumpy().dtype

    q, k, v = _project(query, key, value, embed_dim, in_proj_weight, in_proj_bias,
                       use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight,
                       k_is_v, q_is_k)

    mask = _attn_mask(attn_mask, np_dtype, tgt_len, src_len, bsz, num_heads)
    kpm = None if key_padding_mask is None else _additive(key_padding_mask, np_dtype)

    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise ValueError("The bias_k cannot be added to static_k.")
        k = ops.cat([k, ops.tile(bias_k, (1, bsz, 1))])
        v = ops.cat([v, ops.tile(bias_v, (1, bsz, 1))])
        mask = None if mask is None else _pad_last(mask, np_dtype)
        kpm = None if kpm is None else _pad_last(kpm, np_dtype)
    elif bias_k is not None or bias_v is not None:
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")

    q = ops.transpose(ops.reshape(q, (tgt_len, bsz, num_heads, head_dim)), (1, 2, 0, 3))
    k = _heads(k, static_k, bsz, num_heads, head_dim, "static_k")
    v = _heads(v, static_v, bsz, num_heads, head_dim, "static_v")
    if add_zero_attn:
        zeros = Tensor(np.zeros((bsz, num_heads, 1, head_dim), np_dtype))
        k = ops.cat([k, zeros], axis=2)
        v = ops.cat([v, zeros], axis=2)
        mask = None if mask is None else _pad_last(mask, np_dtype)
        kpm = None if kpm is None else _pad_last(kpm, np_dtype)
    mask = _with_padding(mask, kpm, is_causal, np_dtype, tgt_len, k.shape[2], bsz)
    got = attention(q, k, v, mask, scale=1.0 / math.sqrt(head_dim), dropout_p=dropout_p,
                    training=training, need_weights=need_weights)
    out, weights = got if need_weights else (got, None)
    out = ops.reshape(ops.transpose(out, (2, 0, 1, 3)), (tgt_len * bsz, embed_dim))
    out = ops.reshape(dense(out, out_proj_weight, out_proj_bias), (tgt_len, bsz, -1))
    if weights is not None and average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not batched:
        out = ops.squeeze(out, 1)
        weights = None if weights is None else ops.squeeze(weights, 0)
    return out, weights


def _attn_mask(attn_mask, np_dtype, tgt_len, src_len, bsz, num_heads):
    """`attn_mask` as an additive (1 or N, 1 or H, L, S) Tensor, or None."""
    if attn_mask is None:
        return None
    mask = _additive(attn_mask, np_dtype)
    if mask.ndim == 2:
        if mask.shape != (tgt_len, src_len):
            raise ValueError(f"The shape of the `attn_mask` should be {(tgt_len, src_len)}, "
                             f"but got {mask.shape}.")
        return ops.reshape(mask, (1, 1, tgt_len, src_len))
    if mask.shape != (bsz * num_heads, tgt_len, src_len):
        raise ValueError(f"The shape of the `attn_mask` should be "
                         f"{(bsz * num_heads, tgt_len, src_len)}, but got {mask.shape}.")
    return ops.reshape(mask, (bsz, num_heads, tgt_len, src_len))


def _with_padding(mask, kpm, is_causal, np_dtype, tgt_len, src_len, bsz):
    """The attention mask with the (additive) key padding mask added, or the causal mask."""
    if kpm is not None:
        if kpm.shape != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but "
                             f"got {kpm.shape}.")
        kpm = ops.reshape(kpm, (bsz, 1, 1, src_len))
        mask = kpm if mask is None else mask + kpm
    if is_causal and mask is None:
        causal = np.triu(np.full((tgt_len, src_len), -np.inf, np_dtype), 1)
        mask = Tensor(causal.reshape(1, 1, tgt_len, src_len))
    return mask


def _self_attention(x, embed_dim, num_heads, w, b, dropout_p, out_w, out_b, training,
                    key_padding_mask, attn_mask, average_attn_weights, is_causal, need_weights,
                    batch_first):
    """Self-attention of a batched `x` (N, L, E) or (L, N, E): one GEMM for q, k, v, the
    packed attention op on it, the output projection; nothing transposed or copied."""
    n, length, e = x.shape if batch_first else (x.shape[1], x.shape[0], x.shape[2])
    if e != embed_dim:
        raise ValueError(f"The `embed_dim` should be {embed_dim}, but got {e}.")
    if e % num_heads:
        raise ValueError(f"The `embed_dim` {e} can not be divisible by `num_heads` "
                         f"{num_heads}.")
    np_dtype = x.asnumpy().dtype
    mask = _attn_mask(attn_mask, np_dtype, length, length, n, num_heads)
    kpm = None if key_padding_mask is None else _additive(key_padding_mask, np_dtype)
    mask = _with_padding(mask, kpm, is_causal, np_dtype, length, length, n)
    got = packed_self_attention(dense(x, w, b), mask, heads=num_heads,
                                scale=1.0 / math.sqrt(e // num_heads), batch_first=batch_first,
                                dropout_p=dropout_p, training=training,
                                need_weights=need_weights)
    out, weights = got if need_weights else (got, None)
    out = dense(out, out_w, out_b)
    if weights is not None and average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    return out, weights


def _project(query, key, value, e, w, b, separate, wq, wk, wv, k_is_v, q_is_k):
    if separate:
        if wq is None or wk is None or wv is None:
            raise ValueError("`use_separate_proj_weight` is ``True`` but a projection weight "
                             "got ``None``.")
        bq = bk = bv = None if b is None else b
        if b is not None:
            bq, bk, bv = b[:e], b[e:2 * e], b[2 * e:]
        return dense(query, wq, bq), dense(key, wk, bk), dense(value, wv, bv)
    if w is None:
        raise ValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` got "
                         "``None``.")
    if k_is_v and q_is_k:  # self-attention: one GEMM
        qkv = dense(query, w, b)
        return qkv[..., :e], qkv[..., e:2 * e], qkv[..., 2 * e:]
    bias = (None, None, None) if b is None else (b[:e], b[e:2 * e], b[2 * e:])
    return (dense(query, w[:e], bias[0]), dense(key, w[e:2 * e], bias[1]),
            dense(value, w[2 * e:], bias[2]))


def _heads(x, static, bsz, num_heads, head_dim, name):
    """(S, N, E) -> (N, H, S, D), or a given (N*H, S, D) `static_k`/`static_v`."""
    if static is None:
        return ops.transpose(ops.reshape(x, (x.shape[0], bsz, num_heads, head_dim)),
                             (1, 2, 0, 3))
    if static.shape[0] != bsz * num_heads or static.shape[2] != head_dim:
        raise ValueError(f"The shape of `{name}` should be ({bsz * num_heads}, S, {head_dim}), "
                         f"but got {static.shape}.")
    return ops.reshape(static, (bsz, num_heads, static.shape[1], head_dim))


class MultiheadAttention(Cell):
    """Mirrors `mindspore.nn.MultiheadAttention`."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, dtype=float32):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise ValueError("The init argument 'embed_dim' must be divisible by 'num_heads'.")
        dtype = float32 if dtype is None else dtype
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, embed_dim),
                                                       dtype), "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.kdim),
                                                       dtype), "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(XavierUniform(), (embed_dim, self.vdim),
                                                       dtype), "v_proj_weight")
            self.in_proj_weight = None
        else:
            self.in_proj_weight = Parameter(
                initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype), "in_proj_weight")
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype),
                                      "in_proj_bias") if has_bias else None
        bound = 1 / math.sqrt(embed_dim)
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias,
                              weight_init=HeUniform(math.sqrt(5)), bias_init=Uniform(bound),
                              dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_v")
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self.dtype = dtype

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        if key_padding_mask is not None and key_padding_mask.dtype != bool_ \
                and not _is_float(key_padding_mask):
            raise ValueError("only bool and floating types of key_padding_mask are supported")
        k_is_v, q_is_k = key is value, query is key
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights,
            k_is_v=k_is_v, q_is_k=q_is_k, dtype=self.dtype, need_weights=need_weights,
            batch_first=self.batch_first)
        return (out, weights) if need_weights else (out,)
