"""Layer normalisation over the last axis of (R, C) rows, weight and bias per column.

numpy takes about eight passes over the input on the forward and a dozen on the backward;
these loops take one row at a time (a row stays in L1): statistics and output in one sweep
of rows, and on the backward the two row sums, the input gradient and the weight/bias sums in
another. The normalised input is recomputed in the backward rather than kept. Row sums run in
blocks of 128 in 8 lanes of the input's precision (numpy's pairwise order within a block), the
blocks and the column sums of the weight/bias gradients in double.
"""

from cython cimport floating

from cellgrad_nn._kernels._entry cimport real_kind, shape_is

cdef extern from *:
    """
    /* sum(a[:n] * b[:n]) (b NULL: sum(a[:n] - m) ** 2 if squared, else sum(a[:n])) */
    #define CG_LN_SUM(T, NAME)                                                            \
    static double NAME(const T *a, const T *b, Py_ssize_t n, T m, int squared) {          \
        double total = 0;                                                                 \
        for (Py_ssize_t start = 0; start < n; start += 128) {                             \
            Py_ssize_t end = start + 128 < n ? start + 128 : n, i = start;                \
            T r[8] = {0, 0, 0, 0, 0, 0, 0, 0}, tail = 0, d;                               \
            if (b) {                                                                      \
                for (; i + 8 <= end; i += 8)                                              \
                    for (int k = 0; k < 8; k++) r[k] += a[i + k] * b[i + k];              \
                for (; i < end; i++) tail += a[i] * b[i];                                 \
            } else if (squared) {                                                         \
                for (; i + 8 <= end; i += 8)                                              \
                    for (int k = 0; k < 8; k++) { d = a[i + k] - m; r[k] += d * d; }      \
                for (; i < end; i++) { d = a[i] - m; tail += d * d; }                     \
            } else {                                                                      \
                for (; i + 8 <= end; i += 8)                                              \
                    for (int k = 0; k < 8; k++) r[k] += a[i + k];                         \
                for (; i < end; i++) tail += a[i];                                        \
            }                                                                             \
            total += (double)(((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))) \
                     + tail;                                                              \
        }                                                                                 \
        return total;                                                                     \
    }
    CG_LN_SUM(float, cg_ln_fsum)
    CG_LN_SUM(double, cg_ln_dsum)
    """
    double cg_ln_fsum(const float* a, const float* b, Py_ssize_t n, float m,
                      int squared) nogil
    double cg_ln_dsum(const double* a, const double* b, Py_ssize_t n, double m,
                      int squared) nogil


cdef inline double _sum(const floating* a, const floating* b, Py_ssize_t n, floating m,
                        bint squared) noexcept nogil:
    if floating is float:
        return cg_ln_fsum(a, b, n, m, squared)
    else:
        return cg_ln_dsum(a, b, n, m, squared)


cdef void _forward(const floating[:, ::1] x, const floating[::1] w, const floating[::1] b,
                   double eps, floating[:, ::1] y, floating[::1] mean, floating[::1] var,
                   floating[::1] rstd) noexcept nogil:
    cdef Py_ssize_t r, i, c = x.shape[1]
    cdef floating m, inv
    cdef const floating* src
    cdef floating* dst
    for r in range(x.shape[0]):
        src = &x[r, 0]
        dst = &y[r, 0]
        m = <floating>(_sum(src, NULL, c, 0, False) / c)
        mean[r] = m
        var[r] = <floating>(_sum(src, NULL, c, m, True) / c)
        inv = <floating>1.0 / <floating>sqrt(var[r] + <floating>eps)
        rstd[r] = inv
        for i in range(c):
            dst[i] = ((src[i] - m) * inv) * w[i] + b[i]


