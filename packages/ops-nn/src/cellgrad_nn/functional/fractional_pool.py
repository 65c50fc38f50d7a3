"""TensorFlow-style fractional pooling primitives of `mindspore.ops`: `FractionalMaxPool` and
`FractionalAvgPool` over (N, H, W, C), returning (output, row_pooling_sequence,
col_pooling_sequence); and `NonMaxSuppressionV3`.

The pooling sequences are drawn as TensorFlow draws them (a shuffled mix of k- and
(k+1)-sized steps, or the pseudo-random alpha sequence), from numpy's generator: MindSpore's
draws cannot be reproduced, the windows they define are used exactly as MindSpore uses them.
Averages are separable (row and column averaging matrices); maxima are gathered at their
argmax, so both differentiate through core ops."""

import math

import numpy as np

from cellgrad import ops
from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional import _checks


def _sequence(rng, n_in, n_out, pseudo_random):
    if pseudo_random:
        alpha = n_in / n_out
        k = n_in // n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        u = rng.random() * max_u
        seq = [0] + [int(math.ceil(alpha * (i + u)) - 1) for i in range(1, n_out)] + [n_in]
        return np.array(seq, np.int64)
    k, extra = divmod(n_in, n_out)
    diff = np.full(n_out, k, np.int64)
    diff[:extra] += 1
    rng.shuffle(diff)
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


