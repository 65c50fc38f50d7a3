"""Arithmetic kernels for small float arrays: the per-op hot path's add, sub, mul and neg, and
the tanh/sigmoid gradients fused into one pass.

A numpy ufunc call costs 0.3-0.5 us whatever the size (dispatch, type resolution, the
floating-point status checks); these loops cost about 0.1 us on a (16,) array. Each kernel
takes only what it computes exactly as numpy would -- float32 or float64, both operands of one
dtype and one shape (or one a numpy scalar of that dtype), C-contiguous, aligned, native byte
order, at most SMALL_MAX elements -- and returns None otherwise, so the caller falls back to
the ufunc. IEEE arithmetic then gives numpy's results bit for bit: the module is built with
-ffp-contract=off so that no product and sum are fused into one FMA.
"""

cimport cython
cimport numpy as cnp
import numpy as np

cnp.import_array()

# Past this many elements the loops' advantage (no ufunc dispatch) stops mattering.
DEF SMALL_MAX = 16384

cdef object ndarray = np.ndarray
cdef object _f32 = np.float32
cdef object _f64 = np.float64

ctypedef fused real:
    float
    double


cdef inline int _usable(object a):
    """The numpy type number of `a` when a kernel may read it, else -1."""
    cdef cnp.ndarray x
    cdef int t
    if type(a) is not ndarray:
        return -1
    x = <cnp.ndarray>a
    t = cnp.PyArray_TYPE(x)
    if t != cnp.NPY_FLOAT32 and t != cnp.NPY_FLOAT64:
        return -1
    if cnp.PyArray_SIZE(x) > SMALL_MAX or not cnp.PyArray_IS_C_CONTIGUOUS(x) \
            or not cnp.PyArray_ISBEHAVED_RO(x):
        return -1
    return t


cdef inline object _empty_like(cnp.ndarray x):
    return cnp.PyArray_SimpleNew(cnp.PyArray_NDIM(x), cnp.PyArray_DIMS(x), cnp.PyArray_TYPE(x))


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _binary_loop(int code, const real *x, Py_ssize_t sx, const real *y, Py_ssize_t sy,
                       real *o, Py_ssize_t n) noexcept nogil:
    """o = x (op) y over n elements; a stride of 0 repeats a scalar operand."""
    cdef Py_ssize_t i
    if code == K_ADD:
        for i in range(n):
            o[i] = x[i * sx] + y[i * sy]
    elif code == K_SUB:
        for i in range(n):
            o[i] = x[i * sx] - y[i * sy]
    else:
        for i in range(n):
            o[i] = x[i * sx] * y[i * sy]


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _grad_loop(int code, const real *g, const real *out, real *o,
                     Py_ssize_t n) noexcept nogil:
    """The tanh gradient g - g*out*out or the sigmoid one (g*out) - (g*out)*out, in numpy's
    order of operations (the Python rules in cellgrad.ops._elementwise)."""
    cdef Py_ssize_t i
    cdef real t
    if code == G_TANH:
        for i in range(n):
            t = g[i] * out[i]
            o[i] = g[i] - t * out[i]
    else:
        for i in range(n):
            t = g[i] * out[i]
            o[i] = t - t * out[i]


