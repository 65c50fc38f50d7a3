"""`nn.Embedding`, `nn.EmbeddingLookup` and `nn.ClipByNorm`."""

import numpy as np

from cellgrad import Parameter, ops
from cellgrad.common.initializer import initializer
from cellgrad.dtype import float32
from cellgrad.nn import Cell
from cellgrad_nn.functional.encoding import embedding
from cellgrad_nn.layers import _checks


class Embedding(Cell):
    """Mirrors `mindspore.nn.Embedding`: rows of `embedding_table` at integer ids."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=float32, padding_idx=None):
        super().__init__()
        self.vocab_size = _checks.positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = _checks.positive_int("Embedding", "embedding_size", embedding_size)
        if padding_idx is not None and (isinstance(padding_idx, bool)
                                        or not isinstance(padding_idx, int)
                                        or not 0 <= padding_idx < vocab_size):
            raise ValueError(f"For 'Embedding', 'padding_idx' must be an int in [0, "
                             f"{vocab_size}), but got {padding_idx!r}.")
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        self.padding_idx = padding_idx
        table = initializer(embedding_table, [vocab_size, embedding_size])
        if padding_idx is not None:
            table.asnumpy()[padding_idx] = 0
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        return embedding(ids, self.embedding_table, self.padding_idx)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Mirrors `mindspore.nn.EmbeddingLookup`: rows of `embedding_table` at integer ids, ids
    outside [0, vocab_size) giving zeros, as MindSpore's lookup does. `target`, `slice_mode`
    and `manual_shapes` place the table on devices and hosts in MindSpore; here the table is
    one array on the CPU and they are recorded only."""

    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 dtype=float32):
        super().__init__()
        self.vocab_size = _checks.positive_int("EmbeddingLookup", "vocab_size", vocab_size)
        self.embedding_size = _checks.positive_int("EmbeddingLookup", "embedding_size",
                                                   embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For 'EmbeddingLookup', the 'target' must be 'CPU' or 'DEVICE', "
                             f"but got {target!r}.")
        if max_norm is not None and (isinstance(max_norm, bool)
                                     or not isinstance(max_norm, (int, float)) or max_norm <= 0):
            raise ValueError(f"For 'EmbeddingLookup', the 'max_norm' must be a positive number, "
                             f"but got {max_norm!r}.")
        self.target, self.slice_mode, self.manual_shapes = target, slice_mode, manual_shapes
        self.max_norm, self.sparse = max_norm, sparse
        self.embedding_table = Parameter(initializer(param_init, [vocab_size, embedding_size],
                                                     dtype), name="embedding_table")

    def construct(self, indices):
        from cellgrad.ops import functional as F

        ids = F.cast(indices, "int32")
        valid = F.logical_and(ids >= 0, ids < self.vocab_size)
        rows = F.gather(self.embedding_table, F.where(valid, ids, 0), 0)
        out = rows * F.cast(F.expand_dims(valid, -1), rows.dtype)
        if self.max_norm is not None:
            norm = F.sqrt(F.sum(F.square(out), -1, keepdim=True))
            out = out * F.clamp(self.max_norm / F.clamp(norm, 1e-12, None), None, 1.0)
        return out


class ClipByNorm(Cell):
    """Mirrors `mindspore.nn.ClipByNorm`: x * clip_norm / max(l2norm(x, axis), clip_norm)."""

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None and not isinstance(axis, (int, tuple, list)):
            raise TypeError(f"For 'ClipByNorm', 'axis' must be None, an int or a tuple, but got "
                            f"{axis!r}.")
        self.axis = tuple(axis) if isinstance(axis, list) else axis

    def construct(self, x, clip_norm):
        norm = ops.sqrt((x * x).sum(axis=self.axis, keepdims=True))
        clip = clip_norm if not isinstance(clip_norm, (int, float)) \
            else np.float32(clip_norm).item()
        return x * clip / ops.maximum(norm, clip)