cdef void _backward(const floating[:, ::1] g, const floating[:, ::1] x,
                    const floating[::1] mean, const floating[::1] rstd,
                    const floating[::1] w, floating[:, ::1] dx, double[::1] dw,
                    double[::1] db, floating[::1] gw, floating[::1] xh) noexcept nogil:
    cdef Py_ssize_t r, i, c = x.shape[1]
    cdef floating m, inv, mean_g, mean_gx
    cdef const floating* gp
    cdef const floating* xp
    cdef floating* out
    for r in range(x.shape[0]):
        m, inv = mean[r], rstd[r]
        gp, xp, out = &g[r, 0], &x[r, 0], &dx[r, 0]
        for i in range(c):
            xh[i] = (xp[i] - m) * inv
            gw[i] = gp[i] * w[i]
            dw[i] += gp[i] * xh[i]
            db[i] += gp[i]
        mean_g = <floating>(_sum(&gw[0], NULL, c, 0, False) / c)
        mean_gx = <floating>(_sum(&gw[0], &xh[0], c, 0, False) / c)
        for i in range(c):
            out[i] = ((gw[i] - mean_g) - xh[i] * mean_gx) * inv


cdef extern from "math.h" nogil:
    double sqrt(double)


def _check(str kernel, object x, tuple rows, tuple cols, tuple like_x):
    real_kind(kernel, x, rows + cols + like_x)
    if x.ndim != 2:
        raise ValueError(f"{kernel}: 'x' must be 2-D (R, C), got shape {tuple(x.shape)}")
    for a in rows:
        shape_is(kernel, "row array", a, (x.shape[0],))
    for a in cols:
        shape_is(kernel, "column array", a, (x.shape[1],))
    for a in like_x:
        shape_is(kernel, "array", a, tuple(x.shape))


def layer_norm_forward(x, w, b, double eps, y, mean, var, rstd):
    """y = (x - mean) * rstd * w + b over each row of `x` (R, C); the rows' mean, biased
    variance and 1/sqrt(var + eps) into `mean`, `var`, `rstd` (R,)."""
    _check("layer_norm_forward", x, (mean, var, rstd), (w, b), (y,))
    cdef const float[:, ::1] xf
    cdef float[:, ::1] yf
    cdef const float[::1] wf, bf
    cdef float[::1] mf, vf, sf
    cdef const double[:, ::1] xd
    cdef double[:, ::1] yd
    cdef const double[::1] wd, bd
    cdef double[::1] md, vd, sd
    if x.dtype.char == "f":
        xf, wf, bf, yf, mf, vf, sf = x, w, b, y, mean, var, rstd
        with nogil:
            _forward(xf, wf, bf, eps, yf, mf, vf, sf)
    else:
        xd, wd, bd, yd, md, vd, sd = x, w, b, y, mean, var, rstd
        with nogil:
            _forward(xd, wd, bd, eps, yd, md, vd, sd)


def layer_norm_backward(g, x, mean, rstd, w, dx, dw, db):
    """Gradients of layer_norm_forward for the output gradient `g` (R, C): the input's into
    `dx`; the weight's and bias's column sums added into the float64 (C,) `dw` and `db`."""
    _check("layer_norm_backward", x, (mean, rstd), (w,), (g, dx))
    for name, a in (("dw", dw), ("db", db)):
        if getattr(getattr(a, "dtype", None), "char", None) != "d":
            raise TypeError(f"layer_norm_backward: '{name}' must be float64, got {a!r}")
        shape_is("layer_norm_backward", name, a, (x.shape[1],))
    cdef const float[:, ::1] gf, xf
    cdef float[:, ::1] dxf
    cdef const float[::1] mf, sf, wf
    cdef float[::1] tf1, tf2
    cdef const double[:, ::1] gd, xd
    cdef double[:, ::1] dxd
    cdef const double[::1] md, sd, wd
    cdef double[::1] td1, td2
    cdef double[::1] dwv = dw, dbv = db
    if x.dtype.char == "f":
        gf, xf, mf, sf, wf, dxf = g, x, mean, rstd, w, dx
        tf1, tf2 = w.copy(), w.copy()  # one row's g * w and xhat
        with nogil:
            _backward(gf, xf, mf, sf, wf, dxf, dwv, dbv, tf1, tf2)
    else:
        gd, xd, md, sd, wd, dxd = g, x, mean, rstd, w, dx
        td1, td2 = w.copy(), w.copy()
        with nogil:
            _backward(gd, xd, md, sd, wd, dxd, dwv, dbv, td1, td2)
