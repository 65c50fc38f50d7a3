"""Layer normalisation over the last axis of (R, C) rows, weight and bias per column.

numpy takes about eight passes over the input on the forward and a dozen on the backward;
these loops take one row at a time (a row stays in L1): statistics and output in one sweep
of rows, and on the backward the two row sums, the input gradient and the weight/bias sums in
another. The normalised input is recomputed in the backward rather than kept. float32 rows run
in 8-lane GCC vectors; row sums in blocks of 128 in 8 lanes (numpy's pairwise order within a
block), the blocks added in double; the weight/bias column sums in float over 64 rows, then
in double.
"""

from cellgrad_nn._kernels._entry cimport real_kind, shape_is

cdef extern from *:
    """
    #include <math.h>
    #include <string.h>
    /* The row functions are cloned for AVX2 (chosen when the module loads, by the CPU; no FMA,
       so both clones round alike) and plain x86-64, where 8-lane vectors are ~5x slower;
       ifuncs need glibc. */
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__)
    #define CG_CLONES __attribute__((noinline, target_clones("avx2", "default")))
    #else
    #define CG_CLONES __attribute__((noinline))
    #endif
    #define CG_INLINE static inline __attribute__((always_inline))
    typedef float cg_ln8 __attribute__((vector_size(32)));
    CG_INLINE cg_ln8 cg_ln_ld(const float *p) { cg_ln8 v; memcpy(&v, p, sizeof v); return v; }
    CG_INLINE void cg_ln_st(float *p, cg_ln8 v) { memcpy(p, &v, sizeof v); }
    CG_INLINE double cg_ln_hsum(cg_ln8 r) {  /* numpy's pairwise order for 8 partial sums */
        return (double)(((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])));
    }
    /* sum(a - m) ** 2 if squared else sum(a): blocks of 128 in 8 float lanes, added in double */
    CG_CLONES static double cg_lnf_sum(const float *a, Py_ssize_t n, float m, int squared) {
        Py_ssize_t body = n - n % 8, i;
        double total = 0;
        for (Py_ssize_t start = 0; start < body; start += 128) {
            Py_ssize_t end = start + 128 < body ? start + 128 : body;
            cg_ln8 acc = {0, 0, 0, 0, 0, 0, 0, 0};
            if (squared)
                for (i = start; i < end; i += 8) { cg_ln8 d = cg_ln_ld(a + i) - m; acc += d * d; }
            else
                for (i = start; i < end; i += 8) acc += cg_ln_ld(a + i);
            total += cg_ln_hsum(acc);
        }
        for (i = body; i < n; i++) total += squared ? (a[i] - m) * (a[i] - m) : a[i];
        return total;
    }
    CG_CLONES static void cg_lnf_forward(const float *x, const float *w, const float *b, double eps,
                               float *y, float *mean, float *var, float *rstd,
                               Py_ssize_t rows, Py_ssize_t c) {
        Py_ssize_t body = c - c % 8, i;
        for (Py_ssize_t r = 0; r < rows; r++) {
            const float *src = x + r * c;
            float *dst = y + r * c;
            float m = (float)(cg_lnf_sum(src, c, 0, 0) / c);
            float v = (float)(cg_lnf_sum(src, c, m, 1) / c);
            float inv = 1.0f / sqrtf(v + (float)eps);
            mean[r] = m; var[r] = v; rstd[r] = inv;
            for (i = 0; i < body; i += 8)
                cg_ln_st(dst + i,
                         ((cg_ln_ld(src + i) - m) * inv) * cg_ln_ld(w + i) + cg_ln_ld(b + i));
            for (i = body; i < c; i++) dst[i] = ((src[i] - m) * inv) * w[i] + b[i];
        }
    }
    /* dx; dw += sum over rows of g * xhat, db += sum of g (float partial sums `pw`, `pb` over
       64 rows at a time, added into the doubles) */
    CG_CLONES static void cg_lnf_backward(const float *g, const float *x, const float *mean,
                                const float *rstd,
                                const float *w, float *dx, double *dw, double *db, float *pw,
                                float *pb, Py_ssize_t rows, Py_ssize_t c) {
        Py_ssize_t body = c - c % 8, i;
        memset(pw, 0, c * sizeof(float));
        memset(pb, 0, c * sizeof(float));
        for (Py_ssize_t r = 0; r < rows; r++) {
            const float *gp = g + r * c, *xp = x + r * c;
            float *out = dx + r * c, m = mean[r], inv = rstd[r];
            double sa = 0, sb = 0;
            for (Py_ssize_t start = 0; start < body; start += 128) {
                Py_ssize_t end = start + 128 < body ? start + 128 : body;
                cg_ln8 a = {0, 0, 0, 0, 0, 0, 0, 0}, bb = a;
                for (i = start; i < end; i += 8) {
                    cg_ln8 gv = cg_ln_ld(gp + i), xh = (cg_ln_ld(xp + i) - m) * inv;
                    cg_ln8 gw = gv * cg_ln_ld(w + i);
                    a += gw;
                    bb += gw * xh;
                    cg_ln_st(pw + i, cg_ln_ld(pw + i) + gv * xh);
                    cg_ln_st(pb + i, cg_ln_ld(pb + i) + gv);
                }
                sa += cg_ln_hsum(a);
                sb += cg_ln_hsum(bb);
            }
            for (i = body; i < c; i++) {
                float xh = (xp[i] - m) * inv, gw = gp[i] * w[i];
                sa += gw; sb += gw * xh; pw[i] += gp[i] * xh; pb[i] += gp[i];
            }
            float mean_g = (float)(sa / c), mean_gx = (float)(sb / c);
            for (i = 0; i < body; i += 8) {
                cg_ln8 xh = (cg_ln_ld(xp + i) - m) * inv, gw = cg_ln_ld(gp + i) * cg_ln_ld(w + i);
                cg_ln_st(out + i, ((gw - mean_g) - xh * mean_gx) * inv);
            }
            for (i = body; i < c; i++) {
                float xh = (xp[i] - m) * inv, gw = gp[i] * w[i];
                out[i] = ((gw - mean_g) - xh * mean_gx) * inv;
            }
            if (r % 64 == 63 || r == rows - 1) {
                for (i = 0; i < c; i++) { dw[i] += pw[i]; db[i] += pb[i]; pw[i] = 0; pb[i] = 0; }
            }
        }
    }
    CG_CLONES static void cg_lnd_forward(const double *x, const double *w, const double *b,
                               double eps,
                               double *y, double *mean, double *var, double *rstd,
                               Py_ssize_t rows, Py_ssize_t c) {
        for (Py_ssize_t r = 0; r < rows; r++) {
            const double *src = x + r * c;
            double *dst = y + r * c, m = 0, v = 0;
            for (Py_ssize_t i = 0; i < c; i++) m += src[i];
            m /= c;
            for (Py_ssize_t i = 0; i < c; i++) v += (src[i] - m) * (src[i] - m);
            v /= c;
            double inv = 1.0 / sqrt(v + eps);
            mean[r] = m; var[r] = v; rstd[r] = inv;
            for (Py_ssize_t i = 0; i < c; i++) dst[i] = ((src[i] - m) * inv) * w[i] + b[i];
        }
    }
    CG_CLONES static void cg_lnd_backward(const double *g, const double *x, const double *mean,
                                const double *rstd, const double *w, double *dx, double *dw,
                                double *db, Py_ssize_t rows, Py_ssize_t c) {
        for (Py_ssize_t r = 0; r < rows; r++) {
            const double *gp = g + r * c, *xp = x + r * c;
            double *out = dx + r * c, m = mean[r], inv = rstd[r], sa = 0, sb = 0;
            for (Py_ssize_t i = 0; i < c; i++) {
                double xh = (xp[i] - m) * inv, gw = gp[i] * w[i];
                sa += gw; sb += gw * xh; dw[i] += gp[i] * xh; db[i] += gp[i];
            }
            double mean_g = sa / c, mean_gx = sb / c;
            for (Py_ssize_t i = 0; i < c; i++) {
                double xh = (xp[i] - m) * inv, gw = gp[i] * w[i];
                out[i] = ((gw - mean_g) - xh * mean_gx) * inv;
            }
        }
    }
    """
    void cg_lnf_forward(const float* x, const float* w, const float* b, double eps, float* y,
                        float* mean, float* var, float* rstd, Py_ssize_t rows,
                        Py_ssize_t c) nogil
    void cg_lnf_backward(const float* g, const float* x, const float* mean, const float* rstd,
                         const float* w, float* dx, double* dw, double* db, float* pw,
                         float* pb, Py_ssize_t rows, Py_ssize_t c) nogil
    void cg_lnd_forward(const double* x, const double* w, const double* b, double eps,
                        double* y, double* mean, double* var, double* rstd, Py_ssize_t rows,
                        Py_ssize_t c) nogil
    void cg_lnd_backward(const double* g, const double* x, const double* mean,
                         const double* rstd, const double* w, double* dx, double* dw,
                         double* db, Py_ssize_t rows, Py_ssize_t c) nogil


