"""`mindspore.numpy.pad`'s modes, axis by axis, each from recorded ops so gradients flow.

'edge' and 'wrap' copy input values: numpy's own `np.pad` of an index range gives the source
of every output position, and one gather applies it. 'symmetric' and 'reflect' follow
MindSpore's steps (flipped slices, `2 * edge - x` for reflect_type='odd', one reflection at a
time), so their numbers are MindSpore's to the bit (its flip computes in Float32).
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.numpy._common import new
from cellgrad.numpy._joining import concatenate
from cellgrad.numpy._ranges import linspace
from cellgrad.numpy._shapes import flip
from cellgrad.numpy.array_ops import apply_along_axis
from cellgrad.ops import functional as F

MODES = ("constant", "maximum", "minimum", "mean", "median", "edge", "wrap", "linear_ramp",
         "symmetric", "reflect", "empty")


def to_nd(name, values, ndim):
    """Per-axis (before, after) pairs from a number, a pair, or an (ndim, 2) table."""
    if isinstance(values, bool) or not isinstance(values, (int, list, tuple, TensorBuffer)):
        raise TypeError(f"For 'pad', {name} should only be int, list, tuple or tensor, but got "
                        f"{type(values).__name__}.")
    arr = values.asnumpy() if isinstance(values, TensorBuffer) else np.asarray(values)
    if arr.shape in ((), (1,), (2,), (1, 2)):
        arr = np.broadcast_to(arr.reshape(-1), (2,)) if arr.ndim < 2 else arr[0]
        arr = np.broadcast_to(arr, (ndim, 2))
    elif arr.shape != (ndim, 2):
        raise ValueError(f"For 'pad', {name} of shape {arr.shape} must be able to broadcast to "
                         f"{(ndim, 2)}.")
    return tuple(tuple(v.item() for v in row) for row in arr)


def _slice(x, axis, start, stop):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _join(arr, axis, before, after):
    parts = [p for p in (before, arr, after) if p is not None]
    return concatenate(tuple(parts), axis) if len(parts) > 1 else arr


def _filled(arr, axis, width, value):
    if width <= 0:
        return None
    shape = tuple(width if i == axis else s for i, s in enumerate(arr.shape))
    return new(np.full(shape, value).astype(arr.dtype.np_dtype), arr.dtype)


def _constant(arr, widths, values):
    for i, ((b, a), (vb, va)) in enumerate(zip(widths, values)):
        arr = _join(arr, i, _filled(arr, i, b, vb), _filled(arr, i, a, va))
    return arr


_STATS = {"maximum": F.amax, "minimum": F.amin, "mean": F.mean}


def _statistic(arr, widths, stat_length, stat):
    shape = tuple(arr.shape)
    lengths = (tuple((s, s) for s in shape) if stat_length is None
               else to_nd("stat_length", stat_length, arr.ndim))
    for i, ((b, a), (lb, la)) in enumerate(zip(widths, lengths)):
        lb, la = min(lb, shape[i]), min(la, shape[i])
        reps = [1] * arr.ndim
        before = after = None
        if b > 0:
            reps[i] = b
            before = F.tile(stat(_slice(arr, i, 0, lb), i, True), tuple(reps))
        if a > 0:
            reps[i] = a
            after = F.tile(stat(_slice(arr, i, shape[i] - la, shape[i]), i, True), tuple(reps))
        arr = _join(arr, i, before, after)
    return arr


def _copied(arr, widths, mode):
    for i, (b, a) in enumerate(widths):
        if b or a:
            arr = F.gather(arr, new(np.pad(np.arange(arr.shape[i]), (b, a), mode)), i)
    return arr


def _reflections(arr, i, width, period, skip, odd, before):
    """MindSpore's `_add_pads_before`/`_add_pads_after`: `width` values added on one side of
    axis `i`, one reflection (of up to `period` values, the edge skipped when `skip`) at a
    time."""
    for times in range(width // period + 1):
        n = arr.shape[i]
        if times < width // period:
            count = period
        else:
            count = width % period
        if count == 0:
            continue
        if before:
            piece, edge = _slice(arr, i, skip, skip + count), _slice(arr, i, 0, 1)
        else:
            piece, edge = _slice(arr, i, n - skip - count, n - skip), _slice(arr, i, n - 1, n)
        piece = flip(piece, i)
        if odd:
            piece = 2 * edge - piece
        arr = concatenate((piece, arr) if before else (arr, piece), i)
    return arr


def _mirrored(arr, widths, mode, reflect_type):
    odd = reflect_type == "odd"
    for i, (b, a) in enumerate(widths):
        n = arr.shape[i]
        if mode == "reflect" and n == 1:
            reps = [1] * arr.ndim
            reps[i] = b + a + 1
            arr = F.tile(arr, tuple(reps))
            continue
        skip = 1 if mode == "reflect" else 0
        period = n - skip
        if b > 0:
            arr = _reflections(arr, i, b, period, skip, odd, True)
        if a > 0:
            arr = _reflections(arr, i, a, period, skip, odd, False)
    return arr


def _linear_ramp(arr, widths, end_values):
    ends = to_nd("end_values", end_values, arr.ndim)
    for i, ((b, a), (eb, ea)) in enumerate(zip(widths, ends)):
        n = arr.shape[i]
        before = after = None
        if b > 0:
            ramp = linspace(eb, _slice(arr, i, 0, 1), b, endpoint=False, dtype=arr.dtype, axis=i)
            before = F.squeeze(ramp, i + 1)
        if a > 0:
            ramp = linspace(_slice(arr, i, n - 1, n), ea, a + 1, dtype=arr.dtype, axis=i)
            after = _slice(F.squeeze(ramp, i + 1), i, 1, a + 1)
        arr = _join(arr, i, before, after)
    return arr


def pad(arr, pad_width, mode, stat_length, constant_values, end_values, reflect_type, kwargs):
    """The body of `cellgrad.numpy.pad` for a Tensor of rank >= 1."""
    widths = to_nd("pad_width", pad_width, arr.ndim)
    if any(not isinstance(w, int) or w < 0 for pair in widths for w in pair):
        raise ValueError(f"For 'pad', pad_width must hold non-negative ints, got {pad_width!r}.")
    if mode not in MODES and not callable(mode):
        raise ValueError(f"For 'pad', input mode not supported: {mode!r}; expected one of "
                         f"{MODES} or a function.")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"For 'pad', reflect_type must be 'even' or 'odd', got "
                         f"{reflect_type!r}.")
    if mode == "constant":
        return _constant(arr, widths, to_nd("constant_values", constant_values, arr.ndim))
    if mode == "empty":
        return _constant(arr, widths, ((0, 0),) * arr.ndim)
    if mode == "median":
        raise NotImplementedError("For 'pad', median mode is not supported yet (as in "
                                  "MindSpore); use 'mean', 'maximum' or 'minimum'.")
    if mode in _STATS:
        return _statistic(arr, widths, stat_length, _STATS[mode])
    if mode in ("edge", "wrap"):
        return _copied(arr, widths, mode)
    if mode in ("symmetric", "reflect"):
        return _mirrored(arr, widths, mode, reflect_type)
    if mode == "linear_ramp":
        return _linear_ramp(arr, widths, end_values)
    arr = _constant(arr, widths, ((0, 0),) * arr.ndim)
    for i in range(arr.ndim):
        arr = apply_along_axis(mode, i, arr, widths[i], i, kwargs)
    return arr
