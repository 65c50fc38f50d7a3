"""Matrix products through a BLAS chosen at run time: cblas_?gemm / cblas_?gemv function pointers
(addresses read by ctypes from numpy's OpenBLAS or MKL's libmkl_rt) called without the GIL into
preallocated outputs. Both integer widths: LP64 (MKL's cblas_*) and ILP64 (numpy's OpenBLAS).

`gemv_split` computes a batch-1 Dense forward as two row halves of one GEMV on two OpenMP
threads, each streaming half the weights from its own core's cache; `gemv_bias` one on one
thread with the bias added by the GEMV itself. `prefetch` asks the caches for an operand ahead
of its product. `transpose_add` writes a flipped product's result back in the caller's layout,
adding the bias on the way.
"""

import numpy as np

from cython cimport floating
from cython.parallel cimport prange
from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release
from libc.stdint cimport int64_t, uintptr_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    # without Cython's `except -1`: a refused buffer is an answer here, not an error
    int _get_buffer "PyObject_GetBuffer"(object, Py_buffer*, int)
    void PyErr_Clear()

cdef extern from *:
    """
    static void cg_prefetch(const char *p, Py_ssize_t n) {
    #if defined(__GNUC__) || defined(__clang__)
        for (Py_ssize_t i = 0; i < n; i += 64) __builtin_prefetch(p + i, 0, 3);
    #else
        (void)p; (void)n;
    #endif
    }
    """
    void cg_prefetch(const char *p, Py_ssize_t n) noexcept nogil

