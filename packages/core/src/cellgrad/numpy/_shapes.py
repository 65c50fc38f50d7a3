"""Shape and order functions of `mindspore.numpy.array_ops` (expand_dims, transpose, moveaxis,
atleast_*d, broadcast_to, tile, flip, rot90, roll, ...): reshapes, transposes, slices and
concats, all recorded."""


from cellgrad.numpy._common import (
    axes_valid,
    axis_in_range,
    broadcast_shape,
    check_int,
    check_tensor,
    expand,
    via_float32,
)
from cellgrad.ops import functional as F


def expand_dims(a, axis):
    """Mirrors `mindspore.numpy.expand_dims` (`axis` may be a tuple)."""
    check_tensor("expand_dims", a)
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
        raise TypeError(f"For 'expand_dims', 'axis' must be tuple, list or int, but got "
                        f"{type(axis).__name__}.")
    if isinstance(axis, int):
        return F.expand_dims(a, axis)
    ndim = a.ndim + len(axis)
    for ax in sorted(axes_valid("expand_dims", axis, ndim)):
        a = F.expand_dims(a, ax)
    return a


def squeeze(a, axis=None):
    """Mirrors `mindspore.numpy.squeeze`: a named axis whose size is not 1 is left in place (as
    MindSpore 2.10 does; numpy raises)."""
    check_tensor("squeeze", a)
    if axis is None:
        return F.squeeze(a)
    axes = axes_valid("squeeze", axis, a.ndim)
    ones = tuple(ax for ax in axes if a.shape[ax] == 1)
    return F.squeeze(a, ones) if ones else a


def transpose(a, axes=None):
    """Mirrors `mindspore.numpy.transpose` (None reverses the axes)."""
    check_tensor("transpose", a)
    if axes is None:
        axes = tuple(range(a.ndim))[::-1]
    return F.transpose(a, tuple(axes))


def rollaxis(x, axis, start=0):
    """Mirrors `mindspore.numpy.rollaxis`: `axis` moves to before `start`."""
    check_tensor("rollaxis", x)
    axis = axis_in_range("rollaxis", check_int("rollaxis", "axis", axis), x.ndim)
    start = check_int("rollaxis", "start", start)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"For 'rollaxis', start {start} is out of bounds. Ranging from "
                         f"{-x.ndim} to {x.ndim} is allowed.")
    start += x.ndim if start < 0 else 0
    if 0 <= start - axis <= 1:
        return x
    perm = [i for i in range(x.ndim) if i != axis]
    perm.insert(start - 1 if start > axis else start, axis)
    return F.transpose(x, tuple(perm))


def swapaxes(x, axis1, axis2):
    """Mirrors `mindspore.numpy.swapaxes`."""
    check_tensor("swapaxes", x)
    axis1 = axis_in_range("swapaxes", axis1, x.ndim)
    axis2 = axis_in_range("swapaxes", axis2, x.ndim)
    return F.swapaxes(x, axis1, axis2)


def reshape(x, new_shape):
    """Mirrors `mindspore.numpy.reshape` (one -1 allowed)."""
    check_tensor("reshape", x)
    return F.reshape(x, (new_shape,) if isinstance(new_shape, int) else tuple(new_shape))


def ravel(x):
    """Mirrors `mindspore.numpy.ravel`."""
    check_tensor("ravel", x)
    return F.reshape(x, (-1,))


def moveaxis(a, source, destination):
    """Mirrors `mindspore.numpy.moveaxis`."""
    check_tensor("moveaxis", a)
    source = axes_valid("moveaxis", source, a.ndim)
    destination = axes_valid("moveaxis", destination, a.ndim)
    if len(source) != len(destination):
        raise ValueError("For 'moveaxis', `source` and `destination` arguments must have the "
                         f"same number of elements, got {source} and {destination}.")
    perm = [i for i in range(a.ndim) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return F.transpose(a, tuple(perm))


def _one_or_list(res):
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys):
    """Mirrors `mindspore.numpy.atleast_1d`: one Tensor, or a list for several."""
    check_tensor("atleast_1d", *arys)
    return _one_or_list([expand(a, 1) for a in arys])


def atleast_2d(*arys):
    """Mirrors `mindspore.numpy.atleast_2d`."""
    check_tensor("atleast_2d", *arys)
    return _one_or_list([expand(a, 2) for a in arys])


