"""Where cellgrad's random numbers come from: one stream per (kernel, op seed).

MindSpore's rule (`mindspore.common.seed`): a random op draws from a stream named by its kernel
and its op seed, started from the global seed; every call moves that stream on, and `set_seed`
restarts all of them. So after `set_seed(s)` the same sequence of calls gives the same values,
and ops of other kernels drawn in between do not shift a stream. Each draw gets its own numpy
`Generator` (PCG64 keyed by global seed, kernel, op seed and call number), so values are the
same on every platform and two threads never share a generator state. With neither a global
nor an op seed the draw is fresh entropy, as in MindSpore.
"""

import threading
import zlib

import numpy as np

from cellgrad import _jit_hook

_lock = threading.Lock()
_global_seed = None
_calls = {}  # (kernel, op seed) -> draws made since the last set_seed


def reset(seed):
    """Restart every stream from the global `seed` (None: unseeded)."""
    global _global_seed
    with _lock:
        _global_seed = seed
        _calls.clear()


def global_seed():
    return _global_seed


def generator(kernel="default", seed=None):
    """A fresh numpy Generator for one draw of `kernel` with op seed `seed` (None or 0: none)."""
    op_seed = 0 if seed is None else int(seed)
    if _jit_hook.tracer is not None:
        _jit_hook.tracer.random_draw(kernel, op_seed)
    with _lock:
        if _global_seed is None and op_seed == 0:
            return np.random.default_rng()
        key = (kernel, op_seed)
        call = _calls.get(key, 0)
        _calls[key] = call + 1
        root = 0 if _global_seed is None else _global_seed
    return fixed_generator(root, zlib.crc32(kernel.encode()), op_seed, call)


def fixed_generator(*seeds):
    """A Generator that depends on `seeds` only (non-negative ints): same values every call."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seeds)))
