"""Row passes of the attention softmax over (R, S) scores, in place, a row at a time (in L1).

numpy spends a reduction over a short last axis (max, sum: slow per row) and a broadcast pass
for each step; here the forward is `shift` (scale, row max, subtract: one sweep), numpy's own
vectorised exp, then `normalize` (row sum, divide); the backward's dS = (dP - sum(dP * P)) * P
* scale is one sweep. Row sums run in blocks of 128 in 8 lanes of the input's precision
(numpy's pairwise order within a block), the blocks added in double.
"""

from cellgrad_nn._kernels._entry cimport real_kind, shape_is

cdef extern from *:
    """
    #include <math.h>
    #define CG_SM(T, NAME)                                                                \
    static double NAME##_dot(const T *a, const T *b, Py_ssize_t n) {                      \
        double total = 0;                                                                 \
        for (Py_ssize_t start = 0; start < n; start += 128) {                             \
            Py_ssize_t end = start + 128 < n ? start + 128 : n, i = start;                \
            T r[8] = {0, 0, 0, 0, 0, 0, 0, 0}, tail = 0;                                  \
            if (b) {                                                                      \
                for (; i + 8 <= end; i += 8)                                              \
                    for (int k = 0; k < 8; k++) r[k] += a[i + k] * b[i + k];              \
                for (; i < end; i++) tail += a[i] * b[i];                                 \
            } else {                                                                      \
                for (; i + 8 <= end; i += 8)                                              \
                    for (int k = 0; k < 8; k++) r[k] += a[i + k];                         \
                for (; i < end; i++) tail += a[i];                                        \
            }                                                                             \
            total += (double)(((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))) \
                     + tail;                                                              \
        }                                                                                 \
        return total;                                                                     \
    }                                                                                     \
    /* each row: s = s * scale - max(s * scale) */                                       \
    static void NAME##_shift(T *s, Py_ssize_t rows, Py_ssize_t n, T scale) {              \
        for (Py_ssize_t row = 0; row < rows; row++) {                                     \
            T *p = s + row * n, mx = -INFINITY, v;                                        \
            T m[8] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,                         \
                      -INFINITY, -INFINITY, -INFINITY, -INFINITY};                        \
            Py_ssize_t i = 0;                                                             \
            for (; i + 8 <= n; i += 8)                                                    \
                for (int k = 0; k < 8; k++) {                                             \
                    v = p[i + k] * scale;                                                 \
                    p[i + k] = v;                                                         \
                    m[k] = v > m[k] ? v : m[k];                                           \
                }                                                                         \
            for (int k = 0; k < 8; k++) mx = m[k] > mx ? m[k] : mx;                       \
            for (; i < n; i++) { v = p[i] * scale; p[i] = v; mx = v > mx ? v : mx; }      \
            for (i = 0; i < n; i++) p[i] -= mx;                                           \
        }                                                                                 \
    }                                                                                     \
    /* each row: p = p / sum(p) */                                                        \
    static void NAME##_normalize(T *s, Py_ssize_t rows, Py_ssize_t n) {                   \
        for (Py_ssize_t row = 0; row < rows; row++) {                                     \
            T *p = s + row * n, total = (T)NAME##_dot(p, NULL, n);                        \
            for (Py_ssize_t i = 0; i < n; i++) p[i] /= total;                             \
        }                                                                                 \
    }                                                                                     \
    /* each row: d = (d - sum(d * p)) * p * scale */                                      \
    static void NAME##_grad(T *d, const T *p, Py_ssize_t rows, Py_ssize_t n, T scale) {   \
        for (Py_ssize_t row = 0; row < rows; row++) {                                     \
            T *dr = d + row * n;                                                          \
            const T *pr = p + row * n;                                                    \
            T total = (T)NAME##_dot(dr, pr, n);                                           \
            for (Py_ssize_t i = 0; i < n; i++) dr[i] = ((dr[i] - total) * pr[i]) * scale; \
        }                                                                                 \
    }
    CG_SM(float, cg_smf)
    CG_SM(double, cg_smd)
    """
    void cg_smf_shift(float* s, Py_ssize_t rows, Py_ssize_t n, float scale) nogil
    void cg_smd_shift(double* s, Py_ssize_t rows, Py_ssize_t n, double scale) nogil
    void cg_smf_normalize(float* s, Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_smd_normalize(double* s, Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_smf_grad(float* d, const float* p, Py_ssize_t rows, Py_ssize_t n,
                     float scale) nogil
    void cg_smd_grad(double* d, const double* p, Py_ssize_t rows, Py_ssize_t n,
                     double scale) nogil


cdef tuple _rows(str kernel, object s, tuple others):
    """(R, S) of C-contiguous `s` (any rank: the last axis is S) after checking `others`."""
    real_kind(kernel, s, others)
    for a in (s,) + others:
        if not a.flags.c_contiguous:
            raise ValueError(f"{kernel}: arrays must be C-contiguous, got strides {a.strides}")
    for a in others:
        shape_is(kernel, "array", a, tuple(s.shape))
    n = s.shape[s.ndim - 1] if s.ndim else 1
    return (s.size // n if n else 0), n


def softmax_shift(s, double scale):
    """In place, each row (last axis) of `s`: s * scale - max(s * scale)."""
    rows, n = _rows("softmax_shift", s, ())
    cdef float[::1] f
    cdef double[::1] d
    cdef Py_ssize_t r = rows, c = n
    if not s.size:
        return
    if s.dtype.char == "f":
        f = s.reshape(-1)
        with nogil:
            cg_smf_shift(&f[0], r, c, <float>scale)
    else:
        d = s.reshape(-1)
        with nogil:
            cg_smd_shift(&d[0], r, c, scale)


def softmax_normalize(s):
    """In place, each row (last axis) of `s`: s / sum(s)."""
    rows, n = _rows("softmax_normalize", s, ())
    cdef float[::1] f
    cdef double[::1] d
    cdef Py_ssize_t r = rows, c = n
    if not s.size:
        return
    if s.dtype.char == "f":
        f = s.reshape(-1)
        with nogil:
            cg_smf_normalize(&f[0], r, c)
    else:
        d = s.reshape(-1)
        with nogil:
            cg_smd_normalize(&d[0], r, c)


def softmax_grad(d, p, double scale):
    """In place, each row of `d` (the probabilities' gradient) with `p` the probabilities:
    (d - sum(d * p)) * p * scale, the scores' gradient times `scale`."""
    rows, n = _rows("softmax_grad", d, (p,))
    cdef float[::1] f
    cdef const float[::1] pf
    cdef double[::1] dd
    cdef const double[::1] pd
    cdef Py_ssize_t r = rows, c = n
    if not d.size:
        return
    if d.dtype.char == "f":
        f, pf = d.reshape(-1), p.reshape(-1)
        with nogil:
            cg_smf_grad(&f[0], &pf[0], r, c, <float>scale)
    else:
        dd, pd = d.reshape(-1), p.reshape(-1)
        with nogil:
            cg_smd_grad(&dd[0], &pd[0], r, c, scale)
