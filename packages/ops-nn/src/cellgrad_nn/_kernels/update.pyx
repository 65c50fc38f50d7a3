"""Optimizer updates in one pass over memory.

`param -= grad * lr` in numpy is two passes and a temporary as large as the parameter
(multiply, then subtract); this loop reads each gradient and parameter once. The arithmetic
is numpy's -- the product rounded to the parameter's dtype, then the difference -- and the
module is built with -ffp-contract=off so no FMA fuses them: results are bit for bit numpy's.
`sgd_step(..., once=True)` alone rounds once, by an explicit fma: the step SGD fused into Dense's
weight-gradient product takes (`cellgrad_nn.functional._dense_sgd`).
"""

from cython cimport floating
from libc.math cimport fma, fmaf

from cellgrad_nn._kernels._entry cimport real_kind, shape_is


cdef void _descend(floating[::1] param, const floating[::1] grad, floating lr) noexcept nogil:
    cdef Py_ssize_t i
    cdef floating step
    for i in range(param.shape[0]):
        step = grad[i] * lr
        param[i] = param[i] - step


cdef void _descend_once(floating[::1] param, const floating[::1] grad,
                        floating lr) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(param.shape[0]):
        if floating is float:
            param[i] = fmaf(-lr, grad[i], param[i])
        else:
            param[i] = fma(-lr, grad[i], param[i])


def sgd_step(param, grad, double lr, bint once=False):
    """param -= grad * lr, in place; both C-contiguous arrays of one float dtype and shape
    (lr is rounded to that dtype first, as numpy rounds a float32 scalar). `once`: rounded
    once (a fused multiply-add), what a BLAS product with alpha = -lr and beta = 1 into
    `param` gives when its kernel saves by FMA (the reference `_dense_sgd` checks against)."""
    real_kind("sgd_step", param, (grad,))
    shape_is("sgd_step", "grad", grad, tuple(param.shape))
    cdef float[::1] pf
    cdef const float[::1] gf
    cdef double[::1] pd
    cdef const double[::1] gd
    cdef float lr32 = <float>lr
    if param.dtype.char == "f":
        pf, gf = param.reshape(-1), grad.reshape(-1)
        with nogil:
            if once:
                _descend_once(pf, gf, lr32)
            else:
                _descend(pf, gf, lr32)
    else:
        pd, gd = param.reshape(-1), grad.reshape(-1)
        with nogil:
            if once:
                _descend_once(pd, gd, lr)
            else:
                _descend(pd, gd, lr)


# ---- one call per step for a whole group of parameters ----
#
# `group_update` runs an optimizer's update over every parameter in C: no Python frame per
# parameter. Each line below is one numpy ufunc of the optimizer's per-parameter code
# (cellgrad_nn.optim), in its order, each result rounded to the parameter's dtype, so the
# results are the per-parameter path's bit for bit (tests/ops_nn/test_group_update.py).

from cpython.buffer cimport PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release
from libc.math cimport sqrt


cdef extern from "Python.h":
    # without Cython's `except -1`: a refused buffer is an answer here, not an error
    int _get_buffer "PyObject_GetBuffer"(object, Py_buffer*, int)
    void PyErr_Clear()


