"""float16 storage at float32 speed: conversions and the float16 ReLU pair.

numpy converts float16 one element at a time through a bit-twiddling routine (about 15 ns an
element here, 40x a float32 multiply) and does float16 arithmetic by converting each operand.
Here the conversions run 8 at a time with the CPU's F16C instructions (`vcvtph2ps`,
`vcvtps2ph`, round to nearest even: numpy's and MindSpore's rounding), picked at run time,
with a scalar loop of the same rounding elsewhere. ReLU and its gradient on float16 need no
arithmetic: they are selects on the 16-bit patterns.
"""

import numpy as np

from cpython.buffer cimport PyBUF_SIMPLE, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport int16_t, int64_t, uint16_t

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>

    static inline float cg_h2f(uint16_t h) {
        uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
        uint32_t bits;
        float f;
        if (e == 0) {
            f = (float)m * 5.9604644775390625e-08f;  /* m * 2**-24, exact */
            memcpy(&bits, &f, 4);
            bits |= sign;
        } else if (e == 31) {
            bits = sign | 0x7f800000u | (m << 13);
        } else {
            bits = sign | ((e + 112u) << 23) | (m << 13);
        }
        memcpy(&f, &bits, 4);
        return f;
    }

    /* Round to nearest even (F. Giesen's float_to_half_fast3_rtne). */
    static inline uint16_t cg_f2h(float f) {
        uint32_t x, ax, sign;
        memcpy(&x, &f, 4);
        sign = (x >> 16) & 0x8000u;
        ax = x & 0x7fffffffu;
        if (ax >= 0x47800000u) {  /* 2**16 and up, inf, nan */
            if (ax > 0x7f800000u) {
                uint16_t m = (uint16_t)((ax >> 13) & 0x3ffu);
                return (uint16_t)(sign | 0x7c00u | 0x200u | m);
            }
            return (uint16_t)(sign | 0x7c00u);
        }
        if (ax < 0x38800000u) {  /* below 2**-14: a subnormal or zero; the add rounds */
            float t, half = 0.5f;
            uint32_t tb, hb;
            memcpy(&t, &ax, 4);
            t += half;
            memcpy(&tb, &t, 4);
            memcpy(&hb, &half, 4);
            return (uint16_t)(sign | (tb - hb));
        }
        ax += 0xc8000fffu + ((ax >> 13) & 1u);  /* rebias the exponent, round */
        return (uint16_t)(sign | (ax >> 13));
    }

    static void cg_h2f_loop(const uint16_t *src, float *dst, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) dst[i] = cg_h2f(src[i]);
    }
    static void cg_f2h_loop(const float *src, uint16_t *dst, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) dst[i] = cg_f2h(src[i]);
    }

    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("avx,f16c"))) static void cg_h2f_f16c(
            const uint16_t *src, float *dst, Py_ssize_t n) {
        Py_ssize_t i = 0;
        for (; i + 8 <= n; i += 8)
            _mm256_storeu_ps(dst + i,
                             _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
        cg_h2f_loop(src + i, dst + i, n - i);
    }
    __attribute__((target("avx,f16c"))) static void cg_f2h_f16c(
            const float *src, uint16_t *dst, Py_ssize_t n) {
        Py_ssize_t i = 0;
        for (; i + 8 <= n; i += 8)
            _mm_storeu_si128((__m128i *)(dst + i),
                             _mm256_cvtps_ph(_mm256_loadu_ps(src + i),
                                             _MM_FROUND_TO_NEAREST_INT));
        cg_f2h_loop(src + i, dst + i, n - i);
    }
    static int cg_has_f16c(void) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
        return has;
    }
    #else
    static int cg_has_f16c(void) { return 0; }
    static void cg_h2f_f16c(const uint16_t *src, float *dst, Py_ssize_t n) {}
    static void cg_f2h_f16c(const float *src, uint16_t *dst, Py_ssize_t n) {}
    #endif

    static void cg_h2f_any(const uint16_t *src, float *dst, Py_ssize_t n) {
        if (cg_has_f16c()) cg_h2f_f16c(src, dst, n); else cg_h2f_loop(src, dst, n);
    }
    static void cg_f2h_any(const float *src, uint16_t *dst, Py_ssize_t n) {
        if (cg_has_f16c()) cg_f2h_f16c(src, dst, n); else cg_f2h_loop(src, dst, n);
    }

    /* max(x, 0) on the bit patterns: a negative number (sign set, not a nan: below -1023 as
       int16) gives +0; a nan stays a nan, as numpy's maximum */
    static void cg_relu16(const int16_t *x, int16_t *out, Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++) out[i] = x[i] < -1023 ? 0 : x[i];
    }
    /* where(out > 0, g, 0): out > 0 is 1..0x7c00 (up to +inf, no nan) */
    static void cg_relu_grad16(const int16_t *o, const uint16_t *g, uint16_t *res,
                               Py_ssize_t n) {
        for (Py_ssize_t i = 0; i < n; i++)
            res[i] = g[i] & (uint16_t)(0u - (uint16_t)((o[i] > 0) & (o[i] <= 0x7c00)));
    }

    /* an order key of a float16 pattern with -0 == +0 (nan excluded by the caller) */
    #define CG_KEY(s) ((s) >= 0 ? (s) : -((s) & 0x7fff))
    #define CG_NAN(s) (((s) & 0x7fff) > 0x7c00)

    /* 2x2 windows, stride 2, no padding over planes of H x W: the maximum and the flat
       position of the first tap equal to it (taps in order top-left, top-right, bottom-left,
       bottom-right), as pool.pyx's float32 loop; 1 when a nan was seen (nothing usable) */
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    #define CG_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
    #else
    #define CG_CLONES
    #endif
    CG_CLONES static int cg_max2x2_16(const int16_t *x, int16_t *out, int64_t *arg,
                                      Py_ssize_t planes, Py_ssize_t H, Py_ssize_t W,
                                      Py_ssize_t OH, Py_ssize_t OW) {
        int nan = 0;
        for (Py_ssize_t p = 0; p < planes; p++)
            for (Py_ssize_t oy = 0; oy < OH; oy++) {
                const int16_t *top = x + p * H * W + 2 * oy * W, *bottom = top + W;
                int16_t *best = out + (p * OH + oy) * OW;
                int64_t *where = arg + (p * OH + oy) * OW;
                int64_t base = 2 * oy * W;
                for (Py_ssize_t ox = 0; ox < OW; ox++) {
                    /* branch-free (selects), so the loop vectorises */
                    int sa = top[2 * ox], sb = top[2 * ox + 1];
                    int sd = bottom[2 * ox], se = bottom[2 * ox + 1];
                    int ka = CG_KEY(sa), kb = CG_KEY(sb), kd = CG_KEY(sd), ke = CG_KEY(se);
                    int m1 = ka > kb ? ka : kb, v1 = ka > kb ? sa : sb;
                    int m2 = m1 > kd ? m1 : kd, v2 = m1 > kd ? v1 : sd;
                    int m = m2 > ke ? m2 : ke, v = m2 > ke ? v2 : se;
                    int k = (ka != m) * (1 + (kb != m) * (1 + (kd != m)));
                    nan |= CG_NAN(sa) | CG_NAN(sb) | CG_NAN(sd) | CG_NAN(se);
                    best[ox] = (int16_t)v;
                    where[ox] = base + (k >> 1) * W + 2 * ox + (k & 1);
                }
            }
        return nan;
    }

    /* cg_max2x2_16 over the windows from..OW-1 of one row pair (top row at `top`) */
    static int cg_max2x2_16_rows(const int16_t *top, Py_ssize_t W, int64_t base,
                                 int16_t *best, int64_t *where, Py_ssize_t from,
                                 Py_ssize_t OW) {
        const int16_t *bottom = top + W;
        int nan = 0;
        for (Py_ssize_t ox = from; ox < OW; ox++) {
            int sa = top[2 * ox], sb = top[2 * ox + 1];
            int sd = bottom[2 * ox], se = bottom[2 * ox + 1];
            int ka = CG_KEY(sa), kb = CG_KEY(sb), kd = CG_KEY(sd), ke = CG_KEY(se);
            int m1 = ka > kb ? ka : kb, v1 = ka > kb ? sa : sb;
            int m2 = m1 > kd ? m1 : kd, v2 = m1 > kd ? v1 : sd;
            int m = m2 > ke ? m2 : ke, v = m2 > ke ? v2 : se;
            int k = (ka != m) * (1 + (kb != m) * (1 + (kd != m)));
            nan |= CG_NAN(sa) | CG_NAN(sb) | CG_NAN(sd) | CG_NAN(se);
            best[ox] = (int16_t)v;
            where[ox] = base + (k >> 1) * W + 2 * ox + (k & 1);
        }
        return nan;
    }

    /* The same with AVX2, 8 windows a step in 32-bit lanes (gcc's vectorisation of the loop
       above gathers the strided taps: 3-5x slower). */
    #if defined(__GNUC__) && defined(__x86_64__)
    /* 8 windows: 4 from the row pair (t0, b0) and 4 from (t1, b1), each 8 int16 of its rows */
    __attribute__((target("avx2"))) static inline __m256i cg_mp_win8(
            const int16_t *t0, const int16_t *b0, const int16_t *t1, const int16_t *b1,
            int16_t *best0, int16_t *best1, int64_t *where0, int64_t *where1,
            __m256i pos0, __m256i wv, __m256i nanacc) {
        const __m256i low = _mm256_set1_epi32(0x7fff), inf = _mm256_set1_epi32(0x7c00);
        const __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
        __m256i t = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)t1),
                                     _mm_loadu_si128((const __m128i *)t0));
        __m256i b = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)b1),
                                     _mm_loadu_si128((const __m128i *)b0));
        __m256i sa = _mm256_srai_epi32(_mm256_slli_epi32(t, 16), 16), sb = _mm256_srai_epi32(t, 16);
        __m256i sd = _mm256_srai_epi32(_mm256_slli_epi32(b, 16), 16), se = _mm256_srai_epi32(b, 16);
        __m256i ma = _mm256_and_si256(sa, low), mb = _mm256_and_si256(sb, low);
        __m256i md = _mm256_and_si256(sd, low), me = _mm256_and_si256(se, low);
        nanacc = _mm256_or_si256(nanacc, _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpgt_epi32(ma, inf), _mm256_cmpgt_epi32(mb, inf)),
            _mm256_or_si256(_mm256_cmpgt_epi32(md, inf), _mm256_cmpgt_epi32(me, inf))));
        /* the order key: the magnitude, negated for a set sign (-0 and +0 both 0) */
        __m256i ga = _mm256_srai_epi32(sa, 31), gb = _mm256_srai_epi32(sb, 31);
        __m256i gd = _mm256_srai_epi32(sd, 31), ge = _mm256_srai_epi32(se, 31);
        __m256i ka = _mm256_sub_epi32(_mm256_xor_si256(ma, ga), ga);
        __m256i kb = _mm256_sub_epi32(_mm256_xor_si256(mb, gb), gb);
        __m256i kd = _mm256_sub_epi32(_mm256_xor_si256(md, gd), gd);
        __m256i ke = _mm256_sub_epi32(_mm256_xor_si256(me, ge), ge);
        __m256i m = _mm256_max_epi32(_mm256_max_epi32(ka, kb), _mm256_max_epi32(kd, ke));
        __m256i ea = _mm256_cmpeq_epi32(ka, m), eb = _mm256_cmpeq_epi32(kb, m);
        __m256i ed = _mm256_cmpeq_epi32(kd, m), ee = _mm256_cmpeq_epi32(ke, m);
        /* the value of the last tap equal to the maximum, the position of the first (the
           scalar loop's choices: they differ only between -0 and +0) */
        __m256i v = _mm256_blendv_epi8(_mm256_blendv_epi8(_mm256_blendv_epi8(sa, sb, eb), sd, ed),
                                       se, ee);
        __m256i off = _mm256_blendv_epi8(_mm256_blendv_epi8(
            _mm256_blendv_epi8(_mm256_add_epi32(wv, one), wv, ed), one, eb), zero, ea);
        __m256i pos = _mm256_add_epi32(pos0, off);
        __m256i packed = _mm256_packs_epi32(v, v);
        _mm_storel_epi64((__m128i *)best0, _mm256_castsi256_si128(packed));
        _mm_storel_epi64((__m128i *)best1, _mm256_extracti128_si256(packed, 1));
        _mm256_storeu_si256((__m256i *)where0, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(pos)));
        _mm256_storeu_si256((__m256i *)where1,
                            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(pos, 1)));
        return nanacc;
    }

    /* cg_max2x2_16 in chunks of 4 windows of a row pair, two chunks a step (positions fit int32:
       the caller checks H * W) */
    __attribute__((target("avx2"))) static int cg_max2x2_16_avx2(
            const int16_t *x, int16_t *out, int64_t *arg, Py_ssize_t planes, Py_ssize_t H,
            Py_ssize_t W, Py_ssize_t OH, Py_ssize_t OW) {
        Py_ssize_t rows = planes * OH, chunks = rows * (OW / 4), done = 0;
        Py_ssize_t r = 0, p = 0, oy = 0, ox = 0;  /* the next chunk: row pair, plane, row, window */
        /* two chunks: row pairs, windows, input offsets */
        Py_ssize_t ra = 0, rb = 0, oa = 0, ob = 0, ia = 0, ib = 0;
        int pa = 0, pb = 0;  /* their first windows' positions in the plane */
        __m256i nanacc = _mm256_setzero_si256(), wv = _mm256_set1_epi32((int)W);
        const __m256i step = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        while (done < chunks) {
            for (int half = 0; half < 2; half++) {
                Py_ssize_t rr = r, oo = ox, ii = p * H * W + 2 * oy * W + 2 * ox;
                int pp = (int)(2 * oy * W + 2 * ox);
                if (done < chunks) {  /* else the last chunk again (same stores) */
                    done++;
                    ox += 4;
                    if (ox + 4 > OW) {
                        ox = 0;
                        r++;
                        if (++oy == OH) { oy = 0; p++; }
                    }
                } else {
                    rr = ra; oo = oa; ii = ia; pp = pa;
                }
                if (half == 0) { ra = rr; oa = oo; ia = ii; pa = pp; }
                else { rb = rr; ob = oo; ib = ii; pb = pp; }
            }
            __m256i pos0 = _mm256_add_epi32(step,
                                            _mm256_setr_epi32(pa, pa, pa, pa, pb, pb, pb, pb));
            nanacc = cg_mp_win8(x + ia, x + ia + W, x + ib, x + ib + W, out + ra * OW + oa,
                                out + rb * OW + ob, arg + ra * OW + oa, arg + rb * OW + ob, pos0,
                                wv, nanacc);
        }
        int nan = !_mm256_testz_si256(nanacc, nanacc);
        if (OW % 4) {  /* the windows after the last chunk of each row pair */
            Py_ssize_t from = OW - OW % 4;
            for (r = 0, p = 0, oy = 0; r < rows; r++) {
                nan |= cg_max2x2_16_rows(x + p * H * W + 2 * oy * W, W, 2 * oy * W, out + r * OW,
                                         arg + r * OW, from, OW);
                if (++oy == OH) { oy = 0; p++; }
            }
        }
        return nan;
    }
    static int cg_has_avx2(void) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx2");
        return has;
    }
    #else
    static int cg_has_avx2(void) { return 0; }
    static int cg_max2x2_16_avx2(const int16_t *x, int16_t *out, int64_t *arg,
                                 Py_ssize_t planes, Py_ssize_t H, Py_ssize_t W, Py_ssize_t OH,
                                 Py_ssize_t OW) { return 1; }
    #endif

    /* dx[p, arg] = g[p, i]: windows that tile the plane reach each input at most once */
    static void cg_scatter16(const uint16_t *g, const int64_t *arg, uint16_t *dx,
                             Py_ssize_t planes, Py_ssize_t npos, Py_ssize_t plane) {
        for (Py_ssize_t p = 0; p < planes; p++)
            for (Py_ssize_t i = 0; i < npos; i++) {
                int64_t a = arg[p * npos + i];
                if (a >= 0 && a < plane) dx[p * plane + a] = g[p * npos + i];
            }
    }
    """
    int cg_max2x2_16(const int16_t*, int16_t*, int64_t*, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                     Py_ssize_t, Py_ssize_t) nogil
    int cg_max2x2_16_avx2(const int16_t*, int16_t*, int64_t*, Py_ssize_t, Py_ssize_t,
                          Py_ssize_t, Py_ssize_t, Py_ssize_t) nogil
    int cg_has_avx2() nogil
    void cg_scatter16(const uint16_t*, const int64_t*, uint16_t*, Py_ssize_t, Py_ssize_t,
                      Py_ssize_t) nogil
    int cg_has_f16c() nogil
    void cg_h2f_any(const uint16_t*, float*, Py_ssize_t) nogil
    void cg_f2h_any(const float*, uint16_t*, Py_ssize_t) nogil
    void cg_h2f_loop(const uint16_t*, float*, Py_ssize_t) nogil
    void cg_f2h_loop(const float*, uint16_t*, Py_ssize_t) nogil
    void cg_relu16(const int16_t*, int16_t*, Py_ssize_t) nogil
    void cg_relu_grad16(const int16_t*, const uint16_t*, uint16_t*, Py_ssize_t) nogil


cdef extern from *:
    """
    /* Dense's float16 bias: round16(round16(a) + b) per row of a float32 product `a`, the
       float32 add of numpy's float16 add (each operand exact in float32) */
    static void cg_bias16_loop(const float *a, const uint16_t *b, uint16_t *out,
                               Py_ssize_t from, Py_ssize_t rows, Py_ssize_t n) {
        for (Py_ssize_t r = 0; r < rows; r++)
            for (Py_ssize_t j = from; j < n; j++)
                out[r * n + j] = cg_f2h(cg_h2f(cg_f2h(a[r * n + j])) + cg_h2f(b[j]));
    }
    #if defined(__GNUC__) && defined(__x86_64__)
    __attribute__((target("avx,f16c"))) static void cg_bias16_f16c(
            const float *a, const uint16_t *b, uint16_t *out, Py_ssize_t rows, Py_ssize_t n) {
        Py_ssize_t whole = n - n % 8;
        for (Py_ssize_t r = 0; r < rows; r++)
            for (Py_ssize_t j = 0; j < whole; j += 8) {
                __m256 v = _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(a + r * n + j),
                                                           _MM_FROUND_TO_NEAREST_INT));
                v = _mm256_add_ps(v, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + j))));
                _mm_storeu_si128((__m128i *)(out + r * n + j),
                                 _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
            }
        cg_bias16_loop(a, b, out, whole, rows, n);
    }
    #else
    static void cg_bias16_f16c(const float *a, const uint16_t *b, uint16_t *out,
                               Py_ssize_t rows, Py_ssize_t n) {}
    #endif
    static void cg_bias16(const float *a, const uint16_t *b, uint16_t *out, Py_ssize_t rows,
                          Py_ssize_t n, int scalar) {
        if (cg_has_f16c() && !scalar) cg_bias16_f16c(a, b, out, rows, n);
        else cg_bias16_loop(a, b, out, 0, rows, n);
    }
    """
    void cg_bias16(const float*, const uint16_t*, uint16_t*, Py_ssize_t, Py_ssize_t,
                   int) nogil

cdef extern from *:
    """
    /* x /= f in place, and whether every quotient is finite: q * 0 is 0 for a finite q and a
       nan for an inf or a nan, so one sum of those tells (no branch in the loop). The division
       is IEEE's, as numpy's `x /= float32(f)`, bit for bit. */
    static int cg_unscale_loop(float *x, Py_ssize_t n, float f) {
        float acc = 0.0f;
        for (Py_ssize_t i = 0; i < n; i++) {
            float q = x[i] / f;
            x[i] = q;
            acc += q * 0.0f;
        }
        return acc == 0.0f;
    }
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("avx"))) static int cg_unscale_avx(float *x, Py_ssize_t n, float f) {
        __m256 vf = _mm256_set1_ps(f), zero = _mm256_setzero_ps(), acc = zero;
        float lanes[8];
        Py_ssize_t i = 0;
        int ok = 1;
        for (; i + 8 <= n; i += 8) {
            __m256 q = _mm256_div_ps(_mm256_loadu_ps(x + i), vf);
            _mm256_storeu_ps(x + i, q);
            acc = _mm256_add_ps(acc, _mm256_mul_ps(q, zero));
        }
        _mm256_storeu_ps(lanes, acc);
        for (int k = 0; k < 8; k++) ok &= lanes[k] == 0.0f;
        return cg_unscale_loop(x + i, n - i, f) & ok;
    }
    static int cg_unscale(float *x, Py_ssize_t n, float f) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx");
        return has ? cg_unscale_avx(x, n, f) : cg_unscale_loop(x, n, f);
    }
    #else
    static int cg_unscale(float *x, Py_ssize_t n, float f) { return cg_unscale_loop(x, n, f); }
    #endif
    """
    int cg_unscale(float*, Py_ssize_t, float) nogil


def has_f16c():
    """Whether this CPU converts with F16C (else a scalar loop of the same rounding)."""
    return bool(cg_has_f16c())


def _out(out, shape, dtype, name):
    if out is None:
        return np.empty(shape, dtype)
    if out.shape != shape or out.dtype != dtype or not out.flags.c_contiguous:
        raise ValueError(f"lowp.{name}: 'out' must be a C-contiguous {np.dtype(dtype)} array of "
                         f"shape {shape}, got {out.dtype} {out.shape}.")
    return out


cdef object _F16 = np.dtype(np.float16)
cdef object _F32 = np.dtype(np.float32)


cdef object _contiguous(object a):
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def to_float32(h, out=None, bint scalar=False):
    """float16 `h` as float32 (exact), into `out` when given."""
    # raw buffers (no typed memoryviews, views or reshapes): a call costs well under a
    # microsecond, and an O2 step makes ~85 of them
    if h.dtype is not _F16 and h.dtype != _F16:
        raise TypeError(f"lowp.to_float32: 'h' must be float16, got {h.dtype}.")
    h = _contiguous(h)
    res = np.empty(h.shape, _F32) if out is None else _out(out, h.shape, _F32, "to_float32")
    cdef Py_buffer src, dst
    PyObject_GetBuffer(h, &src, PyBUF_SIMPLE)
    try:
        PyObject_GetBuffer(res, &dst, PyBUF_SIMPLE | PyBUF_WRITABLE)
        try:
            with nogil:
                if scalar:
                    cg_h2f_loop(<const uint16_t*>src.buf, <float*>dst.buf, src.len // 2)
                else:
                    cg_h2f_any(<const uint16_t*>src.buf, <float*>dst.buf, src.len // 2)
        finally:
            PyBuffer_Release(&dst)
    finally:
        PyBuffer_Release(&src)
    return res


def to_float16(a, out=None, bint scalar=False):
    """float32 `a` rounded to float16 (to nearest even), into `out` when given."""
    if a.dtype is not _F32 and a.dtype != _F32:
        raise TypeError(f"lowp.to_float16: 'a' must be float32, got {a.dtype}.")
    a = _contiguous(a)
    res = np.empty(a.shape, _F16) if out is None else _out(out, a.shape, _F16, "to_float16")
    cdef Py_buffer src, dst
    PyObject_GetBuffer(a, &src, PyBUF_SIMPLE)
    try:
        PyObject_GetBuffer(res, &dst, PyBUF_SIMPLE | PyBUF_WRITABLE)
        try:
            with nogil:
                if scalar:
                    cg_f2h_loop(<const float*>src.buf, <uint16_t*>dst.buf, src.len // 4)
                else:
                    cg_f2h_any(<const float*>src.buf, <uint16_t*>dst.buf, src.len // 4)
        finally:
            PyBuffer_Release(&dst)
    finally:
        PyBuffer_Release(&src)
    return res


def f32(a):
    """`a` in a dtype the float kernels take: float16 as float32 (F16C), bfloat16 as float32
    (numpy), exactly; float32, float64 and None as they are."""
    if a is None:
        return a
    code = a.dtype.char
    if code == "f" or code == "d":
        return a
    if code == "e":
        return to_float32(a)
    return a.astype(_F32)


def round_to(a, dtype):
    """float32 `a` rounded to `dtype` (to nearest even); `a` itself when it has that dtype."""
    src = a.dtype
    if src is dtype or src == dtype:
        return a
    if dtype == _F16 and src == _F32:
        return to_float16(a)
    return a.astype(dtype)


def relu16(x):
    """`maximum(x, 0)` of a float16 array, as a new array."""
    x = np.ascontiguousarray(x)
    res = np.empty(x.shape, np.float16)
    cdef const int16_t[::1] src = x.reshape(-1).view(np.int16)
    cdef int16_t[::1] dst = res.reshape(-1).view(np.int16)
    cdef Py_ssize_t n = src.shape[0]
    if n:
        with nogil:
            cg_relu16(&src[0], &dst[0], n)
    return res


def relu_grad16(out, g):
    """`where(out > 0, g, 0)` for float16 `out` and `g` of one shape, as a new array."""
    if out.shape != g.shape:
        raise ValueError(f"lowp.relu_grad16: shapes differ: {out.shape} and {g.shape}.")
    out, g = np.ascontiguousarray(out), np.ascontiguousarray(g)
    res = np.empty(g.shape, np.float16)
    cdef const int16_t[::1] o = out.reshape(-1).view(np.int16)
    cdef const uint16_t[::1] gv = g.reshape(-1).view(np.uint16)
    cdef uint16_t[::1] r = res.reshape(-1).view(np.uint16)
    cdef Py_ssize_t n = o.shape[0]
    if n:
        with nogil:
            cg_relu_grad16(&o[0], &gv[0], &r[0], n)
    return res


def max_pool_2x2(x, bint scalar=False):
    """Max pooling of a float16 (N, C, H, W) array over 2x2 windows, stride 2, no padding:
    (out, argmax) as pool.pyx's `max_pool_forward` gives them, or None when `x` holds a nan
    (the caller then takes the float32 kernel, which treats nans). AVX2 where the CPU has it
    (`scalar`: the portable loop, for tests)."""
    if x.dtype != np.float16 or x.ndim != 4:
        raise TypeError(f"lowp.max_pool_2x2: 'x' must be a 4-D float16 array, got {x.dtype} "
                        f"{x.shape}.")
    x = np.ascontiguousarray(x)
    cdef Py_ssize_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3]
    cdef Py_ssize_t oh = h // 2, ow = w // 2
    out = np.empty((n, c, oh, ow), np.float16)
    argmax = np.empty((n, c, oh, ow), np.int64)
    if out.size == 0:
        return out, argmax
    cdef const int16_t[::1] src = x.reshape(-1).view(np.int16)
    cdef int16_t[::1] dst = out.reshape(-1).view(np.int16)
    cdef int64_t[::1] arg = argmax.reshape(-1)
    cdef int nan
    cdef bint vector = cg_has_avx2() and not scalar and h * w < 2 ** 31  # int32 positions
    with nogil:
        if vector:
            nan = cg_max2x2_16_avx2(&src[0], &dst[0], &arg[0], n * c, h, w, oh, ow)
        else:
            nan = cg_max2x2_16(&src[0], &dst[0], &arg[0], n * c, h, w, oh, ow)
    return None if nan else (out, argmax)


def scatter_2x2(g, argmax, tuple x_shape):
    """The float16 gradient of `max_pool_2x2`: zeros of `x_shape` with `g` (N, C, OH, OW) at
    the flat positions `argmax` of each plane (windows that tile it: no position twice)."""
    if g.dtype != np.float16 or argmax.dtype != np.int64 or g.shape != argmax.shape or \
            len(x_shape) != 4 or g.ndim != 4 or tuple(g.shape[:2]) != tuple(x_shape[:2]):
        raise ValueError(f"lowp.scatter_2x2: 'g' (float16) and 'argmax' (int64) must be "
                         f"(N, C, OH, OW) of one shape over x {x_shape}, got {g.dtype} "
                         f"{g.shape} and {argmax.dtype} {argmax.shape}.")
    g, argmax = np.ascontiguousarray(g), np.ascontiguousarray(argmax)
    dx = np.zeros(x_shape, np.float16)
    cdef Py_ssize_t planes = x_shape[0] * x_shape[1]
    cdef Py_ssize_t npos = g.shape[2] * g.shape[3], plane = x_shape[2] * x_shape[3]
    if planes == 0 or npos == 0:
        return dx
    cdef const uint16_t[::1] gv = g.reshape(-1).view(np.uint16)
    cdef const int64_t[::1] arg = argmax.reshape(-1)
    cdef uint16_t[::1] d = dx.reshape(-1).view(np.uint16)
    with nogil:
        cg_scatter16(&gv[0], &arg[0], &d[0], planes, npos, plane)
    return dx


def unscale_finite(list arrays, double factor):
    """Divide every array of `arrays` in place by `factor` rounded to float32 (numpy's
    `a /= np.float32(factor)`) and say whether all the quotients are finite; None, touching
    nothing, unless every array is a writable C-contiguous float32 array."""
    for a in arrays:
        if type(a) is not np.ndarray or a.dtype is not _F32 and a.dtype != _F32 or \
                not a.flags.c_contiguous or not a.flags.writeable:
            return None
    cdef float f = <float>factor
    cdef Py_buffer buf
    cdef int ok = 1
    for a in arrays:
        PyObject_GetBuffer(a, &buf, PyBUF_SIMPLE | PyBUF_WRITABLE)
        try:
            with nogil:
                ok &= cg_unscale(<float*>buf.buf, buf.len // 4, f)
        finally:
            PyBuffer_Release(&buf)
    return bool(ok)


def bias_round16(a, b, bint scalar=False):
    """float16 `(a rounded to float16) + b`, rounded to float16, for a float32 `a` (..., n)
    and a float16 `b` (n,): Dense's float16 bias add after its float32 product, in one pass."""
    if a.dtype != _F32 or b.dtype != _F16 or b.ndim != 1 or a.ndim < 1 or \
            a.shape[a.ndim - 1] != b.shape[0]:
        raise TypeError(f"lowp.bias_round16: 'a' must be float32 (..., n) and 'b' float16 (n,), "
                        f"got {a.dtype} {a.shape} and {b.dtype} {b.shape}.")
    a, b = _contiguous(a), _contiguous(b)
    res = np.empty(a.shape, _F16)
    cdef Py_ssize_t n = b.shape[0]
    cdef Py_ssize_t rows = a.size // n if n else 0
    cdef Py_buffer src, bias, dst
    PyObject_GetBuffer(a, &src, PyBUF_SIMPLE)
    try:
        PyObject_GetBuffer(b, &bias, PyBUF_SIMPLE)
        try:
            PyObject_GetBuffer(res, &dst, PyBUF_SIMPLE | PyBUF_WRITABLE)
            try:
                with nogil:
                    cg_bias16(<const float*>src.buf, <const uint16_t*>bias.buf,
                              <uint16_t*>dst.buf, rows, n, scalar)
            finally:
                PyBuffer_Release(&dst)
        finally:
            PyBuffer_Release(&bias)
    finally:
        PyBuffer_Release(&src)
    return res
