"""Direct convolution for inputs with few channels (LeNet's first layer: 1 -> 6, 5x5).

When C*KH*KW is small, im2col's columns are a copy of the input KH*KW times over and the GEMM
has a tiny inner dimension (25): most of the time goes to writing and reading the columns
and to the output's transposing copy. Here every output row is accumulated straight from
the input rows, in NCHW order, for stride 1, dilation 1, one group, float32. The loops are
compiled twice (AVX2+FMA and the x86-64 baseline) and picked at load time by the CPU
(GCC's target_clones), so the wheel stays portable.
"""

cdef extern from *:
    """
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    #define CG_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
    #else
    #define CG_CLONES
    #endif

    /* out[n, o] = b[o] + sum_c,ky,kx w[o, c, ky, kx] * x[n, c, oy + ky, ox + kx] */
    CG_CLONES static void cg_conv_fwd(const float *x, const float *w, const float *b,
                                      float *out, Py_ssize_t N, Py_ssize_t C, Py_ssize_t H,
                                      Py_ssize_t W, Py_ssize_t O, Py_ssize_t KH,
                                      Py_ssize_t KW) {
        Py_ssize_t OH = H - KH + 1, OW = W - KW + 1;
        for (Py_ssize_t n = 0; n < N; n++)
            for (Py_ssize_t o = 0; o < O; o++) {
                float *plane = out + (n * O + o) * OH * OW;
                float bias = b ? b[o] : 0.0f;
                for (Py_ssize_t i = 0; i < OH * OW; i++) plane[i] = bias;
                for (Py_ssize_t c = 0; c < C; c++)
                    for (Py_ssize_t ky = 0; ky < KH; ky++)
                        for (Py_ssize_t kx = 0; kx < KW; kx++) {
                            float wv = w[((o * C + c) * KH + ky) * KW + kx];
                            const float *xs = x + ((n * C + c) * H + ky) * W + kx;
                            for (Py_ssize_t oy = 0; oy < OH; oy++) {
                                float *restrict row = plane + oy * OW;
                                const float *restrict xr = xs + oy * W;
                                for (Py_ssize_t ox = 0; ox < OW; ox++) row[ox] += wv * xr[ox];
                            }
                        }
            }
    }

    /* dw[o, c, ky, kx] = sum_n,oy,ox g[n, o, oy, ox] * x[n, c, oy + ky, ox + kx];
       db[o] = sum g[n, o]; partial sums per output column (acc, OW floats) vectorise
       without reordering any one column's additions */
    CG_CLONES static void cg_conv_bwd_w(const float *x, const float *g, float *dw, float *db,
                                        float *acc, Py_ssize_t N, Py_ssize_t C, Py_ssize_t H,
                                        Py_ssize_t W, Py_ssize_t O, Py_ssize_t KH,
                                        Py_ssize_t KW) {
        Py_ssize_t OH = H - KH + 1, OW = W - KW + 1;
        for (Py_ssize_t o = 0; o < O; o++) {
            if (db) {
                for (Py_ssize_t i = 0; i < OW; i++) acc[i] = 0.0f;
                for (Py_ssize_t n = 0; n < N; n++)
                    for (Py_ssize_t oy = 0; oy < OH; oy++) {
                        const float *restrict gr = g + ((n * O + o) * OH + oy) * OW;
                        for (Py_ssize_t ox = 0; ox < OW; ox++) acc[ox] += gr[ox];
                    }
                double s = 0.0;
                for (Py_ssize_t i = 0; i < OW; i++) s += acc[i];
                db[o] = (float)s;
            }
            for (Py_ssize_t c = 0; c < C; c++)
                for (Py_ssize_t ky = 0; ky < KH; ky++)
                    for (Py_ssize_t kx = 0; kx < KW; kx++) {
                        for (Py_ssize_t i = 0; i < OW; i++) acc[i] = 0.0f;
                        for (Py_ssize_t n = 0; n < N; n++)
                            for (Py_ssize_t oy = 0; oy < OH; oy++) {
                                float *restrict a = acc;
                                const float *restrict gr = g + ((n * O + o) * OH + oy) * OW;
                                const float *restrict xr = x + ((n * C + c) * H + oy + ky) * W
                                                           + kx;
                                for (Py_ssize_t ox = 0; ox < OW; ox++) a[ox] += gr[ox] * xr[ox];
                            }
                        double s = 0.0;
                        for (Py_ssize_t i = 0; i < OW; i++) s += acc[i];
                        dw[((o * C + c) * KH + ky) * KW + kx] = (float)s;
                    }
        }
    }

    /* dx[n, c, oy + ky, ox + kx] += w[o, c, ky, kx] * g[n, o, oy, ox] (dx zeroed first) */
    CG_CLONES static void cg_conv_bwd_x(const float *g, const float *w, float *dx,
                                        Py_ssize_t N, Py_ssize_t C, Py_ssize_t H, Py_ssize_t W,
                                        Py_ssize_t O, Py_ssize_t KH, Py_ssize_t KW) {
        Py_ssize_t OH = H - KH + 1, OW = W - KW + 1;
        for (Py_ssize_t i = 0; i < N * C * H * W; i++) dx[i] = 0.0f;
        for (Py_ssize_t n = 0; n < N; n++)
            for (Py_ssize_t c = 0; c < C; c++)
                for (Py_ssize_t o = 0; o < O; o++)
                    for (Py_ssize_t ky = 0; ky < KH; ky++)
                        for (Py_ssize_t kx = 0; kx < KW; kx++) {
                            float wv = w[((o * C + c) * KH + ky) * KW + kx];
                            for (Py_ssize_t oy = 0; oy < OH; oy++) {
                                float *restrict xr = dx + ((n * C + c) * H + oy + ky) * W + kx;
                                const float *restrict gr = g + ((n * O + o) * OH + oy) * OW;
                                for (Py_ssize_t ox = 0; ox < OW; ox++) xr[ox] += wv * gr[ox];
                            }
                        }
    }
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    #define CG_AVX 1
    /* the output row (OW <= 32 floats: 4 registers) stays in registers over all taps */
    __attribute__((target("avx2,fma"))) static void cg_conv_fwd_avx(
            const float *x, const float *w, const float *b, float *out, Py_ssize_t N,
            Py_ssize_t C, Py_ssize_t H, Py_ssize_t W, Py_ssize_t O, Py_ssize_t KH,
            Py_ssize_t KW) {
        Py_ssize_t OH = H - KH + 1, OW = W - KW + 1, nv = (OW + 7) / 8;
        int tail = (int)(OW - (nv - 1) * 8);
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(tail),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        for (Py_ssize_t n = 0; n < N; n++)
            for (Py_ssize_t o = 0; o < O; o++)
                for (Py_ssize_t oy = 0; oy < OH; oy++) {
                    __m256 a0, a1, a2, a3;
                    a0 = a1 = a2 = a3 = _mm256_set1_ps(b ? b[o] : 0.0f);
                    for (Py_ssize_t c = 0; c < C; c++)
                        for (Py_ssize_t ky = 0; ky < KH; ky++) {
                            const float *xr = x + ((n * C + c) * H + oy + ky) * W;
                            const float *wr = w + ((o * C + c) * KH + ky) * KW;
                            for (Py_ssize_t kx = 0; kx < KW; kx++) {
                                __m256 wv = _mm256_broadcast_ss(wr + kx);
                                const float *p = xr + kx;
                                /* full vectors read inside the row; the last masked */
                                if (nv == 1) {
                                    a0 = _mm256_fmadd_ps(wv, _mm256_maskload_ps(p, mask), a0);
                                } else {
                                    a0 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(p), a0);
                                    if (nv == 2) {
                                        a1 = _mm256_fmadd_ps(
                                            wv, _mm256_maskload_ps(p + 8, mask), a1);
                                    } else {
                                        a1 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(p + 8), a1);
                                        if (nv == 3) {
                                            a2 = _mm256_fmadd_ps(
                                                wv, _mm256_maskload_ps(p + 16, mask), a2);
                                        } else {
                                            a2 = _mm256_fmadd_ps(wv, _mm256_loadu_ps(p + 16), a2);
                                            a3 = _mm256_fmadd_ps(
                                                wv, _mm256_maskload_ps(p + 24, mask), a3);
                                        }
                                    }
                                }
                            }
                        }
                    float *row = out + ((n * O + o) * OH + oy) * OW;
                    if (nv == 1) { _mm256_maskstore_ps(row, mask, a0); }
                    else if (nv == 2) { _mm256_storeu_ps(row, a0);
                                        _mm256_maskstore_ps(row + 8, mask, a1); }
                    else if (nv == 3) { _mm256_storeu_ps(row, a0); _mm256_storeu_ps(row + 8, a1);
                                        _mm256_maskstore_ps(row + 16, mask, a2); }
                    else { _mm256_storeu_ps(row, a0); _mm256_storeu_ps(row + 8, a1);
                           _mm256_storeu_ps(row + 16, a2);
                           _mm256_maskstore_ps(row + 24, mask, a3); }
                }
    }

    /* dw: per (o, c) a (KH*KW, 8*nv) block of column partial sums in L1; each gradient row
       (in registers) meets every tap's input row once */
    __attribute__((target("avx2,fma"))) static void cg_conv_bwd_w_avx(
            const float *x, const float *g, float *dw, float *db, float *acc, Py_ssize_t N,
            Py_ssize_t C, Py_ssize_t H, Py_ssize_t W, Py_ssize_t O, Py_ssize_t KH,
            Py_ssize_t KW) {
        Py_ssize_t OH = H - KH + 1, OW = W - KW + 1, nv = (OW + 7) / 8, T = KH * KW;
        int tail = (int)(OW - (nv - 1) * 8);
        __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(tail),
                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        float tmp[8];
        for (Py_ssize_t o = 0; o < O; o++) {
            if (db) {
                __m256 s[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                               _mm256_setzero_ps()};
                for (Py_ssize_t n = 0; n < N; n++)
                    for (Py_ssize_t oy = 0; oy < OH; oy++) {
                        const float *gr = g + ((n * O + o) * OH + oy) * OW;
                        for (Py_ssize_t v = 0; v < nv; v++)
                            s[v] = _mm256_add_ps(s[v], v == nv - 1
                                ? _mm256_maskload_ps(gr + 8 * v, mask)
                                : _mm256_loadu_ps(gr + 8 * v));
                    }
                double tot = 0.0;
                for (Py_ssize_t v = 0; v < nv; v++) {
                    _mm256_storeu_ps(tmp, s[v]);
                    for (int i = 0; i < 8; i++) tot += tmp[i];
                }
                db[o] = (float)tot;
            }
            for (Py_ssize_t c = 0; c < C; c++) {
                for (Py_ssize_t i = 0; i < T * nv * 8; i++) acc[i] = 0.0f;
                for (Py_ssize_t n = 0; n < N; n++)
                    for (Py_ssize_t oy = 0; oy < OH; oy++) {
                        const float *gr = g + ((n * O + o) * OH + oy) * OW;
                        __m256 gv[4];
                        for (Py_ssize_t v = 0; v < nv; v++)
                            gv[v] = v == nv - 1 ? _mm256_maskload_ps(gr + 8 * v, mask)
                                                : _mm256_loadu_ps(gr + 8 * v);
                        for (Py_ssize_t ky = 0; ky < KH; ky++) {
                            const float *xr = x + ((n * C + c) * H + oy + ky) * W;
                            for (Py_ssize_t kx = 0; kx < KW; kx++) {
                                float *a = acc + (ky * KW + kx) * nv * 8;
                                for (Py_ssize_t v = 0; v < nv; v++) {
                                    __m256 xv = v == nv - 1
                                        ? _mm256_maskload_ps(xr + kx + 8 * v, mask)
                                        : _mm256_loadu_ps(xr + kx + 8 * v);
                                    _mm256_storeu_ps(a + 8 * v, _mm256_fmadd_ps(
                                        gv[v], xv, _mm256_loadu_ps(a + 8 * v)));
                                }
                            }
                        }
                    }
                for (Py_ssize_t t = 0; t < T; t++) {
                    double tot = 0.0;
                    for (Py_ssize_t i = 0; i < nv * 8; i++) tot += acc[t * nv * 8 + i];
                    dw[(o * C + c) * T + t] = (float)tot;
                }
            }
        }
    }
    static int cg_has_avx(void) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        return has;
    }
    #else
    static int cg_has_avx(void) { return 0; }
    static void cg_conv_fwd_avx(const float *x, const float *w, const float *b, float *out,
            Py_ssize_t N, Py_ssize_t C, Py_ssize_t H, Py_ssize_t W, Py_ssize_t O,
            Py_ssize_t KH, Py_ssize_t KW) {}
    static void cg_conv_bwd_w_avx(const float *x, const float *g, float *dw, float *db,
            float *acc, Py_ssize_t N, Py_ssize_t C, Py_ssize_t H, Py_ssize_t W, Py_ssize_t O,
            Py_ssize_t KH, Py_ssize_t KW) {}
    #endif
    """
    void cg_conv_fwd(const float*, const float*, const float*, float*, Py_ssize_t, Py_ssize_t,
                     Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t) nogil
    void cg_conv_bwd_w(const float*, const float*, float*, float*, float*, Py_ssize_t,
                       Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                       Py_ssize_t) nogil
    void cg_conv_bwd_x(const float*, const float*, float*, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                       Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t) nogil
    void cg_conv_fwd_avx(const float*, const float*, const float*, float*, Py_ssize_t,
                         Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                         Py_ssize_t) nogil
    void cg_conv_bwd_w_avx(const float*, const float*, float*, float*, float*, Py_ssize_t,
                           Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                           Py_ssize_t) nogil
    int cg_has_avx() nogil


