"""Reused arrays for the spatial ops' large per-step buffers (columns, outputs, gradients).

A training loop asks for the same shapes every step. Freshly allocated blocks of that size
come from pages the allocator returned to the OS after the last step, and faulting them in
again costs more than the convolution itself. `empty(shape, dtype)` hands back an array of
that shape that nothing references any more (only the pool holds it), or allocates one and
keeps it for later. An array still saved for a backward, wrapped in a Tensor or viewed by
anyone keeps a reference and is never handed out twice.
"""

import math
import os
import sys
import threading

import numpy as np

MIN_BYTES = 64 * 1024  # smaller blocks come from the allocator's free lists anyway
PER_SHAPE = 16  # arrays kept per (shape, dtype): layers of one shape, saved until backward
MAX_BYTES = 256 * 1024 * 1024  # beyond this the pool stops keeping new arrays

_pool: dict = {}
_kept_bytes = 0
_lock = threading.Lock()


def _free_count(arrays):
    """The reference count `empty` sees for an array only the pool holds (measured, not
    assumed: interpreters differ in what a loop variable or a call argument costs)."""
    for a in arrays:
        return sys.getrefcount(a)


_FREE = _free_count([np.empty(0)])
getrefcount = sys.getrefcount


def empty(shape, dtype):
    """An uninitialised array like `np.empty(shape, dtype)`, reused when one is free."""
    dtype = np.dtype(dtype)
    try:
        arrays = _pool.get((shape, dtype.char))  # few calls on the hot path
    except TypeError:  # a list for a shape
        arrays = None
    if arrays is not None:
        with _lock:
            for a in arrays:
                if getrefcount(a) == _FREE:
                    return a
    return _new(shape, dtype)


def _new(shape, dtype):
    global _kept_bytes
    shape = tuple(shape)
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < MIN_BYTES:
        return np.empty(shape, dtype)
    with _lock:
        key = (shape, dtype.char)
        arrays = _pool.get(key)
        if arrays is None:
            arrays = _pool[key] = []
        for a in arrays:
            if getrefcount(a) == _FREE:
                return a
        a = np.empty(shape, dtype)
        if len(arrays) < PER_SHAPE and _kept_bytes + nbytes <= MAX_BYTES:
            arrays.append(a)
            _kept_bytes += nbytes
        return a


def zeros(shape, dtype):
    out = empty(shape, dtype)
    out.fill(0)
    return out


def clear():
    """Drop every kept array (their memory goes back once nothing else holds them)."""
    global _kept_bytes
    with _lock:
        _pool.clear()
        _kept_bytes = 0


def memory_bytes():
    """This machine's physical memory in bytes (None where the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_fits(op, what, shape, dtype):
    """Refuse, before allocating, a buffer larger than the machine's memory: numpy would
    fail in the middle of the op (or the OS would start swapping) with no word of which op."""
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    limit = memory_bytes()
    if limit is not None and nbytes > limit:
        raise MemoryError(f"For '{op}', the {what} would need {nbytes / 2**30:.1f} GiB "
                          f"(shape {tuple(shape)}, {np.dtype(dtype)}), more than this machine's "
                          f"{limit / 2**30:.1f} GiB of memory; use a smaller batch or input.")
