"""Max and average pooling, forward and backward, without padded copies: one kernel for 2-D
images (N, C, H, W) and 3-D volumes (N, C, D, H, W), a 2-D image being a volume of depth 1.

Windows start at `o * stride - pad` and keep only the taps inside the input: max pooling
thus pads with -inf, and average pooling divides by a divisor the caller computed (it knows
whether padding counts). Max pooling records each window's argmax as a flat D * H * W index
in the input (-1 for a window with no tap inside), so its backward is one scatter-add.
"""

from cython cimport floating
from libc.math cimport INFINITY
from libc.stdint cimport int64_t
from libc.stdlib cimport free

from cellgrad_nn._kernels._entry cimport describe, ints, positive, real_kind, shape_is
from cellgrad_nn._kernels._geometry cimport inside, tap_table


cdef extern from *:
    """
    /* One plane's 2 x 2 / stride 2 windows (float32) with AVX2, 8 windows of a row a step
       (the taps deinterleaved by shuffles; a row's last windows read past its end, or masked at
       the input's end): the scalar loop's numbers and argmax positions (a `maxps` chain is its
       `a > b ? a : b` chain), at 0.3-0.6x its time for LeNet's pools. Returns whether a NaN
       was seen (the caller then redoes the plane NaN-aware). `src`: the plane's first input
       row; `end`: the input's end; `base`: the plane's position in the volume. Positions are
       int32 inside: the caller checks the volume's size. */
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("avx2"))) static int cg_max2x2_plane_f32(
            const float *src, const float *end, float *best, int64_t *where, Py_ssize_t oh,
            Py_ssize_t ow, Py_ssize_t width, int base) {
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i one = _mm256_set1_epi32(1), wide = _mm256_set1_epi32(width);
        const __m256i wide1 = _mm256_set1_epi32(width + 1), zero = _mm256_setzero_si256();
        __m256 nan = _mm256_setzero_ps();
        for (Py_ssize_t oy = 0; oy < oh; oy++, best += ow, where += ow)
        for (Py_ssize_t ox = 0; ox < ow; ox += 8) {
            Py_ssize_t left = ow - ox;
            __m256 t0, t1, b0, b1;
            const float *t = src + 2 * oy * width + 2 * ox, *b = t + width;
            if (left >= 8 || b + 16 <= end) {  /* reading past the row is harmless */
                t0 = _mm256_loadu_ps(t); t1 = _mm256_loadu_ps(t + 8);
                b0 = _mm256_loadu_ps(b); b1 = _mm256_loadu_ps(b + 8);
            } else {
                __m256i m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(2 * left)), lanes);
                __m256i m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(2 * left - 8)), lanes);
                t0 = _mm256_maskload_ps(t, m0); t1 = _mm256_maskload_ps(t + 8, m1);
                b0 = _mm256_maskload_ps(b, m0); b1 = _mm256_maskload_ps(b + 8, m1);
            }
            /* even and odd taps, lanes back in window order */
            __m256 va = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(t0, t1, 0x88)), 0xD8));
            __m256 vb = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(t0, t1, 0xDD)), 0xD8));
            __m256 vd = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(b0, b1, 0x88)), 0xD8));
            __m256 ve = _mm256_castpd_ps(_mm256_permute4x64_pd(
                _mm256_castps_pd(_mm256_shuffle_ps(b0, b1, 0xDD)), 0xD8));
            __m256 unord = _mm256_or_ps(_mm256_cmp_ps(va, vb, _CMP_UNORD_Q),
                                        _mm256_cmp_ps(vd, ve, _CMP_UNORD_Q));
            if (left < 8)  /* lanes past the row's windows read the next row's values */
                unord = _mm256_and_ps(unord, _mm256_castsi256_ps(
                    _mm256_cmpgt_epi32(_mm256_set1_epi32((int)left), lanes)));
            nan = _mm256_or_ps(nan, unord);
            __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_max_ps(va, vb), vd), ve);
            /* the first tap (a, b, d, e) equal to the maximum */
            __m256i ea = _mm256_castps_si256(_mm256_cmp_ps(va, m, _CMP_EQ_OQ));
            __m256i eb = _mm256_castps_si256(_mm256_cmp_ps(vb, m, _CMP_EQ_OQ));
            __m256i ed = _mm256_castps_si256(_mm256_cmp_ps(vd, m, _CMP_EQ_OQ));
            __m256i off = _mm256_blendv_epi8(_mm256_blendv_epi8(
                _mm256_blendv_epi8(wide1, wide, ed), one, eb), zero, ea);
            __m256i pos = _mm256_add_epi32(_mm256_add_epi32(
                _mm256_set1_epi32(base + (int)(2 * oy * width + 2 * ox)),
                _mm256_slli_epi32(lanes, 1)), off);
            __m256i lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(pos));
            __m256i hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(pos, 1));
            if (left >= 8) {
                _mm256_storeu_ps(best + ox, m);
                _mm256_storeu_si256((__m256i *)(where + ox), lo);
                _mm256_storeu_si256((__m256i *)(where + ox + 4), hi);
            } else {  /* through the stack: AMD's masked stores are microcoded (~5x slower) */
                float mv[8];
                int64_t pv[8];
                _mm256_storeu_ps(mv, m);
                _mm256_storeu_si256((__m256i *)pv, lo);
                _mm256_storeu_si256((__m256i *)(pv + 4), hi);
                for (Py_ssize_t i = 0; i < left; i++) {
                    best[ox + i] = mv[i];
                    where[ox + i] = pv[i];
                }
            }
        }
        return !_mm256_testz_ps(nan, nan);
    }
    static int cg_pool_avx2(void) {
        static int has = -1;
        if (has < 0) has = __builtin_cpu_supports("avx2");
        return has;
    }
    #else
    static int cg_pool_avx2(void) { return 0; }
    static int cg_max2x2_plane_f32(const float *src, const float *end, float *best,
                                   int64_t *where, Py_ssize_t oh, Py_ssize_t ow,
                                   Py_ssize_t width, int base) { return 1; }
    #endif
    """
    int cg_max2x2_plane_f32(const float* src, const float* end, float* best, int64_t* where,
                            Py_ssize_t oh, Py_ssize_t ow, Py_ssize_t width,
                            int base) noexcept nogil
    int cg_pool_avx2() noexcept nogil


