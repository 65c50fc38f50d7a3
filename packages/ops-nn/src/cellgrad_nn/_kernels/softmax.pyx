"""The attention softmax over (R, S) score rows, in place, a row at a time (it stays in L1).

numpy spends a reduction over a short last axis (max, sum: slow per row) and a full pass for
each step; here the forward (scale, row max, exp, row sum, divide) and the backward's
dS = (dP - sum(dP * P)) * P * scale are one call each. float32 rows run in 8-lane GCC vectors
with Cephes' expf polynomial (within 1 ulp of the exact exp on [-87, 0], where shifted scores
are); float64 rows in plain loops with libm's exp. Row sums of float32 run in blocks of 128 in
8 lanes (numpy's pairwise order within a block), the blocks added in double.
"""

from cellgrad_nn._kernels._entry cimport real_kind, shape_is

cdef extern from *:
    """
    #include <math.h>
    #include <string.h>
    #include <stdint.h>
    /* The row functions are cloned for AVX2 (chosen when the module loads, by the CPU; no FMA,
       so both clones round alike) and plain x86-64, where 8-lane vectors are ~5x slower;
       ifuncs need glibc. */
    #if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__)
    #define CG_CLONES __attribute__((noinline, target_clones("avx2", "default")))
    #else
    #define CG_CLONES __attribute__((noinline))
    #endif
    #define CG_INLINE static inline __attribute__((always_inline))
    typedef float cg_v8f __attribute__((vector_size(32)));
    typedef int32_t cg_v8i __attribute__((vector_size(32)));
    CG_INLINE cg_v8f cg_ld8(const float *p) { cg_v8f v; memcpy(&v, p, sizeof v); return v; }
    CG_INLINE void cg_st8(float *p, cg_v8f v) { memcpy(p, &v, sizeof v); }
    CG_INLINE cg_v8f cg_sel8(cg_v8i m, cg_v8f a, cg_v8f b) {  /* m ? a : b, lane by lane */
        return (cg_v8f)(((cg_v8i)a & m) | ((cg_v8i)b & ~m));
    }
    CG_INLINE float cg_hmax8(cg_v8f v) {
        float m = v[0];
        for (int k = 1; k < 8; k++) m = v[k] > m ? v[k] : m;
        return m;
    }
    CG_INLINE double cg_hsum8(cg_v8f r) {  /* numpy's pairwise order for 8 partial sums */
        return (double)(((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])));
    }
    /* exp of 8 floats (Cephes' expf: ln 2 in two parts, a degree-5 polynomial; within 2 ulp),
       for x <= 88; below -87.34 (and -inf) 0, NaN stays NaN */
    CG_INLINE cg_v8f cg_exp8(cg_v8f x) {
        const cg_v8f zero = {0, 0, 0, 0, 0, 0, 0, 0};
        cg_v8i tiny = x < -87.336544f;
        x = cg_sel8(tiny, zero - 87.336544f, x);
        cg_v8f fx = x * 1.44269504088896341f;
        fx = (fx + 12582912.0f) - 12582912.0f;  /* round to nearest */
        x = x - fx * 0.693359375f;
        x = x - fx * -2.12194440e-4f;
        cg_v8f z = x * x;
        cg_v8f y = x * 1.9875691500e-4f + 1.3981999507e-3f;
        y = y * x + 8.3334519073e-3f;
        y = y * x + 4.1665795894e-2f;
        y = y * x + 1.6666665459e-1f;
        y = y * x + 5.0000001201e-1f;
        y = y * z + x + 1.0f;
        cg_v8i n = __builtin_convertvector(fx, cg_v8i);
        y = y * (cg_v8f)((n + 127) << 23);
        return cg_sel8(tiny, zero, y);
    }
    /* one row of floats: s = exp(s * scale - max(s * scale)) / sum(...) */
    CG_CLONES static void cg_smf_rows(float *s, Py_ssize_t rows, Py_ssize_t n, float scale) {
        Py_ssize_t body = n - n % 8;
        for (Py_ssize_t row = 0; row < rows; row++) {
            float *p = s + row * n, mx = -INFINITY, tail[8];
            Py_ssize_t i;
            cg_v8f vm = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                         -INFINITY, -INFINITY, -INFINITY, -INFINITY};
            for (i = 0; i < body; i += 8) {
                cg_v8f v = cg_ld8(p + i) * scale;
                cg_st8(p + i, v);
                vm = cg_sel8(v > vm, v, vm);
            }
            if (body) mx = cg_hmax8(vm);
            for (i = body; i < n; i++) { p[i] *= scale; mx = p[i] > mx ? p[i] : mx; }
            double total = 0;
            for (Py_ssize_t start = 0; start < body; start += 128) {
                Py_ssize_t end = start + 128 < body ? start + 128 : body;
                cg_v8f acc = {0, 0, 0, 0, 0, 0, 0, 0};
                for (i = start; i < end; i += 8) {
                    cg_v8f e = cg_exp8(cg_ld8(p + i) - mx);
                    cg_st8(p + i, e);
                    acc += e;
                }
                total += cg_hsum8(acc);
            }
            if (body < n) {
                for (int k = 0; k < 8; k++) tail[k] = body + k < n ? p[body + k] - mx : -INFINITY;
                cg_v8f e = cg_exp8(cg_ld8(tail));
                for (i = body; i < n; i++) { p[i] = e[i - body]; total += e[i - body]; }
            }
            float t = (float)total;
            for (i = 0; i < body; i += 8) cg_st8(p + i, cg_ld8(p + i) / t);
            for (i = body; i < n; i++) p[i] /= t;
        }
    }
    /* the same for doubles (libm's exp: the float64 path is for checks, not speed) */
    CG_CLONES static void cg_smd_rows(double *s, Py_ssize_t rows, Py_ssize_t n, double scale) {
        for (Py_ssize_t row = 0; row < rows; row++) {
            double *p = s + row * n, mx = -INFINITY, total = 0;
            for (Py_ssize_t i = 0; i < n; i++) { p[i] *= scale; mx = p[i] > mx ? p[i] : mx; }
            for (Py_ssize_t i = 0; i < n; i++) { p[i] = exp(p[i] - mx); total += p[i]; }
            for (Py_ssize_t i = 0; i < n; i++) p[i] /= total;
        }
    }
    /* each row of floats: d = (d - sum(d * p)) * p * scale */
    CG_CLONES static void cg_smf_grad(float *d, const float *p, Py_ssize_t rows, Py_ssize_t n,
                           float scale) {
        Py_ssize_t body = n - n % 8;
        for (Py_ssize_t row = 0; row < rows; row++) {
            float *dr = d + row * n;
            const float *pr = p + row * n;
            double total = 0;
            Py_ssize_t i;
            for (Py_ssize_t start = 0; start < body; start += 128) {
                Py_ssize_t end = start + 128 < body ? start + 128 : body;
                cg_v8f acc = {0, 0, 0, 0, 0, 0, 0, 0};
                for (i = start; i < end; i += 8) acc += cg_ld8(dr + i) * cg_ld8(pr + i);
                total += cg_hsum8(acc);
            }
            for (i = body; i < n; i++) total += dr[i] * pr[i];
            float t = (float)total;
            for (i = 0; i < body; i += 8)
                cg_st8(dr + i, ((cg_ld8(dr + i) - t) * cg_ld8(pr + i)) * scale);
            for (i = body; i < n; i++) dr[i] = ((dr[i] - t) * pr[i]) * scale;
        }
    }
    CG_CLONES static void cg_smd_grad(double *d, const double *p, Py_ssize_t rows, Py_ssize_t n,
                            double scale) {
        for (Py_ssize_t row = 0; row < rows; row++) {
            double *dr = d + row * n, total = 0;
            const double *pr = p + row * n;
            for (Py_ssize_t i = 0; i < n; i++) total += dr[i] * pr[i];
            for (Py_ssize_t i = 0; i < n; i++) dr[i] = ((dr[i] - total) * pr[i]) * scale;
        }
    }
    """
    void cg_smf_rows(float* s, Py_ssize_t rows, Py_ssize_t n, float scale) nogil
    void cg_smd_rows(double* s, Py_ssize_t rows, Py_ssize_t n, double scale) nogil
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


def softmax_rows(s, double scale):
    """In place, each row (last axis) of `s`: softmax(s * scale)."""
    rows, n = _rows("softmax_rows", s, ())
    cdef float[::1] f
    cdef double[::1] d
    cdef Py_ssize_t r = rows, c = n
    if not s.size:
        return
    if s.dtype.char == "f":
        f = s.reshape(-1)
        with nogil:
            cg_smf_rows(&f[0], r, c, <float>scale)
    else:
        d = s.reshape(-1)
        with nogil:
            cg_smd_rows(&d[0], r, c, scale)


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
