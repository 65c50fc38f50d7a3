"""Dense's matrix products: which BLAS and which call runs each shape class fastest on this CPU.

numpy's OpenBLAS does every product unless the `[mkl]` extra is installed (the `mkl` wheel's
libmkl_rt, sequential layer) and a short measurement on this machine shows MKL faster for the
product's shape class (kind, dtype, M/N/K rounded up to powers of two, BLAS threads). The
decision is never made by CPU vendor (MKL was 1.2-2.1x faster than OpenBLAS on an Intel Xeon VM,
0.4-0.7x as fast on an AVX-512 AMD one, from 0.8x to 2.7x OpenBLAS's time per shape on the AVX2
AMD EPYC VM of 2026-11-25): measuring is what decides. Decisions are cached in memory and in a
JSON file keyed by the CPU model and the libraries' versions (`CELLGRAD_BLAS_CACHE` names the
file; `CELLGRAD_MKL=0` turns MKL off).

Without MKL (or where it loses), the forward x @ w.T may run as (w @ x.T).T, transposed into
place with the bias added in the same pass (`flipped`): OpenBLAS's AVX-512 kernels run that
orientation faster at Dense's shapes; measured per shape, taken only with the same bits.

A weight that has likely left the L2 since its last product is prefetched before the next
(`warm`): the BLAS packs a cold operand at the caches' latency.

Batch 1 can run as a GEMV split by rows over two OpenMP threads (`splits`, `gemv`), each
streaming half the weights: off by default (see GEMV_SPLIT_MIN for the measurement).
"""

import ctypes
import glob
import json
import os
import sys
import time

import numpy as np

from cellgrad import _blas_threads
from cellgrad_nn._kernels import blas

KINDS = ("x@w.T", "g@w", "g.T@x")  # forward, dX, dW
MIN_MNK = 1 << 16  # below this a BLAS call is mostly call overhead: no choice to make
MARGIN = 0.9  # MKL is taken only when at most 0.9x OpenBLAS's time: noise never flips it


class MKL:
    """libmkl_rt on its sequential layer: cblas_sgemm/dgemm addresses (LP64) and its version."""

    def __init__(self, path):
        self.path = path
        self.lib = ctypes.CDLL(path)
        self.lib.MKL_Set_Threading_Layer.argtypes = [ctypes.c_int]
        self.lib.MKL_Set_Threading_Layer(1)  # MKL_THREADING_SEQUENTIAL: no second OpenMP runtime
        buf = ctypes.create_string_buffer(256)
        self.lib.MKL_Get_Version_String(buf, 256)
        self.version = buf.value.decode(errors="replace").strip()
        self.fn = {np.dtype(np.float32): self._addr("cblas_sgemm"),
                   np.dtype(np.float64): self._addr("cblas_dgemm")}

    def _addr(self, name):
        return ctypes.cast(getattr(self.lib, name), ctypes.c_void_p).value


def find_mkl():
    """The `mkl` wheel's libmkl_rt, or None (not installed, or CELLGRAD_MKL=0)."""
    if os.environ.get("CELLGRAD_MKL", "1") == "0":
        return None
    paths = sorted(glob.glob(os.path.join(sys.prefix, "lib", "libmkl_rt.so*")))
    paths += sorted(glob.glob(os.path.join(sys.prefix, "Library", "bin", "mkl_rt*.dll")))
    for path in paths:
        try:
            return MKL(path)
        except (OSError, AttributeError):
            continue
    return None


def shape_class(kind, dtype, m, n, k):
    """The cache key of a product: kind, dtype, M/N/K rounded up to powers of two, threads (one
    for the thread band's products only when the band always takes one: otherwise OpenBLAS may
    run them on all, and MKL, sequential, is measured against that)."""
    one = not _blas_threads.ADAPTIVE and _blas_threads.one_thread(m * n * k)
    threads = 1 if one else _blas_threads.threads()
    return (f"{kind} {np.dtype(dtype).name} m{1 << (m - 1).bit_length()} "
            f"n{1 << (n - 1).bit_length()} k{1 << (k - 1).bit_length()} t{threads}")


