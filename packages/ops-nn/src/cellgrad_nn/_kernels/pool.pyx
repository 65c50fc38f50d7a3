"""Max and average pooling over (N, C, H, W), forward and backward, without padded copies.

Windows start at `o * stride - pad` and keep only the taps inside the input: max pooling
thus pads with -inf, and average pooling divides by a divisor the caller computed (it knows
whether padding counts). Max pooling records each window's argmax as a flat H * W index in
the input (-1 for a window with no tap inside), so its backward is one scatter-add.
"""

from cython cimport floating
from libc.math cimport INFINITY
from libc.stdint cimport int64_t
from libc.stdlib cimport free

from cellgrad_nn._kernels._entry cimport describe, ints, positive, real_kind, shape_is
from cellgrad_nn._kernels._geometry cimport inside, tap_table


cdef void _max_row_exact(const floating[:, :, :, ::1] x, floating* best, int64_t* where,
                         Py_ssize_t n, Py_ssize_t c, Py_ssize_t y0, Py_ssize_t ilo,
                         Py_ssize_t ihi, Py_ssize_t dh, Py_ssize_t kw, Py_ssize_t sw,
                         Py_ssize_t dw, Py_ssize_t pl, const Py_ssize_t* taps) noexcept nogil:
    """One output row with NaN-aware compares (rows holding a NaN: rare, so branches do)."""
    cdef Py_ssize_t i, j, ox, iy, off, at
    cdef floating v, b
    for i in range(ilo, ihi):
        iy = y0 + i * dh
        for j in range(kw):
            off = j * dw - pl
            for ox in range(taps[2 * j], taps[2 * j + 1]):
                at = ox * sw + off
                v = x[n, c, iy, at]
                b = best[ox]
                # The first maximum wins; a NaN wins and stays (as numpy, torch).
                if where[ox] < 0 or v > b or (v != v and b == b):
                    best[ox] = v
                    where[ox] = iy * x.shape[3] + at


cdef void _max_forward(const floating[:, :, :, ::1] x, floating[:, :, :, ::1] out,
                       int64_t[:, :, :, ::1] argmax, Py_ssize_t kh, Py_ssize_t kw,
                       Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t dh, Py_ssize_t dw,
                       Py_ssize_t pt, Py_ssize_t pl, const Py_ssize_t* rows,
                       const Py_ssize_t* taps) noexcept nogil:
    # One output row at a time, tap by tap in window order, across its columns: columns are
    # independent, so there is no serial compare chain per window and the loops vectorise.
    # Two passes, both free of unpredictable branches: the maxima (`max` instructions), then
    # the first tap equal to each maximum (arithmetic select).
    cdef Py_ssize_t n, c, oy, ox, i, j, iy, y0, off, at, ow = out.shape[3], width = x.shape[3]
    cdef floating* best
    cdef int64_t* where
    cdef const floating* src
    cdef floating v, b
    cdef bint nan_seen
    cdef int64_t match
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for oy in range(out.shape[2]):
                y0 = oy * sh - pt
                best = &out[n, c, oy, 0]
                where = &argmax[n, c, oy, 0]
                for ox in range(ow):
                    best[ox] = -INFINITY
                    where[ox] = -1
                nan_seen = False
                for i in range(rows[2 * oy], rows[2 * oy + 1]):
                    src = &x[n, c, y0 + i * dh, 0]
                    for j in range(kw):
                        off = j * dw - pl
                        for ox in range(taps[2 * j], taps[2 * j + 1]):
                            v = src[ox * sw + off]
                            b = best[ox]
                            best[ox] = v if v > b else b
                            nan_seen |= v != v
                if nan_seen:
                    for ox in range(ow):
                        best[ox] = -INFINITY
                    _max_row_exact(x, best, where, n, c, y0, rows[2 * oy], rows[2 * oy + 1],
                                   dh, kw, sw, dw, pl, taps)
                    continue
                # Taps in reverse window order, so the last match written is the first.
                for i in range(rows[2 * oy + 1] - 1, rows[2 * oy] - 1, -1):
                    iy = y0 + i * dh
                    src = &x[n, c, iy, 0]
                    for j in range(kw - 1, -1, -1):
                        off = j * dw - pl
                        for ox in range(taps[2 * j], taps[2 * j + 1]):
                            at = ox * sw + off
                            match = src[at] == best[ox]
                            where[ox] += match * (iy * width + at - where[ox])