def atleast_3d(*arys):
    """Mirrors `mindspore.numpy.atleast_3d`: (N,) becomes (1, N, 1), (M, N) becomes (M, N, 1)."""
    check_tensor("atleast_3d", *arys)
    shapes = {0: lambda s: (1, 1, 1), 1: lambda s: (1, s[0], 1), 2: lambda s: s + (1,)}
    res = [F.reshape(a, shapes[a.ndim](tuple(a.shape))) if a.ndim < 3 else a for a in arys]
    return _one_or_list(res)


def broadcast_to(array, shape):
    """Mirrors `mindspore.numpy.broadcast_to`."""
    check_tensor("broadcast_to", array)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    ok = len(array.shape) <= len(shape) and all(
        i in (1, j) for i, j in zip(reversed(array.shape), reversed(shape)))
    if not ok:
        raise ValueError(f"For 'broadcast_to', cannot broadcast a Tensor of shape "
                         f"{tuple(array.shape)} with {shape}.")
    return array if tuple(array.shape) == shape else F.broadcast_to(array, shape)


def broadcast_arrays(*args):
    """Mirrors `mindspore.numpy.broadcast_arrays`: a list of Tensors of the common shape."""
    check_tensor("broadcast_arrays", *args)
    shape = broadcast_shape("broadcast_arrays", *(tuple(a.shape) for a in args))
    return [broadcast_to(a, shape) for a in args]


def tile(a, reps):
    """Mirrors `mindspore.numpy.tile`."""
    check_tensor("tile", a)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    return F.tile(a, reps)


def flip(m, axis=None):
    """Mirrors `mindspore.numpy.flip` (None flips every axis; computed in Float32 unless the
    input is Float16/Float32, as MindSpore's)."""
    check_tensor("flip", m)
    axes = axes_valid("flip", axis, m.ndim)
    if not axes or 0 in m.shape:
        return m
    return via_float32(lambda t: F.flip(t, axes), m)


def flipud(m):
    """Mirrors `mindspore.numpy.flipud`."""
    return flip(m, 0)


def fliplr(m):
    """Mirrors `mindspore.numpy.fliplr`."""
    return flip(m, 1)


def rot90(a, k=1, axes=(0, 1)):
    """Mirrors `mindspore.numpy.rot90`: `k` quarter turns from `axes[0]` towards `axes[1]`.

    As in MindSpore 2.10, a negative multiple of 4 turns three times (its `4 - -k % 4` is 4,
    which no branch takes for 0)."""
    check_tensor("rot90", a)
    k = check_int("rot90", "k", k)
    k = k % 4 if k >= 0 else 4 - -k % 4
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"For 'rot90', 'axes' must be tuple(ints) or list(ints), but got "
                        f"{type(axes).__name__}.")
    if len(axes) != 2:
        raise ValueError(f"For 'rot90', len(axes) must be 2, got {len(axes)}.")
    axis1, axis2 = (axis_in_range("rot90", ax, a.ndim) for ax in axes)
    if axis1 == axis2:
        raise ValueError(f"For 'rot90', axes must be different, got {tuple(axes)}.")
    if k == 0:
        return a
    if k == 2:
        return flip(flip(a, axis1), axis2)
    perm = list(range(a.ndim))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return flip(F.transpose(a, tuple(perm)), axis1 if k == 1 else axis2)  # k is 3 or 4


def _roll_axis(a, shift, axis):
    n = a.shape[axis]
    cut = n - shift % n if n else n
    if cut == n:
        return a
    lead = (slice(None),) * axis
    return F.concat((a[lead + (slice(cut, None),)], a[lead + (slice(0, cut),)]), axis)


def roll(a, shift, axis=None):
    """Mirrors `mindspore.numpy.roll` (shifts and axes broadcast against each other; computed
    in Float32 unless the input is Float16/Float32, as MindSpore's)."""
    check_tensor("roll", a)
    return via_float32(lambda t: _roll(t, shift, axis), a)


def _roll(a, shift, axis):
    shape = tuple(a.shape)
    if axis is None:
        a, axis = ravel(a), 0
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise ValueError(f"For 'roll', shape mismatch: shift {shifts} and axis {axes} cannot "
                         "be broadcast to a single shape.")
    n = max(len(shifts), len(axes))
    shifts, axes = shifts * (n // len(shifts)), axes * (n // len(axes))
    for s, ax in zip(shifts, axes):
        a = _roll_axis(a, check_int("roll", "shift", s), axis_in_range("roll", ax, a.ndim))
    return F.reshape(a, shape) if tuple(a.shape) != shape else a
