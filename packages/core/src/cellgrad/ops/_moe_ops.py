"""Mixture-of-experts routing ops of `mindspore.ops` (Ascend kernels in MindSpore) on the CPU:
moe_token_permute, moe_token_unpermute, moe_init_routing_v2 and the GroupTopk Primitive.

The index bookkeeping is numpy; the token movement is `gather`/`mul`/`sum` on the tape, so the
gradients (to the tokens and the probabilities) are those ops' backward rules. Semantics follow
MindSpore 2.10's documentation and its Ascend tests (tests/st/ops/test_ops_moe_token_*.py,
tests/st/ops/ascend/test_moe_init_routing_v2.py, test_group_topk.py).
"""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import int32
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive

__all__ = ["moe_token_permute", "moe_token_unpermute", "moe_init_routing_v2", "GroupTopk"]


def _ints(arr):
    return make_tensor(np.ascontiguousarray(arr, dtype=np.int32), None, 0, int32)


def _rows(tokens, rows):
    """tokens[rows] on the tape (rows an int64 numpy array)."""
    return F.gather(tokens, rows.astype(np.int64), 0)


def _float_tokens(op, name, x):
    C.tensor(op, name, x)
    if x._data.dtype.kind != "f" and str(x.dtype) != "BFloat16":
        raise TypeError(f"For '{op}', the dtype of '{name}' must be float16, bfloat16 or "
                        f"float32, but got {x.dtype}.")
    return x


