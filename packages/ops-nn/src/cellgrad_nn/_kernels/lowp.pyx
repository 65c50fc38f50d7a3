"""float16 storage at float32 speed: conversions and the float16 ReLU pair.

numpy converts float16 one element at a time through a bit-twiddling routine (about 15 ns an
element here, 40x a float32 multiply) and does float16 arithmetic by converting each operand.
Here the conversions run 8 at a time with the CPU's F16C instructions (`vcvtph2ps`,
`vcvtps2ph`, round to nearest even: numpy's and MindSpore's rounding), picked at run time,
with a scalar loop of the same rounding elsewhere. ReLU and its gradient on float16 need no
arithmetic: they are selects on the 16-bit patterns.
"""

import numpy as np

from libc.stdint cimport int16_t, uint16_t

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
    """
    int cg_has_f16c() nogil
    void cg_h2f_any(const uint16_t*, float*, Py_ssize_t) nogil
    void cg_f2h_any(const float*, uint16_t*, Py_ssize_t) nogil
    void cg_h2f_loop(const uint16_t*, float*, Py_ssize_t) nogil
    void cg_f2h_loop(const float*, uint16_t*, Py_ssize_t) nogil
    void cg_relu16(const int16_t*, int16_t*, Py_ssize_t) nogil
    void cg_relu_grad16(const int16_t*, const uint16_t*, uint16_t*, Py_ssize_t) nogil


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


def to_float32(h, out=None, bint scalar=False):
    """float16 `h` as float32 (exact), into `out` when given."""
    if h.dtype != np.float16:
        raise TypeError(f"lowp.to_float32: 'h' must be float16, got {h.dtype}.")
    h = np.ascontiguousarray(h)
    res = _out(out, h.shape, np.float32, "to_float32")
    cdef const uint16_t[::1] src = h.reshape(-1).view(np.uint16)
    cdef float[::1] dst = res.reshape(-1)
    cdef Py_ssize_t n = src.shape[0]
    with nogil:
        if scalar:
            cg_h2f_loop(&src[0] if n else NULL, &dst[0] if n else NULL, n)
        else:
            cg_h2f_any(&src[0] if n else NULL, &dst[0] if n else NULL, n)
    return res


def to_float16(a, out=None, bint scalar=False):
    """float32 `a` rounded to float16 (to nearest even), into `out` when given."""
    if a.dtype != np.float32:
        raise TypeError(f"lowp.to_float16: 'a' must be float32, got {a.dtype}.")
    a = np.ascontiguousarray(a)
    res = _out(out, a.shape, np.float16, "to_float16")
    cdef const float[::1] src = a.reshape(-1)
    cdef uint16_t[::1] dst = res.reshape(-1).view(np.uint16)
    cdef Py_ssize_t n = src.shape[0]
    with nogil:
        if scalar:
            cg_f2h_loop(&src[0] if n else NULL, &dst[0] if n else NULL, n)
        else:
            cg_f2h_any(&src[0] if n else NULL, &dst[0] if n else NULL, n)
    return res


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
