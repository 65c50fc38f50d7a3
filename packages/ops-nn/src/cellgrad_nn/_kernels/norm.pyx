"""Batch normalisation over (N, C, S) -- S the spatial positions -- in few passes.

numpy spends about eight passes over the input on the forward (mean, var, subtract, scale,
shift) and as many on the backward; these loops take two (statistics, then normalise) and
two (the two channel sums, then the input gradient). The normalised input is recomputed in
the backward rather than kept. Sums run as numpy's pairwise sum does (blocks of 128 summed
in vector lanes of the input's precision, the blocks added in double); the elementwise
arithmetic keeps numpy's order of operations.
"""

from cython cimport floating

from cellgrad_nn._kernels._entry cimport real_kind, shape_is

cdef extern from *:
    """
    #include <string.h>
    /* Channel sums in blocks of 128, as numpy's pairwise sum: within a block, GCC vector
       lanes in the input's precision (the compiler will not vectorise a serial float sum by
       itself); the blocks add up in double. */
    #define CG_NORM_SUMS(T, V, NAME)                                                       \
    typedef T V __attribute__((vector_size(32)));                                         \
    static inline V NAME##_load(const T *p) { V v; memcpy(&v, p, sizeof v); return v; }  \
    static inline double NAME##_hsum(V v) {                                               \
        double t = 0;                                                                     \
        for (int k = 0; k < (int)(sizeof(V) / sizeof(T)); k++) t += v[k];                \
        return t;                                                                         \
    }                                                                                     \
    /* sum(p[:n] - m) ** (2 if squared else 1) */                                         \
    static double NAME##_sum(const T *p, Py_ssize_t n, T m, int squared) {                \
        const Py_ssize_t L = sizeof(V) / sizeof(T);                                       \
        double total = 0;                                                                 \
        for (Py_ssize_t start = 0; start < n; start += 128) {                             \
            Py_ssize_t end = start + 128 < n ? start + 128 : n, i = start;                \
            V acc = {0};                                                                  \
            T tail = 0, d;                                                                \
            if (squared) {                                                                \
                for (; i + L <= end; i += L) { V v = NAME##_load(p + i) - m; acc += v * v; } \
                for (; i < end; i++) { d = p[i] - m; tail += d * d; }                     \
            } else {                                                                      \
                for (; i + L <= end; i += L) acc += NAME##_load(p + i);                   \
                for (; i < end; i++) tail += p[i];                                        \
            }                                                                             \
            total += NAME##_hsum(acc) + tail;                                             \
        }                                                                                 \
        return total;                                                                     \
    }                                                                                     \
    /* *sg += sum(g), *sgx += sum(g * xhat), xhat = (x - m) * inv as the forward made it */ \
    static void NAME##_grad_sums(const T *g, const T *x, Py_ssize_t n, T m, T inv,        \
                                 double *sg, double *sgx) {                               \
        const Py_ssize_t L = sizeof(V) / sizeof(T);                                       \
        for (Py_ssize_t start = 0; start < n; start += 128) {                             \
            Py_ssize_t end = start + 128 < n ? start + 128 : n, i = start;                \
            V a = {0}, b = {0};                                                           \
            T ta = 0, tb = 0;                                                             \
            for (; i + L <= end; i += L) {                                                \
                V gv = NAME##_load(g + i), xh = (NAME##_load(x + i) - m) * inv;           \
                a += gv;                                                                  \
                b += gv * xh;                                                             \
            }                                                                             \
            for (; i < end; i++) { ta += g[i]; tb += g[i] * ((x[i] - m) * inv); }        \
            *sg += NAME##_hsum(a) + ta;                                                   \
            *sgx += NAME##_hsum(b) + tb;                                                  \
        }                                                                                 \
    }
    CG_NORM_SUMS(float, cg_v8f, cg_f)
    CG_NORM_SUMS(double, cg_v4d, cg_d)
    """
    double cg_f_sum(const float* p, Py_ssize_t n, float m, int squared) nogil
    double cg_d_sum(const double* p, Py_ssize_t n, double m, int squared) nogil
    void cg_f_grad_sums(const float* g, const float* x, Py_ssize_t n, float m, float inv,
                        double* sg, double* sgx) nogil
    void cg_d_grad_sums(const double* g, const double* x, Py_ssize_t n, double m, double inv,
                        double* sg, double* sgx) nogil


cdef inline double _sum(const floating* p, Py_ssize_t n, floating m,
                        bint squared) noexcept nogil:
    if floating is float:
        return cg_f_sum(p, n, m, squared)
    else:
        return cg_d_sum(p, n, m, squared)


cdef inline void _grad_sums(const floating* g, const floating* x, Py_ssize_t n, floating m,
                            floating inv, double* sg, double* sgx) noexcept nogil:
    if floating is float:
        cg_f_grad_sums(g, x, n, m, inv, sg, sgx)
    else:
        cg_d_grad_sums(g, x, n, m, inv, sg, sgx)


cdef void _stats(const floating[:, :, ::1] x, floating[::1] mean,
                 floating[::1] var) noexcept nogil:
    cdef Py_ssize_t n, c, s = x.shape[2]
    cdef double total, m, count = <double>x.shape[0] * s
    for c in range(x.shape[1]):
        total = 0.0
        for n in range(x.shape[0]):
            total += _sum(&x[n, c, 0], s, 0, False)
        m = total / count
        mean[c] = <floating>m
        total = 0.0
        for n in range(x.shape[0]):
            total += _sum(&x[n, c, 0], s, mean[c], True)
        var[c] = <floating>(total / count)


