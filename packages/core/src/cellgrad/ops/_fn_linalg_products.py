"""Matrix and vector products of `mindspore.ops` (ger, inner, kron, mv, the addmm family,
cross, block_diag), as compositions of matmul, reshapes and gathers, so they differentiate to
any order."""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.ops import functional as F
from cellgrad.ops._fn_linalg_checks import _mT, _tensor

__all__ = ["ger", "inner", "kron", "mv", "addmm", "addmv", "addr", "addbmm", "baddbmm", "cross",
           "block_diag"]


def _vector(op, name, x):
    _tensor(op, name, x)
    if x.ndim != 1:
        raise ValueError(f"For '{op}', '{name}' must be 1-D, but got shape {x.shape}.")


def ger(input, vec2):
    """Mirrors `mindspore.ops.ger`: the outer product of two 1-D tensors."""
    _vector("ger", "input", input)
    _vector("ger", "vec2", vec2)
    return F.reshape(input, (-1, 1)) * vec2


def inner(input, other):
    """Mirrors `mindspore.ops.inner`: sums products over the last axes (a scalar operand
    multiplies)."""
    _tensor("inner", "input", input)
    _tensor("inner", "other", other)
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    k = input.shape[-1]
    if other.shape[-1] != k:
        raise ValueError(f"For 'inner', the last dimensions must match, but got shapes "
                         f"{input.shape} and {other.shape}.")
    out = F.matmul(F.reshape(input, (-1, k)), _mT(F.reshape(other, (-1, k))))
    return F.reshape(out, input.shape[:-1] + other.shape[:-1])


def kron(input, other):
    """Mirrors `mindspore.ops.kron`: the Kronecker product."""
    _tensor("kron", "input", input)
    _tensor("kron", "other", other)
    nd = max(input.ndim, other.ndim)
    a = F.reshape(input, (1,) * (nd - input.ndim) + input.shape)
    b = F.reshape(other, (1,) * (nd - other.ndim) + other.shape)
    a_ex = F.reshape(a, tuple(s for d in a.shape for s in (d, 1)))
    b_ex = F.reshape(b, tuple(s for d in b.shape for s in (1, d)))
    return F.reshape(a_ex * b_ex, tuple(x * y for x, y in zip(a.shape, b.shape)))


def mv(mat, vec):
    """Mirrors `mindspore.ops.mv`: matrix (n, m) times vector (m,)."""
    _tensor("mv", "mat", mat)
    _vector("mv", "vec", vec)
    if mat.ndim != 2 or mat.shape[1] != vec.shape[0]:
        raise ValueError(f"For 'mv', 'mat' must be (n, {vec.shape[0]}) for 'vec' of shape "
                         f"{vec.shape}, but got {mat.shape}.")
    return F.matmul(mat, vec)


def _scaled_sum(input, product, beta, alpha):
    if beta == 0:
        return alpha * product if alpha != 1 else product
    return beta * input + alpha * product


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addmm`: `beta * input + alpha * (mat1 @ mat2)`."""
    _tensor("addmm", "input", input)
    return _scaled_sum(input, F.matmul(mat1, mat2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addmv`: `beta * input + alpha * (mat @ vec)`."""
    _tensor("addmv", "input", input)
    return _scaled_sum(input, mv(mat, vec), beta, alpha)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addr`: `beta * x + alpha * outer(vec1, vec2)`."""
    _tensor("addr", "x", x)
    return _scaled_sum(x, ger(vec1, vec2), beta, alpha)


def _batches(op, batch1, batch2):
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        _tensor(op, name, t)
        if t.ndim != 3:
            raise ValueError(f"For '{op}', '{name}' must be 3-D, but got shape {t.shape}.")
    return F.matmul(batch1, batch2)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """Mirrors `mindspore.ops.addbmm`: `beta * input + alpha * sum_i batch1[i] @ batch2[i]`."""
    _tensor("addbmm", "input", input)
    return _scaled_sum(input, F.sum(_batches("addbmm", batch1, batch2), 0), beta, alpha)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """Mirrors `mindspore.ops.baddbmm`: `beta * input + alpha * (batch1 @ batch2)`."""
    _tensor("baddbmm", "input", input)
    return _scaled_sum(input, _batches("baddbmm", batch1, batch2), beta, alpha)


def cross(input, other, dim=None):
    """Mirrors `mindspore.ops.cross`: the 3-vector cross product along `dim` (default: the
    first axis of size 3)."""
    _tensor("cross", "input", input)
    _tensor("cross", "other", other)
    if input.shape != other.shape:
        raise ValueError(f"For 'cross', 'input' and 'other' must have the same shape, but got "
                         f"{input.shape} and {other.shape}.")
    if dim is None:
        dims = [i for i, s in enumerate(input.shape) if s == 3]
        if not dims:
            raise ValueError(f"For 'cross', no dimension of size 3 in input of shape "
                             f"{input.shape}.")
        dim = dims[0]
    if not -input.ndim <= dim < input.ndim or input.shape[dim] != 3:
        raise ValueError(f"For 'cross', the size of 'dim' {dim} must be 3, for inputs of shape "
                         f"{input.shape}.")

    def at(t, order):
        return F.gather(t, make_tensor(np.array(order, np.int32), None, 0), dim % t.ndim)

    return at(input, [1, 2, 0]) * at(other, [2, 0, 1]) - at(input, [2, 0, 1]) * at(other,
                                                                                    [1, 2, 0])



def block_diag(*inputs):
    """Mirrors `mindspore.ops.block_diag`: the inputs (0-, 1- or 2-D) on a block diagonal."""
    mats = []
    for k, t in enumerate(inputs):
        _tensor("block_diag", f"inputs[{k}]", t)
        if t.ndim > 2:
            raise ValueError(f"For 'block_diag', each input must be at most 2-D, but input {k} "
                             f"has shape {t.shape}.")
        mats.append(F.reshape(t, (1, -1)) if t.ndim < 2 else t)
    if not mats:
        raise ValueError("For 'block_diag', at least one input is required.")
    dtype = mats[0].dtype
    total = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        m = F.cast(m, dtype)
        r, c = m.shape
        parts = [F.zeros((r, left), dtype), m, F.zeros((r, total - left - c), dtype)]
        rows.append(F.concat(parts, 1))
        left += c
    return F.concat(rows, 0)
