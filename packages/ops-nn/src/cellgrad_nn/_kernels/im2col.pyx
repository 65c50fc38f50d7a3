"""im2col and col2im: convolution windows as the columns of one matrix multiplication.

Columns are laid out (K, N, L): K = C * KH * KW rows ordered (channel, kernel row, kernel
column), then the batch, then the L = OH * OW output positions. A convolution is then one
GEMM `weight (O, K) @ cols (K, N * L)` per group, and channel groups are contiguous row
blocks. Padding is never materialised: taps outside the input read as zero (im2col) or are
dropped (col2im), so col2im with the padding of a transposed convolution also crops.
"""

from cython cimport floating

from cellgrad_nn._kernels._entry cimport describe, ints, positive, real_kind, shape_is
from cellgrad_nn._kernels._geometry cimport inside


cdef void _im2col(const floating[:, :, :, ::1] x, floating[:, :, ::1] cols,
                  Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t dh,
                  Py_ssize_t dw, Py_ssize_t pt, Py_ssize_t pl, Py_ssize_t oh,
                  Py_ssize_t ow) noexcept nogil:
    # Raw pointers stepped through C-contiguous planes, few live values: the loop state
    # stays in registers. Output rows [ylo, yhi) and columns [lo, hi) read the input.
    cdef Py_ssize_t n, c, i, j, k, _, ox, y0, off, ylo, yhi, lo, hi, row_step
    cdef Py_ssize_t height = x.shape[2], width = x.shape[3]
    cdef floating* dst
    cdef const floating* plane
    cdef const floating* src
    row_step = sh * width
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            plane = &x[n, c, 0, 0]
            for i in range(kh):
                y0 = i * dh - pt
                inside(y0, sh, height, oh, &ylo, &yhi)
                for j in range(kw):
                    off = j * dw - pl
                    inside(off, sw, width, ow, &lo, &hi)
                    dst = &cols[(c * kh + i) * kw + j, n, 0]
                    for k in range(ylo * ow):
                        dst[k] = 0
                    for k in range(yhi * ow, oh * ow):
                        dst[k] = 0
                    dst += ylo * ow
                    src = plane + (ylo * sh + y0) * width + off
                    for _ in range(ylo, yhi):
                        for ox in range(lo):
                            dst[ox] = 0
                        if sw == 1:
                            for ox in range(lo, hi):
                                dst[ox] = src[ox]
                        else:
                            for ox in range(lo, hi):
                                dst[ox] = src[ox * sw]
                        for ox in range(hi, ow):
                            dst[ox] = 0
                        dst += ow
                        src += row_step


cdef void _col2im(const floating[:, :, ::1] cols, floating[:, :, :, ::1] dx,
                  Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t dh,
                  Py_ssize_t dw, Py_ssize_t pt, Py_ssize_t pl, Py_ssize_t oh,
                  Py_ssize_t ow) noexcept nogil:
    cdef Py_ssize_t n, c, i, j, _, ox, y0, off, ylo, yhi, lo, hi, row_step
    cdef Py_ssize_t height = dx.shape[2], width = dx.shape[3]
    cdef const floating* src
    cdef floating* plane
    cdef floating* dst
    row_step = sh * width
    for n in range(dx.shape[0]):
        for c in range(dx.shape[1]):
            plane = &dx[n, c, 0, 0]
            for i in range(kh):
                y0 = i * dh - pt
                inside(y0, sh, height, oh, &ylo, &yhi)
                for j in range(kw):
                    off = j * dw - pl
                    inside(off, sw, width, ow, &lo, &hi)
                    src = &cols[(c * kh + i) * kw + j, n, 0] + ylo * ow
                    dst = plane + (ylo * sh + y0) * width + off
                    for _ in range(ylo, yhi):
                        if sw == 1:
                            for ox in range(lo, hi):
                                dst[ox] += src[ox]
                        else:
                            for ox in range(lo, hi):
                                dst[ox * sw] += src[ox]
                        src += ow
                        dst += row_step


cdef void _im2col_inside(const floating[:, :, :, ::1] x, floating[:, :, ::1] cols,
                         Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh,
                         Py_ssize_t ow) noexcept nogil:
    """Stride 1, no dilation, every window inside the input (the 'valid' convolution): few
    live values, so the copy loop keeps everything in registers."""
    cdef Py_ssize_t n, c, i, j, _, ox, width = x.shape[3]
    cdef floating* dst
    cdef const floating* src
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for i in range(kh):
                for j in range(kw):
                    dst = &cols[(c * kh + i) * kw + j, n, 0]
                    src = &x[n, c, i, j]
                    for _ in range(oh):
                        for ox in range(ow):
                            dst[ox] = src[ox]
                        dst += ow
                        src += width