cdef extern from *:
    """
    /* out (cols, rows) = t.T (+ b[None, :]) for C-contiguous t (rows, cols), in 8 x 8 tiles
       that stay in L1, along the output's rows (numpy's strided copy of t.T ran at ~6 GB/s);
       rows from r0 on. */
    #define CG_TR_TILE(T)                                                                   \
        static void cg_transpose_add_##T(const T *t, Py_ssize_t rows, Py_ssize_t cols,      \
                                         const T *b, T *out, Py_ssize_t r0) {               \
            for (Py_ssize_t c = 0; c < cols; c += 8) {                                        \
                Py_ssize_t ce = c + 8 < cols ? c + 8 : cols;                                  \
                for (Py_ssize_t r = r0; r < rows; r += 8) {                                   \
                    Py_ssize_t re = r + 8 < rows ? r + 8 : rows;                              \
                    if (b)                                                                    \
                        for (Py_ssize_t j = c; j < ce; j++)                                   \
                            for (Py_ssize_t i = r; i < re; i++)                               \
                                out[j * rows + i] = t[i * cols + j] + b[i];                   \
                    else                                                                      \
                        for (Py_ssize_t j = c; j < ce; j++)                                   \
                            for (Py_ssize_t i = r; i < re; i++)                               \
                                out[j * rows + i] = t[i * cols + j];                          \
                }                                                                             \
            }                                                                                 \
        }
    CG_TR_TILE(float)
    CG_TR_TILE(double)

    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    /* float32 with AVX: whole 8 x 8 tiles by unpack/shuffle/permute, the rest as above */
    __attribute__((target("avx"))) static void cg_transpose_add_avx(
            const float *t, Py_ssize_t rows, Py_ssize_t cols, const float *b, float *out) {
        Py_ssize_t R = rows & ~(Py_ssize_t)7, C = cols & ~(Py_ssize_t)7;
        /* along the output's rows: its stores are sequential, t's loads 8 rows apart */
        for (Py_ssize_t c = 0; c < C; c += 8) {
            for (Py_ssize_t r = 0; r < R; r += 8) {
                __m256 bias = b ? _mm256_loadu_ps(b + r) : _mm256_setzero_ps();
                const float *s = t + r * cols + c;
                __m256 a0 = _mm256_loadu_ps(s), a1 = _mm256_loadu_ps(s + cols);
                __m256 a2 = _mm256_loadu_ps(s + 2 * cols), a3 = _mm256_loadu_ps(s + 3 * cols);
                __m256 a4 = _mm256_loadu_ps(s + 4 * cols), a5 = _mm256_loadu_ps(s + 5 * cols);
                __m256 a6 = _mm256_loadu_ps(s + 6 * cols), a7 = _mm256_loadu_ps(s + 7 * cols);
                __m256 u0 = _mm256_unpacklo_ps(a0, a1), u1 = _mm256_unpackhi_ps(a0, a1);
                __m256 u2 = _mm256_unpacklo_ps(a2, a3), u3 = _mm256_unpackhi_ps(a2, a3);
                __m256 u4 = _mm256_unpacklo_ps(a4, a5), u5 = _mm256_unpackhi_ps(a4, a5);
                __m256 u6 = _mm256_unpacklo_ps(a6, a7), u7 = _mm256_unpackhi_ps(a6, a7);
                __m256 v0 = _mm256_shuffle_ps(u0, u2, 0x44), v1 = _mm256_shuffle_ps(u0, u2, 0xEE);
                __m256 v2 = _mm256_shuffle_ps(u1, u3, 0x44), v3 = _mm256_shuffle_ps(u1, u3, 0xEE);
                __m256 v4 = _mm256_shuffle_ps(u4, u6, 0x44), v5 = _mm256_shuffle_ps(u4, u6, 0xEE);
                __m256 v6 = _mm256_shuffle_ps(u5, u7, 0x44), v7 = _mm256_shuffle_ps(u5, u7, 0xEE);
                float *o = out + c * rows + r;
                __m256 col[8] = {
                    _mm256_permute2f128_ps(v0, v4, 0x20), _mm256_permute2f128_ps(v1, v5, 0x20),
                    _mm256_permute2f128_ps(v2, v6, 0x20), _mm256_permute2f128_ps(v3, v7, 0x20),
                    _mm256_permute2f128_ps(v0, v4, 0x31), _mm256_permute2f128_ps(v1, v5, 0x31),
                    _mm256_permute2f128_ps(v2, v6, 0x31), _mm256_permute2f128_ps(v3, v7, 0x31)};
                /* no bias: no add (adding +0 would turn a -0.0 into +0.0) */
                for (int k = 0; k < 8; k++)
                    _mm256_storeu_ps(o + k * rows, b ? _mm256_add_ps(col[k], bias) : col[k]);
            }
        }
        /* the last columns of the whole tiles' rows, then the last rows */
        if (C < cols)
            for (Py_ssize_t r = 0; r < R; r += 8)
                for (Py_ssize_t j = C; j < cols; j++)
                    for (Py_ssize_t i = r; i < r + 8; i++)
                        out[j * rows + i] = b ? t[i * cols + j] + b[i] : t[i * cols + j];
        if (R < rows)
            cg_transpose_add_float(t, rows, cols, b, out, R);
    }
    static int cg_has_avx1(void) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx");
        return has;
    }
    #else
    static int cg_has_avx1(void) { return 0; }
    static void cg_transpose_add_avx(const float *t, Py_ssize_t rows, Py_ssize_t cols,
                                     const float *b, float *out) {}
    #endif
    """
    void cg_transpose_add_float(const float *t, Py_ssize_t rows, Py_ssize_t cols,
                                const float *b, float *out, Py_ssize_t r0) noexcept nogil
    void cg_transpose_add_double(const double *t, Py_ssize_t rows, Py_ssize_t cols,
                                 const double *b, double *out, Py_ssize_t r0) noexcept nogil
    void cg_transpose_add_avx(const float *t, Py_ssize_t rows, Py_ssize_t cols, const float *b,
                              float *out) noexcept nogil
    int cg_has_avx1() noexcept nogil

cdef enum:
    ROW_MAJOR = 101
    NO_TRANS = 111
    TRANS = 112

ctypedef void (*sgemm32_t)(int, int, int, int, int, int, float, const float *, int,
                           const float *, int, float, float *, int) noexcept nogil
ctypedef void (*dgemm32_t)(int, int, int, int, int, int, double, const double *, int,
                           const double *, int, double, double *, int) noexcept nogil