def _check(str kernel, object x, tuple rows, tuple cols, tuple like_x):
    real_kind(kernel, x, rows + cols + like_x)
    if x.ndim != 2 or not x.size:
        raise ValueError(f"{kernel}: 'x' must be 2-D (R, C) and not empty, got shape "
                         f"{tuple(x.shape)}")
    for a in (x,) + rows + cols + like_x:
        if not a.flags.c_contiguous:
            raise ValueError(f"{kernel}: arrays must be C-contiguous, got strides {a.strides}")
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
    cdef Py_ssize_t r = x.shape[0], c = x.shape[1]
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
            cg_lnf_forward(&xf[0, 0], &wf[0], &bf[0], eps, &yf[0, 0], &mf[0], &vf[0], &sf[0],
                           r, c)
    else:
        xd, wd, bd, yd, md, vd, sd = x, w, b, y, mean, var, rstd
        with nogil:
            cg_lnd_forward(&xd[0, 0], &wd[0], &bd[0], eps, &yd[0, 0], &md[0], &vd[0], &sd[0],
                           r, c)


def layer_norm_backward(g, x, mean, rstd, w, dx, dw, db):
    """Gradients of layer_norm_forward for the output gradient `g` (R, C): the input's into
    `dx`; the weight's and bias's column sums added into the float64 (C,) `dw` and `db`."""
    _check("layer_norm_backward", x, (mean, rstd), (w,), (g, dx))
    for name, a in (("dw", dw), ("db", db)):
        if getattr(getattr(a, "dtype", None), "char", None) != "d":
            raise TypeError(f"layer_norm_backward: '{name}' must be float64, got {a!r}")
        shape_is("layer_norm_backward", name, a, (x.shape[1],))
    cdef Py_ssize_t r = x.shape[0], c = x.shape[1]
    cdef const float[:, ::1] gf, xf
    cdef float[:, ::1] dxf
    cdef const float[::1] mf, sf, wf
    cdef float[::1] pw, pb
    cdef const double[:, ::1] gd, xd
    cdef double[:, ::1] dxd
    cdef const double[::1] md, sd, wd
    cdef double[::1] dwv = dw, dbv = db
    if x.dtype.char == "f":
        gf, xf, mf, sf, wf, dxf = g, x, mean, rstd, w, dx
        pw, pb = w.copy(), w.copy()  # the column sums' float partials
        with nogil:
            cg_lnf_backward(&gf[0, 0], &xf[0, 0], &mf[0], &sf[0], &wf[0], &dxf[0, 0], &dwv[0],
                            &dbv[0], &pw[0], &pb[0], r, c)
    else:
        gd, xd, md, sd, wd, dxd = g, x, mean, rstd, w, dx
        with nogil:
            cg_lnd_backward(&gd[0, 0], &xd[0, 0], &md[0], &sd[0], &wd[0], &dxd[0, 0], &dwv[0],
                            &dbv[0], r, c)