cdef void _col2im_inside(const floating[:, :, ::1] cols, floating[:, :, :, ::1] dx,
                         Py_ssize_t kh, Py_ssize_t kw, Py_ssize_t oh,
                         Py_ssize_t ow) noexcept nogil:
    cdef Py_ssize_t n, c, i, j, _, ox, width = dx.shape[3]
    cdef floating* dst
    cdef const floating* src
    for n in range(dx.shape[0]):
        for c in range(dx.shape[1]):
            for i in range(kh):
                for j in range(kw):
                    src = &cols[(c * kh + i) * kw + j, n, 0]
                    dst = &dx[n, c, i, j]
                    for _ in range(oh):
                        for ox in range(ow):
                            dst[ox] += src[ox]
                        src += ow
                        dst += width


cdef tuple _geometry(str kernel, object image, object cols, tuple ksize, tuple stride,
                     tuple dilation, tuple pads, tuple out_hw):
    """Check one call; (kh, kw, sh, sw, dh, dw, pt, pl, oh, ow)."""
    positive(kernel, "kernel", ksize, 2)
    positive(kernel, "stride", stride, 2)
    positive(kernel, "dilation", dilation, 2)
    ints(kernel, "pads", pads, 2)
    ints(kernel, "out_hw", out_hw, 2)
    if len(image.shape) != 4 or out_hw[0] < 0 or out_hw[1] < 0:
        raise ValueError(f"{kernel}: the image must be 4-D (N, C, H, W) and out_hw "
                         f"non-negative, got image {describe(image)}, out_hw {out_hw}")
    n, c = image.shape[0], image.shape[1]
    shape_is(kernel, "cols", cols,
             (c * ksize[0] * ksize[1], n, out_hw[0] * out_hw[1]))
    return ksize + stride + dilation + pads + out_hw


cdef bint _fits(object image, tuple g):
    """Unit stride and dilation, no padding, every window inside the image."""
    kh, kw, sh, sw, dh, dw, pt, pl, oh, ow = g
    return sh == sw == dh == dw == 1 and pt == pl == 0 and oh + kh - 1 <= image.shape[2] and \
        ow + kw - 1 <= image.shape[3]


def im2col(x, cols, tuple kernel, tuple stride, tuple dilation, tuple pads, tuple out_hw):
    """Fill `cols` (C*KH*KW, N, OH*OW) with the windows of `x` (N, C, H, W), C-contiguous.

    `pads` is (top, left); windows may run past any edge, where they read zeros.
    """
    g = _geometry("im2col", x, cols, kernel, stride, dilation, pads, out_hw)
    cdef Py_ssize_t kh = g[0], kw = g[1], sh = g[2], sw = g[3], dh = g[4], dw = g[5]
    cdef Py_ssize_t pt = g[6], pl = g[7], oh = g[8], ow = g[9]
    cdef const float[:, :, :, ::1] xf
    cdef float[:, :, ::1] cf
    cdef const double[:, :, :, ::1] xd
    cdef double[:, :, ::1] cd
    if oh * ow == 0 or cols.shape[0] * cols.shape[1] == 0:
        return
    if x.shape[2] * x.shape[3] == 0:  # an empty image: every tap is padding
        cols.fill(0)
        return
    cdef bint fits = _fits(x, g)
    if real_kind("im2col", x, (cols,)) == "f":
        xf, cf = x, cols
        with nogil:
            if fits:
                _im2col_inside(xf, cf, kh, kw, oh, ow)
            else:
                _im2col(xf, cf, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow)
    else:
        xd, cd = x, cols
        with nogil:
            if fits:
                _im2col_inside(xd, cd, kh, kw, oh, ow)
            else:
                _im2col(xd, cd, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow)


def col2im(cols, dx, tuple kernel, tuple stride, tuple dilation, tuple pads, tuple out_hw):
    """Add each column of `cols` (C*KH*KW, N, OH*OW) back onto its window of `dx`.

    `dx` (N, C, H, W) is accumulated into (pass zeros); taps outside it are dropped.
    """
    g = _geometry("col2im", dx, cols, kernel, stride, dilation, pads, out_hw)
    cdef Py_ssize_t kh = g[0], kw = g[1], sh = g[2], sw = g[3], dh = g[4], dw = g[5]
    cdef Py_ssize_t pt = g[6], pl = g[7], oh = g[8], ow = g[9]
    cdef const float[:, :, ::1] cf
    cdef float[:, :, :, ::1] xf
    cdef const double[:, :, ::1] cd
    cdef double[:, :, :, ::1] xd
    if oh * ow == 0 or cols.shape[0] * cols.shape[1] == 0 or dx.shape[2] * dx.shape[3] == 0:
        return
    cdef bint fits = _fits(dx, g)
    if real_kind("col2im", cols, (dx,)) == "f":
        cf, xf = cols, dx
        with nogil:
            if fits:
                _col2im_inside(cf, xf, kh, kw, oh, ow)
            else:
                _col2im(cf, xf, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow)
    else:
        cd, xd = cols, dx
        with nogil:
            if fits:
                _col2im_inside(cd, xd, kh, kw, oh, ow)
            else:
                _col2im(cd, xd, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow)