ctypedef void (*sgemm64_t)(int, int, int, int64_t, int64_t, int64_t, float, const float *,
                           int64_t, const float *, int64_t, float, float *, int64_t) noexcept nogil
ctypedef void (*dgemm64_t)(int, int, int, int64_t, int64_t, int64_t, double, const double *,
                           int64_t, const double *, int64_t, double, double *,
                           int64_t) noexcept nogil
ctypedef void (*sgemv64_t)(int, int, int64_t, int64_t, float, const float *, int64_t,
                           const float *, int64_t, float, float *, int64_t) noexcept nogil


cdef inline void _gemm(uintptr_t fn, bint ilp64, bint ta, bint tb, Py_ssize_t m, Py_ssize_t n,
                       Py_ssize_t k, const floating *a, Py_ssize_t lda, const floating *b,
                       Py_ssize_t ldb, floating alpha, floating beta,
                       floating *c) noexcept nogil:
    cdef int opa = TRANS if ta else NO_TRANS
    cdef int opb = TRANS if tb else NO_TRANS
    if floating is float:
        if ilp64:
            (<sgemm64_t>fn)(ROW_MAJOR, opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, n)
        else:
            (<sgemm32_t>fn)(ROW_MAJOR, opa, opb, <int>m, <int>n, <int>k, alpha, a, <int>lda, b,
                            <int>ldb, beta, c, <int>n)
    else:
        if ilp64:
            (<dgemm64_t>fn)(ROW_MAJOR, opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, n)
        else:
            (<dgemm32_t>fn)(ROW_MAJOR, opa, opb, <int>m, <int>n, <int>k, alpha, a, <int>lda, b,
                            <int>ldb, beta, c, <int>n)


def gemm(uintptr_t fn, bint ilp64, const floating[:, ::1] a, bint trans_a,
         const floating[:, ::1] b, bint trans_b, floating[:, ::1] out, bint accumulate=False,
         double alpha=1.0):
    """out (+)= alpha * op(a) @ op(b) with op = transpose where `trans_*`; `fn` is cblas_sgemm
    or cblas_dgemm of the operands' precision, taking 64-bit integers when `ilp64`."""
    cdef Py_ssize_t m = a.shape[1] if trans_a else a.shape[0]
    cdef Py_ssize_t k = a.shape[0] if trans_a else a.shape[1]
    cdef Py_ssize_t kb = b.shape[1] if trans_b else b.shape[0]
    cdef Py_ssize_t n = b.shape[0] if trans_b else b.shape[1]
    if k != kb or out.shape[0] != m or out.shape[1] != n:
        raise ValueError(f"For 'blas.gemm', shapes do not chain: a ({a.shape[0]}, {a.shape[1]}) "
                         f"(trans {trans_a}), b ({b.shape[0]}, {b.shape[1]}) (trans {trans_b}), "
                         f"out ({out.shape[0]}, {out.shape[1]}); expected out ({m}, {n}) and "
                         f"equal inner sizes.")
    if fn == 0:
        raise ValueError("For 'blas.gemm', 'fn' is a null function pointer.")
    if m == 0 or n == 0:
        return
    cdef floating beta = 1.0 if accumulate else 0.0
    cdef floating alpha_ = <floating>alpha
    if k == 0:  # BLAS with K = 0 may leave C untouched; the product is zero
        if not accumulate:
            out[:, :] = 0
        return
    with nogil:
        _gemm(fn, ilp64, trans_a, trans_b, m, n, k, &a[0, 0], a.shape[1], &b[0, 0], b.shape[1],
              alpha_, beta, &out[0, 0])