def moe_token_permute(tokens, indices, num_out_tokens=None, padded_mode=False):
    """Mirrors `mindspore.ops.moe_token_permute`: the (token, k) pairs stably sorted by expert
    index; returns the tokens in that order and, for each pair, its row in the output."""
    op = "moe_token_permute"
    _float_tokens(op, "tokens", tokens)
    idx = C.indices(op, "indices", indices)
    if num_out_tokens is not None:
        num_out_tokens = C.integer(op, "num_out_tokens", num_out_tokens)
        if num_out_tokens < 0:
            raise ValueError(f"For '{op}', 'num_out_tokens' must be a non-negative integer, "
                             f"but got {num_out_tokens}.")
    if C.boolean(op, "padded_mode", padded_mode):
        raise ValueError(f"For '{op}', 'padded_mode' can only be False, but got True.")
    if tokens.ndim != 2 or idx.ndim not in (1, 2):
        raise ValueError(f"For '{op}', 'tokens' must be 2-D and 'indices' 1-D or 2-D, but got "
                         f"shapes {tuple(tokens.shape)} and {tuple(idx.shape)}.")
    if idx.ndim == 2 and idx.shape[1] > 512:
        raise ValueError(f"For '{op}', the second dim of 'indices' must be <= 512, but got "
                         f"{idx.shape[1]}.")
    if idx.shape[0] != tokens.shape[0]:
        raise RuntimeError(f"For '{op}', the first dims of 'tokens' ({tokens.shape[0]}) and "
                           f"'indices' ({idx.shape[0]}) must be equal.")
    topk = 1 if idx.ndim == 1 else idx.shape[1]
    order = np.argsort(idx.reshape(-1), kind="stable")
    total = order.size
    keep = total if not num_out_tokens else min(num_out_tokens, total)
    where = np.empty(total, np.int64)
    where[order] = np.arange(total)
    return _rows(tokens, order[:keep] // topk), _ints(where)


def moe_token_unpermute(permuted_tokens, sorted_indices, probs=None, padded_mode=False,
                        restore_shape=None):
    """Mirrors `mindspore.ops.moe_token_unpermute`: row j of the flattened (token, k) pairs is
    permuted_tokens[sorted_indices[j]] (zero when that row was dropped), weighted by `probs` and
    summed over k."""
    op = "moe_token_unpermute"
    C.tensor(op, "permuted_tokens", permuted_tokens)
    si = C.indices(op, "sorted_indices", sorted_indices).reshape(-1).astype(np.int64)
    if C.boolean(op, "padded_mode", padded_mode):
        raise ValueError(f"For '{op}', 'padded_mode' is only supported as False, but got True.")
    if permuted_tokens.ndim != 2:
        raise ValueError(f"For '{op}', 'permuted_tokens' must be 2-D, but got shape "
                         f"{tuple(permuted_tokens.shape)}.")
    rows, hidden = permuted_tokens.shape
    topk = 1
    if probs is not None:
        C.tensor(op, "probs", probs)
        topk = probs.shape[-1] if probs.ndim == 2 else 1
        if probs.size != si.size:
            raise ValueError(f"For '{op}', 'probs' must have num_tokens * topk = {si.size} "
                             f"elements, but got shape {tuple(probs.shape)}.")
    if si.size and (si.min() < 0):
        raise ValueError(f"For '{op}', 'sorted_indices' must be non-negative, but got "
                         f"{si.min()}.")
    if si.size % topk:
        raise ValueError(f"For '{op}', the size of 'sorted_indices' ({si.size}) must be a "
                         f"multiple of topk ({topk}).")
    zero = F.zeros((1, hidden), permuted_tokens.dtype)
    padded = F.concat((permuted_tokens, zero), 0)
    flat = _rows(padded, np.minimum(si, rows))  # dropped rows (index >= rows) read the zero row
    if probs is None:
        return flat
    weighted = F.mul(F.reshape(flat, (si.size // topk, topk, hidden)),
                     F.reshape(F.cast(probs, permuted_tokens.dtype), (si.size // topk, topk, 1)))
    return F.reduce_sum(weighted, 1)


def moe_init_routing_v2(x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                        expert_tokens_count_or_cumsum_flag, expert_tokens_before_capacity_flag):
    """Mirrors `mindspore.ops.moe_init_routing_v2`."""
    op = "moe_init_routing_v2"
    _float_tokens(op, "x", x)
    eidx = C.indices(op, "expert_idx", expert_idx)
    active_num = C.integer(op, "active_num", active_num)
    expert_capacity = C.integer(op, "expert_capacity", expert_capacity)
    expert_num = C.integer(op, "expert_num", expert_num)
    drop_pad_mode = C.integer(op, "drop_pad_mode", drop_pad_mode)
    flag = C.integer(op, "expert_tokens_count_or_cumsum_flag", expert_tokens_count_or_cumsum_flag)
    before_flag = C.boolean(op, "expert_tokens_before_capacity_flag",
                            expert_tokens_before_capacity_flag)
    if x.ndim != 2 or eidx.ndim != 2 or eidx.shape[0] != x.shape[0]:
        raise ValueError(f"For '{op}', 'x' must be (NUM_ROWS, H) and 'expert_idx' (NUM_ROWS, K), "
                         f"but got shapes {tuple(x.shape)} and {tuple(eidx.shape)}.")
    for name, v in (("active_num", active_num), ("expert_capacity", expert_capacity),
                    ("expert_num", expert_num)):
        if v < 0:
            raise ValueError(f"For '{op}', '{name}' must be >= 0, but got {v}.")
    if drop_pad_mode not in (0, 1):
        raise ValueError(f"For '{op}', 'drop_pad_mode' must be 0 or 1, but got {drop_pad_mode}.")
    if flag not in (0, 1, 2):
        raise ValueError(f"For '{op}', 'expert_tokens_count_or_cumsum_flag' must be 0, 1 or 2, "
                         f"but got {flag}.")
    n, k = eidx.shape
    flat = eidx.reshape(-1).astype(np.int64)
    needs_range = drop_pad_mode == 1 or flag > 0
    if needs_range:
        if expert_num <= 0:
            raise ValueError(f"For '{op}', 'expert_num' must be > 0 in the Drop/Pad scenario or "
                             f"when 'expert_tokens_count_or_cumsum_flag' > 0, but got "
                             f"{expert_num}.")
        if flat.size and (flat.min() < 0 or flat.max() >= expert_num):
            raise ValueError(f"For '{op}', the values of 'expert_idx' must be in "
                             f"[0, {expert_num - 1}], but got [{flat.min()}, {flat.max()}].")
    elif flat.size and flat.min() < 0:
        raise ValueError(f"For '{op}', the values of 'expert_idx' must be >= 0, but got "
                         f"{flat.min()}.")
    if drop_pad_mode == 1 and not 0 < expert_capacity <= n:
        raise ValueError(f"For '{op}', 'expert_capacity' must be in (0, {n}] in the Drop/Pad "
                         f"scenario, but got {expert_capacity}.")
    order = np.argsort(flat, kind="stable")
    counts = np.bincount(flat, minlength=max(expert_num, 1))[:max(expert_num, 0)]
    if drop_pad_mode == 0:
        where = np.empty(flat.size, np.int64)
        where[order] = np.arange(flat.size)
        keep = flat.size if active_num == 0 else min(active_num, flat.size)
        expanded = _rows(x, order[:keep] // k)
        outs = [expanded, _ints(where)]
        if flag:
            outs.append(_ints(np.cumsum(counts) if flag == 1 else counts))
        return tuple(outs)
    # Drop/Pad: expert e's first `expert_capacity` pairs (in sorted order) fill slots
    # e * capacity + rank; the rest are dropped (-1) and empty slots read a zero row.
    sorted_e = flat[order]
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.arange(flat.size) - starts[sorted_e]
    kept = rank < expert_capacity
    where = np.full(flat.size, -1, np.int64)
    where[order[kept]] = sorted_e[kept] * expert_capacity + rank[kept]
    slots = np.full(expert_num * expert_capacity, n, np.int64)
    slots[where[order[kept]]] = order[kept] // k
    padded = F.concat((x, F.zeros((1, x.shape[1]), x.dtype)), 0)
    expanded = F.reshape(_rows(padded, slots), (expert_num, expert_capacity, x.shape[1]))
    outs = [expanded, _ints(where)]
    if before_flag:
        outs.append(_ints(counts))
    return tuple(outs)


class GroupTopk(Primitive):
    """Mirrors `mindspore.ops.GroupTopk`: per token, the experts are split into `group_num`
    groups scored by the sum of their `k_inner` largest values; all but the `k` best groups are
    set to zero, in place in `token` (returned). `idx_arr` is the Ascend kernel's index table
    (int32) and does not change the result."""

    def __init__(self):
        super().__init__("GroupTopk")

    def __call__(self, token, idx_arr, group_num, k, k_inner=1):
        op = self.name
        _float_tokens(op, "token", token)
        C.indices(op, "idx_arr", idx_arr)
        group_num = C.integer(op, "group_num", group_num)
        k = C.integer(op, "k", k)
        k_inner = C.integer(op, "k_inner", k_inner)
        if token.ndim != 2:
            raise ValueError(f"For '{op}', 'token' must be 2-D, but got shape "
                             f"{tuple(token.shape)}.")
        tokens, experts = token.shape
        if group_num <= 0 or experts % group_num:
            raise ValueError(f"For '{op}', 'group_num' must be a positive divisor of the expert "
                             f"count {experts}, but got {group_num}.")
        size = experts // group_num
        if not 0 < k <= group_num or not 0 < k_inner <= size:
            raise ValueError(f"For '{op}', 'k' must be in (0, {group_num}] and 'k_inner' in "
                             f"(0, {size}], but got k={k}, k_inner={k_inner}.")
        grouped = token._data.reshape(tokens, group_num, size).copy()
        score = np.sort(grouped.astype(np.float32), axis=-1)[..., size - k_inner:].sum(-1)
        ranked = np.argsort(-score, axis=-1, kind="stable")
        drop = np.zeros((tokens, group_num), bool)
        np.put_along_axis(drop, ranked[:, k:], True, axis=-1)
        grouped[drop] = 0
        token._data[...] = grouped.reshape(tokens, experts)
        return token