cdef bint _take(object a, Py_buffer* view, int flags):
    if _get_buffer(a, view, flags | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == -1:
        PyErr_Clear()
        return False
    return True

cdef enum:
    K_SGD, K_SGD_MOMENTUM, K_MOMENTUM, K_ADAM, K_ADAM_WEIGHT_DECAY
    _MAX_STATE = 3

# the kinds, for the optimizers
SGD_PLAIN, SGD_MOMENTUM, MOMENTUM, ADAM, ADAM_WEIGHT_DECAY = (
    K_SGD, K_SGD_MOMENTUM, K_MOMENTUM, K_ADAM, K_ADAM_WEIGHT_DECAY)


cdef struct Coef:
    # every coefficient of one parameter's update, as doubles (cast to the dtype in `_run`)
    double lr, inv_scale, wd, m, damp_keep, b1, c1, b2, c2, eps
    bint decay_grad, nesterov, amsgrad


cdef inline floating _max_nan(floating a, floating b) noexcept nogil:
    # np.maximum: a NaN on either side wins
    if a >= b or a != a:
        return a
    return b


# Each loop takes its options as constant arguments of an inline function, so the compiler
# makes one branch-free (vectorisable) copy per combination. `inv` multiplies the gradient
# always (x * 1.0 is x exactly); the weight decay `g + p * wd` only where `decay` (adding
# p * 0 would not be exact: -0.0 and inf).

cdef inline void _sgd(Py_ssize_t n, floating* p, const floating* g, floating inv, floating wd,
                      floating lr, bint decay) noexcept nogil:
    cdef Py_ssize_t i
    cdef floating gv, t
    for i in range(n):
        gv = g[i] * inv
        if decay:
            gv = gv + p[i] * wd
        t = gv * lr
        p[i] = p[i] - t


cdef inline void _momentum(Py_ssize_t n, floating* p, const floating* g, floating* acc,
                           floating inv, floating wd, floating lr, floating m, floating keep,
                           bint decay, bint first, bint nesterov, bint sgd) noexcept nogil:
    # sgd: nn.SGD's (dampening `keep` = 1 - dampening, the first step copies the gradient);
    # else nn.Momentum's (nesterov's terms in another order)
    cdef Py_ssize_t i
    cdef floating gv, t, a
    for i in range(n):
        gv = g[i] * inv
        if decay:
            gv = gv + p[i] * wd
        if first:
            a = gv
        else:
            a = acc[i] * m
            if sgd:
                t = gv * keep
                a = a + t
            else:
                a = a + gv
        acc[i] = a
        if nesterov:
            t = a * m
            t = gv + t if sgd else t + gv
        else:
            t = a
        t = t * lr
        p[i] = p[i] - t


cdef inline void _adam(Py_ssize_t n, floating* p, const floating* g, floating* m1,
                       floating* m2, floating* vhat, floating inv, floating wd, floating lr,
                       floating b1, floating c1, floating b2, floating c2, floating eps,
                       bint decay, bint nesterov, bint amsgrad, bint decoupled) noexcept nogil:
    # decoupled: nn.AdamWeightDecay's (the decay is added to the update, not the gradient)
    cdef Py_ssize_t i
    cdef floating gv, t, u, a
    for i in range(n):
        gv = g[i] * inv
        if decay and not decoupled:
            gv = gv + p[i] * wd
        a = m1[i] * b1
        t = gv * c1
        a = a + t
        m1[i] = a
        u = m2[i] * b2
        t = gv * gv
        t = t * c2
        u = u + t
        m2[i] = u
        if amsgrad:
            u = _max_nan(vhat[i], u)
            vhat[i] = u
        u = <floating>sqrt(u)
        u = u + eps
        if nesterov:
            a = a * b1
            t = gv * c1
            a = a + t
        t = a / u
        if decay and decoupled:
            a = p[i] * wd
            t = t + a
        t = t * lr
        p[i] = p[i] - t


cdef void _run(int kind, Coef c, Py_ssize_t n, floating* p, const floating* g,
               floating* s0, floating* s1, floating* s2) noexcept nogil:
    cdef Py_ssize_t i
    cdef floating lr = <floating>c.lr, inv = <floating>c.inv_scale, wd = <floating>c.wd
    cdef floating m = <floating>c.m, keep = <floating>c.damp_keep
    cdef floating b1 = <floating>c.b1, c1 = <floating>c.c1, b2 = <floating>c.b2
    cdef floating c2 = <floating>c.c2, eps = <floating>c.eps
    cdef bint d = c.decay_grad, first, sgd
    if kind == K_SGD:
        if d:
            _sgd(n, p, g, inv, wd, lr, True)
        else:
            _sgd(n, p, g, inv, wd, lr, False)
    elif kind == K_SGD_MOMENTUM or kind == K_MOMENTUM:  # s0 accum, s1 SGD's stat
        sgd = kind == K_SGD_MOMENTUM
        first = sgd and n > 0 and s1[0] != 0
        if first:  # once: no need for fast copies
            _momentum(n, p, g, s0, inv, wd, lr, m, keep, d, True, c.nesterov, True)
            for i in range(n):
                s1[i] = 0
        elif sgd:
            if d:
                if c.nesterov:
                    _momentum(n, p, g, s0, inv, wd, lr, m, keep, True, False, True, True)
                else:
                    _momentum(n, p, g, s0, inv, wd, lr, m, keep, True, False, False, True)
            elif c.nesterov:
                _momentum(n, p, g, s0, inv, wd, lr, m, keep, False, False, True, True)
            else:
                _momentum(n, p, g, s0, inv, wd, lr, m, keep, False, False, False, True)
        elif d:
            if c.nesterov:
                _momentum(n, p, g, s0, inv, wd, lr, m, keep, True, False, True, False)
            else:
                _momentum(n, p, g, s0, inv, wd, lr, m, keep, True, False, False, False)
        elif c.nesterov:
            _momentum(n, p, g, s0, inv, wd, lr, m, keep, False, False, True, False)
        else:
            _momentum(n, p, g, s0, inv, wd, lr, m, keep, False, False, False, False)
    elif kind == K_ADAM:  # s0 moment1, s1 moment2, s2 vhat; the rare options unspecialised
        if c.nesterov or c.amsgrad:
            _adam(n, p, g, s0, s1, s2, inv, wd, lr, b1, c1, b2, c2, eps, d, c.nesterov,
                  c.amsgrad, False)
        elif d:
            _adam(n, p, g, s0, s1, s2, inv, wd, lr, b1, c1, b2, c2, eps, True, False, False,
                  False)
        else:
            _adam(n, p, g, s0, s1, s2, inv, wd, lr, b1, c1, b2, c2, eps, False, False, False,
                  False)
    elif kind == K_ADAM_WEIGHT_DECAY:  # s0 adam_m, s1 adam_v
        if d:
            _adam(n, p, g, s0, s1, s2, inv, wd, lr, b1, c1, b2, c2, eps, True, False, False,
                  True)
        else:
            _adam(n, p, g, s0, s1, s2, inv, wd, lr, b1, c1, b2, c2, eps, False, False, False,
                  True)


cdef bint _view(object a, Py_buffer* view, int flags, char code, Py_buffer* like) except -1:
    """Take `a`'s buffer if it is C-contiguous, of dtype `code` and (with `like`) of its shape;
    False (nothing held) otherwise."""
    cdef int k
    if a is None or not _take(a, view, flags):
        return False
    ok = view.format[0] == code and view.format[1] == 0
    if ok and like is not NULL:
        ok = view.ndim == like.ndim and view.len == like.len
        k = 0
        while ok and k < view.ndim:
            ok = view.shape[k] == like.shape[k]
            k += 1
    if not ok:
        PyBuffer_Release(view)
    return ok


cdef object _array(object t):
    """A Tensor's (or Parameter's) ndarray; an ndarray as it is."""
    data = getattr(t, "_data", None)
    return t if data is None else data


def group_update(int kind, params, gradients, states, lrs, slots, wds, double loss_scale,
                 double m=0.0, double dampening=0.0, bint nesterov=False, double beta1=0.0,
                 double beta2=0.0, double eps=0.0, double lr_factor=1.0,
                 bint amsgrad=False):
    """Update parameters 0, 1, ... of `params` (Parameters) with `gradients` in place by
    optimizer `kind`; stops at the first parameter it cannot take (a dtype other than float32
    or float64, a non-contiguous or read-only array, a gradient of another shape or dtype)
    and returns how many it updated, so the caller's per-parameter path does the rest.

    `states` holds one sequence of Parameters per state the kind keeps; parameter i's learning
    rate is `lrs[slots[i]] * lr_factor` and its weight decay `wds[i]`; the gradient is divided
    by `loss_scale` first (and decayed unless the kind decays the parameter)."""
    cdef Py_ssize_t i, k, n = len(params), nstate = len(states)
    cdef Py_buffer pv, gv
    cdef Py_buffer sv[3]
    cdef void* sp[3]
    cdef Coef c
    cdef char code
    if nstate > _MAX_STATE or len(gradients) < n or len(slots) < n or len(wds) < n:
        raise ValueError("group_update: states, gradients, slots and wds must cover params")
    c.inv_scale = 1.0 / loss_scale if loss_scale != 1.0 else 1.0
    c.m, c.nesterov = m, nesterov
    c.damp_keep = 1.0 - dampening  # 1.0 without dampening: g * 1.0 is g
    c.b1, c.c1, c.b2, c.c2, c.eps = beta1, 1.0 - beta1, beta2, 1.0 - beta2, eps
    c.amsgrad = amsgrad
    for i in range(n):
        param = params[i]
        data = _array(param)
        if not _take(data, &pv, PyBUF_WRITABLE):
            return i
        code = pv.format[0]
        if (code != b"f" and code != b"d") or pv.format[1] != 0:
            PyBuffer_Release(&pv)
            return i
        held = 0
        ok = _view(_array(gradients[i]), &gv, 0, code, &pv)
        if ok:
            while held < nstate:
                if not _view(_array(states[held][i]), &sv[held], PyBUF_WRITABLE, code, &pv):
                    break
                sp[held] = sv[held].buf
                held += 1
            ok = held == nstate
            if not ok:
                PyBuffer_Release(&gv)
        if not ok:
            for k in range(held):
                PyBuffer_Release(&sv[k])
            PyBuffer_Release(&pv)
            return i
        for k in range(held, _MAX_STATE):
            sp[k] = NULL
        c.lr = <double>lrs[slots[i]] * lr_factor
        c.wd = wds[i]
        c.decay_grad = c.wd != 0.0
        count = pv.len // pv.itemsize
        if code == b"f":
            with nogil:
                _run(kind, c, count, <float*>pv.buf, <const float*>gv.buf, <float*>sp[0],
                     <float*>sp[1], <float*>sp[2])
        else:
            with nogil:
                _run(kind, c, count, <double*>pv.buf, <const double*>gv.buf, <double*>sp[0],
                     <double*>sp[1], <double*>sp[2])
        for k in range(held):
            PyBuffer_Release(&sv[k])
        PyBuffer_Release(&gv)
        PyBuffer_Release(&pv)
        if data is not param:
            param._pending_init = False  # read, as `asnumpy` marks it
    return n