def gemv_split(uintptr_t fn, const float[:, ::1] w, const float[::1] x, float[::1] out, cuts):
    """out = w @ x in row blocks [cuts[i], cuts[i + 1]), one per OpenMP thread, each a
    cblas_sgemv (ILP64, as numpy's OpenBLAS) on its block into its slice of `out`. The caller
    keeps that BLAS on one thread per call."""
    cdef Py_ssize_t rows = w.shape[0], cols = w.shape[1], i, parts = len(cuts) - 1
    cdef Py_ssize_t bounds[17]
    if x.shape[0] != cols or out.shape[0] != rows:
        raise ValueError(f"For 'blas.gemv_split', w ({rows}, {cols}), x ({x.shape[0]},) and "
                         f"out ({out.shape[0]},) do not chain; expected x ({cols},), out "
                         f"({rows},).")
    if fn == 0 or not 1 <= parts <= 16:
        raise ValueError(f"For 'blas.gemv_split', expected a function pointer and 2 to 17 "
                         f"cuts, got {len(cuts)} cuts.")
    for i in range(parts + 1):
        bounds[i] = cuts[i]
        if bounds[i] < 0 or bounds[i] > rows or (i and bounds[i] < bounds[i - 1]):
            raise ValueError(f"For 'blas.gemv_split', 'cuts' must rise from 0 to {rows}, got "
                             f"{list(cuts)}.")
    if bounds[0] != 0 or bounds[parts] != rows:
        raise ValueError(f"For 'blas.gemv_split', 'cuts' must rise from 0 to {rows}, got "
                         f"{list(cuts)}.")
    if rows == 0:
        return
    if cols == 0:
        out[:] = 0
        return
    cdef sgemv64_t gemv = <sgemv64_t>fn
    for i in prange(parts, nogil=True, num_threads=parts, schedule="static", chunksize=1):
        if bounds[i + 1] > bounds[i]:
            gemv(ROW_MAJOR, NO_TRANS, bounds[i + 1] - bounds[i], cols, 1.0, &w[bounds[i], 0],
                 cols, &x[0], 1, 0.0, &out[bounds[i]], 1)