def _operands(kind, dtype, m, n, k):
    """(a, trans_a, b, trans_b) of the kind's call, as Dense makes them (C-contiguous)."""
    rng = np.random.default_rng(0)

    def r(*s):
        return rng.standard_normal(s).astype(dtype)

    if kind == "x@w.T":
        return r(m, k), False, r(n, k), True
    if kind == "g@w":
        return r(m, k), False, r(k, n), False
    return r(k, m), True, r(k, n), False  # g.T @ x: g (batch, out), x (batch, in)


def _numpy_call(a, ta, b, tb, out):
    _blas_threads.dot(a.T if ta else a, b.T if tb else b, out)


def time_both(mkl, kind, dtype, m, n, k, rounds=9, block_s=3e-4):
    """(OpenBLAS seconds, MKL seconds) per call: OpenBLAS's median over `rounds` alternating
    blocks of calls, and MKL's as that times `_race`'s ratio. About 6 ms per shape class, once."""
    a, ta, b, tb = _operands(kind, dtype, m, n, k)
    out = np.empty((m, n), dtype)
    fn = mkl.fn[np.dtype(dtype)]
    t_open = []
    ratio = _race((lambda: _numpy_call(a, ta, b, tb, out),
                   lambda: blas.gemm(fn, False, a, ta, b, tb, out)), rounds, block_s, t_open)
    return t_open[0], t_open[0] * ratio


