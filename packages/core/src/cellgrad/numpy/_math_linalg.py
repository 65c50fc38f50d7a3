"""Products and norms of `mindspore.numpy.math_ops` (dot, inner, outer, tensordot, matmul,
multi_dot, kron, cross, norm), built on `cellgrad.ops` so gradients come from the tape."""

import numpy as np

from cellgrad._errors import ShapeError
from cellgrad.dtype import float32
from cellgrad.numpy._common import axes_valid, axis_in_range, broadcast_shape, promote, to_tensor
from cellgrad.numpy._math_binary import multiply
from cellgrad.numpy._math_common import cast, need_tensor
from cellgrad.ops import functional as F


def _moveaxis(x, src, dst):
    perm = list(range(x.ndim))
    perm.insert(dst % x.ndim, perm.pop(src % x.ndim))
    return F.transpose(x, perm)


def _same_dtype(op, a, b):
    if a.dtype is not b.dtype:
        raise TypeError(f"For '{op}', the type of 'x2' should be same as 'x1', but got 'x1' with "
                        f"type {a.dtype} and 'x2' with type {b.dtype}.")


def matmul(x1, x2, dtype=None):
    """Mirrors `mindspore.numpy.matmul` (Tensors of one dtype, numpy's broadcasting rules)."""
    need_tensor("mindspore.numpy.matmul", x1, x2)
    _same_dtype("mindspore.numpy.matmul", x1, x2)
    try:
        return cast(F.matmul(x1, x2), dtype)
    except ShapeError as e:  # mindspore.numpy raises ValueError where ops.matmul is RuntimeError
        raise ValueError(str(e)) from e


def _rows_times_rows(a, b):
    """`a @ b.T` of `a` (..., k) and `b` (..., k): shape a.shape[:-1] + b.shape[:-1]."""
    k = a.shape[-1]
    res = F.matmul(F.reshape(a, (-1, k)), F.swapaxes(F.reshape(b, (-1, k)), 0, 1))
    return F.reshape(res, a.shape[:-1] + b.shape[:-1])


def dot(a, b):
    """Mirrors `mindspore.numpy.dot`: the last axis of `a` with the second-to-last of `b`."""
    op = "mindspore.numpy.dot"
    need_tensor(op, a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    _same_dtype(op, a, b)
    if b.ndim >= 2:
        b = F.swapaxes(b, -1, -2)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For '{op}', shapes {a.shape} and {b.shape} are not aligned.")
    return _rows_times_rows(a, b)


def inner(a, b):
    """Mirrors `mindspore.numpy.inner`: the sum over the last axes."""
    op = "mindspore.numpy.inner"
    need_tensor(op, a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For '{op}', shapes {a.shape} {b.shape} not aligned: {a.shape[-1]} "
                         f"(dim 0) != {b.shape[-1]} (dim 0).")
    _same_dtype(op, a, b)
    return _rows_times_rows(a, b)


def outer(a, b):
    """Mirrors `mindspore.numpy.outer` (inputs are flattened)."""
    need_tensor("mindspore.numpy.outer", a, b)
    return F.reshape(a, (-1, 1)) * F.reshape(b, (1, -1))


def tensordot(a, b, axes=2):
    """Mirrors `mindspore.numpy.tensordot`: `axes` an int (the last `axes` axes of `a` with
    the first of `b`) or a pair of axis sequences."""
    op = "mindspore.numpy.tensordot"
    need_tensor(op, a, b)
    if a.ndim * b.ndim == 0 and axes == 0:
        return a * b
    if isinstance(axes, (int, np.integer)):
        if axes < 0 or axes > min(a.ndim, b.ndim):
            raise ValueError(f"For '{op}', 'axes' {axes} is out of range for shapes {a.shape} "
                             f"and {b.shape}.")
        ax_a, ax_b = tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = (ax_a,) if isinstance(ax_a, int) else tuple(ax_a)
        ax_b = (ax_b,) if isinstance(ax_b, int) else tuple(ax_b)
        if len(ax_a) != len(ax_b):
            raise ValueError(f"For '{op}', 'axes' must pair as many axes of a as of b, got "
                             f"{axes!r}.")
        ax_a = tuple(axis_in_range(op, x, a.ndim) for x in ax_a)
        ax_b = tuple(axis_in_range(op, x, b.ndim) for x in ax_b)
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"For '{op}', shape mismatch for sum: axis {i} of a {a.shape} and "
                             f"axis {j} of b {b.shape}.")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a]))
    at = F.reshape(F.transpose(a, free_a + list(ax_a)), (-1, k))
    bt = F.reshape(F.transpose(b, list(ax_b) + free_b), (k, -1))
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    return F.reshape(F.matmul(at, bt), out_shape)


