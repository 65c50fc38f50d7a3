"""mint's arithmetic and indexing that torch has as one name (`addmm`, `lerp`, `xlogy`,
`narrow`, `index_add`, ...), built from differentiable core ops; and the Ascend-only names."""

import builtins

import numpy as np

from cellgrad import numpy as mnp
from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.mint._reductions import _vector_norm

__all__ = [
    "add", "sub", "addmm", "addbmm", "baddbmm", "addmv", "addr_", "addcmul", "addcdiv", "lerp",
    "xlogy", "frac", "sinc", "float_power", "dot", "triangular_solve", "mv", "vdot", "allclose",
    "nan_to_num", "real", "imag", "polar", "clone", "t", "narrow", "select", "where", "meshgrid",
    "cross", "index_add", "scatter_add", "cdist", "round", "softmax", "searchsorted", "npu_gelu",
    "batch_norm_stats", "batch_norm_elemt", "batch_norm_gather_stats_with_counts",
]


def add(input, other, *, alpha=1):
    """Mirrors `mindspore.mint.add`: input + alpha * other."""
    return ops.add(input, other if alpha == 1 else ops.mul(other, alpha))


def sub(input, other, *, alpha=1):
    """Mirrors `mindspore.mint.sub`: input - alpha * other."""
    return ops.sub(input, other if alpha == 1 else ops.mul(other, alpha))