cdef struct Window:
    # The input (N, C, D, H, W), the output positions, and per axis (depth, height, width)
    # the kernel extent, stride, dilation and leading padding.
    Py_ssize_t n, c, depth, height, width, od, oh, ow
    Py_ssize_t kd, kh, kw, sd, sh, sw, dd, dh, dw, pf, pt, pl


cdef void _max_row_exact(const floating* volume, floating* best, int64_t* where, Window v,
                         Py_ssize_t z0, Py_ssize_t zlo, Py_ssize_t zhi, Py_ssize_t y0,
                         Py_ssize_t ilo, Py_ssize_t ihi, const Py_ssize_t* taps) noexcept nogil:
    """One output row with NaN-aware compares (rows holding a NaN: rare, so branches do)."""
    cdef Py_ssize_t a, i, j, ox, at, base
    cdef floating val, b
    for a in range(zlo, zhi):
        for i in range(ilo, ihi):
            base = ((z0 + a * v.dd) * v.height + y0 + i * v.dh) * v.width
            for j in range(v.kw):
                for ox in range(taps[2 * j], taps[2 * j + 1]):
                    at = base + ox * v.sw + j * v.dw - v.pl
                    val = volume[at]
                    b = best[ox]
                    # The first maximum wins; a NaN wins and stays (as numpy, torch).
                    if where[ox] < 0 or val > b or (val != val and b == b):
                        best[ox] = val
                        where[ox] = at


