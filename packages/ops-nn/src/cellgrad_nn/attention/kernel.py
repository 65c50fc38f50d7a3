"""The fused attention op: softmax(q k^T * scale + mask) v with its backward side by side.

One (batch, heads, L, S) buffer per direction: the forward keeps the probabilities P (the
dropout mask, when training, as booleans) and the backward turns its one buffer from dP into
dS in place. The op is first order only: grad of grad through attention is refused clearly.
"""

import numpy as np

from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional.dropout import keep_mask


def _attention_fwd(q, k, v, mask, *, scale, keep_prob, need_weights):
    p = np.matmul(q, np.swapaxes(k, -1, -2))
    p *= scale
    if mask is not None:
        p += mask
    p -= p.max(axis=-1, keepdims=True)
    np.exp(p, out=p)
    p /= p.sum(axis=-1, keepdims=True)
    keep = None
    dropped = p
    if keep_prob < 1.0:
        keep = keep_mask(p.shape, keep_prob)
        dropped = np.where(keep, p * (1.0 / keep_prob), 0.0).astype(p.dtype, copy=False)
    out = np.matmul(dropped, v)
    saved = (q, k, v, p, keep, scale, keep_prob, mask is not None)
    return ((out, dropped) if need_weights else out), saved


def _attention_bwd(ctx, g, g_weights=None):
    q, k, v, p, keep, scale, keep_prob, has_mask = ctx.saved
    needs = ctx.needs_input_grad
    dropped = p if keep is None else np.where(keep, p * (1.0 / keep_prob), 0.0).astype(p.dtype)
    dv = np.matmul(np.swapaxes(dropped, -1, -2), g) if needs[2] else None
    ds = np.matmul(g, np.swapaxes(v, -1, -2))  # dP (after dropout): the backward's one buffer
    if g_weights is not None:
        ds += g_weights
    if keep is not None:
        ds *= keep
        ds *= 1.0 / keep_prob
    row = np.einsum("...s,...s->...", ds, p)[..., None]
    ds -= row
    ds *= p  # now dS, the gradient of the scores (= of an additive mask)
    dq = np.matmul(ds, k) * scale if needs[0] else None
    dk = np.matmul(np.swapaxes(ds, -1, -2), q) * scale if needs[1] else None
    dmask = ds if has_mask and needs[3] else None
    return dq, dk, dv, dmask


ATTENTION = Op("scaled_dot_product_attention", _attention_fwd, _attention_bwd, PROMOTE_NONE,
               first_order_only=True)
OPS = (ATTENTION,)


def attention(q, k, v, mask=None, *, scale, dropout_p=0.0, training=True, need_weights=False):
    """softmax(q k^T * scale + mask) v over the last two axes of (..., L, D) Tensors: the output,
    and with `need_weights` the (dropped-out) probabilities too. `mask` is additive (float)."""
    keep_prob = 1.0 - dropout_p if training and dropout_p > 0 else 1.0
    return apply(ATTENTION, (q, k, v, mask),
                 {"scale": float(scale), "keep_prob": keep_prob, "need_weights": need_weights})
