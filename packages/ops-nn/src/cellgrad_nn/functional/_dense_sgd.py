"""A plain SGD step fused into Dense's weight-gradient product: W -= lr * (g.T @ x) as one
GEMM of numpy's OpenBLAS (alpha = -lr, beta = 1, into W), so the gradient dW is never written
and W is not read again by a separate update.

The optimizer's early updates (`cellgrad_nn.optim.in_backward`) register a weight here for the
backward of one training step (`STEPS`); Dense's backward offers each product to `descend`
after its dX product, which still reads the old W. Why: the MLP step's eight products alone
take 1.33x the machine's FLOP limit and the separate update's memory pass another 0.95x
(1 thread, AMD EPYC Zen 3, 2026-11-26); fused, the pass and OpenBLAS's zeroing of dW go
(the MLP step 0.95x of the separate update, in-process A/B, Zen 4, 2026-11-26).

The numbers: OpenBLAS's large-matrix kernels add alpha times the product's sum to C with one
fused multiply-add when the sum is one block of K (a batch up to 240-512 rows, by kernel), so
W becomes fl(W - lr * dW), rounded once, where MindSpore's SGD kernel and our separate update
round lr * dW first (1 ulp apart on 4-18% of weights; the README's "differs on purpose"); its
small-matrix kernels round twice, as the separate update. Which one a shape gives is measured
once per (dtype, shape, threads) (`rounding`); a shape that gives neither is not fused.
"""

import contextlib

import numpy as np

from cellgrad import _blas_threads
from cellgrad_nn._kernels import blas, update
from cellgrad_nn.functional import _dense_blas

# Weights of at least this many bytes fuse: a small layer saves little, and its product may
# be the same bits as MindSpore's, which a toy program's printed numbers would show.
MIN_BYTES = 1 << 16
ENABLED = True  # False: every Dense weight gets its gradient and the usual update

STEPS = {}  # a weight's leaf Node -> `fuse(g2, x2, held)` of its optimizer, for one backward


def _gemm_fns():
    lib = _blas_threads.openblas()
    if lib is None or not lib.int64:
        return {}
    try:
        return {np.dtype(np.float32): lib.symbol("cblas_sgemm"),
                np.dtype(np.float64): lib.symbol("cblas_dgemm")}
    except AttributeError:
        return {}


_FN = _gemm_fns()
_rounds = {}  # (dtype, m, n, k, threads) -> 1, 2 or 0 (`rounding`)


def descend(ctx, g2, x2, held):
    """Offer W's step to its optimizer: True when W (input 1 of the Dense node `ctx`) was
    updated in the product, so its gradient is not computed. `held` is how many references
    to W's array the calling rule holds (its saved tuple and locals)."""
    fuse = STEPS.get(ctx.next_nodes[1])
    return fuse is not None and fuse(g2, x2, held)


def _band(m, n, k):
    """Whether the product is in `_blas_threads`' band (one thread or all, by measurement)."""
    return _blas_threads.one_thread(m * n * k) and _blas_threads.threads() > 1


def rounding(dtype, m, n, k):
    """How the fused step W -= lr * (g.T @ x) rounds for W (m, n) and a batch of k on this
    BLAS and thread count: 1 (fl(W - lr*dW)), 2 (fl(W - fl(lr*dW)), the separate update's
    numbers: OpenBLAS's small-matrix kernels), 0 (neither: K split into blocks; not fused).
    Measured once per shape on random operands, against the product and `update`'s kernels;
    in the thread band, at one thread and at all (0 unless both agree bit for bit)."""
    dtype = np.dtype(dtype)
    key = (dtype, m, n, k, _blas_threads.threads())
    got = _rounds.get(key)
    if got is None:
        fn = _FN.get(dtype)
        if not fn:
            got = 0
        elif _band(m, n, k):
            (r1, w1), (r2, w2) = (_measure(fn, dtype, m, n, k, t) for t in (True, False))
            got = r1 if r1 == r2 and np.array_equal(w1, w2) else 0
        else:
            got = _measure(fn, dtype, m, n, k, False)[0]
        _rounds[key] = got
    return got


def step(w, g2, x2, lr):
    """w -= lr * g2.T @ x2 in one GEMM when this shape rounds as `rounding` says it does:
    returns that rounding (1 or 2), or 0 when nothing was done. All three C-contiguous of one
    float dtype: g2 (batch, out), x2 (batch, in), w (out, in)."""
    fn = _FN.get(w.dtype)
    if not fn or g2.dtype != w.dtype or x2.dtype != w.dtype or \
            not (w.flags.c_contiguous and w.flags.writeable and g2.flags.c_contiguous
                 and x2.flags.c_contiguous):
        return 0
    k, m = g2.shape
    n = x2.shape[1]
    if w.shape != (m, n) or x2.shape[0] != k or k == 0:
        return 0
    got = rounding(w.dtype, m, n, k)
    if not got:
        return 0

    _dense_blas.warm(w)  # cold only where no dX product read W just before (a first layer)

    def call():
        blas.gemm(fn, True, g2, True, x2, False, w, True, -lr)

    if _band(m, n, k):  # both thread counts give these bits (`rounding`)
        _blas_threads.run(("sgd", w.dtype, m, n, k, _blas_threads.threads()), call, _yes)
    else:
        call()
    return got


def _yes():
    return True


def _measure(fn, dtype, m, n, k, one):
    """(rounding, the fused result) of the fused call on random operands, at one thread when
    `one`."""
    rng = np.random.default_rng(0)
    g = rng.standard_normal((k, m)).astype(dtype)
    x = rng.standard_normal((k, n)).astype(dtype)
    w = rng.standard_normal((m, n)).astype(dtype)
    lr = 0.0123
    dw = np.empty_like(w)
    fused = w.copy()
    with _blas_threads.limited(1) if one else contextlib.nullcontext():
        blas.gemm(fn, True, g, True, x, False, dw)
        blas.gemm(fn, True, g, True, x, False, fused, True, -lr)
    once, twice = w.copy(), w.copy()
    update.sgd_step(once, dw, lr, once=True)
    update.sgd_step(twice, dw, lr)
    # a kernel that rounds the other way, or splits K, differs on 3-35% of 5,000+ weights
    got = 1 if np.array_equal(fused, once) else 2 if np.array_equal(fused, twice) else 0
    return got, fused
