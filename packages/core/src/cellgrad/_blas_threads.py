"""numpy's OpenBLAS thread count, lowered to one thread around products too small for a second
thread to pay (`dot`, `matmul`), without a dependency: the library numpy loaded is found in the
process's mappings (or numpy's wheel folder) and its own `openblas_set_num_threads` is called
through ctypes. With another BLAS, or none found, everything here is plain numpy.

Whether a second thread pays in that band depends on the machine's load: on a quiet 2-core
AMD EPYC Zen 4 VM the 64-layer deep chain (2M multiply-adds a product) ran its step in 11.6 ms
with two threads and 16.5 ms with one; under load two threads cost up to 8x (a product waits
for a core). So where a product's numbers do not depend on the thread count (checked once per
shape, layout and dtype on random operands: OpenBLAS's sums sometimes do), the band's products
choose one or two threads by their own measured times (`_Arms`); elsewhere one thread, as before.
"""

import ctypes
import glob
import os
import threading
import time

import numpy as np

# Products with M*N*K below this run on one BLAS thread, or on one or all by measurement where
# that keeps their numbers (the module's doc). OpenBLAS itself splits a GEMM over
# threads from M*N*K > 262,144 (4 x its SMP_THRESHOLD_MIN of 65,536). benchmarks/blas_threads.py
# on the 2-core AMD EPYC (Zen 3) VM, 2026-11-25, load 5-8 (no quiet moment that evening): two
# threads gave 0.93-1.08x of one at 0.3M-2.1M (nothing to win, and their wait is the risk),
# 1.0-1.3x at 4.2M-26M, and 0.01-0.5x from 26M up whenever the other core was taken.
SINGLE_THREAD_BELOW = int(os.environ.get("CELLGRAD_BLAS_SINGLE_THREAD_BELOW", 1 << 22))
OPENBLAS_SINGLE_UP_TO = 262_144  # OpenBLAS runs these on one thread already: nothing to do

_PREFIXES = ("scipy_openblas", "openblas")
_SUFFIXES = ("64_", "_64", "")


class OpenBLAS:
    """numpy's OpenBLAS: its path, prefix/suffix of its symbols, and its thread count."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)  # already loaded by numpy: the same handle
        for prefix in _PREFIXES:
            for suffix in _SUFFIXES:
                name = f"{prefix}_set_num_threads{suffix}"
                if hasattr(self.lib, name):
                    self.prefix, self.suffix = prefix, suffix
                    self._set = getattr(self.lib, name)
                    self._set.argtypes, self._set.restype = [ctypes.c_int], None
                    self._get = getattr(self.lib, f"{prefix}_get_num_threads{suffix}")
                    self._get.argtypes, self._get.restype = [], ctypes.c_int
                    return
        raise OSError(f"{path}: no openblas_set_num_threads symbol")

    def symbol(self, name):
        """The address of `name` (a cblas_* routine) under this build's symbol naming."""
        cblas = f"{'scipy_' if self.prefix.startswith('scipy') else ''}{name}{self.suffix}"
        return ctypes.cast(getattr(self.lib, cblas), ctypes.c_void_p).value

    @property
    def int64(self):
        """Whether this build takes 64-bit integers (ILP64; numpy's wheels do)."""
        return self.suffix in ("64_", "_64")

    def get(self):
        return self._get()

    def set(self, n):
        self._set(n)


def _find():
    try:
        with open("/proc/self/maps") as f:
            paths = {ln.split(None, 5)[-1].strip() for ln in f if "openblas" in ln.lower()}
    except OSError:
        paths = set()
    root = os.path.dirname(os.path.dirname(np.__file__))
    paths.update(glob.glob(os.path.join(root, "numpy.libs", "*openblas*")))
    paths.update(glob.glob(os.path.join(os.path.dirname(np.__file__), ".dylibs", "*openblas*")))
    for path in sorted(p for p in paths if os.path.isfile(p)):
        try:
            return OpenBLAS(path)
        except (OSError, AttributeError):
            continue
    return None


_LIB = _find()
_lock = threading.Lock()
_depth = 0  # threads currently inside a one-thread section
_saved = 1


def openblas():
    """numpy's OpenBLAS (an `OpenBLAS`), or None when numpy uses another BLAS."""
    return _LIB


class limited:
    """`with limited(n):` numpy's OpenBLAS runs on at most `n` threads (never raises the
    user's own setting). Nested and concurrent sections restore the count when the last ends."""

    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __enter__(self):
        global _depth, _saved
        if _LIB is None:
            return self
        with _lock:
            if _depth == 0:
                _saved = _LIB.get()
            _depth += 1
            if _saved > self.n:
                _LIB.set(self.n)
        return self

    def __exit__(self, *exc):
        global _depth
        if _LIB is None:
            return
        with _lock:
            _depth -= 1
            if _depth == 0 and _LIB.get() != _saved:
                _LIB.set(_saved)


_ONE = limited(1)
_REFRESH = 256  # calls between re-reads of the thread count (a ctypes call costs ~0.5 us)
_seen = [0, 1]  # [calls left before a re-read, the count last read]


def threads():
    """numpy's OpenBLAS thread count outside our sections, re-read every 256 calls (a user's
    threadpoolctl limit is seen within that many products); 1 without OpenBLAS."""
    if _LIB is None:
        return 1
    if _seen[0] <= 0:
        _seen[0], _seen[1] = _REFRESH, _saved if _depth else _LIB.get()
    _seen[0] -= 1
    return _seen[1]


def one_thread(mnk):
    """Whether a product of `mnk` multiply-adds per matrix is in the band: one thread, or one
    or all by measurement where its numbers allow (`run`)."""
    return _LIB is not None and OPENBLAS_SINGLE_UP_TO < mnk < SINGLE_THREAD_BELOW