cdef object small_binary(int code, object a, object b):
    """a + b, a - b or a * b (code K_ADD, K_SUB, K_MUL), or None where numpy must do it."""
    cdef int ta = _usable(a), tb = _usable(b)
    cdef cnp.ndarray x, y, shape_of
    cdef char *px
    cdef char *py
    cdef Py_ssize_t sx = 1, sy = 1
    cdef float s32
    cdef double s64
    if ta >= 0 and tb >= 0:
        if ta != tb or not cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, <cnp.ndarray>b):
            return None
        x, y = <cnp.ndarray>a, <cnp.ndarray>b
        shape_of = x
        px, py = <char *>cnp.PyArray_DATA(x), <char *>cnp.PyArray_DATA(y)
    elif ta >= 0:
        shape_of = <cnp.ndarray>a
        px = <char *>cnp.PyArray_DATA(shape_of)
        py = _scalar_pointer(b, ta, &s32, &s64)
        sy = 0
        if py == NULL:
            return None
    elif tb >= 0:
        shape_of = <cnp.ndarray>b
        py = <char *>cnp.PyArray_DATA(shape_of)
        px = _scalar_pointer(a, tb, &s32, &s64)
        sx = 0
        if px == NULL:
            return None
    else:
        return None
    out = _empty_like(shape_of)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(shape_of)
    cdef char *po = <char *>cnp.PyArray_DATA(<cnp.ndarray>out)
    if cnp.PyArray_TYPE(shape_of) == cnp.NPY_FLOAT32:
        _binary_loop(code, <float *>px, sx, <float *>py, sy, <float *>po, n)
    else:
        _binary_loop(code, <double *>px, sx, <double *>py, sy, <double *>po, n)
    return out


cdef char *_scalar_pointer(object v, int t, float *s32, double *s64) except? NULL:
    """Point at `v`'s value when it is a numpy scalar of type number `t` (else NULL)."""
    if t == cnp.NPY_FLOAT32 and type(v) is _f32:
        s32[0] = <float>(<double>v)     # float32 -> double -> float32 is exact
        return <char *>s32
    if t == cnp.NPY_FLOAT64 and type(v) is _f64:
        s64[0] = <double>v
        return <char *>s64
    return NULL


cdef object small_neg(object a):
    """-a, or None where numpy must do it."""
    cdef Py_ssize_t i, n
    if _usable(a) < 0:
        return None
    cdef cnp.ndarray x = <cnp.ndarray>a
    out = _empty_like(x)
    n = cnp.PyArray_SIZE(x)
    cdef char *px = <char *>cnp.PyArray_DATA(x)
    cdef char *po = <char *>cnp.PyArray_DATA(<cnp.ndarray>out)
    if cnp.PyArray_TYPE(x) == cnp.NPY_FLOAT32:
        for i in range(n):
            (<float *>po)[i] = -(<float *>px)[i]
    else:
        for i in range(n):
            (<double *>po)[i] = -(<double *>px)[i]
    return out


cdef object small_grad(int code, object g, object out):
    """The tanh (G_TANH) or sigmoid (G_SIGMOID) gradient from the op's output, or None."""
    cdef int tg = _usable(g)
    if tg < 0 or tg != _usable(out):
        return None
    if not cnp.PyArray_SAMESHAPE(<cnp.ndarray>g, <cnp.ndarray>out):
        return None
    cdef cnp.ndarray x = <cnp.ndarray>g
    res = _empty_like(x)
    cdef char *pg = <char *>cnp.PyArray_DATA(x)
    cdef char *pout = <char *>cnp.PyArray_DATA(<cnp.ndarray>out)
    cdef char *po = <char *>cnp.PyArray_DATA(<cnp.ndarray>res)
    if tg == cnp.NPY_FLOAT32:
        _grad_loop(code, <float *>pg, <float *>pout, <float *>po, cnp.PyArray_SIZE(x))
    else:
        _grad_loop(code, <double *>pg, <double *>pout, <double *>po, cnp.PyArray_SIZE(x))
    return res


def kernel_code(ufunc):
    """The K_* code of the kernel standing in for `ufunc` (0: none)."""
    if ufunc is np.add:
        return K_ADD
    if ufunc is np.subtract:
        return K_SUB
    if ufunc is np.multiply:
        return K_MUL
    if ufunc is np.negative:
        return K_NEG
    return 0


def binary(str name, a, b):
    """Python entry for tests: `name` in add/sub/mul; None where the kernel declines."""
    return small_binary({"add": K_ADD, "sub": K_SUB, "mul": K_MUL}[name], a, b)


def neg(a):
    """Python entry for tests: -a, or None where the kernel declines."""
    return small_neg(a)


def activation_grad(str name, g, out):
    """Python entry for tests: the "tanh" or "sigmoid" gradient, or None."""
    return small_grad(G_TANH if name == "tanh" else G_SIGMOID, g, out)