cdef void _max_forward_2x2(const floating[:, :, :, ::1] x, floating[:, :, :, ::1] out,
                           int64_t[:, :, :, ::1] argmax, const Py_ssize_t* rows,
                           const Py_ssize_t* taps) noexcept nogil:
    """Kernel 2, stride 2, no padding (windows tile the input): the four taps of a window in
    registers, the first maximum picked by arithmetic on the compare results."""
    cdef Py_ssize_t n, c, oy, ox, k, width = x.shape[3]
    cdef const floating* top
    cdef const floating* bottom
    cdef floating* best
    cdef int64_t* where
    cdef floating a, b, d, e, m
    cdef bint nan_seen
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for oy in range(out.shape[2]):
                top = &x[n, c, 2 * oy, 0]
                bottom = top + width
                best = &out[n, c, oy, 0]
                where = &argmax[n, c, oy, 0]
                nan_seen = False
                for ox in range(out.shape[3]):
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
                    where[ox] = (2 * oy + (k >> 1)) * width + 2 * ox + (k & 1)
                if nan_seen:
                    for ox in range(out.shape[3]):
                        best[ox] = -INFINITY
                        where[ox] = -1
                    _max_row_exact(x, best, where, n, c, 2 * oy, rows[2 * oy],
                                   rows[2 * oy + 1], 1, 2, 2, 1, 0, taps)


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


cdef void _avg_forward(const floating[:, :, :, ::1] x, floating[:, :, :, ::1] out,
                       const double[:, ::1] divisor, Py_ssize_t kh, Py_ssize_t kw,
                       Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt,
                       Py_ssize_t pl) noexcept nogil:
    cdef Py_ssize_t n, c, oy, ox, iy, ix, y0, x0, ilo, ihi, jlo, jhi
    cdef Py_ssize_t height = x.shape[2], width = x.shape[3]
    cdef double total
    for n in range(x.shape[0]):
        for c in range(x.shape[1]):
            for oy in range(out.shape[2]):
                y0 = oy * sh - pt
                inside(y0, 1, height, kh, &ilo, &ihi)
                for ox in range(out.shape[3]):
                    x0 = ox * sw - pl
                    inside(x0, 1, width, kw, &jlo, &jhi)
                    total = 0
                    for iy in range(y0 + ilo, y0 + ihi):
                        for ix in range(x0 + jlo, x0 + jhi):
                            total += x[n, c, iy, ix]
                    out[n, c, oy, ox] = <floating>(total / divisor[oy, ox])


cdef void _avg_backward(const floating[:, :, :, ::1] g, floating[:, :, :, ::1] dx,
                        const double[:, ::1] divisor, Py_ssize_t kh, Py_ssize_t kw,
                        Py_ssize_t sh, Py_ssize_t sw, Py_ssize_t pt,
                        Py_ssize_t pl) noexcept nogil:
    cdef Py_ssize_t n, c, oy, ox, iy, ix, y0, x0, ilo, ihi, jlo, jhi
    cdef Py_ssize_t height = dx.shape[2], width = dx.shape[3]
    cdef floating share
    for n in range(g.shape[0]):
        for c in range(g.shape[1]):
            for oy in range(g.shape[2]):
                y0 = oy * sh - pt
                inside(y0, 1, height, kh, &ilo, &ihi)
                for ox in range(g.shape[3]):
                    x0 = ox * sw - pl
                    inside(x0, 1, width, kw, &jlo, &jhi)
                    share = <floating>(g[n, c, oy, ox] / divisor[oy, ox])
                    for iy in range(y0 + ilo, y0 + ihi):
                        for ix in range(x0 + jlo, x0 + jhi):
                            dx[n, c, iy, ix] += share


cdef tuple _window(str kernel, tuple ksize, tuple stride, tuple pads):
    positive(kernel, "kernel", ksize, 2)
    positive(kernel, "stride", stride, 2)
    ints(kernel, "pads", pads, 2)
    return ksize + stride + pads


cdef void _pair_of_4d(str kernel, object image, object out) except *:
    if len(image.shape) != 4 or len(out.shape) != 4 or \
            tuple(image.shape[:2]) != tuple(out.shape[:2]):
        raise ValueError(f"{kernel}: the input and output must be 4-D with the same (N, C), "
                         f"got {describe(image)} and {describe(out)}")