cdef void _max_forward(const floating* x, floating* out, int64_t* argmax, Window v,
                       const Py_ssize_t* deps, const Py_ssize_t* rows,
                       const Py_ssize_t* taps) noexcept nogil:
    # One output row at a time, tap by tap in window order, across its columns: columns are
    # independent, so there is no serial compare chain per window and the loops vectorise.
    # Two passes, both free of unpredictable branches: the maxima (`max` instructions), then
    # the first tap equal to each maximum (arithmetic select). The geometry sits in locals,
    # so the compiler keeps it in registers across the stores.
    cdef Py_ssize_t n, c, oz, oy, ox, a, i, j, z0, y0, at, base, off, lo, hi
    cdef Py_ssize_t width = v.width, height = v.height, ow = v.ow, sw = v.sw, dw = v.dw
    cdef Py_ssize_t kw = v.kw, dh = v.dh, dd = v.dd, pl = v.pl
    cdef Py_ssize_t volume_size = v.depth * height * width
    cdef const floating* volume
    cdef const floating* src
    cdef floating* best
    cdef int64_t* where
    cdef floating val, b
    cdef bint nan_seen
    cdef int64_t match
    for n in range(v.n):
        for c in range(v.c):
            volume = x + (n * v.c + c) * volume_size
            for oz in range(v.od):
                z0 = oz * v.sd - v.pf
                for oy in range(v.oh):
                    y0 = oy * v.sh - v.pt
                    at = (((n * v.c + c) * v.od + oz) * v.oh + oy) * ow
                    best = out + at
                    where = argmax + at
                    for ox in range(ow):
                        best[ox] = -INFINITY
                        where[ox] = -1
                    nan_seen = False
                    for a in range(deps[2 * oz], deps[2 * oz + 1]):
                        for i in range(rows[2 * oy], rows[2 * oy + 1]):
                            src = volume + ((z0 + a * dd) * height + y0 + i * dh) * width
                            for j in range(kw):
                                off = j * dw - pl
                                lo, hi = taps[2 * j], taps[2 * j + 1]
                                for ox in range(lo, hi):
                                    val = src[ox * sw + off]
                                    b = best[ox]
                                    best[ox] = val if val > b else b
                                    nan_seen |= val != val
                    if nan_seen:
                        for ox in range(ow):
                            best[ox] = -INFINITY
                        _max_row_exact(volume, best, where, v, z0, deps[2 * oz],
                                       deps[2 * oz + 1], y0, rows[2 * oy], rows[2 * oy + 1],
                                       taps)
                        continue
                    # Taps in reverse window order, so the last match written is the first.
                    for a in range(deps[2 * oz + 1] - 1, deps[2 * oz] - 1, -1):
                        for i in range(rows[2 * oy + 1] - 1, rows[2 * oy] - 1, -1):
                            base = ((z0 + a * dd) * height + y0 + i * dh) * width
                            src = volume + base
                            for j in range(kw - 1, -1, -1):
                                off = j * dw - pl
                                lo, hi = taps[2 * j], taps[2 * j + 1]
                                for ox in range(lo, hi):
                                    at = ox * sw + off
                                    match = src[at] == best[ox]
                                    where[ox] += match * (base + at - where[ox])


cdef void _max_forward_2x2(const floating* x, floating* out, int64_t* argmax, Window v,
                           const Py_ssize_t* deps, const Py_ssize_t* rows,
                           const Py_ssize_t* taps) noexcept nogil:
    """Kernel 1 x 2 x 2, stride 1 x 2 x 2, no padding (windows tile each plane): the four taps
    of a window in registers, the first maximum picked by arithmetic on the compare results."""
    cdef Py_ssize_t n, c, oz, oy, ox, k, row, width = v.width, plane = v.height * v.width
    cdef const floating* top
    cdef const floating* bottom
    cdef floating* best
    cdef int64_t* where
    cdef floating a, b, d, e, m
    cdef bint nan_seen
    # AVX2 for float32 (positions within a volume as int32), this loop for the rest and for
    # a plane holding a NaN
    cdef bint vector = floating is float and cg_pool_avx2() and \
        v.depth * plane < (<Py_ssize_t>1) << 31
    for n in range(v.n):
        for c in range(v.c):
            for oz in range(v.od):
                row = ((n * v.c + c) * v.od + oz) * v.oh * v.ow
                if vector and not cg_max2x2_plane_f32(
                        <const float*>(x + ((n * v.c + c) * v.depth + oz) * plane),
                        <const float*>(x + v.n * v.c * v.depth * plane), <float*>(out + row),
                        argmax + row, v.oh, v.ow, width, <int>(oz * plane)):
                    continue
                for oy in range(v.oh):
                    top = x + ((n * v.c + c) * v.depth + oz) * plane + 2 * oy * width
                    bottom = top + width
                    row = (((n * v.c + c) * v.od + oz) * v.oh + oy) * v.ow
                    best = out + row
                    where = argmax + row
                    nan_seen = False
                    for ox in range(v.ow):
                        a = top[2 * ox]
                        b = top[2 * ox + 1]
                        d = bottom[2 * ox]
                        e = bottom[2 * ox + 1]
                        m = a if a > b else b
                        m = m if m > d else d
                        m = m if m > e else e
                        nan_seen |= (a != a) | (b != b) | (d != d) | (e != e)
                        # Window order a, b, d, e: the first equal to the maximum.
                        k = (a != m) * (1 + (b != m) * (1 + (d != m)))
                        best[ox] = m
                        where[ox] = oz * plane + (2 * oy + (k >> 1)) * width + 2 * ox + (k & 1)
                    if nan_seen:
                        for ox in range(v.ow):
                            best[ox] = -INFINITY
                            where[ox] = -1
                        _max_row_exact(x + (n * v.c + c) * v.depth * plane, best, where, v,
                                       oz, deps[2 * oz], deps[2 * oz + 1], 2 * oy,
                                       rows[2 * oy], rows[2 * oy + 1], taps)


