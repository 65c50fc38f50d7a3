"""im2col and col2im: convolution windows as the columns of one matrix multiplication.

One kernel for 2-D and 3-D images (vol2col): a 2-D image (N, C, H, W) is a volume of depth 1.
Columns are laid out (K, N, L): K = C * KD * KH * KW rows ordered (channel, kernel depth,
kernel row, kernel column), then the batch, then the L = OD * OH * OW output positions. A
convolution is then one GEMM `weight (O, K) @ cols (K, N * L)` per group, and channel groups
are contiguous row blocks. Padding is never materialised: taps outside the input read as zero
(im2col) or are dropped (col2im), so col2im with the padding of a transposed convolution also
crops.
"""

from cython cimport floating

from cellgrad_nn._kernels._entry cimport describe, ints, positive, real_kind, shape_is
from cellgrad_nn._kernels._geometry cimport inside

cdef extern from *:
    """
    /* The unit-stride copy loops: `rows` rows of `n` values, `dstep` apart in `dst` and
       `sstep` apart in `src`. Kept out of line, so their speed does not depend on where the
       compiler would inline them (measured: up to 1.5x either way), and restrict (columns
       and image never overlap: no run-time alias checks). */
    #define CG_ROWS(T, NAME)                                                              \
    static __attribute__((noinline)) void NAME##_gather(                                \
            T *restrict dst, Py_ssize_t dstep, const T *restrict src, Py_ssize_t sstep, \
            Py_ssize_t rows, Py_ssize_t n) {                                            \
        for (Py_ssize_t r = 0; r < rows; r++, dst += dstep, src += sstep)               \
            for (Py_ssize_t k = 0; k < n; k++) dst[k] = src[k];                         \
    }                                                                                   \
    static __attribute__((noinline)) void NAME##_scatter(                               \
            T *restrict dst, Py_ssize_t dstep, const T *restrict src, Py_ssize_t sstep, \
            Py_ssize_t rows, Py_ssize_t n) {                                            \
        for (Py_ssize_t r = 0; r < rows; r++, dst += dstep, src += sstep)               \
            for (Py_ssize_t k = 0; k < n; k++) dst[k] += src[k];                        \
    }                                                                                   \
    /* Every tap (i, j) of a kh x kw window over one plane, for the 'inside' case: tap    \
       (i, j) fills the column row `dst + (i * kw + j) * tap_step` from the plane at       \
       (i, j) onwards (oh rows of ow values, `width` apart). */                           \
    static __attribute__((noinline)) void NAME##_gather_taps(                           \
            T *restrict dst, Py_ssize_t tap_step, const T *restrict src, Py_ssize_t width, \
            Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh, Py_ssize_t ow) {               \
        for (Py_ssize_t i = 0; i < kh; i++)                                             \
            for (Py_ssize_t j = 0; j < kw; j++) {                                       \
                T *restrict d = dst + (i * kw + j) * tap_step;                          \
                const T *restrict s = src + i * width + j;                              \
                for (Py_ssize_t r = 0; r < oh; r++, d += ow, s += width)                \
                    for (Py_ssize_t k = 0; k < ow; k++) d[k] = s[k];                    \
            }                                                                           \
    }                                                                                   \
    static __attribute__((noinline)) void NAME##_scatter_taps(                          \
            T *restrict dst, Py_ssize_t width, const T *restrict src, Py_ssize_t tap_step, \
            Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh, Py_ssize_t ow) {               \
        for (Py_ssize_t i = 0; i < kh; i++)                                             \
            for (Py_ssize_t j = 0; j < kw; j++) {                                       \
                T *restrict d = dst + i * width + j;                                    \
                const T *restrict s = src + (i * kw + j) * tap_step;                    \
                for (Py_ssize_t r = 0; r < oh; r++, d += width, s += ow)                \
                    for (Py_ssize_t k = 0; k < ow; k++) d[k] += s[k];                   \
            }                                                                           \
    }
    CG_ROWS(float, cg_f)
    CG_ROWS(double, cg_d)
    """
    void cg_f_gather(float* dst, Py_ssize_t dstep, const float* src, Py_ssize_t sstep,
                     Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_d_gather(double* dst, Py_ssize_t dstep, const double* src, Py_ssize_t sstep,
                     Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_f_scatter(float* dst, Py_ssize_t dstep, const float* src, Py_ssize_t sstep,
                      Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_d_scatter(double* dst, Py_ssize_t dstep, const double* src, Py_ssize_t sstep,
                      Py_ssize_t rows, Py_ssize_t n) nogil
    void cg_f_gather_taps(float* dst, Py_ssize_t tap_step, const float* src, Py_ssize_t width,
                          Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh, Py_ssize_t ow) nogil
    void cg_d_gather_taps(double* dst, Py_ssize_t tap_step, const double* src,
                          Py_ssize_t width, Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh,
                          Py_ssize_t ow) nogil
    void cg_f_scatter_taps(float* dst, Py_ssize_t width, const float* src, Py_ssize_t tap_step,
                           Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh, Py_ssize_t ow) nogil
    void cg_d_scatter_taps(double* dst, Py_ssize_t width, const double* src,
                           Py_ssize_t tap_step, Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh,
                           Py_ssize_t ow) nogil


cdef inline void _gather(floating* dst, Py_ssize_t dstep, const floating* src, Py_ssize_t sstep,
                         Py_ssize_t rows, Py_ssize_t n) noexcept nogil:
    """dst[r, :n] = src[r, :n] for `rows` rows, `dstep` / `sstep` apart."""
    if floating is float:
        cg_f_gather(dst, dstep, src, sstep, rows, n)
    else:
        cg_d_gather(dst, dstep, src, sstep, rows, n)


cdef inline void _scatter(floating* dst, Py_ssize_t dstep, const floating* src,
                          Py_ssize_t sstep, Py_ssize_t rows, Py_ssize_t n) noexcept nogil:
    """dst[r, :n] += src[r, :n] for `rows` rows, `dstep` / `sstep` apart."""
    if floating is float:
        cg_f_scatter(dst, dstep, src, sstep, rows, n)
    else:
        cg_d_scatter(dst, dstep, src, sstep, rows, n)


cdef struct Volume:
    # The image (N, C, D, H, W), the kernel extent, stride, dilation and leading padding per
    # axis (depth, height, width), and the output positions per axis.
    Py_ssize_t n, c, depth, height, width
    Py_ssize_t kd, kh, kw, sd, sh, sw, dd, dh, dw, pf, pt, pl, od, oh, ow


cdef void _im2col(const floating* x, floating[:, :, ::1] cols, Volume v) noexcept nogil:
    # Raw pointers stepped through C-contiguous planes, few live values: the loop state
    # stays in registers. Output depths [zlo, zhi), rows [ylo, yhi) and columns [lo, hi)
    # read the input; the rest of each column is padding.
    cdef Py_ssize_t n, c, a, i, j, k, _, ox, oz, z0, y0, off, zlo, zhi, ylo, yhi, lo, hi
    cdef Py_ssize_t plane = v.height * v.width, ohw = v.oh * v.ow, row_step = v.sh * v.width
    cdef floating* dst
    cdef floating* out
    cdef const floating* volume
    cdef const floating* src
    for n in range(v.n):
        for c in range(v.c):
            volume = x + (n * v.c + c) * v.depth * plane
            for a in range(v.kd):
                z0 = a * v.dd - v.pf
                inside(z0, v.sd, v.depth, v.od, &zlo, &zhi)
                for i in range(v.kh):
                    y0 = i * v.dh - v.pt
                    inside(y0, v.sh, v.height, v.oh, &ylo, &yhi)
                    for j in range(v.kw):
                        off = j * v.dw - v.pl
                        inside(off, v.sw, v.width, v.ow, &lo, &hi)
                        out = &cols[((c * v.kd + a) * v.kh + i) * v.kw + j, n, 0]
                        for k in range(zlo * ohw):
                            out[k] = 0
                        for k in range(zhi * ohw, v.od * ohw):
                            out[k] = 0
                        for oz in range(zlo, zhi):
                            dst = out + oz * ohw
                            for k in range(ylo * v.ow):
                                dst[k] = 0
                            for k in range(yhi * v.ow, ohw):
                                dst[k] = 0
                            dst += ylo * v.ow
                            src = volume + (oz * v.sd + z0) * plane + \
                                (ylo * v.sh + y0) * v.width + off
                            if v.sw == 1 and hi > lo:
                                _gather(dst + lo, v.ow, src + lo, row_step, yhi - ylo, hi - lo)
                            for _ in range(ylo, yhi):
                                for ox in range(lo):
                                    dst[ox] = 0
                                if v.sw != 1:
                                    for ox in range(lo, hi):
                                        dst[ox] = src[ox * v.sw]
                                for ox in range(hi, v.ow):
                                    dst[ox] = 0
                                dst += v.ow
                                src += row_step


cdef void _col2im(const floating[:, :, ::1] cols, floating* dx, Volume v) noexcept nogil:
    cdef Py_ssize_t n, c, a, i, j, _, ox, oz, z0, y0, off, zlo, zhi, ylo, yhi, lo, hi
    cdef Py_ssize_t plane = v.height * v.width, ohw = v.oh * v.ow, row_step = v.sh * v.width
    cdef const floating* src
    cdef const floating* column
    cdef floating* volume
    cdef floating* dst
    for n in range(v.n):
        for c in range(v.c):
            volume = dx + (n * v.c + c) * v.depth * plane
            for a in range(v.kd):
                z0 = a * v.dd - v.pf
                inside(z0, v.sd, v.depth, v.od, &zlo, &zhi)
                for i in range(v.kh):
                    y0 = i * v.dh - v.pt
                    inside(y0, v.sh, v.height, v.oh, &ylo, &yhi)
                    for j in range(v.kw):
                        off = j * v.dw - v.pl
                        inside(off, v.sw, v.width, v.ow, &lo, &hi)
                        column = &cols[((c * v.kd + a) * v.kh + i) * v.kw + j, n, 0]
                        for oz in range(zlo, zhi):
                            src = column + oz * ohw + ylo * v.ow
                            dst = volume + (oz * v.sd + z0) * plane + \
                                (ylo * v.sh + y0) * v.width + off
                            if v.sw == 1:
                                if hi > lo:
                                    _scatter(dst + lo, row_step, src + lo, v.ow, yhi - ylo,
                                             hi - lo)
                                continue
                            for _ in range(ylo, yhi):
                                for ox in range(lo, hi):
                                    dst[ox * v.sw] += src[ox]
                                src += v.ow
                                dst += row_step


cdef void _im2col_inside(const floating* x, floating[:, :, ::1] cols,
                         Volume v) noexcept nogil:
    """Stride 1, no dilation, every window inside the input (the 'valid' convolution): per
    plane, one out-of-line call copies every tap's rows."""
    cdef Py_ssize_t n, c, a, oz, plane = v.height * v.width, ohw = v.oh * v.ow
    cdef Py_ssize_t tap_step = cols.strides[0] // sizeof(floating)
    cdef floating* dst
    cdef const floating* src
    for n in range(v.n):
        for c in range(v.c):
            for a in range(v.kd):
                dst = &cols[(c * v.kd + a) * v.kh * v.kw, n, 0]
                for oz in range(v.od):
                    src = x + ((n * v.c + c) * v.depth + oz + a) * plane
                    if floating is float:
                        cg_f_gather_taps(dst + oz * ohw, tap_step, src, v.width, v.kh, v.kw,
                                         v.oh, v.ow)
                    else:
                        cg_d_gather_taps(dst + oz * ohw, tap_step, src, v.width, v.kh, v.kw,
                                         v.oh, v.ow)


cdef void _col2im_inside(const floating[:, :, ::1] cols, floating* dx,
                         Volume v) noexcept nogil:
    cdef Py_ssize_t n, c, a, oz, plane = v.height * v.width, ohw = v.oh * v.ow
    cdef Py_ssize_t tap_step = cols.strides[0] // sizeof(floating)
    cdef const floating* src
    cdef floating* dst
    for n in range(v.n):
        for c in range(v.c):
            for a in range(v.kd):
                src = &cols[(c * v.kd + a) * v.kh * v.kw, n, 0]
                for oz in range(v.od):
                    dst = dx + ((n * v.c + c) * v.depth + oz + a) * plane
                    if floating is float:
                        cg_f_scatter_taps(dst, v.width, src + oz * ohw, tap_step, v.kh, v.kw,
                                          v.oh, v.ow)
                    else:
                        cg_d_scatter_taps(dst, v.width, src + oz * ohw, tap_step, v.kh, v.kw,
                                          v.oh, v.ow)


cdef Volume _geometry(str kernel, object image, object cols, tuple ksize, tuple stride,
                      tuple dilation, tuple pads, tuple out_size) except *:
    """Check one call: a 2-D call (4-D image, pairs) or a 3-D one (5-D image, triples)."""
    cdef Py_ssize_t rank = len(ksize)
    if rank not in (2, 3):
        rank = 2
    positive(kernel, "kernel", ksize, rank)
    positive(kernel, "stride", stride, rank)
    positive(kernel, "dilation", dilation, rank)
    ints(kernel, "pads", pads, rank)
    ints(kernel, "out_size", out_size, rank, 0)
    layout = "(N, C, H, W)" if rank == 2 else "(N, C, D, H, W)"
    if len(image.shape) != rank + 2:
        raise ValueError(f"{kernel}: the image must be {rank + 2}-D {layout} for a {rank}-D "
                         f"kernel, got image {describe(image)}")
    if not image.flags.c_contiguous:
        raise ValueError(f"{kernel}: the image must be C-contiguous, got {describe(image)}")
    lead = (1,) * (3 - rank)
    size = lead + tuple(image.shape[2:])
    k, s, d = lead + ksize, lead + stride, lead + dilation
    p, o = (0,) * (3 - rank) + pads, lead + out_size
    shape_is(kernel, "cols", cols,
             (image.shape[1] * k[0] * k[1] * k[2], image.shape[0], o[0] * o[1] * o[2]))
    cdef Volume v
    v.n, v.c, v.depth, v.height, v.width = image.shape[0], image.shape[1], size[0], size[1], \
        size[2]
    v.kd, v.kh, v.kw, v.sd, v.sh, v.sw = k[0], k[1], k[2], s[0], s[1], s[2]
    v.dd, v.dh, v.dw, v.pf, v.pt, v.pl = d[0], d[1], d[2], p[0], p[1], p[2]
    v.od, v.oh, v.ow = o[0], o[1], o[2]
    return v


cdef bint _fits(Volume v) noexcept:
    """Unit stride and dilation, no padding, every window inside the image."""
    return v.sd == v.sh == v.sw == v.dd == v.dh == v.dw == 1 and v.pf == v.pt == v.pl == 0 \
        and v.od + v.kd - 1 <= v.depth and v.oh + v.kh - 1 <= v.height and \
        v.ow + v.kw - 1 <= v.width


def im2col(x, cols, tuple kernel, tuple stride, tuple dilation, tuple pads, tuple out_size):
    """Fill `cols` (C*KD*KH*KW, N, OD*OH*OW) with the windows of `x`, C-contiguous: (N, C, H,
    W) with pairs (kernel, stride, ...) or (N, C, D, H, W) with triples.

    `pads` is the leading padding per axis; windows may run past any edge, where they read
    zeros.
    """
    cdef Volume v = _geometry("im2col", x, cols, kernel, stride, dilation, pads, out_size)
    cdef const float[::1] xf
    cdef float[:, :, ::1] cf
    cdef const double[::1] xd
    cdef double[:, :, ::1] cd
    kind = real_kind("im2col", x, (cols,))
    if v.od * v.oh * v.ow == 0 or v.c * v.n * v.kd * v.kh * v.kw == 0:
        return
    if v.depth * v.height * v.width == 0:  # an empty image: every tap is padding
        cols.fill(0)
        return
    cdef bint fits = _fits(v)
    if kind == "f":
        xf, cf = x.reshape(-1), cols
        with nogil:
            if fits:
                _im2col_inside(&xf[0], cf, v)
            else:
                _im2col(&xf[0], cf, v)
    else:
        xd, cd = x.reshape(-1), cols
        with nogil:
            if fits:
                _im2col_inside(&xd[0], cd, v)
            else:
                _im2col(&xd[0], cd, v)


def col2im(cols, dx, tuple kernel, tuple stride, tuple dilation, tuple pads, tuple out_size):
    """Add each column of `cols` (C*KD*KH*KW, N, OD*OH*OW) back onto its window of `dx`.

    `dx` ((N, C, H, W) or (N, C, D, H, W), C-contiguous) is accumulated into (pass zeros);
    taps outside it are dropped.
    """
    cdef Volume v = _geometry("col2im", dx, cols, kernel, stride, dilation, pads, out_size)
    cdef const float[:, :, ::1] cf
    cdef float[::1] xf
    cdef const double[:, :, ::1] cd
    cdef double[::1] xd
    kind = real_kind("col2im", cols, (dx,))
    if v.od * v.oh * v.ow == 0 or v.c * v.n * v.kd * v.kh * v.kw == 0 or \
            v.depth * v.height * v.width == 0:
        return
    cdef bint fits = _fits(v)
    if kind == "f":
        cf, xf = cols, dx.reshape(-1)
        with nogil:
            if fits:
                _col2im_inside(cf, &xf[0], v)
            else:
                _col2im(cf, &xf[0], v)
    else:
        cd, xd = cols, dx.reshape(-1)
        with nogil:
            if fits:
                _col2im_inside(cd, &xd[0], v)
            else:
                _col2im(cd, &xd[0], v)


def swap_leading(const floating[:, :, ::1] src, floating[:, :, ::1] out,
                 const floating[::1] bias=None):
    """out[j, i] = src[i, j] (+ bias[i]) for C-contiguous src (A, B, L) and out (B, A, L): a
    convolution's product regrouped by sample (bias per channel), or its output gradient by
    channel, one row of L a step (numpy's strided copy took 19 us at LeNet's second layer)."""
    cdef Py_ssize_t a = src.shape[0], b = src.shape[1], n = src.shape[2], i, j, k
    if out.shape[0] != b or out.shape[1] != a or out.shape[2] != n or \
            (bias is not None and bias.shape[0] != a):
        got = f"out ({out.shape[0]}, {out.shape[1]}, {out.shape[2]})"
        if bias is not None:
            got += f" and a bias of {bias.shape[0]}"
        raise ValueError(f"swap_leading: src ({a}, {b}, {n}) needs out ({b}, {a}, {n})"
                         f"{'' if bias is None else f' and a bias of {a}'}, got {got}.")
    if a == 0 or b == 0 or n == 0:
        return
    cdef floating v
    with nogil:
        for i in range(a):
            for j in range(b):
                if bias is None:
                    for k in range(n):
                        out[j, i, k] = src[i, j, k]
                else:
                    v = bias[i]
                    for k in range(n):
                        out[j, i, k] = src[i, j, k] + v
