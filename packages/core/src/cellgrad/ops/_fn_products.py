"""Tensor products of `mindspore.ops` as transposes, reshapes and the core matmul (so they
differentiate to any order): `outer`, `dot`, `tensor_dot`, `batch_dot`, `vecdot`.

MindSpore accepts only Float16/Float32 in dot, tensor_dot and batch_dot; cellgrad accepts
Float64 too (its gradients are checked in float64) and rejects the rest as MindSpore does."""

import math

from cellgrad.ops import functional as F

_FLOATS = ("Float16", "Float32", "Float64")


def _float_inputs(op, x1, x2):
    F._need_tensor(op, x1, x2)
    for name, t in (("x1", x1), ("x2", x2)):
        if str(t.dtype) not in _FLOATS:
            raise TypeError(f"The '{name}' doesn't support '{t.dtype}' and expect to receive "
                            f"[mindspore.float16, mindspore.float32, mindspore.float64].")
    if x1.dtype != x2.dtype:
        raise TypeError(f"For '{op}', the inputs must be the same type, but got x1_type: "
                        f"{x1.dtype} and x2_type: {x2.dtype}.")


def outer(input, vec2):
    """Mirrors `mindspore.ops.outer`: `input.reshape(-1, 1) * vec2`."""
    F._need_tensor("outer", input, vec2)
    return F.reshape(input, (-1, 1)) * vec2


def dot(input, other):
    """Mirrors `mindspore.ops.dot`: contracts the last axis of `input` with the second-to-last
    of `other`; the result has shape `input.shape[:-1] + other.shape[:-2] + other.shape[-1:]`."""
    _float_inputs("dot", input, other)
    a, b = input.shape, other.shape
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got "
                         f"'len(x1_shape)': ({len(a)}) and 'len(x2_shape)': ({len(b)}).")
    if a[-1] != b[-2]:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': "
                         f"{a[-1]} and 'x2_row': {b[-2]}.")
    if len(a) == 2 and len(b) == 2:
        return F.matmul(input, other)
    perm = (len(b) - 2, *range(len(b) - 2), len(b) - 1)
    rhs = F.reshape(F.transpose(other, perm), (b[-2], -1))
    out = F.matmul(F.reshape(input, (-1, a[-1])), rhs)
    return F.reshape(out, a[:-1] + b[:-2] + b[-1:])


def _tensor_dot_axes(a, b, axes):
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0:
            raise ValueError(f"For 'tensor_dot', the 'axes' must be at least 0, but got {axes}.")
        if axes > len(a) or axes > len(b):
            raise ValueError(f"For 'tensor_dot', the 'axes' cannot be greater than the length of "
                             f"'x1_shape' and 'x2_shape', but got 'axes': {axes}, 'x1_shape': "
                             f"{a}, 'x2_shape': {b}.")
        return tuple(range(len(a) - axes, len(a))), tuple(range(axes))
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise TypeError(f"For 'tensor_dot', 'axes' must be an int or a pair of axis tuples, but "
                        f"got {axes!r}.")
    pair = tuple(tuple(x) if isinstance(x, (tuple, list)) else (x,) for x in axes)
    for ax, shape in zip(pair, (a, b)):
        for v in ax:
            if not -len(shape) <= v < len(shape):
                raise ValueError(f"For 'tensor_dot', the value in 'axes' must be in range: "
                                 f"[{-len(shape)}, {len(shape) - 1}], but got {v}.")
    ax1 = tuple(v % len(a) for v in pair[0])
    ax2 = tuple(v % len(b) for v in pair[1])
    if len(ax1) != len(ax2) or any(a[i] != b[j] for i, j in zip(ax1, ax2)):
        raise ValueError(f"For 'tensor_dot', the 'i' should exist such that 'x1_shape[axes[0][i]]'"
                         f" is equal to 'x2_shape[axes[1][i]]', but got 'x1_shape': {a}, "
                         f"'x2_shape': {b}, 'axes': {axes}.")
    return ax1, ax2


def tensor_dot(x1, x2, axes):
    """Mirrors `mindspore.ops.tensor_dot`: sums the products over `axes` (an int n: the last
    n axes of `x1` with the first n of `x2`; or two tuples of axes)."""
    _float_inputs("tensor_dot", x1, x2)
    a, b = x1.shape, x2.shape
    ax1, ax2 = _tensor_dot_axes(a, b, axes)
    free1 = tuple(i for i in range(len(a)) if i not in ax1)
    free2 = tuple(i for i in range(len(b)) if i not in ax2)
    k = math.prod(a[i] for i in ax1)
    lhs = F.reshape(F.transpose(x1, free1 + ax1), (-1, k))
    rhs = F.reshape(F.transpose(x2, ax2 + free2), (k, -1))
    out = F.matmul(lhs, rhs)
    return F.reshape(out, tuple(a[i] for i in free1) + tuple(b[i] for i in free2))