def _chain_order(dims):
    """The split points of the cheapest matrix-chain product (MindSpore's dynamic program)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for span in range(1, n):
        for i in range(n - span):
            j = i + span
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(arrays, i, j, order):
    if i == j:
        return arrays[i]
    k = order[i][j]
    return dot(_chain(arrays, i, k, order), _chain(arrays, k + 1, j, order))


def multi_dot(arrays):
    """Mirrors `mindspore.numpy.multi_dot`: a chain of `dot`s in the cheapest order; the
    first and last arrays may be vectors."""
    op = "mindspore.numpy.multi_dot"
    if len(arrays) < 2:
        raise ValueError(f"For '{op}', expecting at least 2 arrays, got {len(arrays)}.")
    if isinstance(arrays, (tuple, list)):
        arrs = [to_tensor(a, op=op) for a in arrays]
    else:
        arrs = list(F.unbind(arrays, 0))
    if len(arrs) == 2:
        return dot(*arrs)
    shape_out = ()
    if arrs[0].ndim == 1:
        arrs[0] = F.reshape(arrs[0], (1, -1))
    else:
        shape_out += (arrs[0].shape[0],)
    if arrs[-1].ndim == 1:
        arrs[-1] = F.reshape(arrs[-1], (-1, 1))
    else:
        shape_out += (arrs[-1].shape[1],)
    shapes = [a.shape for a in arrs]
    if any(len(s) != 2 for s in shapes):
        raise ValueError(f"For '{op}', arrays must be 2 dimensional, got shapes {shapes}.")
    if any(s[1] != t[0] for s, t in zip(shapes[:-1], shapes[1:])):
        raise ValueError(f"For '{op}', shapes {tuple(shapes)} are not aligned.")
    dims = [s[0] for s in shapes] + [shapes[-1][1]]
    res = _chain(arrs, 0, len(arrs) - 1, _chain_order(dims))
    return F.reshape(res, shape_out)


def kron(a, b):
    """Mirrors `mindspore.numpy.kron`: the Kronecker product."""
    a, b = to_tensor(a, b, op="mindspore.numpy.kron")
    ndim = max(a.ndim, b.ndim)
    if ndim == 0:
        return a * b
    sa = (1,) * (ndim - a.ndim) + a.shape
    sb = (1,) * (ndim - b.ndim) + b.shape
    a = F.reshape(a, tuple(v for s in sa for v in (s, 1)))
    b = F.reshape(b, tuple(v for s in sb for v in (1, s)))
    return F.reshape(a * b, tuple(x * y for x, y in zip(sa, sb)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Mirrors `mindspore.numpy.cross`: vectors of 2 or 3 components (integer inputs compute
    in Float32 and return their dtype)."""
    op = "mindspore.numpy.cross"
    a, b = to_tensor(a, b, op=op)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = _moveaxis(a, axis_in_range(op, axisa, a.ndim), -1) if a.ndim else a
    b = _moveaxis(b, axis_in_range(op, axisb, b.ndim), -1) if b.ndim else b
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"For '{op}', incompatible dimensions for cross product (dimension "
                         f"must be 2 or 3), got shapes {a.shape} and {b.shape}.")
    a_z, b_z = a.shape[-1] == 3, b.shape[-1] == 3
    shape_out = broadcast_shape(op, a.shape[:-1], b.shape[:-1])
    if a_z or b_z:
        shape_out += (3,)
    axisc = axis_in_range(op, axisc, len(shape_out))
    dtype = promote(a.dtype, b.dtype)
    a = a if a.dtype.kind == 2 else cast(a, float32)
    b = b if b.dtype.kind == 2 else cast(b, float32)

    def prod(i, j):
        return multiply(a[..., i:i + 1], b[..., j:j + 1])

    cz = prod(0, 1) - prod(1, 0)
    if not a_z and not b_z:
        return cast(F.reshape(cz, shape_out), dtype)
    if a_z and b_z:
        cx, cy = prod(1, 2) - prod(2, 1), prod(2, 0) - prod(0, 2)
    elif a_z:
        cx, cy = -prod(2, 1), prod(2, 0)
    else:
        cx, cy = prod(1, 2), -prod(0, 2)
    res = F.reshape(F.concat((cx, cy, cz), -1), shape_out)
    return cast(_moveaxis(res, -1, axisc), dtype)


