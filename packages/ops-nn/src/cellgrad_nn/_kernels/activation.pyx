"""Activation backward passes in one pass over memory.

`where(out > 0, g, 0)` in numpy is two passes and a boolean temporary (the compare, then the
select); `relu_grad` reads each output and gradient once and writes the result once.
"""

import numpy as np

from libc.stdint cimport uint32_t, uint64_t


# A select, not a product (an inf/nan gradient where the unit is off gives +0, as numpy's
# where): the gradient's bits and-ed with an all-ones or all-zeros mask, branch-free, so the
# compiler vectorises the loop.
cdef void _relu_grad_f(const float* out, const uint32_t* g, uint32_t* res,
                       Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        res[i] = g[i] & (<uint32_t>0 - <uint32_t>(out[i] > 0))


cdef void _relu_grad_d(const double* out, const uint64_t* g, uint64_t* res,
                       Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        res[i] = g[i] & (<uint64_t>0 - <uint64_t>(out[i] > 0))


def relu_grad(out, g):
    """`where(out > 0, g, 0)` as a new array, or None when the arrays are not both
    C-contiguous float32 or float64 arrays of one shape (the caller then uses numpy)."""
    code = out.dtype.char
    if (code != "f" and code != "d") or g.dtype.char != code or out.shape != g.shape or \
            not out.flags.c_contiguous or not g.flags.c_contiguous:
        return None
    res = np.empty(out.shape, out.dtype)
    cdef const float[::1] of
    cdef const uint32_t[::1] gf
    cdef uint32_t[::1] rf
    cdef const double[::1] od
    cdef const uint64_t[::1] gd
    cdef uint64_t[::1] rd
    cdef Py_ssize_t n = out.size
    if n == 0:
        return res
    if code == "f":
        of, gf, rf = out.reshape(-1), g.reshape(-1).view(np.uint32), res.reshape(-1).view(
            np.uint32)
        with nogil:
            _relu_grad_f(&of[0], &gf[0], &rf[0], n)
    else:
        od, gd, rd = out.reshape(-1), g.reshape(-1).view(np.uint64), res.reshape(-1).view(
            np.uint64)
        with nogil:
            _relu_grad_d(&od[0], &gd[0], &rd[0], n)
    return res
