"""Shape ops: reshape, transpose, expand_dims, squeeze, broadcast_to, concat, stack, split,
tile. Their gradients only move values around, so every rule is a shape op itself."""

import numpy as np

from cellgrad.ops._registry import define, pass_gradient


def _shape_error(op, msg):
    return ValueError(f"For '{op}', {msg}")


def _reshape_fwd(x, shape):
    try:
        return x.reshape(shape), (x.shape,)
    except ValueError:
        raise _shape_error(
            "reshape", f"cannot reshape a tensor of shape {x.shape} ({x.size} elements) "
            f"into shape {tuple(shape)}.") from None


def _reshape_bwd(ctx, g):
    (shape,) = ctx.saved
    return g.reshape(shape)


def _transpose_fwd(x, perm):
    if perm is None:
        perm = tuple(range(x.ndim))[::-1]
    perm = tuple(int(p) for p in perm)
    if sorted(p % max(x.ndim, 1) for p in perm) != list(range(x.ndim)):
        raise _shape_error(
            "transpose", f"'input_perm' {perm} is not a permutation of the {x.ndim} axes of "
            f"a tensor of shape {x.shape}.")
    return np.transpose(x, perm), (tuple(p % x.ndim for p in perm),)


def _transpose_bwd(ctx, g):
    (perm,) = ctx.saved
    return ctx.xp.transpose(g, tuple(int(p) for p in np.argsort(perm)))


def _expand_dims_fwd(x, axis):
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise _shape_error(
            "expand_dims", f"'axis' {axis} is out of range [{-x.ndim - 1}, {x.ndim}] for a "
            f"tensor of shape {x.shape}.")
    return np.expand_dims(x, axis), (x.shape,)


def _squeeze_fwd(x, axis=None):
    if axis is not None:
        axes = axis if isinstance(axis, (tuple, list)) else (axis,)
        for a in axes:
            if not -x.ndim <= a < x.ndim or x.shape[a] != 1:
                raise _shape_error(
                    "squeeze", f"cannot squeeze axis {a} of a tensor of shape {x.shape}; "
                    "expected an axis of size 1.")
        axis = tuple(axes)
    return np.squeeze(x, axis), (x.shape,)


def _broadcast_to_fwd(x, shape):
    lead = len(shape) - x.ndim  # -1 copies an input dimension, so only from here on
    bad = next((i for i, s in enumerate(shape) if s == -1 and i < lead), None)
    if bad is not None:
        raise ValueError(f"For 'BroadcastTo', -1 in init shape is in an incompatible location "
                         f"with given input tensor, -1 index in init shape: {bad} but -1 can "
                         f"only be in index{lead}onwards for this input.")
    shape = tuple(x.shape[i - len(shape) + x.ndim] if s == -1 else s
                  for i, s in enumerate(shape))
    try:
        return np.broadcast_to(x, shape), None
    except ValueError:
        raise _shape_error(
            "broadcast_to", f"cannot broadcast a tensor of shape {x.shape} to {shape}."
        ) from None


def _concat_fwd(*xs, axis=0, same_dtype=False):
    # `ops.concat` checks dtypes here, after amp 'auto' has cast its inputs to the widest
    if same_dtype and len({x.dtype for x in xs}) > 1:
        from cellgrad.dtype import to_dtype
        raise TypeError(f"For 'concat', all tensors must have the same dtype, got "
                        f"{[str(to_dtype(x.dtype)) for x in xs]}.")
    try:
        out = np.concatenate(xs, axis=axis)
    except ValueError:  # numpy's AxisError is a ValueError too
        raise _shape_error(
            "concat", f"cannot concatenate tensors of shapes {[x.shape for x in xs]} along "
            f"axis {axis}; all other dimensions must match.") from None
    axis = axis % out.ndim
    return out, (axis, tuple(np.cumsum([x.shape[axis] for x in xs])[:-1]))


def _concat_bwd(ctx, g):
    axis, cuts = ctx.saved
    return tuple(ctx.xp.split(g, cuts, axis=axis))


def _stack_fwd(*xs, axis=0):
    shapes = {x.shape for x in xs}
    if len(shapes) != 1:
        raise _shape_error(
            "stack", f"all tensors must have the same shape, got {[x.shape for x in xs]}.")
    out = np.stack(xs, axis=axis)
    return out, (axis % out.ndim, len(xs))


def _stack_bwd(ctx, g):
    axis, n = ctx.saved
    xp = ctx.xp
    return tuple(xp.squeeze(p, axis) for p in xp.split(g, n, axis=axis))


def _split_fwd(x, split_size_or_sections, axis=0):
    dim = x.shape[axis]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size <= 0:
            raise _shape_error("split", f"'split_size_or_sections' must be positive, got {size}.")
        cuts = list(range(size, dim, size))
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != dim:
            raise _shape_error(
                "split", f"sections {sizes} do not add up to dimension {axis} of size {dim} "
                f"(shape {x.shape}).")
        cuts = list(np.cumsum(sizes)[:-1])
    return tuple(np.split(x, cuts, axis=axis)), (axis,)


def _split_bwd(ctx, *gs):
    (axis,) = ctx.saved
    return ctx.xp.concatenate(gs, axis=axis)


def _tile_fwd(x, multiples):
    """Mirrors `ops.tile`: shorter `dims` are padded with leading 1s, as is a shorter input."""
    if not isinstance(multiples, (tuple, list)) or not all(
            isinstance(m, (int, np.integer)) and not isinstance(m, bool) for m in multiples):
        raise TypeError(f"For 'tile', 'dims' must be a tuple of ints, got {multiples!r}.")
    multiples = tuple(int(m) for m in multiples)
    if any(m < 0 for m in multiples):
        raise _shape_error("tile", f"'dims' must not have negative entries, got {multiples}.")
    rank = max(len(multiples), x.ndim)
    multiples = (1,) * (rank - len(multiples)) + multiples
    xs = (1,) * (rank - x.ndim) + x.shape
    return np.tile(x.reshape(xs), multiples), (xs, multiples, x.shape)


def _tile_bwd(ctx, g):
    xs, multiples, shape = ctx.saved
    split = []
    for m, s in zip(multiples, xs):
        split += [m, s]
    g = g.reshape(tuple(split)).sum(axis=tuple(range(0, len(split), 2)))
    return g.reshape(shape)


RESHAPE = define("reshape", _reshape_fwd, _reshape_bwd)
TRANSPOSE = define("transpose", _transpose_fwd, _transpose_bwd)
EXPAND_DIMS = define("expand_dims", _expand_dims_fwd, _reshape_bwd)
SQUEEZE = define("squeeze", _squeeze_fwd, _reshape_bwd)
BROADCAST_TO = define("broadcast_to", _broadcast_to_fwd, pass_gradient)
CONCAT = define("concat", _concat_fwd, _concat_bwd)
STACK = define("stack", _stack_fwd, _stack_bwd)
SPLIT = define("split", _split_fwd, _split_bwd)
TILE = define("tile", _tile_fwd, _tile_bwd)