cdef void _forward(const floating[:, :, ::1] x, const floating[::1] mean,
                   const floating[::1] invstd, const floating[::1] w, const floating[::1] b,
                   floating[:, :, ::1] y) noexcept nogil:
    cdef Py_ssize_t n, c, i, s = x.shape[2]
    cdef floating m, inv, wc, bc
    cdef const floating* src
    cdef floating* dst
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            m, inv, wc, bc = mean[c], invstd[c], w[c], b[c]
            src = &x[n, c, 0]
            dst = &y[n, c, 0]
            for i in range(s):
                dst[i] = ((src[i] - m) * inv) * wc + bc


cdef void _backward(const floating[:, :, ::1] g, const floating[:, :, ::1] x,
                    const floating[::1] mean, const floating[::1] invstd,
                    const floating[::1] w, bint training, floating[:, :, ::1] dx,
                    floating[::1] dw, floating[::1] db) noexcept nogil:
    cdef Py_ssize_t n, c, i, s = x.shape[2]
    cdef double sg, sgx, count = <double>x.shape[0] * s
    cdef floating m, inv, wc, mean_g, mean_gx, xh
    cdef const floating* gp
    cdef const floating* xp
    cdef floating* out
    for c in range(x.shape[1]):
        m, inv, wc = mean[c], invstd[c], w[c]
        sg = 0.0
        sgx = 0.0
        for n in range(x.shape[0]):
            _grad_sums(&g[n, c, 0], &x[n, c, 0], s, m, inv, &sg, &sgx)
        dw[c] = <floating>sgx
        db[c] = <floating>sg
        # the mean over the batch of g * w and of g * w * xhat
        mean_g = <floating>(wc * sg / count)
        mean_gx = <floating>(wc * sgx / count)
        for n in range(x.shape[0]):
            gp, xp, out = &g[n, c, 0], &x[n, c, 0], &dx[n, c, 0]
            if training:
                for i in range(s):
                    xh = (xp[i] - m) * inv
                    out[i] = ((gp[i] * wc - mean_g) - xh * mean_gx) * inv
            else:
                for i in range(s):
                    out[i] = (gp[i] * wc) * inv


cdef tuple _checked(str kernel, object x, tuple channel_arrays, tuple like_x):
    """(N, C, S) of `x` after checking every array's dtype and shape."""
    real_kind(kernel, x, channel_arrays + like_x)
    if x.ndim != 3:
        raise ValueError(f"{kernel}: 'x' must be 3-D (N, C, S), got shape {tuple(x.shape)}")
    shape = tuple(x.shape)
    for a in channel_arrays:
        shape_is(kernel, "channel array", a, (shape[1],))
    for a in like_x:
        shape_is(kernel, "array", a, shape)
    return shape


def batch_norm_stats(x, mean, var):
    """Per channel of `x` (N, C, S): its mean and biased variance, into `mean` and `var`."""
    _checked("batch_norm_stats", x, (mean, var), ())
    cdef const float[:, :, ::1] xf
    cdef const double[:, :, ::1] xd
    cdef float[::1] mf, vf
    cdef double[::1] md, vd
    if x.dtype.char == "f":
        xf, mf, vf = x, mean, var
        with nogil:
            _stats(xf, mf, vf)
    else:
        xd, md, vd = x, mean, var
        with nogil:
            _stats(xd, md, vd)


def batch_norm_forward(x, mean, invstd, w, b, y):
    """y = (x - mean) * invstd * w + b, each per channel of `x` (N, C, S)."""
    _checked("batch_norm_forward", x, (mean, invstd, w, b), (y,))
    cdef const float[:, :, ::1] xf
    cdef float[:, :, ::1] yf
    cdef const float[::1] mf, sf, wf, bf
    cdef const double[:, :, ::1] xd
    cdef double[:, :, ::1] yd
    cdef const double[::1] md, sd, wd, bd
    if x.dtype.char == "f":
        xf, mf, sf, wf, bf, yf = x, mean, invstd, w, b, y
        with nogil:
            _forward(xf, mf, sf, wf, bf, yf)
    else:
        xd, md, sd, wd, bd, yd = x, mean, invstd, w, b, y
        with nogil:
            _forward(xd, md, sd, wd, bd, yd)


def batch_norm_backward(g, x, mean, invstd, w, bint training, dx, dw, db):
    """Gradients of batch_norm_forward for the output gradient `g`: into dx, dw and db.

    `training`: mean and invstd were the batch's own statistics (they depend on x).
    """
    _checked("batch_norm_backward", x, (mean, invstd, w, dw, db), (g, dx))
    cdef const float[:, :, ::1] gf, xf
    cdef float[:, :, ::1] dxf
    cdef const float[::1] mf, sf, wf
    cdef float[::1] dwf, dbf
    cdef const double[:, :, ::1] gd, xd
    cdef double[:, :, ::1] dxd
    cdef const double[::1] md, sd, wd
    cdef double[::1] dwd, dbd
    if x.dtype.char == "f":
        gf, xf, mf, sf, wf, dxf, dwf, dbf = g, x, mean, invstd, w, dx, dw, db
        with nogil:
            _backward(gf, xf, mf, sf, wf, training, dxf, dwf, dbf)
    else:
        gd, xd, md, sd, wd, dxd, dwd, dbd = g, x, mean, invstd, w, dx, dw, db
        with nogil:
            _backward(gd, xd, md, sd, wd, training, dxd, dwd, dbd)