def fast():
    """Whether this CPU runs the AVX2+FMA loops (rows of up to 32 outputs in registers):
    only then is the direct convolution faster than im2col and BLAS."""
    return bool(cg_has_avx())


import numpy as np  # noqa: E402


cdef void _check(str kernel, object a, tuple shape) except *:
    if a.dtype.char != "f" or not a.flags.c_contiguous or tuple(a.shape) != shape:
        raise ValueError(f"{kernel}: expected a C-contiguous float32 array of shape {shape}, "
                         f"got shape={a.shape}, dtype={a.dtype}")


def conv_forward(x, w, b, out):
    """out (N, O, H-KH+1, W-KW+1) = valid convolution of x (N, C, H, W) with w (O, C, KH, KW)
    plus b (O,) or None; stride 1, dilation 1, one group, float32."""
    cdef Py_ssize_t n, c, h, wd, o, kh, kw
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    _check("conv_forward", x, (n, c, h, wd))
    _check("conv_forward", w, (o, c, kh, kw))
    if b is not None:
        _check("conv_forward", b, (o,))
    _check("conv_forward", out, (n, o, h - kh + 1, wd - kw + 1))
    cdef const float[::1] xv = x.reshape(-1), wv = w.reshape(-1)
    cdef const float[::1] bv = b if b is not None else np.zeros(1, np.float32)
    cdef float[::1] ov = out.reshape(-1)
    cdef const float* bp = &bv[0] if b is not None else NULL
    if x.size == 0 or out.size == 0:  # no positions: only the bias (or nothing)
        out[...] = 0 if b is None else b[:, None, None]
        return
    if cg_has_avx() and wd - kw + 1 <= 32:
        with nogil:
            cg_conv_fwd_avx(&xv[0], &wv[0], bp, &ov[0], n, c, h, wd, o, kh, kw)
        return
    with nogil:
        cg_conv_fwd(&xv[0], &wv[0], bp, &ov[0], n, c, h, wd, o, kh, kw)


