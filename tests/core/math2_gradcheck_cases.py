"""Gradcheck lines of the math2 families (ops/_ew_math2.py, ops/_fn_special.py), as keyword
dicts for `test_ops_gradcheck.Case`: one line per op."""

import numpy as np

import cellgrad as ms
from cellgrad import ops

_A = ms.Tensor(np.array([[1.3, 2.2, 3.5], [0.7, 1.9, 4.1]]))
_S = ms.Tensor(np.array([[2.5, 3.0, 4.5], [2.2, 5.0, 3.3]]))


def _c(op, fn, shapes, low=-2.0, high=2.0, **kw):
    return dict(op=op, fn=fn, shapes=shapes, low=low, high=high, **kw)


MATH2_CASES = [
    _c("tan", ops.tan, [(2, 3)], -1.2, 1.2),
    _c("acosh", ops.acosh, [(2, 3)], 1.2, 3.0),
    _c("asinh", ops.asinh, [(2, 3)]),
    _c("atanh", ops.atanh, [(2, 3)], -0.8, 0.8),
    _c("inv", ops.inv, [(2, 3)], 0.5, 2.0),
    _c("hypot", ops.hypot, [(2, 3), (3,)], 0.3, 2.0),
    _c("logaddexp", ops.logaddexp, [(2, 3), (3,)]),
    _c("logaddexp2", ops.logaddexp2, [(2, 3), (2, 3)]),
    _c("copysign", ops.copysign, [(2, 3), (2, 3)], distinct=True),
    _c("xlogy", ops.xlogy, [(2, 3), (2, 3)], 0.3, 2.0),
    _c("xdivy", ops.xdivy, [(2, 3), (3,)], 0.3, 2.0),
    _c("fmax", ops.fmax, [(2, 3), (2, 3)], distinct=True),
    _c("fmin", ops.fmin, [(2, 3), (2, 3)], distinct=True),
    _c("truncate_mod", ops.truncate_mod, [(2, 3), (3,)], 0.7, 2.0, distinct=False),
    _c("floor_mod", ops.floor_mod, [(2, 3), (3,)], 0.7, 2.0),
    _c("div_no_nan", lambda x, y: ops.DivNoNan()(x, y), [(2, 3), (3,)], 0.5, 2.0),
    _c("mul_no_nan", lambda x, y: ops.MulNoNan()(x, y), [(2, 3), (3,)]),
    _c("squared_difference", lambda x, y: ops.SquaredDifference()(x, y), [(2, 3), (2, 3)]),
    _c("nan_to_num", ops.nan_to_num, [(2, 3)]),
    _c("special_erfc", ops.erfc, [(2, 3)]),
    _c("special_erfinv", ops.erfinv, [(2, 3)], -0.8, 0.8),
    _c("special_lgamma", ops.lgamma, [(2, 3)], 0.3, 4.0),
    _c("special_digamma", ops.digamma, [(2, 3)], 0.3, 4.0),
    _c("special_sinc", ops.sinc, [(2, 3)]),
    _c("special_polygamma", lambda x: ops.polygamma(2, x), [(2, 3)], 0.5, 3.0),
    _c("special_zeta", lambda q: ops.zeta(_S, q), [(2, 3)], 0.5, 3.0),
    _c("special_igamma", lambda a, x: ops.igamma(a, x), [(2, 3), (2, 3)], 0.5, 3.0,
       eps=1e-4),
    _c("special_igammac", lambda x: ops.igammac(_A, x), [(2, 3)], 0.3, 3.0),
    _c("special_betainc", lambda x: ops.Betainc()(_A, _S, x), [(2, 3)], 0.1, 0.9),
    *[_c(f"special_bessel_{n}", getattr(ops, f"bessel_{n}"), [(2, 3)],
         0.2 if n[0] in "ky" else -3.0, 3.0)
      for n in ("j0", "j1", "y0", "y1", "i0", "i1", "i0e", "i1e", "k0", "k1", "k0e", "k1e")],
]
