"""Padding: `ops.pad` (constant, reflect, replicate, circular) and the `ops.Pad` primitive.

One op for every mode. Constant padding copies the input into a filled array (negative pads
crop); the other modes read, along each padded axis in turn, the input position each output
position maps to, so the backward adds each gradient back where it was read from. The rule
uses only `ctx.xp`, so gradients of any order flow through it.
"""

import warnings

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops import Primitive
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks

MODES = ("constant", "reflect", "replicate", "circular")


def source_positions(mode, size, before, after):
    """The input position each output position reads along one axis of length `size`.

    `reflect` mirrors about the edge element, `symmetric` repeats it, `replicate` clamps and
    `circular` wraps around what is left after negative pads crop (as MindSpore's kernel).
    """
    if mode == "circular":
        lo = max(-before, 0)
        kept = size - lo - max(-after, 0)
        return lo + (np.arange(kept + max(before, 0) + max(after, 0)) - max(before, 0)) % kept
    s = np.arange(-before, size + after)
    if mode == "replicate":
        return np.clip(s, 0, size - 1)
    if mode == "reflect":
        return np.where(s < 0, -s, np.where(s >= size, 2 * (size - 1) - s, s))
    if mode == "symmetric":
        return np.where(s < 0, -s - 1, np.where(s >= size, 2 * size - 1 - s, s))
    raise ValueError(f"unknown padding mode {mode!r}")


def _crop_and_place(shape, pads):
    """Index of the kept input block and of where it lands in the constant-padded output."""
    src, dst = [], []
    for size, (before, after) in zip(shape, pads):
        lo, hi = max(-before, 0), size - max(-after, 0)
        src.append(slice(lo, hi))
        dst.append(slice(max(before, 0), max(before, 0) + hi - lo))
    return tuple(src), tuple(dst)


def _pad_fwd(x, *, pads, mode, value):
    """`pads`: one (before, after) per dimension of `x`, from the first."""
    if mode == "constant":
        out_shape = tuple(s + b + a for s, (b, a) in zip(x.shape, pads))
        out = np.full(out_shape, value, x.dtype)
        src, dst = _crop_and_place(x.shape, pads)
        out[dst] = x[src]
        return out, (x.shape, pads, mode, None)
    steps = []
    for axis, (before, after) in enumerate(pads):
        if before or after:
            where = source_positions(mode, x.shape[axis], before, after)
            steps.append((x.shape, (slice(None),) * axis + (where,)))
            x = x[steps[-1][1]]
    return x, (None, pads, mode, tuple(steps))


def _pad_bwd(ctx, g):
    shape, pads, mode, steps = ctx.saved
    xp = ctx.xp
    if mode == "constant":
        src, dst = _crop_and_place(shape, pads)
        kept = xp.getitem(g, dst)
        if all(s == slice(0, n) for s, n in zip(src, shape)):
            return kept
        return xp.index_add_zeros(shape, src, kept)
    for shape, index in reversed(steps):
        g = xp.index_add_zeros(shape, index, g)
    return g


PAD = Op("pad", _pad_fwd, _pad_bwd, PROMOTE_NONE)
OPS = (PAD,)


def _padding_tuple(padding):
    if isinstance(padding, Tensor):
        padding = tuple(int(v) for v in padding.asnumpy().reshape(-1))
    if not isinstance(padding, (tuple, list)):
        raise TypeError(f"For 'pad', 'padding' must be a tuple or list of ints or a Tensor, "
                        f"got {type(padding).__name__}.")
    if len(padding) % 2:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2, got "
                         f"{len(padding)}.")
    if any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) for p in padding):
        raise TypeError(f"For 'pad', the paddings value must be tuple of int or list of int, "
                        f"but got {padding!r}")
    return tuple(int(p) for p in padding)


def _from_pairs(padding, ndim):
    """MindSpore 1.x's `ops.pad` form, one (before, after) pair per dimension from the first
    (as `ops.Pad`; real 1.x code such as mindcv's volo still passes it), as 2.x's flat
    padding from the last dimension, with a DeprecationWarning; anything else as given."""
    if not (isinstance(padding, (tuple, list)) and len(padding) == ndim and all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 and all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in pair)
            for pair in padding)):
        return padding
    pairs = [tuple(int(v) for v in pair) for pair in padding]
    while len(pairs) > 1 and pairs[0] == (0, 0):  # leading dimensions left alone
        pairs.pop(0)
    flat = tuple(v for pair in reversed(pairs) for v in pair)
    warnings.warn(f"ops.pad: (before, after) pairs per dimension are MindSpore 1.x's form, which "
                  f"MindSpore 2.x rejects; read as the flat padding {flat} (from the last "
                  f"dimension)", DeprecationWarning, stacklevel=3)
    return flat


def _mode_rank(mode, ndim, n_axes):
    """Whether the input is unbatched (padded as if a batch of one were added)."""
    unbatched = n_axes + 1 == ndim
    batched_ndim = ndim + unbatched
    if batched_ndim != n_axes + 2 or n_axes > (2 if mode == "reflect" else 3):
        most = "2 (the last 2 dimensions of a 3-D or 4-D input)" if mode == "reflect" else \
            "3 (the last 3 dimensions of a 4-D or 5-D input)"
        raise ValueError(f"For 'pad', mode '{mode}' pads all dimensions but the batch and "
                         f"channel ones (of an input with {n_axes + 1} or {n_axes + 2} "
                         f"dimensions for {2 * n_axes} paddings) and at most {most}; got "
                         f"{2 * n_axes} paddings for a {ndim}-D input.")
    return unbatched