def conv_backward(x, w, g, dx, dw, db):
    """The gradients of `conv_forward`: into dx (like x) when it is not None, dw (like w)
    and db (O,) when it is not None; g is the output's gradient."""
    cdef Py_ssize_t n, c, h, wd, o, kh, kw, oh, ow
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    _check("conv_backward", x, (n, c, h, wd))
    _check("conv_backward", w, (o, c, kh, kw))
    _check("conv_backward", g, (n, o, oh, ow))
    _check("conv_backward", dw, (o, c, kh, kw))
    if db is not None:
        _check("conv_backward", db, (o,))
    if dx is not None:
        _check("conv_backward", dx, (n, c, h, wd))
    if g.size == 0:
        dw.fill(0)
        if db is not None:
            db.fill(0)
        if dx is not None:
            dx.fill(0)
        return
    acc = np.empty(max(kh * kw * 32, ow, 1), np.float32)
    cdef const float[::1] xv = x.reshape(-1), wv = w.reshape(-1), gv = g.reshape(-1)
    cdef float[::1] dwv = dw.reshape(-1), accv = acc
    cdef float[::1] dbv = db if db is not None else acc
    cdef float[::1] dxv
    cdef float* dbp = &dbv[0] if db is not None else NULL
    if cg_has_avx() and ow <= 32:
        with nogil:
            cg_conv_bwd_w_avx(&xv[0], &gv[0], &dwv[0], dbp, &accv[0], n, c, h, wd, o, kh, kw)
    else:
        with nogil:
            cg_conv_bwd_w(&xv[0], &gv[0], &dwv[0], dbp, &accv[0], n, c, h, wd, o, kh, kw)
    if dx is not None:
        dxv = dx.reshape(-1)
        with nogil:
            cg_conv_bwd_x(&gv[0], &wv[0], &dxv[0], n, c, h, wd, o, kh, kw)
