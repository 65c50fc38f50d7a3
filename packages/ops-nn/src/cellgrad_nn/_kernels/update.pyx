"""Optimizer updates in one pass over memory.

`param -= grad * lr` in numpy is two passes and a temporary as large as the parameter
(multiply, then subtract); this loop reads each gradient and parameter once. The arithmetic
is numpy's -- the product rounded to the parameter's dtype, then the difference -- and the
module is built with -ffp-contract=off so no FMA fuses them: results are bit for bit numpy's.
"""

from cython cimport floating

from cellgrad_nn._kernels._entry cimport real_kind, shape_is


cdef void _descend(floating[::1] param, const floating[::1] grad, floating lr) noexcept nogil:
    cdef Py_ssize_t i
    cdef floating step
    for i in range(param.shape[0]):
        step = grad[i] * lr
        param[i] = param[i] - step


def sgd_step(param, grad, double lr):
    """param -= grad * lr, in place; both C-contiguous arrays of one float dtype and shape
    (lr is rounded to that dtype first, as numpy rounds a float32 scalar)."""
    real_kind("sgd_step", param, (grad,))
    shape_is("sgd_step", "grad", grad, tuple(param.shape))
    cdef float[::1] pf
    cdef const float[::1] gf
    cdef double[::1] pd
    cdef const double[::1] gd
    cdef float lr32 = <float>lr
    if param.dtype.char == "f":
        pf, gf = param.reshape(-1), grad.reshape(-1)
        with nogil:
            _descend(pf, gf, lr32)
    else:
        pd, gd = param.reshape(-1), grad.reshape(-1)
        with nogil:
            _descend(pd, gd, lr)