def _check_sizes(mode, shape, pads):
    for axis, (size, (before, after)) in enumerate(zip(shape, pads)):
        kept = size - max(-before, 0) - max(-after, 0)
        if size + before + after <= 0 or (mode == "circular" and kept <= 0):
            raise ValueError(f"For 'pad', padding ({before}, {after}) leaves nothing of "
                             f"dimension {axis} (size {size}): the output size must be positive.")
        if mode == "reflect" and (before >= size or after >= size):
            raise ValueError(f"For 'pad', mode 'reflect' needs each padding smaller than the "
                             f"dimension it pads, got ({before}, {after}) for dimension {axis} "
                             f"of size {size}.")
        if mode == "circular" and (before > kept or after > kept):
            raise ValueError(f"For 'pad', mode 'circular' wraps around at most once: padding "
                             f"({before}, {after}) is larger than dimension {axis} (size "
                             f"{kept}).")


def pad(input_x, padding, mode="constant", value=None):
    """Mirrors `mindspore.ops.pad`: `padding` is (left, right, top, bottom, ...) from the last
    dimension; negative values crop. 'circular' padding larger than the dimension is an
    error (MindSpore's CPU kernel reads past the row)."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"For 'pad', the type of 'input_x' must be Tensor, but got "
                        f"{type(input_x)}.")
    if isinstance(padding, (tuple, list)) and not padding:
        return input_x
    padding = _padding_tuple(_from_pairs(padding, input_x.ndim))
    n_axes, ndim = len(padding) // 2, input_x.ndim
    if mode not in MODES:
        raise ValueError(f"For 'pad', 'mode' must be one of {list(MODES)}, got {mode!r}.")
    if mode == "constant":
        if n_axes > ndim:
            raise ValueError(f"For 'pad', {len(padding)} paddings pad {n_axes} dimensions but "
                             f"the input has {ndim}: got {_checks.describe(input_x)}.")
        fill = np.asarray(0 if value is None else value).astype(input_x.asnumpy().dtype)
    else:
        if value is not None:
            raise ValueError(f"For 'pad', the padding mode '{mode}' can not set value, but got "
                             f"value {value}.")
        _mode_rank(mode, ndim, n_axes)
        fill = None
    pads = [(0, 0)] * (ndim - n_axes) + [(padding[2 * i], padding[2 * i + 1])
                                         for i in reversed(range(n_axes))]
    _check_sizes(mode, input_x.shape, pads)
    return apply(PAD, (input_x,), {"pads": tuple(pads), "mode": mode, "value": fill})


def pad_dims(op, x, paddings, mode):
    """`paddings` ((before, after) per dimension, from the first) in `mode` ('constant',
    'reflect' or 'symmetric'), for the primitives and cells that take that form."""
    _checks.tensor(op, "input_x", x)
    if len(paddings) != x.ndim:
        raise ValueError(f"For '{op}', 'paddings' must have one (before, after) pair per "
                         f"dimension of the input ({x.ndim}), got {len(paddings)} for "
                         f"{_checks.describe(x)}.")
    paddings = pairs(op, paddings)
    if mode != "constant":
        allowance = int(mode == "symmetric")
        for axis, ((before, after), size) in enumerate(zip(paddings, x.shape)):
            if max(before, after) >= size + allowance:
                limit = "at most" if allowance else "smaller than"
                raise ValueError(f"For '{op}', {mode.upper()} paddings must be {limit} the "
                                 f"dimension they pad, got ({before}, {after}) for dimension "
                                 f"{axis} of size {size}.")
    fill = np.zeros((), x.asnumpy().dtype) if mode == "constant" else None
    return apply(PAD, (x,), {"pads": paddings, "mode": mode, "value": fill})


def pairs(op, paddings, name="paddings"):
    """`paddings` as a tuple of (before, after) int pairs, all non-negative."""
    for axis, pair in enumerate(paddings):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ValueError(f"For '{op}', '{name}' must be (before, after) pairs, shape (n, "
                             f"2), got {paddings!r}.")
        if any(isinstance(p, bool) or not isinstance(p, int) for p in pair):
            raise TypeError(f"For '{op}', '{name}' must hold ints, got {paddings!r}.")
        if pair[0] < 0 or pair[1] < 0:
            raise ValueError(f"For '{op}', all elements of '{name}' must be >= 0, but got "
                             f"{name}[{axis}][0] = {pair[0]}, {name}[{axis}][1] = {pair[1]}.")
    return tuple(tuple(p) for p in paddings)


def tuple_of(op, name, value):
    if not isinstance(value, tuple):
        raise TypeError(f"For '{op}', the type of '{name}' must be tuple, but got "
                        f"{type(value).__name__}.")
    return value


class Pad(Primitive):
    """Mirrors `mindspore.ops.Pad(paddings)`: zero padding, one (before, after) pair per
    dimension of the input, from the first."""

    def __init__(self, paddings):
        super().__init__(type(self).__name__)
        self.paddings = tuple_of("Pad", "paddings", paddings)

    def __call__(self, x):
        return pad_dims("Pad", x, self.paddings, "constant")