cdef void _max_backward(const floating[:, :, ::1] g, const int64_t[:, :, ::1] argmax,
                        floating[:, :, ::1] dx) noexcept nogil:
    cdef Py_ssize_t n, c, k, plane = dx.shape[2]
    cdef int64_t at
    for n in range(g.shape[0]):
        for c in range(g.shape[1]):
            for k in range(g.shape[2]):
                at = argmax[n, c, k]
                if 0 <= at < plane:
                    dx[n, c, at] += g[n, c, k]


cdef void _avg_forward(const floating* x, floating* out, const double* divisor,
                       Window v) noexcept nogil:
    cdef Py_ssize_t n, c, oz, oy, ox, iz, iy, ix, z0, y0, x0, alo, ahi, ilo, ihi, jlo, jhi, at
    cdef Py_ssize_t width = v.width, height = v.height, ow = v.ow, sw = v.sw, pl = v.pl
    cdef Py_ssize_t kw = v.kw, positions = v.od * v.oh * ow
    cdef const floating* volume
    cdef const floating* row
    cdef floating* dst
    cdef double total
    for n in range(v.n):
        for c in range(v.c):
            volume = x + (n * v.c + c) * v.depth * height * width
            dst = out + (n * v.c + c) * positions
            for oz in range(v.od):
                z0 = oz * v.sd - v.pf
                inside(z0, 1, v.depth, v.kd, &alo, &ahi)
                for oy in range(v.oh):
                    y0 = oy * v.sh - v.pt
                    inside(y0, 1, height, v.kh, &ilo, &ihi)
                    for ox in range(ow):
                        x0 = ox * sw - pl
                        inside(x0, 1, width, kw, &jlo, &jhi)
                        total = 0
                        for iz in range(z0 + alo, z0 + ahi):
                            for iy in range(y0 + ilo, y0 + ihi):
                                row = volume + (iz * height + iy) * width
                                for ix in range(x0 + jlo, x0 + jhi):
                                    total += row[ix]
                        at = (oz * v.oh + oy) * ow + ox
                        dst[at] = <floating>(total / divisor[at])


cdef void _avg_backward(const floating* g, floating* dx, const double* divisor,
                        Window v) noexcept nogil:
    cdef Py_ssize_t n, c, oz, oy, ox, iz, iy, ix, z0, y0, x0, alo, ahi, ilo, ihi, jlo, jhi, at
    cdef Py_ssize_t width = v.width, height = v.height, ow = v.ow, sw = v.sw, pl = v.pl
    cdef Py_ssize_t kw = v.kw, positions = v.od * v.oh * ow
    cdef floating* volume
    cdef floating* row
    cdef const floating* src
    cdef floating share
    for n in range(v.n):
        for c in range(v.c):
            volume = dx + (n * v.c + c) * v.depth * height * width
            src = g + (n * v.c + c) * positions
            for oz in range(v.od):
                z0 = oz * v.sd - v.pf
                inside(z0, 1, v.depth, v.kd, &alo, &ahi)
                for oy in range(v.oh):
                    y0 = oy * v.sh - v.pt
                    inside(y0, 1, height, v.kh, &ilo, &ihi)
                    for ox in range(ow):
                        x0 = ox * sw - pl
                        inside(x0, 1, width, kw, &jlo, &jhi)
                        at = (oz * v.oh + oy) * ow + ox
                        share = <floating>(src[at] / divisor[at])
                        for iz in range(z0 + alo, z0 + ahi):
                            for iy in range(y0 + ilo, y0 + ihi):
                                row = volume + (iz * height + iy) * width
                                for ix in range(x0 + jlo, x0 + jhi):
                                    row[ix] += share