def _batch_dot_axes(a, b, axes):
    if axes is None:
        return [len(a) - 1, len(b) - 1 if len(b) == 2 else len(b) - 2]
    if isinstance(axes, (tuple, list)):
        if 0 in axes:
            raise ValueError(f"For 'batch_dot', the 'axes' cannot contain 0, but got axes: "
                             f"{axes}.")
        if len(axes) != 2:
            raise ValueError(f"For 'batch_dot', the length of 'axes' must be equal to 2, but got "
                             f"{len(axes)}.")
        ax = [axes[0] + len(a) if axes[0] < 0 else axes[0],
              axes[1] + len(b) if axes[1] < 0 else axes[1]]
        if ax[0] > len(a) or ax[1] > len(b) or min(ax) < 0:
            raise ValueError(f"For 'batch_dot', the axes[0] must be less than or equal to "
                             f"len(x1_shape), and axes[1] must be less than or equal to "
                             f"len(x2_shape).But got 'axes': {axes}, 'x1_shape': {a}, "
                             f"'x2_shape': {b}.")
        return ax
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes == 0:
            raise ValueError(f"For 'batch_dot', the 'axes' should not be equal to 0, but got "
                             f"{axes}.")
        if axes > len(a) or axes > len(b):
            raise ValueError(f"For 'batch_dot', the 'axes' cannot be greater than the length of "
                             f"'x1_shape' and 'x2_shape', but got 'axes': {axes}, 'x1_shape': "
                             f"{a}, 'x2_shape': {b}.")
        return [axes + len(a), axes + len(b)] if axes < 0 else [axes, axes]
    raise ValueError(f"For 'batch_dot', the type of 'axes' must be one of those: int, "
                     f"tuple(int), list(int), but got {type(axes).__name__}.")


def _batch_side(x, axis, first):
    """Transpose/reshape one operand to (batch, free, k) (first) or (batch, k, free)."""
    shape = x.shape
    free = tuple(i for i in range(1, len(shape)) if i != axis)
    perm = (0,) + (free + (axis,) if first else (axis,) + free)
    n_free = math.prod(shape[i] for i in free)
    new = (shape[0], n_free, shape[axis]) if first else (shape[0], shape[axis], n_free)
    return F.reshape(F.transpose(x, perm), new), tuple(shape[i] for i in free)


def batch_dot(x1, x2, axes=None):
    """Mirrors `mindspore.ops.batch_dot`: per sample of the first axis, contracts `axes[0]` of
    `x1` with `axes[1]` of `x2` (default: the last of `x1` with the second-to-last of `x2`,
    or its last when 2-D)."""
    _float_inputs("batch_dot", x1, x2)
    a, b = x1.shape, x2.shape
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"For 'batch_dot', the inputs x1, x2 should have 'dimension >= 2', but "
                         f"got 'len(x1_shape)': ({len(a)}) and 'len(x2_shape)': ({len(b)}).")
    if a[0] != b[0]:
        raise ValueError(f"For 'batch_dot', the inputs 'x1', 'x2' should have the same batch "
                         f"sizes, but got 'x1_batch_size': {a[0]} and 'x2_batch_size': {b[0]}.")
    axes = _batch_dot_axes(a, b, axes)
    if len(a) == 2:
        x1 = F.expand_dims(x1, 1)
        axes[0] += 1
    if len(b) == 2:
        x2 = F.expand_dims(x2, 2)
    if x1.shape[axes[0]] != x2.shape[axes[1]]:
        raise ValueError(f"For 'batch_dot', the contracted dimensions differ: axis {axes[0]} of "
                         f"x1 {x1.shape} and axis {axes[1]} of x2 {x2.shape}.")
    lhs, free1 = _batch_side(x1, axes[0], True)
    rhs, free2 = _batch_side(x2, axes[1], False)
    out = F.reshape(F.matmul(lhs, rhs), (a[0],) + free1 + free2)
    if len(a) == 2:
        return F.squeeze(out, 1)
    if len(b) == 2:
        return F.squeeze(out, -1)
    return out


def vecdot(x, y, *, axis=-1):
    """Mirrors `mindspore.ops.vecdot` for real Tensors: `sum(x * y, axis)`."""
    F._need_tensor("vecdot", x, y)
    return F.sum(x * y, axis)