class _FractionalPool(Primitive):
    def __init__(self, pooling_ratio, pseudo_random=False, overlapping=False,
                 deterministic=False, seed=0, seed2=0):
        super().__init__(type(self).__name__)
        ratio = tuple(pooling_ratio)
        if len(ratio) != 4 or ratio[0] != 1.0 or ratio[3] != 1.0 or min(ratio[1:3]) < 1.0:
            raise ValueError(f"For '{self.name}', 'pooling_ratio' must be [1.0, row >= 1.0, "
                             f"col >= 1.0, 1.0], but got {pooling_ratio}.")
        self.pooling_ratio, self.pseudo_random, self.overlapping = ratio, pseudo_random, \
            overlapping
        self.deterministic, self.seed, self.seed2 = deterministic, seed, seed2
        self._rng = np.random.default_rng((seed, seed2) if (seed or seed2) else None)

    def _windows(self, x):
        if not isinstance(x, Tensor) or x.ndim != 4 or x.asnumpy().dtype.kind not in "fi":
            raise ValueError(f"For '{self.name}', 'x' must be a 4-D (N, H, W, C) Tensor, but "
                             f"got {_checks.describe(x)}.")
        rows, cols = (int(s // r) for s, r in zip(x.shape[1:3], self.pooling_ratio[1:3]))
        if rows < 1 or cols < 1:
            raise ValueError(f"For '{self.name}', the input {x.shape} is too small for "
                             f"pooling_ratio {self.pooling_ratio}.")
        # deterministic: the same windows at every call (TensorFlow's fixed pooling region)
        rng = np.random.default_rng((self.seed, self.seed2)) if self.deterministic else self._rng
        seqs = [_sequence(rng, n, m, self.pseudo_random)
                for n, m in zip(x.shape[1:3], (rows, cols))]
        extra = 1 if self.overlapping else 0
        spans = [[(s[i], min(s[i + 1] + extra, n)) for i in range(len(s) - 1)]
                 for s, n in zip(seqs, x.shape[1:3])]
        return seqs, spans


class FractionalAvgPool(_FractionalPool):
    """Mirrors `mindspore.ops.FractionalAvgPool`."""

    def __call__(self, x):
        seqs, spans = self._windows(x)
        ints = x.asnumpy().dtype.kind == "i"
        mats = []
        for span, n in zip(spans, x.shape[1:3]):
            w = np.zeros((len(span), n))
            for i, (a, b) in enumerate(span):
                w[i, a:b] = 1 if ints else 1.0 / (b - a)
            mats.append(Tensor(w.astype(x.asnumpy().dtype)))
        # (N, H, W, C): rows then columns
        out = ops.matmul(ops.transpose(x, (0, 3, 2, 1)), mats[0].T)        # N, C, W, rows
        out = ops.matmul(ops.transpose(out, (0, 1, 3, 2)), mats[1].T)      # N, C, rows, cols
        out = ops.transpose(out, (0, 2, 3, 1))
        if ints:  # window sums divided in integers (truncated), as MindSpore's kernel
            sizes = np.outer(*[[b - a for a, b in span] for span in spans])
            a = out.asnumpy()
            out = Tensor(np.trunc(a / sizes[None, :, :, None]).astype(a.dtype))
        return out, Tensor(seqs[0]), Tensor(seqs[1])


def window_argmax(a, row_spans, col_spans):
    """(N, rows, cols, C) flat H*W positions of each window's first maximum in (N, H, W, C)
    `a`; windows are (start, end) row and column spans."""
    n, _, w, c = a.shape
    index = np.empty((n, len(row_spans), len(col_spans), c), np.int64)
    for i, (r0, r1) in enumerate(row_spans):
        for j, (c0, c1) in enumerate(col_spans):
            best = a[:, r0:r1, c0:c1].reshape(n, -1, c).argmax(1)
            rr, cc = np.divmod(best, c1 - c0)
            index[:, i, j] = (rr + r0) * w + cc + c0
    return index


class FractionalMaxPool(_FractionalPool):
    """Mirrors `mindspore.ops.FractionalMaxPool`."""

    def __call__(self, x):
        seqs, (row_spans, col_spans) = self._windows(x)
        n, h, w, c = x.shape
        index = window_argmax(x.asnumpy(), row_spans, col_spans)
        flat = ops.transpose(x, (0, 3, 1, 2)).reshape(n, c, -1)
        picked = ops.gather_elements(flat, 2, Tensor(index.transpose(0, 3, 1, 2).reshape(n, c,
                                                                                        -1)))
        out = picked.reshape(n, c, len(row_spans), len(col_spans))
        return ops.transpose(out, (0, 2, 3, 1)), Tensor(seqs[0]), Tensor(seqs[1])


class NonMaxSuppressionV3(Primitive):
    """Mirrors `mindspore.ops.NonMaxSuppressionV3` (TensorFlow's): indices (Int32) of at most
    `max_output_size` boxes, by descending score, skipping those with IoU above
    `iou_threshold` with one kept and those scoring at most `score_threshold`. Boxes are two
    opposite corners, in any order."""

    def __init__(self):
        super().__init__("NonMaxSuppressionV3")

    def __call__(self, boxes, scores, max_output_size, iou_threshold, score_threshold):
        b = np.asarray(boxes.asnumpy(), np.float64)
        s = np.asarray(scores.asnumpy(), np.float64)
        if b.ndim != 2 or b.shape[1] != 4 or s.shape != (b.shape[0],):
            raise ValueError(f"For 'NonMaxSuppressionV3', 'boxes' must be (num_boxes, 4) and "
                             f"'scores' (num_boxes,), but got {b.shape} and {s.shape}.")
        limit = int(np.asarray(max_output_size.asnumpy() if isinstance(max_output_size, Tensor)
                               else max_output_size))
        iou_t = float(np.asarray(iou_threshold.asnumpy() if isinstance(iou_threshold, Tensor)
                                 else iou_threshold))
        score_t = float(np.asarray(score_threshold.asnumpy()
                                   if isinstance(score_threshold, Tensor) else score_threshold))
        if limit < 0 or not 0 <= iou_t <= 1:
            raise ValueError(f"For 'NonMaxSuppressionV3', 'max_output_size' must be >= 0 and "
                             f"'iou_threshold' in [0, 1], but got {limit} and {iou_t}.")
        lo, hi = np.minimum(b[:, :2], b[:, 2:]), np.maximum(b[:, :2], b[:, 2:])
        area = np.prod(hi - lo, 1)
        keep = []
        for i in sorted(np.flatnonzero(s > score_t), key=lambda k: (-s[k], k)):
            if len(keep) == limit:
                break
            if keep:
                inter = np.prod(np.clip(np.minimum(hi[keep], hi[i]) - np.maximum(lo[keep], lo[i]),
                                        0, None), 1)
                union = area[keep] + area[i] - inter
                iou = np.where(union > 0, inter / np.where(union > 0, union, 1), 0)
                if np.any(iou > iou_t):
                    continue
            keep.append(i)
        return Tensor(np.array(keep, np.int32))