def dot(a, b, out=None):
    """`np.dot` of 1-D/2-D `a`, `b`; in the band on one BLAS thread or, where the numbers are
    the same, on as many as run it faster (`run`)."""
    mnk = a.size * (b.shape[-1] if b.ndim == 2 else 1)
    if OPENBLAS_SINGLE_UP_TO < mnk < SINGLE_THREAD_BELOW:
        n = threads()
        if n > 1:
            return _in_band(np.dot, a, b, out, n)
    return np.dot(a, b, out)


def matmul(a, b, out=None):
    """`np.matmul` under the same policy, per matrix of a stack."""
    if a.ndim >= 2 and b.ndim >= 2:
        mnk = a.shape[-2] * a.shape[-1] * b.shape[-1]
    else:
        mnk = a.size * (b.shape[-1] if b.ndim >= 2 else 1)
    if OPENBLAS_SINGLE_UP_TO < mnk < SINGLE_THREAD_BELOW:
        n = threads()
        if n > 1:
            return _in_band(_matmul, a, b, out, n)
    return np.matmul(a, b, out=out)


def _matmul(a, b, out=None):
    return np.matmul(a, b, out=out)


# ---- the band's thread choice, measured as the products run ----

ADAPTIVE = os.environ.get("CELLGRAD_BLAS_ADAPTIVE", "1") != "0"
_EXPLORE_MIN, _EXPLORE_MAX = 8, 4096  # calls between tries of the other choice
# The share of the faster choice's time that tries of the slower may cost: a try at r times the
# faster's time comes every (r - 1) / _EXPLORE_COST calls. A slower choice's times grow as soon
# as load arrives (each call measures it); only the slower one's recovery waits for a try.
_EXPLORE_COST = 0.005
_arms = {}  # (function, shapes, layouts, dtypes, threads) -> _Arms, or None: one thread always


class _Arms:
    """One product shape's running times at one and at all threads: each call takes the faster
    (seconds per call, moving averages); the slower is tried again after as many calls as keep
    the tries' extra time at 0.5% (8 calls when within 4%, 60 at 1.3x, 4,096 from 21.5x)."""

    __slots__ = ("t", "n", "left")

    def __init__(self):
        self.t = [0.0, 0.0]  # one thread, all threads
        self.n = 0
        self.left = 0

    def pick(self):
        """1 for all threads, 0 for one."""
        if self.n < 2:
            return self.n  # one of each first
        best = 1 if self.t[1] < self.t[0] else 0
        self.left -= 1
        return 1 - best if self.left <= 0 else best

    def record(self, arm, seconds):
        t = self.t
        if self.n < 2:
            t[arm] = seconds
            self.n += 1
            if self.n == 2:
                self._rearm()
            return
        best = 1 if t[1] < t[0] else 0
        if arm == best:
            t[arm] += 0.1 * (seconds - t[arm])
        else:  # the other choice, tried again: its old time is stale
            t[arm] = 0.5 * (t[arm] + seconds)
            self._rearm()

    def _rearm(self):
        lo, hi = sorted(self.t)
        r = hi / lo if lo > 0 else float(_EXPLORE_MAX)
        self.left = int(min(_EXPLORE_MAX, max(_EXPLORE_MIN, (r - 1) / _EXPLORE_COST)))


def _in_band(fn, a, b, out, n):
    # `run` without its two closures a call (the band's products are ~1-2 us of Python each)
    key = (fn, a.shape, b.shape, a.dtype, b.dtype, a.flags.c_contiguous, b.flags.c_contiguous,
           n)
    arms = _arms.get(key, _MISSING) if ADAPTIVE else None
    if arms is _MISSING:
        arms = _arms[key] = _Arms() if _same_bits(fn, a, b, n) else None
    return _timed(arms, fn, a, b, out)


def run(key, call, same_bits):
    """`call()`, a product of the band, at one thread or at all: by measured times where
    `same_bits()` (asked once per `key`) says its numbers do not depend on that, else at one."""
    arms = _arms.get(key, _MISSING) if ADAPTIVE else None
    if arms is _MISSING:
        arms = _arms[key] = _Arms() if same_bits() else None
    return _timed(arms, call)


def _timed(arms, fn, *args):
    """`fn(*args)` on the thread count `arms` picks (one thread when None), its time recorded."""
    if arms is None:
        with _ONE:
            return fn(*args)
    arm = arms.pick()
    t = _clock()
    if arm:
        res = fn(*args)
    else:
        with _ONE:
            res = fn(*args)
    arms.record(arm, _clock() - t)
    return res


_clock = time.perf_counter


_MISSING = object()


def _same_bits(fn, a, b, n):
    """Whether this product gives the same numbers on one thread and on `n` (random operands of
    `a`'s and `b`'s shapes, dtypes and memory orders)."""
    if a.dtype.kind not in "fc" or b.dtype.kind not in "fc":
        return False
    rng = np.random.default_rng(0)
    ra, rb = random_like(a, rng), random_like(b, rng)
    with _ONE:
        one = fn(ra, rb)
    return bool(np.array_equal(fn(ra, rb), one))


def random_like(x, rng):
    """Random values of `x`'s shape and dtype in its memory order (C, or a C array's transpose
    for a 2-D F-ordered `x`): operands on which a product is timed or its bits compared."""
    r = rng.standard_normal(x.shape).astype(x.dtype, copy=False)
    if x.ndim == 2 and not x.flags.c_contiguous and x.flags.f_contiguous:
        r = np.asfortranarray(r)
    return r
