"""A matrix product a @ b in whichever orientation numpy's BLAS runs faster at its exact shapes:
as written, or as (b.T @ a.T).T, the product of the transposes read transposed.

OpenBLAS's kernels differ by up to 2x between the two at convolution shapes: LeNet-5's second
layer's weight gradient, (16, 2048) @ (2048, 150), took 299 us and (150, 2048) @ (2048, 16)
154 us; its forward (16, 150) @ (150, 2048) 236 us against 186 us (one thread, AMD EPYC Zen 4
VM, SkylakeX kernels, 2026-11-26). Decided once per process per shapes, layouts, dtype and BLAS
threads: taken only where it wins three rounds of four by 10% (`_dense_blas._race`) and gives
the same bits (each dot product summed in the same order), so no result depends on a timing.
ENABLED = False (CELLGRAD_ORIENT=0) turns it off.
"""

import os

import numpy as np

from cellgrad import _blas_threads
from cellgrad_nn._kernels import blas
from cellgrad_nn.functional import _dense_blas

ENABLED = os.environ.get("CELLGRAD_ORIENT", "1") != "0"
_turned = {}  # (shapes, strides, dtype, threads) -> whether a @ b runs as (b.T @ a.T).T


def matmul(a, b, empty=np.empty):
    """a @ b of 2-D arrays; the result may be the transpose of a C-ordered array (an F-ordered
    view). `empty(shape, dtype)` gives the array the product is written into."""
    if ENABLED and turned(a, b):
        out = empty((b.shape[1], a.shape[0]), a.dtype)
        np.matmul(b.T, a.T, out=out)
        return out.T
    out = empty((a.shape[0], b.shape[1]), np.result_type(a, b))
    np.matmul(a, b, out=out)
    return out


def contiguous(r):
    """A `matmul` result in C order: a turned one copied back in 8 x 8 tiles."""
    if r.flags.c_contiguous:
        return r
    out = np.empty(r.shape, r.dtype)
    if blas.transpose_add(r.T, None, out):
        return out
    return np.ascontiguousarray(r)


def turned(a, b):
    """Whether this product runs as (b.T @ a.T).T (measured on first sight of its key)."""
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] * a.shape[1] * b.shape[1] < _dense_blas.MIN_MNK \
            or not (a.flags.c_contiguous or a.flags.f_contiguous) \
            or not (b.flags.c_contiguous or b.flags.f_contiguous):
        return False  # small, or a layout the measurement would not copy
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype, _blas_threads.threads())
    got = _turned.get(key)
    if got is None:
        got = _turned[key] = (a.dtype == b.dtype and a.dtype.kind == "f"
                              and len(_turned) < _dense_blas.MAX_DECISIONS
                              and _turn_wins(*_operands(a, b)))
    return got


def _operands(a, b):
    rng = np.random.default_rng(0)
    return _blas_threads.random_like(a, rng), _blas_threads.random_like(b, rng)


def _turn_wins(a, b, rounds=9, block_s=3e-4):
    if not np.array_equal(np.matmul(a, b), np.matmul(b.T, a.T).T):
        return False
    out = np.empty((a.shape[0], b.shape[1]), a.dtype)
    out_t = np.empty((b.shape[1], a.shape[0]), a.dtype)
    return _dense_blas._race((lambda: np.matmul(a, b, out=out),
                              lambda: np.matmul(b.T, a.T, out=out_t)),
                             rounds, block_s) <= _dense_blas.MARGIN