cdef Window _window(str kernel, object image, object out, tuple ksize, tuple stride,
                    tuple dilation, tuple pads) except *:
    """Check one call: a 2-D one (4-D arrays, pairs) or a 3-D one (5-D arrays, triples)."""
    cdef Py_ssize_t rank = len(ksize)
    if rank not in (2, 3):
        rank = 2
    positive(kernel, "kernel", ksize, rank)
    positive(kernel, "stride", stride, rank)
    positive(kernel, "dilation", dilation, rank)
    ints(kernel, "pads", pads, rank)
    if len(image.shape) != rank + 2 or len(out.shape) != rank + 2 or \
            tuple(image.shape[:2]) != tuple(out.shape[:2]):
        raise ValueError(f"{kernel}: the input and output must be {rank + 2}-D with the same "
                         f"(N, C), got {describe(image)} and {describe(out)}")
    for a in (image, out):
        if not a.flags.c_contiguous:
            raise ValueError(f"{kernel}: arrays must be C-contiguous, got {describe(a)}")
    lead = (1,) * (3 - rank)
    size, o = lead + tuple(image.shape[2:]), lead + tuple(out.shape[2:])
    k, s, d, p = lead + ksize, lead + stride, lead + dilation, (0,) * (3 - rank) + pads
    cdef Window v
    v.n, v.c, v.depth, v.height, v.width = image.shape[0], image.shape[1], size[0], size[1], \
        size[2]
    v.od, v.oh, v.ow = o[0], o[1], o[2]
    v.kd, v.kh, v.kw, v.sd, v.sh, v.sw = k[0], k[1], k[2], s[0], s[1], s[2]
    v.dd, v.dh, v.dw, v.pf, v.pt, v.pl = d[0], d[1], d[2], p[0], p[1], p[2]
    return v


def max_pool_forward(x, out, argmax, tuple kernel, tuple stride, tuple dilation, tuple pads):
    """Fill `out` (N, C, [OD,] OH, OW) with window maxima of `x` (N, C, [D,] H, W) and
    `argmax` (Int64, same shape) with their flat [D *] H * W positions. `pads` is the leading
    padding per axis."""
    cdef Window v = _window("max_pool_forward", x, out, kernel, stride, dilation, pads)
    real_kind("max_pool_forward", x, (out,))
    if getattr(getattr(argmax, "dtype", None), "char", None) not in ("l", "q") or \
            argmax.dtype.itemsize != 8:
        raise TypeError(f"max_pool_forward: 'argmax' must be int64, got {describe(argmax)}")
    shape_is("max_pool_forward", "argmax", argmax, tuple(out.shape))
    if not argmax.flags.c_contiguous:
        raise ValueError(f"max_pool_forward: 'argmax' must be C-contiguous, got "
                         f"{describe(argmax)}")
    if out.size == 0:
        return
    if x.size == 0:
        raise ValueError(f"max_pool_forward: windows over an empty input, got {describe(x)}")
    cdef int64_t[::1] arg = argmax.reshape(-1)
    cdef const float[::1] xf
    cdef float[::1] of
    cdef const double[::1] xd
    cdef double[::1] od
    cdef bint tiles
    # Per output depth / row: the kernel taps inside the input; per kernel column j: the
    # output columns whose tap j falls inside the input.
    cdef Py_ssize_t* deps = tap_table(v.od, v.sd, v.pf, v.dd, v.depth, v.kd)
    cdef Py_ssize_t* rows = tap_table(v.oh, v.sh, v.pt, v.dh, v.height, v.kh)
    cdef Py_ssize_t* cols = tap_table(v.kw, v.dw, v.pl, v.sw, v.width, v.ow)
    try:
        if deps == NULL or rows == NULL or cols == NULL:
            raise MemoryError("max_pool_forward: no memory for the tap tables")
        tiles = v.kh == v.kw == v.sh == v.sw == 2 and v.dh == v.dw == 1 and \
            v.pt == v.pl == 0 and 2 * v.oh <= v.height and 2 * v.ow <= v.width and \
            v.kd == v.sd == v.dd == 1 and v.pf == 0 and v.od <= v.depth
        if x.dtype.char == "f":
            xf, of = x.reshape(-1), out.reshape(-1)
            with nogil:
                if tiles:
                    _max_forward_2x2(&xf[0], &of[0], &arg[0], v, deps, rows, cols)
                else:
                    _max_forward(&xf[0], &of[0], &arg[0], v, deps, rows, cols)
        else:
            xd, od = x.reshape(-1), out.reshape(-1)
            with nogil:
                if tiles:
                    _max_forward_2x2(&xd[0], &od[0], &arg[0], v, deps, rows, cols)
                else:
                    _max_forward(&xd[0], &od[0], &arg[0], v, deps, rows, cols)
    finally:
        free(deps)
        free(rows)
        free(cols)