cdef bint _f32(object a, Py_buffer* view, int ndim):
    """`a` as a C-contiguous float32 buffer of `ndim` dimensions (held in `view`), or False
    (nothing held): the buffer protocol alone, a fraction of a typed memoryview's set-up."""
    if _get_buffer(a, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == -1:
        PyErr_Clear()
        return False
    if view.ndim != ndim or view.itemsize != 4 or view.format[0] != b"f" or \
            view.format[1] != 0:
        PyBuffer_Release(view)
        return False
    return True


def gemv_bias(uintptr_t fn, w, x, b):
    """A batch-1 Dense forward: x @ w.T + b as a new (1, N) float32 array, `b` copied into it
    and one cblas_sgemv (ILP64, as numpy's OpenBLAS) adding w @ x[0] with beta = 1 (the bias
    add's ufunc call and numpy's dot set-up saved). w (N, K), x (1, K), b (N,): C-contiguous
    float32 (TypeError otherwise)."""
    cdef Py_buffer wv, xv, bv, ov
    if not _f32(w, &wv, 2):
        raise TypeError(f"For 'blas.gemv_bias', 'w' must be a 2-D C-contiguous float32 array, "
                        f"got {type(w).__name__} {getattr(w, 'dtype', '')}.")
    if not _f32(x, &xv, 2):
        PyBuffer_Release(&wv)
        raise TypeError(f"For 'blas.gemv_bias', 'x' must be a 2-D C-contiguous float32 array, "
                        f"got {type(x).__name__} {getattr(x, 'dtype', '')}.")
    if not _f32(b, &bv, 1):
        PyBuffer_Release(&wv)
        PyBuffer_Release(&xv)
        raise TypeError(f"For 'blas.gemv_bias', 'b' must be a 1-D C-contiguous float32 array, "
                        f"got {type(b).__name__} {getattr(b, 'dtype', '')}.")
    cdef Py_ssize_t rows = wv.shape[0], cols = wv.shape[1]
    cdef float* o
    try:
        if xv.shape[0] != 1 or xv.shape[1] != cols or bv.shape[0] != rows:
            raise ValueError(f"For 'blas.gemv_bias', w ({rows}, {cols}), x ({xv.shape[0]}, "
                             f"{xv.shape[1]}) and b ({bv.shape[0]},) do not chain; expected x "
                             f"(1, {cols}) and b ({rows},).")
        if fn == 0:
            raise ValueError("For 'blas.gemv_bias', 'fn' is a null function pointer.")
        out = np.empty((1, rows), np.float32)
        if rows == 0:
            return out
        if _get_buffer(out, &ov, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) == -1:
            raise MemoryError("For 'blas.gemv_bias', no buffer for the output.")
        o = <float*>ov.buf
        memcpy(o, bv.buf, rows * sizeof(float))
        if cols:
            with nogil:
                (<sgemv64_t>fn)(ROW_MAJOR, NO_TRANS, rows, cols, 1.0, <const float*>wv.buf, cols,
                                <const float*>xv.buf, 1, 1.0, o, 1)
        PyBuffer_Release(&ov)
        return out
    finally:
        PyBuffer_Release(&wv)
        PyBuffer_Release(&xv)
        PyBuffer_Release(&bv)


def prefetch(const floating[:, ::1] a):
    """Ask every cache level for `a`'s bytes, one prefetch per 64-byte line: a cold operand then
    streams in at the memory's rate before its product reads it in the BLAS's packing order."""
    if a.shape[0] and a.shape[1]:
        with nogil:
            cg_prefetch(<const char *>&a[0, 0], a.shape[0] * a.shape[1] * sizeof(floating))


cdef bint _float_buffer(object a, Py_buffer* view, int ndim, int flags):
    """`a` as a C-contiguous float32/float64 buffer of `ndim` dimensions (held in `view`), or
    False (nothing held)."""
    if _get_buffer(a, view, flags | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == -1:
        PyErr_Clear()
        return False
    if view.ndim != ndim or view.format[0] not in (b"f", b"d") or view.format[1] != 0:
        PyBuffer_Release(view)
        return False
    return True


cdef inline bint _overlap(Py_buffer* a, Py_buffer* b):
    cdef char* pa = <char*>a.buf
    cdef char* pb = <char*>b.buf
    return a.len > 0 and b.len > 0 and pa < pb + b.len and pb < pa + a.len


def transpose_add(t, b, out):
    """out = t.T + b (b None: out = t.T) for C-contiguous t (rows, cols), out (cols, rows) and
    b (rows,) of one float dtype (float32 or float64), `out` sharing no memory with them: the
    same bits as numpy's add. False (nothing written) for anything else: the caller uses numpy."""
    cdef Py_buffer tv, bv, ov
    if not _float_buffer(t, &tv, 2, 0):
        return False
    if not _float_buffer(out, &ov, 2, PyBUF_WRITABLE):
        PyBuffer_Release(&tv)
        return False
    cdef bint has_b = b is not None
    if has_b and not _float_buffer(b, &bv, 1, 0):
        PyBuffer_Release(&tv)
        PyBuffer_Release(&ov)
        return False
    cdef Py_ssize_t rows = tv.shape[0], cols = tv.shape[1]
    cdef char kind = tv.format[0]
    cdef bint ok = (ov.format[0] == kind and ov.shape[0] == cols and ov.shape[1] == rows and
                    (not has_b or (bv.format[0] == kind and bv.shape[0] == rows)) and
                    not _overlap(&ov, &tv) and not (has_b and _overlap(&ov, &bv)))
    cdef const void* bp = bv.buf if has_b else NULL
    try:
        if not ok:
            return False
        with nogil:
            if kind == b"d":
                cg_transpose_add_double(<const double*>tv.buf, rows, cols, <const double*>bp,
                                        <double*>ov.buf, 0)
            elif cg_has_avx1():
                cg_transpose_add_avx(<const float*>tv.buf, rows, cols, <const float*>bp,
                                     <float*>ov.buf)
            else:
                cg_transpose_add_float(<const float*>tv.buf, rows, cols, <const float*>bp,
                                       <float*>ov.buf, 0)
        return True
    finally:
        PyBuffer_Release(&tv)
        PyBuffer_Release(&ov)
        if has_b:
            PyBuffer_Release(&bv)