def max_pool_forward(x, out, argmax, tuple kernel, tuple stride, tuple dilation, tuple pads):
    """Fill `out` (N, C, OH, OW) with window maxima of `x` (N, C, H, W) and `argmax` (Int64,
    same shape) with their flat H * W positions. `pads` is (top, left)."""
    k = _window("max_pool_forward", kernel, stride, pads)
    positive("max_pool_forward", "dilation", dilation, 2)
    _pair_of_4d("max_pool_forward", x, out)
    real_kind("max_pool_forward", x, (out,))
    if getattr(getattr(argmax, "dtype", None), "char", None) not in ("l", "q") or \
            argmax.dtype.itemsize != 8:
        raise TypeError(f"max_pool_forward: 'argmax' must be int64, got {describe(argmax)}")
    shape_is("max_pool_forward", "argmax", argmax, tuple(out.shape))
    cdef Py_ssize_t kh = k[0], kw = k[1], sh = k[2], sw = k[3], pt = k[4], pl = k[5]
    cdef Py_ssize_t dh = dilation[0], dw = dilation[1]
    if out.size == 0:
        return
    cdef int64_t[:, :, :, ::1] arg = argmax
    cdef const float[:, :, :, ::1] xf
    cdef float[:, :, :, ::1] of
    cdef const double[:, :, :, ::1] xd
    cdef double[:, :, :, ::1] od
    cdef bint tiles
    cdef Py_ssize_t* rows = tap_table(out.shape[2], sh, pt, dh, x.shape[2], kh)
    # Per kernel column j: the output columns whose tap j falls inside the input.
    cdef Py_ssize_t* cols = tap_table(kw, dw, pl, sw, x.shape[3], out.shape[3])
    try:
        if rows == NULL or cols == NULL:
            raise MemoryError("max_pool_forward: no memory for the tap tables")
        tiles = kh == kw == sh == sw == 2 and dh == dw == 1 and pt == pl == 0 and \
            2 * out.shape[2] <= x.shape[2] and 2 * out.shape[3] <= x.shape[3]
        if x.dtype.char == "f":
            xf, of = x, out
            with nogil:
                if tiles:
                    _max_forward_2x2(xf, of, arg, rows, cols)
                else:
                    _max_forward(xf, of, arg, kh, kw, sh, sw, dh, dw, pt, pl, rows, cols)
        else:
            xd, od = x, out
            with nogil:
                if tiles:
                    _max_forward_2x2(xd, od, arg, rows, cols)
                else:
                    _max_forward(xd, od, arg, kh, kw, sh, sw, dh, dw, pt, pl, rows, cols)
    finally:
        free(rows)
        free(cols)


def max_pool_backward(g, argmax, dx):
    """Add `g` (N, C, OH * OW) onto `dx` (N, C, H * W) at the positions `argmax` (Int64,
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


def avg_pool_forward(x, out, divisor, tuple kernel, tuple stride, tuple pads):
    """Fill `out` (N, C, OH, OW) with window sums of `x` (N, C, H, W) over `divisor`
    (float64, (OH, OW)). `pads` is (top, left)."""
    k = _window("avg_pool_forward", kernel, stride, pads)
    _pair_of_4d("avg_pool_forward", x, out)
    real_kind("avg_pool_forward", x, (out,))
    shape_is("avg_pool_forward", "divisor", divisor, tuple(out.shape[2:]))
    cdef Py_ssize_t kh = k[0], kw = k[1], sh = k[2], sw = k[3], pt = k[4], pl = k[5]
    cdef const double[:, ::1] div = divisor
    cdef const float[:, :, :, ::1] xf
    cdef float[:, :, :, ::1] of
    cdef const double[:, :, :, ::1] xd
    cdef double[:, :, :, ::1] od
    if x.dtype.char == "f":
        xf, of = x, out
        with nogil:
            _avg_forward(xf, of, div, kh, kw, sh, sw, pt, pl)
    else:
        xd, od = x, out
        with nogil:
            _avg_forward(xd, od, div, kh, kw, sh, sw, pt, pl)


def avg_pool_backward(g, dx, divisor, tuple kernel, tuple stride, tuple pads):
    """Add `g` (N, C, OH, OW) over `divisor` onto each window of `dx` (N, C, H, W)."""
    k = _window("avg_pool_backward", kernel, stride, pads)
    _pair_of_4d("avg_pool_backward", dx, g)
    real_kind("avg_pool_backward", g, (dx,))
    shape_is("avg_pool_backward", "divisor", divisor, tuple(g.shape[2:]))
    cdef Py_ssize_t kh = k[0], kw = k[1], sh = k[2], sw = k[3], pt = k[4], pl = k[5]
    cdef const double[:, ::1] div = divisor
    cdef const float[:, :, :, ::1] gf
    cdef float[:, :, :, ::1] df
    cdef const double[:, :, :, ::1] gd
    cdef double[:, :, :, ::1] dd
    if g.dtype.char == "f":
        gf, df = g, dx
        with nogil:
            _avg_backward(gf, df, div, kh, kw, sh, sw, pt, pl)
    else:
        gd, dd = g, dx
        with nogil:
            _avg_backward(gd, dd, div, kh, kw, sh, sw, pt, pl)