def _scaled(input, product, beta, alpha):
    product = product if alpha == 1 else product * alpha
    if beta == 0:  # torch ignores `input` then, NaNs included
        return product
    return product + (input if beta == 1 else input * beta)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """Mirrors `mindspore.mint.addmm`: beta * input + alpha * mat1 @ mat2."""
    return _scaled(input, ops.matmul(mat1, mat2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """Mirrors `mindspore.mint.addbmm`: beta * input + alpha * the sum of the batch products."""
    return _scaled(input, ops.sum(ops.bmm(batch1, batch2), 0), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """Mirrors `mindspore.mint.baddbmm`: beta * input + alpha * batch1 @ batch2."""
    return _scaled(input, ops.bmm(batch1, batch2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """Mirrors `mindspore.mint.addmv`: beta * input + alpha * mat @ vec."""
    return _scaled(input, ops.matmul(mat, vec), beta, alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """Mirrors `mindspore.mint.addr_`: beta * input + alpha * outer(vec1, vec2)."""
    return _scaled(input, ops.outer(vec1, vec2), beta, alpha)


def addcmul(input, tensor1, tensor2, *, value=1):
    """Mirrors `mindspore.mint.addcmul`: input + value * tensor1 * tensor2."""
    return input + value * (tensor1 * tensor2)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """Mirrors `mindspore.mint.addcdiv`: input + value * tensor1 / tensor2."""
    return input + value * (tensor1 / tensor2)


def lerp(input, end, weight):
    """Mirrors `mindspore.mint.lerp`: input + weight * (end - input)."""
    return input + weight * (end - input)


def xlogy(input, other):
    """Mirrors `mindspore.mint.xlogy`: input * log(other), 0 where input is 0."""
    input = input if isinstance(input, Tensor) else Tensor(input, mstype.float32)
    other = other if isinstance(other, Tensor) else Tensor(other, input.dtype)
    zero = ops.equal(input, 0)
    safe = ops.where(zero, ops.ones_like(other), other)
    return ops.where(zero, ops.zeros_like(input * safe), input * ops.log(safe))


def frac(input):
    """Mirrors `mindspore.mint.frac`: input - trunc(input)."""
    return input - ops.trunc(input)


def sinc(input):
    """Mirrors `mindspore.mint.sinc`: sin(pi x) / (pi x), 1 at 0."""
    if not input.dtype.is_floating_point if hasattr(input.dtype, "is_floating_point") \
            else input.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        input = input.astype(mstype.float32)
    zero = ops.equal(input, 0)
    x = ops.where(zero, ops.ones_like(input), input) * np.pi
    return ops.where(zero, ops.ones_like(input), ops.sin(x) / x)


def float_power(input, exponent):
    """Mirrors `mindspore.mint.float_power`: computed and returned in float64."""
    input = input.astype(mstype.float64) if isinstance(input, Tensor) else input
    exponent = exponent.astype(mstype.float64) if isinstance(exponent, Tensor) else exponent
    return ops.pow(input, exponent)


def dot(input, other):
    """Mirrors `mindspore.mint.dot`: the dot product of two 1-D tensors."""
    if input.ndim != 1 or other.ndim != 1:
        raise ValueError(f"For 'mint.dot', both inputs must be 1-D, but got shapes {input.shape} "
                         f"and {other.shape}.")
    return ops.sum(input * other)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Mirrors `mindspore.mint.triangular_solve`: (X, a copy of A) with op(T) X = b, T the upper
    or lower triangle of A (unit diagonal when `unitriangular`), op a transpose if asked."""
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise ValueError(f"For 'mint.triangular_solve', 'A' must be square matrices, but got "
                         f"shape {A.shape}.")
    triangle = ops.triu(A) if upper else ops.tril(A)
    if unitriangular:
        eye = ops.eye(A.shape[-1], A.shape[-1], A.dtype)
        triangle = triangle * (1 - eye) + eye
    if transpose:
        triangle = ops.swapaxes(triangle, -1, -2)
    return ops.matmul(ops.inverse(triangle), b), ops.identity(A)


def mv(input, vec):
    """Mirrors `mindspore.mint.mv`."""
    if input.ndim != 2 or vec.ndim != 1:
        raise ValueError(f"For 'mint.mv', 'input' must be 2-D and 'vec' 1-D, but got shapes "
                         f"{input.shape} and {vec.shape}.")
    return ops.matmul(input, vec)


def vdot(input, other):
    """Mirrors `mindspore.mint.vdot` (real tensors: the dot product of 1-D tensors)."""
    if input.ndim != 1 or other.ndim != 1:
        raise ValueError(f"For 'mint.vdot', both inputs must be 1-D, but got shapes "
                         f"{input.shape} and {other.shape}.")
    return ops.sum(input * other)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Mirrors `mindspore.mint.allclose`: a Python bool."""
    return bool(ops.isclose(input, other, rtol, atol, equal_nan).all())


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Mirrors `mindspore.mint.nan_to_num`: the dtype's extremes for the infinities."""
    info = np.finfo(np.dtype(input.asnumpy().dtype))
    out = ops.where(ops.isnan(input), ops.full_like(input, 0.0 if nan is None else nan), input)
    out = ops.where(ops.logical_and(ops.isinf(out), out > 0),
                    ops.full_like(input, info.max if posinf is None else posinf), out)
    return ops.where(ops.logical_and(ops.isinf(out), out < 0),
                     ops.full_like(input, info.min if neginf is None else neginf), out)


def real(input):
    """Mirrors `mindspore.mint.real` (`ops.real`)."""
    _real_only("real", input)
    return ops.real(input)


def imag(input):
    """Mirrors `mindspore.mint.imag` (`ops.imag`: zeros for a real tensor)."""
    _real_only("imag", input)
    return ops.imag(input)


def polar(abs, angle):
    """Mirrors `mindspore.mint.polar` (`ops.polar`)."""
    return ops.polar(abs, angle)


def _real_only(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'mint.{name}', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")


def clone(input):
    """Mirrors `mindspore.mint.clone`: a copy that gradients flow through."""
    return ops.identity(input)


def t(input):
    """Mirrors `mindspore.mint.t`: transposes a tensor of at most 2 dimensions."""
    if input.ndim > 2:
        raise ValueError(f"For 'mint.t', 'input' must have at most 2 dimensions, but got "
                         f"{input.ndim}.")
    return input if input.ndim < 2 else ops.swapaxes(input, 0, 1)


def narrow(input, dim, start, length):
    """Mirrors `mindspore.mint.narrow`: `length` elements from `start` along `dim`."""
    size = input.shape[dim]
    start = start + size if start < 0 else start
    if not 0 <= start <= size or length < 0 or start + length > size:
        raise ValueError(f"For 'mint.narrow', start={start} and length={length} must lie in "
                         f"[0, {size}] along dim {dim}.")
    index = [builtins.slice(None)] * input.ndim
    index[dim] = builtins.slice(start, start + length)
    return input[tuple(index)]


def select(input, dim, index):
    """Mirrors `mindspore.mint.select`: the slice at `index` along `dim`, without that dim."""
    size = input.shape[dim]
    if not -size <= index < size:
        raise ValueError(f"For 'mint.select', 'index' must be in [{-size}, {size}), but got "
                         f"{index}.")
    where = [builtins.slice(None)] * input.ndim
    where[dim] = index
    return input[tuple(where)]


def where(condition, input=None, other=None):
    """Mirrors `mindspore.mint.where`: `where(condition)` is `nonzero(condition, as_tuple=True)`."""
    if input is None and other is None:
        return ops.nonzero(condition, as_tuple=True)
    return ops.where(condition, input, other)


def meshgrid(*tensors, indexing=None):
    """Mirrors `mindspore.mint.meshgrid` ("ij" indexing by default, as torch)."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing=indexing or "ij")


def cross(input, other, dim=None):
    """Mirrors `mindspore.mint.cross`: along `dim`, or the first dimension of size 3."""
    if dim is None:
        dim = next((i for i, s in enumerate(input.shape) if s == 3), None)
        if dim is None:
            raise ValueError(f"For 'mint.cross', no dimension of size 3 in shape {input.shape}.")
    return mnp.cross(input, other, axis=dim)


def index_add(input, dim, index, source, *, alpha=1):
    """Mirrors `mindspore.mint.index_add`: adds alpha * source at `index` along `dim`."""
    source = source if alpha == 1 else source * alpha
    positions = ops.arange(input.shape[dim], dtype=mstype.int64)
    onehot = ops.equal(ops.unsqueeze(index.astype(mstype.int64), 1),
                       ops.unsqueeze(positions, 0)).astype(source.dtype)  # (n, size)
    added = ops.matmul(ops.swapaxes(source, dim, -1), onehot)
    return input + ops.swapaxes(added, dim, -1)


def scatter_add(input, dim, index, src):
    """Mirrors `mindspore.mint.scatter_add`."""
    return ops.tensor_scatter_elements(input, index, src, dim, "add")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Mirrors `mindspore.mint.cdist`: p-norm distances between the rows of x1 and x2."""
    return _vector_norm(ops.unsqueeze(x1, -2) - ops.unsqueeze(x2, -3), p, -1, False)


def round(input, *, decimals=0):
    """Mirrors `mindspore.mint.round`."""
    return ops.round(input, decimals=decimals)


def softmax(input, dim, *, dtype=None):
    """Mirrors `mindspore.mint.softmax`."""
    if dtype is not None:
        input = input.astype(dtype)
    # from core ops, so mint works with the core alone (ops.softmax is cellgrad-ops-nn's)
    shifted = input - ops.stop_gradient(ops.amax(input, dim, True))
    exps = ops.exp(shifted)
    return exps / ops.sum(exps, dim, True)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Mirrors `mindspore.mint.searchsorted`: insertion indices along the last dimension."""
    if side not in (None, "left", "right"):
        raise ValueError(f"For 'mint.searchsorted', 'side' must be 'left' or 'right', but got "
                         f"{side!r}.")
    side = side or ("right" if right else "left")
    seq = sorted_sequence.asnumpy()
    vals = values.asnumpy() if isinstance(values, Tensor) else np.asarray(values)
    order = None if sorter is None else sorter.asnumpy()
    if seq.ndim == 1:
        out = np.searchsorted(seq, vals, side, order)
    else:
        if seq.shape[:-1] != vals.shape[:-1]:
            raise ValueError(f"For 'mint.searchsorted', the leading dimensions of "
                             f"'sorted_sequence' {seq.shape} and 'values' {vals.shape} differ.")
        rows_s = seq.reshape(-1, seq.shape[-1])
        rows_v = vals.reshape(-1, vals.shape[-1])
        rows_o = None if order is None else order.reshape(rows_s.shape)
        out = np.stack([np.searchsorted(s, v, side, None if rows_o is None else rows_o[i])
                        for i, (s, v) in enumerate(zip(rows_s, rows_v))]).reshape(vals.shape)
    return Tensor(out.astype(np.int32 if out_int32 else np.int64))


# ---- Ascend-only ----


def _ascend_only(name, instead):
    raise RuntimeError(f"mint.{name} runs only on Ascend (MindSpore's CPU has no kernel for it); "
                       f"use {instead} instead.")


def npu_gelu(input, approximate="none"):
    """Mirrors `mindspore.mint.npu_gelu`: Ascend-only."""
    _ascend_only("npu_gelu", "mint.nn.functional.gelu")


def batch_norm_stats(input, eps):
    """Mirrors `mindspore.mint.batch_norm_stats`: Ascend-only."""
    _ascend_only("batch_norm_stats", "mint.mean and mint.var over the batch")


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """Mirrors `mindspore.mint.batch_norm_elemt`: Ascend-only."""
    _ascend_only("batch_norm_elemt", "mint.nn.functional.batch_norm")


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None,
                                        momentum=0.1, eps=1e-05, counts=None):
    """Mirrors `mindspore.mint.batch_norm_gather_stats_with_counts`: Ascend-only."""
    _ascend_only("batch_norm_gather_stats_with_counts", "mint.nn.SyncBatchNorm")
