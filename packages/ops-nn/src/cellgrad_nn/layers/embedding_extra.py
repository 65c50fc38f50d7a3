"""`nn.MultiFieldEmbeddingLookup` and the `nn.layer.CosineSimilarity` cell."""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.nn import Cell
from cellgrad_nn.layers.embedding import EmbeddingLookup

_LOWEST = float(np.finfo(np.float32).min)


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Mirrors `mindspore.nn.MultiFieldEmbeddingLookup`: each id's embedding times its value,
    merged per (sample, field) by 'SUM', 'MEAN' or 'MAX' (fields without entries give zeros);
    output (batch, field_size, embedding_size)."""

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal",
                 target="CPU", slice_mode="batch_slice", feature_num_list=None, max_norm=None,
                 sparse=True, operator="SUM", dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype)
        if isinstance(field_size, bool) or not isinstance(field_size, int) or field_size <= 0:
            raise ValueError(f"For 'MultiFieldEmbeddingLookup', the 'field_size' must be a "
                             f"positive int, but got {field_size!r}.")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For 'MultiFieldEmbeddingLookup', the 'operator' must be one of "
                             f"['SUM', 'MAX', 'MEAN'], but got '{operator}'.")
        self.field_size, self.operator = field_size, operator

    def construct(self, input_indices, input_values, field_ids):
        name = "MultiFieldEmbeddingLookup"
        for arg, x, kinds in (("input_indices", input_indices, "iu"),
                              ("input_values", input_values, "f"),
                              ("field_ids", field_ids, "iu")):
            if not isinstance(x, Tensor) or x.ndim != 2:
                raise ValueError(f"For '{name}', the dimension of '{arg}' must be 2, but got "
                                 f"{getattr(x, 'ndim', type(x).__name__)}.")
            if x.asnumpy().dtype.kind not in kinds:
                raise TypeError(f"For '{name}', the dtype of '{arg}' is not supported: got "
                                f"{x.dtype}.")
        batch, width = input_indices.shape
        segments = batch * self.field_size
        fields = field_ids.asnumpy().astype(np.int64)
        if fields.size and (fields.min() < 0 or fields.max() >= self.field_size):
            raise ValueError(f"For '{name}', every value of 'field_ids' must be in [0, "
                             f"{self.field_size}), but got values in [{fields.min()}, "
                             f"{fields.max()}].")
        segment_ids = Tensor((fields + np.arange(batch)[:, None] * self.field_size).reshape(-1)
                             .astype(np.int32))
        out = super().construct(input_indices)
        weights = input_values.reshape(batch, width, 1)
        embedding = (weights * out).reshape(-1, self.embedding_size)
        if self.operator == "MAX":
            padded = ops.cast(ops.equal(weights, 0), mstype.float32).reshape(-1, 1) * _LOWEST
            merged = ops.unsorted_segment_max(embedding + padded, segment_ids, segments)
            count = ops.unsorted_segment_sum(ops.abs(input_values.reshape(-1)), segment_ids,
                                             segments)
            merged = merged * ops.cast(count != 0, mstype.float32).reshape(-1, 1)
        else:
            merged = ops.unsorted_segment_sum(embedding, segment_ids, segments)
            if self.operator == "MEAN":
                count = ops.unsorted_segment_sum(ops.abs(input_values.reshape(-1)), segment_ids,
                                                 segments).reshape(-1, 1)
                merged = ops.where(count == 0, ops.zeros_like(merged),
                                   merged / ops.where(count == 0, ops.ones_like(count), count))
        return merged.reshape(batch, self.field_size, -1)


class CosineSimilarity(Cell):
    """Mirrors `mindspore.nn.layer.CosineSimilarity`: sum(x1 * x2) / sqrt(max(|x1|^2 |x2|^2,
    eps^2)) along `dim` (0 where that is 0)."""

    def __init__(self, dim=1, eps=1e-08):
        super().__init__()
        self.dim, self.eps = dim, eps

    def construct(self, x1, x2):
        for arg, x in (("x1", x1), ("x2", x2)):
            if not isinstance(x, Tensor):
                raise TypeError(f"For 'CosineSimilarity', '{arg}' must be a tensor, but got "
                                f"{type(x)}")
        w12 = (x1 * x2).sum(self.dim)
        w1 = (x1 * x1).sum(self.dim)
        w2 = (x2 * x2).sum(self.dim)
        n12 = ops.sqrt(ops.maximum(w1 * w2, self.eps * self.eps))
        return ops.where(n12 == 0, ops.zeros_like(w12), w12 / n12)
