"""ReLU's backward in one pass over memory, and its forward without a ufunc call's set-up.

`where(out > 0, g, 0)` in numpy is two passes and a boolean temporary (the compare, then the
select); `relu_grad` reads each output and gradient once and writes the result once. `relu`
is `maximum(x, 0)`'s numbers.
"""

from numpy import empty, ndarray

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE, PyBuffer_Release
from libc.stdint cimport uint32_t, uint64_t


cdef extern from "Python.h":
    # without Cython's `except -1`: a refused buffer (not C-contiguous) is an answer here
    int PyObject_GetBuffer(object, Py_buffer*, int)
    void PyErr_Clear()


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
    if type(out) is not ndarray or type(g) is not ndarray:
        return None
    code = out.dtype.char
    if (code != "f" and code != "d") or g.dtype.char != code or out.shape != g.shape:
        return None
    # raw buffers, not typed memoryviews of reshaped views: this runs once per ReLU per step,
    # where a call's set-up was most of its time at small sizes
    cdef Py_buffer ov, gv, rv
    if PyObject_GetBuffer(out, &ov, PyBUF_C_CONTIGUOUS) == -1:
        PyErr_Clear()
        return None
    if PyObject_GetBuffer(g, &gv, PyBUF_C_CONTIGUOUS) == -1:
        PyErr_Clear()
        PyBuffer_Release(&ov)
        return None
    res = empty(out.shape, out.dtype)
    cdef Py_ssize_t n = out.size
    try:
        if n:
            PyObject_GetBuffer(res, &rv, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)
            with nogil:
                if code == "f":
                    _relu_grad_f(<const float*>ov.buf, <const uint32_t*>gv.buf,
                                 <uint32_t*>rv.buf, n)
                else:
                    _relu_grad_d(<const double*>ov.buf, <const uint64_t*>gv.buf,
                                 <uint64_t*>rv.buf, n)
            PyBuffer_Release(&rv)
    finally:
        PyBuffer_Release(&gv)
        PyBuffer_Release(&ov)
    return res


# max(x, 0) as numpy's maximum gives it: NaN kept (with its sign), -0.0 -> +0.0
cdef void _relu_f(const float* x, float* res, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef float v
    for i in range(n):
        v = x[i]
        res[i] = v if (v > 0 or v != v) else 0


cdef void _relu_d(const double* x, double* res, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef double v
    for i in range(n):
        v = x[i]
        res[i] = v if (v > 0 or v != v) else 0


def relu(x):
    """`np.maximum(x, 0)` as a new array, bit for bit, or None when `x` is not a C-contiguous
    float32 or float64 array (the caller then uses numpy). ReLU's forward at every activation
    cell: at small sizes the ufunc call's set-up was most of its time."""
    if type(x) is not ndarray:
        return None
    code = x.dtype.char
    if code != "f" and code != "d":
        return None
    cdef Py_buffer xv, rv
    if PyObject_GetBuffer(x, &xv, PyBUF_C_CONTIGUOUS) == -1:
        PyErr_Clear()
        return None
    res = empty(x.shape, x.dtype)
    cdef Py_ssize_t n = x.size
    try:
        if n:
            PyObject_GetBuffer(res, &rv, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)
            with nogil:
                if code == "f":
                    _relu_f(<const float*>xv.buf, <float*>rv.buf, n)
                else:
                    _relu_d(<const double*>xv.buf, <double*>rv.buf, n)
            PyBuffer_Release(&rv)
    finally:
        PyBuffer_Release(&xv)
    return res
