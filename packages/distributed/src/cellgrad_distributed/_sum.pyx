"""The shared-memory all-reduce's arithmetic in one pass over memory.

Summing a bucket's share over P segments with numpy is an add per segment, a multiply for
the mean and a copy back per segment: 2 + P passes. This loop reads each segment's element
once and writes the result to every segment. The arithmetic is numpy's -- sum in segment
order, then the product with the scale rounded to the dtype -- and the module is built with
-ffp-contract=off, so no FMA fuses them: every process gets the same bits as numpy's.
"""

from cython cimport floating
from libc.stdlib cimport free, malloc

# Two segments, the common case, in C: `restrict` tells the compiler the segments do not
# overlap, which it cannot prove by itself and without which it leaves the loop scalar (kept
# out of line: inlined into a caller, GCC dropped the promise and the vectors with it).
cdef extern from *:
    """
    #if defined(__GNUC__)
    #define CG_NOINLINE __attribute__((noinline))
    #else
    #define CG_NOINLINE
    #endif
    static CG_NOINLINE void cg_sum2_f(float *restrict a, float *restrict b, Py_ssize_t n,
                                      float scale, int scaled) {
        Py_ssize_t i;
        if (scaled) {
            for (i = 0; i < n; i++) { float v = (a[i] + b[i]) * scale; a[i] = v; b[i] = v; }
        } else {
            for (i = 0; i < n; i++) { float v = a[i] + b[i]; a[i] = v; b[i] = v; }
        }
    }
    static CG_NOINLINE void cg_sum2_d(double *restrict a, double *restrict b, Py_ssize_t n,
                                      double scale, int scaled) {
        Py_ssize_t i;
        if (scaled) {
            for (i = 0; i < n; i++) { double v = (a[i] + b[i]) * scale; a[i] = v; b[i] = v; }
        } else {
            for (i = 0; i < n; i++) { double v = a[i] + b[i]; a[i] = v; b[i] = v; }
        }
    }
    """
    void cg_sum2_f(float* a, float* b, Py_ssize_t n, float scale, int scaled) noexcept nogil
    void cg_sum2_d(double* a, double* b, Py_ssize_t n, double scale, int scaled) noexcept nogil


cdef void _sum_all(floating** parts, Py_ssize_t nparts, Py_ssize_t n, floating scale,
                   bint scaled) noexcept nogil:
    cdef Py_ssize_t i, r
    cdef floating v
    if nparts == 2:
        if floating is float:
            cg_sum2_f(parts[0], parts[1], n, scale, scaled)
        else:
            cg_sum2_d(parts[0], parts[1], n, scale, scaled)
        return
    for i in range(n):
        v = parts[0][i] + parts[1][i]
        for r in range(2, nparts):
            v = v + parts[r][i]
        if scaled:
            v = v * scale
        for r in range(nparts):
            parts[r][i] = v


def sum_into_all(list parts, scale=None):
    """Every array of `parts` (two or more 1-D C-contiguous arrays of one float dtype and
    length) becomes their sum in list order, times `scale` unless None."""
    if len(parts) < 2:
        raise ValueError(f"sum_into_all: needs at least 2 arrays, got {len(parts)}")
    first = parts[0]
    code = getattr(getattr(first, "dtype", None), "char", None)
    if code not in ("f", "d"):
        raise TypeError(f"sum_into_all: arrays must be float32 or float64, got "
                        f"{getattr(first, 'dtype', type(first).__name__)}")
    n = first.shape[0] if first.ndim == 1 else -1
    for k, a in enumerate(parts):
        if (a.dtype.char != code or a.ndim != 1 or a.shape[0] != n
                or not a.flags.c_contiguous or not a.flags.writeable):
            raise ValueError(f"sum_into_all: array {k} must be a writeable 1-D C-contiguous "
                             f"{first.dtype} array of length {n}, got shape={a.shape}, "
                             f"dtype={a.dtype}")
    cdef bint scaled = scale is not None
    cdef double s = scale if scaled else 1.0
    if n == 0:
        return
    if code == "f":
        _sum_arrays(parts, <float>s, scaled)
    else:
        _sum_arrays(parts, s, scaled)


cdef int _sum_arrays(list parts, floating scale, bint scaled) except -1:
    """`_sum_all` over the checked arrays of `parts` (the dtype `floating`)."""
    cdef Py_ssize_t count = len(parts), k
    cdef floating[::1] view
    cdef floating** pointers = <floating**>malloc(count * sizeof(floating*))
    if pointers == NULL:
        raise MemoryError()
    try:
        for k in range(count):
            view = parts[k]
            pointers[k] = &view[0]
        with nogil:
            _sum_all(pointers, count, view.shape[0], scale, scaled)
    finally:
        free(pointers)
    return 0
