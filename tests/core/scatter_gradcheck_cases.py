"""Gradcheck lines of the scatter/segment ops (ops/_fn_scatter.py), as keyword dicts for
`test_ops_gradcheck.Case`: one line per op (all first-order only, as their rules are numpy)."""

import numpy as np

import cellgrad as ms
from cellgrad import ops

_IDX = ms.Tensor(np.array([[0, 1], [2, 0]], np.int32))  # no repeated place
_SEG = ms.Tensor(np.array([1, 0, 1, 2], np.int32))


def _c(op, fn, shapes, low=-2.0, high=2.0, **kw):
    return dict(op=op, fn=fn, shapes=shapes, low=low, high=high, **kw)


SCATTER_CASES = [
    _c("tensor_scatter", lambda x, u: ops.tensor_scatter_mul(x, _IDX, u), [(3, 2), (2,)]),
    _c("tensor_scatter", lambda x, u: ops.tensor_scatter_div(x, _IDX, u), [(3, 2), (2,)],
       0.5, 2.0, tag="div"),
    _c("tensor_scatter", lambda x, u: ops.tensor_scatter_update(x, _IDX, u), [(3, 2), (2,)],
       tag="update"),
    _c("tensor_scatter_extreme", lambda x, u: ops.tensor_scatter_max(x, _IDX, u),
       [(3, 2), (2,)], distinct=True),
    _c("tensor_scatter_extreme", lambda x, u: ops.tensor_scatter_min(x, _IDX, u),
       [(3, 2), (2,)], distinct=True, tag="min"),
    _c("unsorted_segment_extreme", lambda x: ops.unsorted_segment_max(x, _SEG, 3), [(4, 3)],
       distinct=True),
    _c("unsorted_segment_extreme", lambda x: ops.unsorted_segment_min(x, _SEG, 3), [(4, 3)],
       distinct=True, tag="min"),
    _c("unsorted_segment_prod", lambda x: ops.unsorted_segment_prod(x, _SEG, 3), [(4, 3)]),
]
