"""one_hot and embedding (a row gather whose backward scatter-adds into the table)."""

import numpy as np

from cellgrad._errors import ValueRangeError
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """Mirrors `mindspore.ops.one_hot`: out-of-range indices (e.g. -1) give an all-off row.

    The result has the dtype of `on_value` when it is a Tensor, else Int64 (as MindSpore).
    """
    from cellgrad import Tensor

    op = "one_hot"
    _checks.integer(op, "indices", indices)
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise TypeError(f"For '{op}', 'depth' must be a non-negative int, got {depth!r}.")
    rank = indices.ndim + 1
    axis = _checks.axis(op, axis, rank) if axis != -1 else rank - 1
    on = on_value._data if isinstance(on_value, Tensor) else np.asarray(on_value)
    off = off_value._data if isinstance(off_value, Tensor) else np.asarray(off_value)
    dtype = on.dtype if isinstance(on_value, Tensor) else np.result_type(on, off)
    if dtype.kind == "f" and not isinstance(on_value, Tensor):
        dtype = np.dtype(np.float32)
    hot = np.expand_dims(indices._data, axis) == np.arange(depth).reshape(
        [depth if i == axis else 1 for i in range(rank)])
    return Tensor(np.where(hot, on, off).astype(dtype, copy=False))


def _embedding_fwd(weight, *, ids, padding_idx):
    return weight[ids], (ids, weight.shape, padding_idx)


def _embedding_bwd(ctx, g):
    ids, shape, padding_idx = ctx.saved
    gw = np.zeros(shape, g.dtype)
    np.add.at(gw, ids.reshape(-1), g.reshape(-1, shape[-1]))
    if padding_idx is not None:
        gw[padding_idx] = 0
    return gw


EMBEDDING = Op("embedding", _embedding_fwd, _embedding_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (EMBEDDING,)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Mirrors `mindspore.ops.embedding`: rows of `weight` (num, dim) at integer `input`.

    `padding_idx` rows get no gradient; `max_norm` renormalises the looked-up rows of `weight`
    in place (as MindSpore and PyTorch do); `scale_grad_by_freq` is not supported.
    """
    op = "embedding"
    _checks.integer(op, "input", input)
    _checks.floating(op, "weight", weight)
    if weight.ndim != 2:
        raise ValueError(f"For '{op}', 'weight' must be 2-D (num_embeddings, embedding_dim), "
                         f"got {_checks.describe(weight)}.")
    num = weight.shape[0]
    ids = input._data.astype(np.intp)
    if ids.size and (ids.min() < -num or ids.max() >= num):
        raise ValueRangeError(f"For '{op}', 'input' values must be in [{-num}, {num}) for a weight "
                         f"of {num} rows, got values in [{ids.min()}, {ids.max()}].")
    ids = ids % max(num, 1)
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise ValueError(f"For '{op}', 'padding_idx' must be in [{-num}, {num}), got "
                             f"{padding_idx}.")
        padding_idx %= num
    if scale_grad_by_freq:
        raise NotImplementedError(f"For '{op}', 'scale_grad_by_freq=True' is not supported.")
    if max_norm is not None:
        _renorm_rows(weight._data, np.unique(ids), float(max_norm), float(norm_type))
    return apply(EMBEDDING, (weight,), {"ids": ids, "padding_idx": padding_idx})


def _renorm_rows(table, rows, max_norm, norm_type):
    norms = np.linalg.norm(table[rows], ord=norm_type, axis=1)
    big = norms > max_norm
    if big.any():
        table[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None].astype(table.dtype)
