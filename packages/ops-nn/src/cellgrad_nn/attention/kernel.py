"""The fused attention ops: softmax(q k^T * scale + mask) v with its backward side by side.

One (batch, heads, L, S) buffer per direction: the forward keeps the probabilities P (the
dropout mask, when training, as booleans) and the backward turns its one buffer from dP into
dS in place. `attention` takes q, k, v as (..., L, D) arrays; `packed_self_attention` takes
self-attention's one projection (N, L, 3E) or (L, N, 3E) as it comes out of its GEMM and
returns (N, L, E) or (L, N, E) for the output projection: the heads are strided views (the
batched products take them as they are), so no transpose is copied and the backward writes
dq, dk, dv straight into one gradient of the projection. Rows of float32/float64 scores go
through `_kernels.softmax` (one call each way). The ops are first order only:
grad of grad through attention is refused clearly.
"""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn._kernels.softmax import softmax_grad, softmax_rows
from cellgrad_nn.functional.dropout import keep_mask


def _softmax(p, scale, mask):
    """Scores `p` (fresh, C-contiguous) -> softmax(p * scale + mask) in place."""
    if p.dtype.char in "fd":
        if mask is not None:
            p *= scale
            p += mask
            scale = 1.0
        softmax_rows(p, scale)
        return
    p *= scale
    if mask is not None:
        p += mask
    p -= p.max(axis=-1, keepdims=True)
    np.exp(p, out=p)
    p /= p.sum(axis=-1, keepdims=True)


def _softmax_grad(ds, p, scale):
    """dP `ds` (C-contiguous) -> dS * scale in place, with P the probabilities."""
    if ds.dtype.char in "fd" and ds.dtype == p.dtype:
        softmax_grad(ds, p, scale)
        return
    ds -= np.einsum("...s,...s->...", ds, p)[..., None]
    ds *= p
    if scale != 1.0:
        ds *= scale


def _dropout(p, keep_prob):
    """(P after dropout, the kept booleans or None)."""
    if keep_prob >= 1.0:
        return p, None
    keep = keep_mask(p.shape, keep_prob)
    return np.where(keep, p * (1.0 / keep_prob), 0.0).astype(p.dtype, copy=False), keep


def _dropped(p, keep, keep_prob):
    return p if keep is None else np.where(keep, p * (1.0 / keep_prob), 0.0).astype(p.dtype)


def _score_grads(g, v, p, keep, keep_prob, g_weights):
    """dP of the (dropped-out) probabilities: the backward's one (..., L, S) buffer."""
    ds = np.matmul(g, np.swapaxes(v, -1, -2))
    if g_weights is not None:
        ds += g_weights
    if keep is not None:
        ds *= keep
        ds *= 1.0 / keep_prob
    return ds


def _attention_fwd(q, k, v, mask, *, scale, keep_prob, need_weights):
    p = np.matmul(q, np.swapaxes(k, -1, -2))
    _softmax(p, scale, mask)
    dropped, keep = _dropout(p, keep_prob)
    out = np.matmul(dropped, v)
    saved = (q, k, v, p, keep, scale, keep_prob, mask is not None)
    return ((out, dropped) if need_weights else out), saved


def _attention_bwd(ctx, g, g_weights=None):
    q, k, v, p, keep, scale, keep_prob, has_mask = ctx.saved
    needs = ctx.needs_input_grad
    dv = np.matmul(np.swapaxes(_dropped(p, keep, keep_prob), -1, -2), g) if needs[2] else None
    ds = _score_grads(g, v, p, keep, keep_prob, g_weights)
    dmask = None
    if has_mask and needs[3]:  # dS itself is the mask's gradient: the scale goes on dq, dk
        _softmax_grad(ds, p, 1.0)
        dmask = ds
        dq = np.matmul(ds, k) * scale if needs[0] else None
        dk = np.matmul(np.swapaxes(ds, -1, -2), q) * scale if needs[1] else None
        return dq, dk, dv, dmask
    _softmax_grad(ds, p, scale)
    dq = np.matmul(ds, k) if needs[0] else None
    dk = np.matmul(np.swapaxes(ds, -1, -2), q) if needs[1] else None
    return dq, dk, dv, dmask