def max_pool_backward(g, argmax, dx):
    """Add `g` (N, C, positions) onto `dx` (N, C, plane) at the positions `argmax` (Int64,
    shaped as `g`) holds; positions outside the plane are skipped."""
    if len(g.shape) != 3 or len(dx.shape) != 3 or tuple(g.shape[:2]) != tuple(dx.shape[:2]):
        raise ValueError(f"max_pool_backward: 'g' and 'dx' must be 3-D (N, C, plane) with the "
                         f"same (N, C), got {describe(g)} and {describe(dx)}")
    shape_is("max_pool_backward", "argmax", argmax, tuple(g.shape))
    cdef const int64_t[:, :, ::1] arg = argmax
    cdef const float[:, :, ::1] gf
    cdef float[:, :, ::1] df
    cdef const double[:, :, ::1] gd
    cdef double[:, :, ::1] dd
    if real_kind("max_pool_backward", g, (dx,)) == "f":
        gf, df = g, dx
        with nogil:
            _max_backward(gf, arg, df)
    else:
        gd, dd = g, dx
        with nogil:
            _max_backward(gd, arg, dd)


cdef const double[::1] _divisor(str kernel, object divisor, object out):
    shape_is(kernel, "divisor", divisor, tuple(out.shape[2:]))
    if getattr(getattr(divisor, "dtype", None), "char", None) != "d" or \
            not divisor.flags.c_contiguous:
        raise TypeError(f"{kernel}: 'divisor' must be C-contiguous float64, got "
                        f"{describe(divisor)}")
    return divisor.reshape(-1)


def avg_pool_forward(x, out, divisor, tuple kernel, tuple stride, tuple pads):
    """Fill `out` (N, C, [OD,] OH, OW) with window sums of `x` (N, C, [D,] H, W) over
    `divisor` (float64, shaped as the output's positions). `pads` is the leading padding."""
    ones = (1,) * len(kernel)
    cdef Window v = _window("avg_pool_forward", x, out, kernel, stride, ones, pads)
    real_kind("avg_pool_forward", x, (out,))
    cdef const double[::1] div = _divisor("avg_pool_forward", divisor, out)
    cdef const float[::1] xf
    cdef float[::1] of
    cdef const double[::1] xd
    cdef double[::1] od
    if out.size == 0:
        return
    if x.size == 0:  # every window is padding
        out.fill(0)
        return
    if x.dtype.char == "f":
        xf, of = x.reshape(-1), out.reshape(-1)
        with nogil:
            _avg_forward(&xf[0], &of[0], &div[0], v)
    else:
        xd, od = x.reshape(-1), out.reshape(-1)
        with nogil:
            _avg_forward(&xd[0], &od[0], &div[0], v)


def avg_pool_backward(g, dx, divisor, tuple kernel, tuple stride, tuple pads):
    """Add `g` (N, C, [OD,] OH, OW) over `divisor` onto each window of `dx` (N, C, [D,] H,
    W)."""
    ones = (1,) * len(kernel)
    cdef Window v = _window("avg_pool_backward", dx, g, kernel, stride, ones, pads)
    real_kind("avg_pool_backward", g, (dx,))
    cdef const double[::1] div = _divisor("avg_pool_backward", divisor, g)
    cdef const float[::1] gf
    cdef float[::1] df
    cdef const double[::1] gd
    cdef double[::1] dd
    if g.size == 0 or dx.size == 0:
        return
    if g.dtype.char == "f":
        gf, df = g.reshape(-1), dx.reshape(-1)
        with nogil:
            _avg_backward(&gf[0], &df[0], &div[0], v)
    else:
        gd, dd = g.reshape(-1), dx.reshape(-1)
        with nogil:
            _avg_backward(&gd[0], &dd[0], &div[0], v)
