# Window arithmetic shared by the convolution and pooling kernels (no numpy, inline only).

from libc.stdlib cimport malloc


cdef inline Py_ssize_t ceil_div(Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """ceil(a / b) for b > 0 and any sign of a (C division truncates toward zero)."""
    if a <= 0:
        return -((-a) // b)
    return (a + b - 1) // b


cdef inline Py_ssize_t clamp(Py_ssize_t v, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)


cdef inline void inside(Py_ssize_t start, Py_ssize_t step, Py_ssize_t size, Py_ssize_t count,
                        Py_ssize_t* lo, Py_ssize_t* hi) noexcept nogil:
    """The taps t in [lo, hi) of `start + t * step` (t < count) that fall in [0, size)."""
    lo[0] = clamp(ceil_div(-start, step), 0, count)
    hi[0] = clamp(ceil_div(size - start, step), lo[0], count)


cdef inline Py_ssize_t* tap_table(Py_ssize_t n_out, Py_ssize_t stride, Py_ssize_t pad,
                                  Py_ssize_t dilation, Py_ssize_t size,
                                  Py_ssize_t taps) noexcept nogil:
    """[lo, hi) of `inside` for each output position along one axis, as 2 * n_out entries
    (malloc'd, NULL when out of memory): the divisions then run once per position."""
    cdef Py_ssize_t o
    cdef Py_ssize_t* table = <Py_ssize_t*>malloc((2 * n_out + 2) * sizeof(Py_ssize_t))
    if table != NULL:
        for o in range(n_out):
            inside(o * stride - pad, dilation, size, taps, &table[2 * o], &table[2 * o + 1])
    return table