ATTENTION = Op("scaled_dot_product_attention", _attention_fwd, _attention_bwd, PROMOTE_NONE,
               first_order_only=True)


def _heads(a, heads, batch_first, parts=1):
    """(N, L, parts*E) or (L, N, parts*E) -> views (parts, N, H, L, D) (parts=1: (N, H, L, D))."""
    n0, n1, e = a.shape
    a = a.reshape(n0, n1, parts, heads, e // (parts * heads))
    a = a.transpose((2, 0, 3, 1, 4) if batch_first else (2, 1, 3, 0, 4))
    return a[0] if parts == 1 else a


def _packed_fwd(qkv, mask, *, heads, scale, keep_prob, need_weights, batch_first):
    q, k, v = parts = _heads(qkv, heads, batch_first, 3)
    p = np.matmul(q, np.swapaxes(k, -1, -2))
    _softmax(p, scale, mask)
    dropped, keep = _dropout(p, keep_prob)
    out = np.empty(qkv.shape[:2] + (qkv.shape[2] // 3,), qkv.dtype)
    np.matmul(dropped, v, out=_heads(out, heads, batch_first))
    saved = (parts, qkv.shape, p, keep, scale, keep_prob, mask is not None, heads, batch_first)
    return ((out, dropped) if need_weights else out), saved


def _packed_bwd(ctx, g, g_weights=None):
    (q, k, v), shape, p, keep, scale, keep_prob, has_mask, heads, batch_first = ctx.saved
    needs = ctx.needs_input_grad
    gh = _heads(g, heads, batch_first)
    ds = _score_grads(gh, v, p, keep, keep_prob, g_weights)
    dmask = None
    if has_mask and needs[1]:
        _softmax_grad(ds, p, 1.0)
        dmask = ds
        if not needs[0]:
            return None, dmask
    else:
        _softmax_grad(ds, p, scale)
    dqkv = np.empty(shape, ds.dtype)
    dq, dk, dv = _heads(dqkv, heads, batch_first, 3)
    np.matmul(np.swapaxes(_dropped(p, keep, keep_prob), -1, -2), gh, out=dv)
    np.matmul(ds, k, out=dq)
    np.matmul(np.swapaxes(ds, -1, -2), q, out=dk)
    if dmask is not None:
        dqkv[..., :2 * (shape[2] // 3)] *= scale
    return dqkv, dmask


PACKED = Op("packed_self_attention", _packed_fwd, _packed_bwd, PROMOTE_NONE,
            first_order_only=True)
OPS = (ATTENTION, PACKED)


def _keep_prob(dropout_p, training):
    return 1.0 - dropout_p if training and dropout_p > 0 else 1.0


def attention(q, k, v, mask=None, *, scale, dropout_p=0.0, training=True, need_weights=False):
    """softmax(q k^T * scale + mask) v over the last two axes of (..., L, D) Tensors: the output,
    and with `need_weights` the (dropped-out) probabilities too. `mask` is additive (float)."""
    return apply(ATTENTION, (q, k, v, mask),
                 {"scale": float(scale), "keep_prob": _keep_prob(dropout_p, training),
                  "need_weights": need_weights})


def packed_self_attention(qkv, mask=None, *, heads, scale, batch_first, dropout_p=0.0,
                          training=True, need_weights=False):
    """Self-attention of one projection `qkv` (N, L, 3E) if `batch_first` else (L, N, 3E)
    (q, k, v side by side, each `heads` heads): (N, L, E) or (L, N, E), and with
    `need_weights` the (dropped-out) probabilities (N, H, L, L). `mask` is additive (float),
    broadcastable to (N, H, L, L)."""
    return apply(PACKED, (qkv, mask),
                 {"heads": heads, "scale": float(scale), "need_weights": need_weights,
                  "keep_prob": _keep_prob(dropout_p, training), "batch_first": batch_first})