_INF = float("inf")


def _vector_norm(x, ord, axis, keepdims):
    if ord in ("fro", "nuc"):
        raise ValueError("For 'mindspore.numpy.norm', Frobenius norm and nuclear norm are only "
                         "defined for matrices.")
    if ord is None:
        ord = 2
    if ord == _INF:
        return F.amax(F.abs(x), axis, keepdims)
    if ord == -_INF:
        return F.amin(F.abs(x), axis, keepdims)
    if ord == 0:
        return F.sum(cast(x != 0, float32), axis, keepdims)
    return F.pow(F.sum(F.pow(F.abs(x), ord), axis, keepdims), 1.0 / ord)


def _matrix_norm(x, ord, axis, keepdims):
    op = "mindspore.numpy.norm"
    if ord == 0:
        raise ValueError(f"For '{op}', for 0 axis, norm is defined only for 2-D matrices.")
    if ord == "nuc":
        raise NotImplementedError(f"For '{op}', the nuclear norm is not implemented.")
    if ord in (2, -2):
        raise NotImplementedError(f"For '{op}', the 2-norm is not implemented for matrices.")
    if ord in (None, "fro"):
        return F.sqrt(F.sum(x * x, axis, keepdims))
    a0, a1 = axis
    if not keepdims:
        if abs(ord) == _INF and a0 > a1:
            a0 -= 1
        elif abs(ord) == 1 and a1 > a0:
            a1 -= 1
    if ord == _INF:
        return F.amax(F.sum(F.abs(x), a1, keepdims), a0, keepdims)
    if ord == -_INF:
        return F.amin(F.sum(F.abs(x), a1, keepdims), a0, keepdims)
    if ord == 1:
        return F.amax(F.sum(F.abs(x), a0, keepdims), a1, keepdims)
    if ord == -1:
        return F.amin(F.sum(F.abs(x), a0, keepdims), a1, keepdims)
    raise ValueError(f"For '{op}', invalid norm order {ord!r} for matrices.")


def norm(x, ord=None, axis=None, keepdims=False):
    """Mirrors `mindspore.numpy.norm`: vector norms (any order) and the matrix norms MindSpore
    has (Frobenius, 1, -1, inf, -inf; the 2-norm and nuclear norm raise NotImplementedError
    there and here)."""
    op = "mindspore.numpy.norm"
    if not (ord is None or ord in ("fro", "nuc")
            or (isinstance(ord, (int, float)) and not isinstance(ord, bool))):
        raise ValueError(f"For '{op}', invalid value for `ord`: {ord!r}.")
    x = to_tensor(x, op=op)
    if x.dtype.kind != 2:
        x = cast(x, float32)
    ndim = x.ndim
    if axis is None:
        if ord is None:
            x = F.reshape(x, (-1,))
        if x.ndim not in (1, 2):
            raise ValueError(f"For '{op}', for None axis, array must a vector or a 2-D matrix, "
                             f"got shape {x.shape}.")
        axis = tuple(range(x.ndim))
    axis = axes_valid(op, axis, x.ndim)
    if len(axis) == 1:
        res = _vector_norm(x, ord, axis, keepdims)
    elif len(axis) == 2:
        res = _matrix_norm(x, ord, axis, keepdims)
    else:
        raise ValueError(f"For '{op}', invalid number of dimensions to norm: {axis}.")
    if keepdims and ndim > res.ndim:
        res = F.reshape(res, (1,) * (ndim - res.ndim) + res.shape)
    return res
