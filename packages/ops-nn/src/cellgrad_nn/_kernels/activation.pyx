"""Activation backward passes in one pass over memory.

`where(out > 0, g, 0)` in numpy is two passes and a boolean temporary (the compare, then the
select); `relu_grad` reads each output and gradient once and writes the result once.
"""

import numpy as np

from cython cimport floating


cdef void _relu_grad(const floating[::1] out, const floating[::1] g,
                     floating[::1] res) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(out.shape[0]):
        # a select, not a product: an inf/nan gradient where the unit is off gives 0
        res[i] = g[i] if out[i] > 0 else 0


def relu_grad(out, g):
    """`where(out > 0, g, 0)` as a new array, or None when the arrays are not both
    C-contiguous float32 or float64 arrays of one shape (the caller then uses numpy)."""
    code = out.dtype.char
    if (code != "f" and code != "d") or g.dtype.char != code or out.shape != g.shape or \
            not out.flags.c_contiguous or not g.flags.c_contiguous:
        return None
    res = np.empty(out.shape, out.dtype)
    cdef const float[::1] of, gf
    cdef float[::1] rf
    cdef const double[::1] od, gd
    cdef double[::1] rd
    if code == "f":
        of, gf, rf = out.reshape(-1), g.reshape(-1), res.reshape(-1)
        with nogil:
            _relu_grad(of, gf, rf)
    else:
        od, gd, rd = out.reshape(-1), g.reshape(-1), res.reshape(-1)
        with nogil:
            _relu_grad(od, gd, rd)
    return res