def _race(calls, rounds, block_s, first=None):
    """The second call's time over the first's: the third quartile of the per-round ratios
    over `rounds` alternating blocks of calls (each block about `block_s` long), so it must win
    in three rounds of four, not once in a quiet moment (single-call timings of a 15 us product
    picked MKL where a step then ran slower). The first's median time goes into `first`."""
    t = time.perf_counter()
    for call in calls:
        call()
    reps = max(1, min(200, int(block_s / max((time.perf_counter() - t) / 2, 1e-7))))
    t_first, ratios = [], []
    for _ in range(rounds):
        got = []
        for call in calls:
            t = time.perf_counter()
            for _ in range(reps):
                call()
            got.append((time.perf_counter() - t) / reps)
        t_first.append(got[0])
        ratios.append(got[1] / max(got[0], 1e-12))
    t_first.sort()
    ratios.sort()
    if first is not None:
        first.append(t_first[rounds // 2])
    return ratios[(3 * rounds) // 4]


def machine_key(mkl):
    """What a cached decision holds for: CPU model, numpy, its BLAS, MKL's version."""
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    lib = _blas_threads.openblas()
    return (f"{model} | numpy {np.__version__} | {os.path.basename(lib.path) if lib else '?'} | "
            f"{mkl.version if mkl else 'no mkl'}")


def cache_path():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.environ.get("CELLGRAD_BLAS_CACHE") or os.path.join(base, "cellgrad",
                                                                  "dense_blas.json")


class Chooser:
    """Per shape class: "openblas" or "mkl", measured once (by `timer`) and cached."""

    def __init__(self, mkl, timer=time_both, path=None):
        self.mkl, self.timer = mkl, timer
        self.path = path or cache_path()
        self.key = machine_key(mkl)
        self.choice = {}  # shape class -> "openblas" | "mkl"
        self.times = {}  # shape class -> (openblas s, mkl s), for the report
        self._exact = {}  # (kind, dtype, m, n, k, threads) -> choice: no key formatting per call
        self.fast = {}  # product()'s (kind, shapes, dtypes, threads) -> MKL's GEMM address or 0
        if mkl is not None:
            try:
                with open(self.path) as f:
                    self.choice = dict(json.load(f).get(self.key, {}))
            except (OSError, ValueError):
                pass

    def pick(self, kind, dtype, m, n, k):
        """Which library runs this product."""
        if self.mkl is None or m * n * k < MIN_MNK or dtype not in self.mkl.fn:
            return "openblas"
        exact = (kind, dtype, m, n, k, _blas_threads.threads())
        got = self._exact.get(exact)
        if got is None:
            got = self._exact[exact] = self._pick_class(kind, dtype, m, n, k)
        return got

    def _pick_class(self, kind, dtype, m, n, k):
        cls = shape_class(kind, dtype, m, n, k)
        got = self.choice.get(cls)
        if got is None:
            t_open, t_mkl = self.times[cls] = self.timer(self.mkl, kind, dtype, m, n, k)
            got = self.choice[cls] = "mkl" if t_mkl <= MARGIN * t_open else "openblas"
            self._save()
        return got

    def _save(self):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            try:
                with open(self.path) as f:
                    data = json.load(f)
            except (OSError, ValueError):
                data = {}
            data[self.key] = self.choice
            tmp = f"{self.path}.{os.getpid()}.tmp"
            with open(tmp, "w") as f:
                json.dump(data, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError:  # a read-only home: the decision stays in memory
            pass


_chooser = None


def chooser():
    """The process's Chooser (MKL looked up on first use)."""
    global _chooser
    if _chooser is None:
        _chooser = Chooser(find_mkl())
    return _chooser


def plain():
    """Whether numpy's own call is all there is to do: no MKL, one BLAS thread (the products'
    hot path then skips every look-up, ~1 us a call)."""
    return (_chooser or chooser()).mkl is None and _blas_threads.threads() == 1


def product(kind, a, b, out=None, bias=None):
    """The Dense product `kind` of 2-D arrays: x @ w.T, g @ w or g.T @ x, into `out`
    (C-contiguous, the result's dtype) when given; x @ w.T plus `bias` when given."""
    if a.shape[0] * a.shape[1] * (b.shape[0] if kind == "x@w.T" else b.shape[1]) < MIN_MNK:
        # a small product: no choice to make (the look-ups were ~1 us of a ~1 us call: a
        # 64-layer chain of width 8 took 0.93x the step once its backward skipped them)
        if kind == "g@w":
            return np.dot(a, b, out)
        if kind == "g.T@x":
            return np.matmul(a.T, b, out=out)
        out = np.dot(a, b.T, out)
        if bias is not None:
            out += bias
        return out
    if kind != "g.T@x":
        warm(b)
    ch = _chooser or chooser()
    if ch.mkl is not None:
        # one dict look-up per call once decided: the whole choice costs well under a microsecond
        key = (kind, a.shape, b.shape, a.dtype, b.dtype, _blas_threads.threads())
        fn = ch.fast.get(key)
        if fn is None:
            fn = ch.fast[key] = _mkl_fn(ch, kind, a, b)
        if fn:
            ta = kind == "g.T@x"
            tb = kind == "x@w.T"
            if out is None:
                out = np.empty((a.shape[1] if ta else a.shape[0],
                                b.shape[0] if tb else b.shape[1]), a.dtype)
            try:
                blas.gemm(fn, False, a, ta, b, tb, out)
                if bias is not None:
                    out += bias
                return out
            except ValueError:  # an operand not C-contiguous: numpy's call below
                pass
    if kind == "x@w.T":
        if FLIP and flipped(a, b):
            return _flipped_product(a, b, out, bias)
        out = _blas_threads.dot(a, b.T, out)
        if bias is not None:
            out += bias
        return out
    if kind == "g@w":
        return _blas_threads.dot(a, b, out)
    # g.T @ x: matmul's call, as before (np.dot's with a transposed operand measured no faster)
    return _blas_threads.matmul(a.T, b, out)


# ---- x @ w.T computed as w @ x.T, then transposed ----
#
# OpenBLAS 0.3.31's AVX-512 kernels (SkylakeX, also on AMD Zen 4/5) run `x @ W.T` at Dense's
# shapes 1.2-1.45x slower than `W @ x.T`, whose result is the transpose; one pass then writes it
# in the layout the next op needs, adding the bias on the way (`blas.transpose_add`: 8 x 8 tiles,
# about the time of the bias add it replaces; numpy's strided copy took 4.5x that at 64 x 512).
# Measured per exact shape, once per process (`flipped`): taken only where it wins three rounds
# of four by 10% and gives the same bits as `x @ W.T` (Haswell's kernels sum in another order;
# then it is never taken). FLIP = False turns it off.
FLIP = os.environ.get("CELLGRAD_DENSE_FLIP", "1") != "0"
_flip = {}  # (x shape, w shape, dtype, threads) -> whether x @ w.T runs as (w @ x.T).T
# Each orientation decision (here and in `_orient`) costs ~6 ms once: a program whose shapes
# keep changing (dynamic batch or sequence sizes) stops paying after this many decisions and
# keeps the written orientation for new shapes.
MAX_DECISIONS = 256


def flipped(x, w):
    """Whether the product x @ w.T of these shapes runs as (w @ x.T).T (`_flip` above)."""
    if not (x.flags.c_contiguous and w.flags.c_contiguous):
        return False  # measured on C-contiguous operands only
    key = (x.shape, w.shape, x.dtype, _blas_threads.threads())
    got = _flip.get(key)
    if got is None:
        got = _flip[key] = (x.dtype == w.dtype and x.dtype.kind == "f"
                            and len(_flip) < MAX_DECISIONS
                            and _flip_wins(x.shape, w.shape, x.dtype))
    return got


def _flipped_product(x, w, out=None, bias=None):
    t = _blas_threads.dot(w, x.T)
    if out is None:
        out = np.empty(t.shape[::-1], t.dtype)
    if blas.transpose_add(t, bias, out):  # in 8 x 8 tiles: 3.6-7x numpy's strided copy
        return out
    if bias is None:
        np.copyto(out, t.T)
    else:
        np.add(t.T, bias, out=out)
    return out


def _flip_wins(x_shape, w_shape, dtype, rounds=9, block_s=3e-4):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    bias = rng.standard_normal(w_shape[0]).astype(dtype)
    if not np.array_equal(_blas_threads.dot(x, w.T), _flipped_product(x, w)):
        return False

    def usual():
        r = _blas_threads.dot(x, w.T)
        r += bias

    return _race((usual, lambda: _flipped_product(x, w, None, bias)), rounds, block_s) <= MARGIN


def _mkl_fn(ch, kind, a, b):
    """MKL's GEMM address when MKL runs this product (measured once per shape class against
    OpenBLAS as written and, where the forward runs flipped, once per shape against the flip),
    else 0."""
    ta, tb = kind == "g.T@x", kind == "x@w.T"
    m = a.shape[1] if ta else a.shape[0]
    k, n = (a.shape[0], b.shape[1]) if ta else (a.shape[1], b.shape[0] if tb else b.shape[1])
    if a.dtype != b.dtype or ch.pick(kind, a.dtype, m, n, k) != "mkl":
        return 0
    fn = ch.mkl.fn[a.dtype]
    if tb and FLIP and flipped(a, b) and not _mkl_beats_flip(fn, a.shape, b.shape, a.dtype):
        return 0
    return fn


def _mkl_beats_flip(fn, x_shape, w_shape, dtype, rounds=9, block_s=3e-4):
    """Whether MKL's x @ w.T (plus the bias) wins three rounds of four by 10% against the
    flipped product: the flip beats OpenBLAS as written, which is all the shape class's
    decision compared MKL with. In the MLP step (one thread, Zen 4, 2026-11-27) the flip took
    0.96x the time of MKL's forward there."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    bias = rng.standard_normal(w_shape[0]).astype(dtype)
    out = np.empty((x_shape[0], w_shape[0]), dtype)

    def mkl():
        blas.gemm(fn, False, x, False, w, True, out)
        np.add(out, bias, out=out)

    return _race((lambda: _flipped_product(x, w, None, bias), mkl), rounds, block_s) <= MARGIN


# ---- a cold weight fetched ahead of its product ----
#
# A weight whose last product lies more than the L2 cache's size of other weights back (each of
# a deep chain's in its forward and again in its backward) comes from L3 or memory while the BLAS
# packs it, line by line in its packing order: at the caches' latency, not their bandwidth. A
# 256 x 256 float32 product at batch 32 took 1.6-1.8x its warm time cold on the AMD EPYC Zen 4
# VM (2026-11-26), in either orientation, in OpenBLAS and MKL alike; one prefetch per line
# first (`blas.prefetch`, ~5 us for 256 KiB) brought it to 1.2-1.3x. Weights from WARM_MIN to
# half the L2: smaller ones cost their product little cold; larger ones measured no faster (they
# do not fit beside the packed operands), nor split into prefetched row blocks. A warm weight is
# not fetched again (that cost ~8% of its product). Only where the BLAS runs on one thread: on
# two, each core's share streams in in parallel, and one core fetching all of it first left the
# other idle, then reading from that core's cache (the deep chain at two threads 1.04-1.09x
# slower with it, half the rows fetched 1.05x; at one thread 0.94x: in-step A/B, Zen 4,
# 2026-11-27). PREFETCH = False (CELLGRAD_PREFETCH=0) off.
PREFETCH = os.environ.get("CELLGRAD_PREFETCH", "1") != "0"
WARM_MIN = 128 << 10


def _l2_bytes(default=1 << 20):
    """One core's L2 cache in bytes (Linux's sysfs), else `default`."""
    for path in sorted(glob.glob("/sys/devices/system/cpu/cpu0/cache/index*")):
        try:
            with open(os.path.join(path, "level")) as f:
                if f.read().strip() != "2":
                    continue
            with open(os.path.join(path, "size")) as f:
                size = f.read().strip().upper()
        except OSError:
            continue
        scale = {"K": 1 << 10, "M": 1 << 20}.get(size[-1:], 1)
        try:
            return int(size.rstrip("KM")) * scale
        except ValueError:
            break
    return default


L2 = _l2_bytes()
_clock = 0  # bytes of weights given to `warm` so far
_last = {}  # id of a weight array -> _clock right after its last product


def warm(w):
    """Prefetch weight `w` (2-D, C-contiguous, float) before its product when its size is in the
    prefetched range, more than the L2's size of other weights went by since its last and the
    BLAS runs on one thread; whether it did."""
    global _clock
    n = w.nbytes
    _clock += n
    if n < WARM_MIN or 2 * n > L2 or not PREFETCH:
        return False
    key = id(w)
    last = _last.get(key)
    if len(_last) > 4096:  # ids of arrays long gone: a hint lost costs one fetch
        _last.clear()
    _last[key] = _clock
    if last is not None and _clock - n - last <= L2 or not w.flags.c_contiguous or w.ndim != 2 \
            or _blas_threads.threads() > 1:
        return False
    try:
        blas.prefetch(w)
    except (ValueError, TypeError):  # another dtype: not worth a path of its own
        return False
    return True


# Batch-1 GEMV split by rows over two OpenMP threads from this many weights (N x K) on, when
# numpy's OpenBLAS may use two threads: off unless CELLGRAD_GEMV_SPLIT_MIN sets it. On the AMD
# EPYC Zen 3 VM, 2026-11-25 (load 5 on 2 cores, no quiet moment that evening), the products
# alone (benchmarks/blas_threads.py) split ran at 0.84x the time of one call at 512 x 512 ...
# 1.11x faster at 784 x 512, 1.36x at 1024 x 1024, 1.55x at 4096 x 1024; but the MLP's batch-1
# forward with its first layer split (split from 300,000 weights) took 1.41x as long as with
# one call (median of 41 interleaved rounds, wall clock, 2 threads): the second core was busy.
GEMV_SPLIT_MIN = int(os.environ.get("CELLGRAD_GEMV_SPLIT_MIN", 1 << 62))
_SPLIT_ALIGN = 16  # rows per block boundary: each half takes the kernel's full-width row path


def _gemv_fn():
    lib = _blas_threads.openblas()
    if lib is None or not lib.int64:
        return 0
    return lib.symbol("cblas_sgemv")


_SGEMV = _gemv_fn()


_gemv_bias_same = {}  # (N, K) -> whether `blas.gemv_bias` gives numpy's x @ w.T + b bits


def dense_b1(x, w, b):
    """x @ w.T + b for float32 (1, K) x, (N, K) w, (N,) b, all C-contiguous, as one GEMV that
    adds the bias itself (`blas.gemv_bias`; ~1 us less than numpy's dot and add at batch 1);
    None where that is not numpy's result bit for bit (checked once per shape on random
    operands) or the arrays are not those."""
    if not _SGEMV:
        return None
    same = _gemv_bias_same.get(w.shape)
    if same is None:
        same = _gemv_bias_same[w.shape] = _gemv_bias_agrees(w.shape)
    if not same:
        return None
    try:
        return blas.gemv_bias(_SGEMV, w, x, b)
    except (ValueError, TypeError):  # another dtype, layout or shape: numpy's path
        return None


def _gemv_bias_agrees(shape):
    rng = np.random.default_rng(0)
    w = rng.standard_normal(shape).astype(np.float32)
    x = rng.standard_normal((1, shape[1])).astype(np.float32)
    b = rng.standard_normal(shape[0]).astype(np.float32)
    want = np.dot(x, w.T)
    want += b
    return bool(np.array_equal(blas.gemv_bias(_SGEMV, w, x, b), want))


def split_rows(rows, parts=2):
    """Row boundaries of `parts` blocks, inner ones on multiples of 16 rows."""
    cuts = [0]
    for i in range(1, parts):
        cuts.append(min(rows, (rows * i // parts + _SPLIT_ALIGN - 1) // _SPLIT_ALIGN
                        * _SPLIT_ALIGN))
    return cuts + [rows]


def splits(x, w):
    """Whether a batch-1 product x @ w.T runs as a GEMV split over two threads: numpy's
    OpenBLAS may use two, float32, C-contiguous, at least GEMV_SPLIT_MIN weights. Otherwise
    OpenBLAS's M = 1 GEMM stays: a single unsplit GEMV (`W @ x`) measured no faster in the MLP
    (1.13x its time at batch 1 on one thread, AMD EPYC Zen 3, 2026-11-25)."""
    return (w.size >= GEMV_SPLIT_MIN and _SGEMV != 0 and _blas_threads.threads() >= 2
            and w.dtype == np.float32 and x.dtype == np.float32 and w.flags.c_contiguous
            and x.flags.c_contiguous and w.shape[0] >= 2 * _SPLIT_ALIGN)


def gemv(w, v, parts=1):
    """w @ v for 2-D float32 `w` (out, in) and 1-D `v`: one GEMV, or `parts` row blocks on as
    many OpenMP threads (numpy's OpenBLAS held to one thread per block), the same numbers."""
    if (parts > 1 and w.shape[0] >= 2 * _SPLIT_ALIGN and w.dtype == np.float32
            and v.dtype == np.float32 and w.flags.c_contiguous and v.flags.c_contiguous
            and _SGEMV):
        out = np.empty(w.shape[0], np.float32)
        with _blas_threads.limited(1):
            blas.gemv_split(_SGEMV, w, v, out, split_rows(w.shape[0], parts))
        return out
    return np.dot(w, v)
