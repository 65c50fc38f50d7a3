"""The mint functions whose semantics differ from the cellgrad function underneath: torch-style
returns (`max(x, dim)` gives values and indices), defaults (`ones` is float32, `meshgrid` is
"ij") and the compositions torch has as one name (`addmm`, `lerp`, `xlogy`, ...)."""

import builtins

import numpy as np

from cellgrad import numpy as mnp
from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor

__all__ = [
    "ones", "zeros", "full", "arange", "linspace", "empty", "empty_like", "max", "min", "where",
    "add", "sub", "mean", "amax", "amin", "narrow", "addmm", "addbmm", "baddbmm", "addmv",
    "addr_", "addcmul", "addcdiv", "lerp", "xlogy", "frac", "sinc", "mv", "vdot", "allclose",
    "std_mean", "var_mean", "count_nonzero", "meshgrid", "normal", "rand", "randn", "randint",
    "rand_like", "randn_like", "randint_like", "randperm", "multinomial", "bernoulli", "clone",
    "t", "select", "unique", "unique_consecutive", "cummax", "median", "kthvalue", "nan_to_num",
    "real", "imag", "cross", "index_add", "scatter_add", "histc", "cdist", "norm", "round",
    "softmax", "searchsorted", "argmin", "cummin", "argsort", "topk", "sort", "bincount",
    "float_power", "dot", "triangular_solve", "polar", "npu_gelu", "batch_norm_stats",
    "batch_norm_elemt", "batch_norm_gather_stats_with_counts",
]


def _size(name, size):
    """A torch-style size: an int, a tuple/list of ints, or those given as varargs."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in size):
        raise TypeError(f"For 'mint.{name}', 'size' must be ints or a tuple of ints, "
                        f"but got {size}.")
    return tuple(int(s) for s in size)


def _no_generator(name, generator):
    if generator is not None:
        raise TypeError(f"For 'mint.{name}', 'generator' is not supported by cellgrad: seed "
                        f"with cellgrad.set_seed instead, but got {generator!r}.")


# ---- creation ----


def ones(size, *, dtype=None):
    """Mirrors `mindspore.mint.ones` (float32 unless `dtype` is given)."""
    size = (size,) if isinstance(size, int) else size
    return ops.ones(_size("ones", size), dtype or mstype.float32)


def zeros(size, *, dtype=None):
    """Mirrors `mindspore.mint.zeros` (float32 unless `dtype` is given)."""
    size = (size,) if isinstance(size, int) else size
    return ops.zeros(_size("zeros", size), dtype or mstype.float32)


def full(size, fill_value, *, dtype=None):
    """Mirrors `mindspore.mint.full`: bool, int64 or float32 after `fill_value` when `dtype` is
    None, as torch."""
    if dtype is None:
        if isinstance(fill_value, Tensor):
            dtype = fill_value.dtype
        elif isinstance(fill_value, (bool, np.bool_)):
            dtype = mstype.bool_
        elif isinstance(fill_value, (int, np.integer)):
            dtype = mstype.int64
        else:
            dtype = mstype.float32
    return ops.full(size, fill_value, dtype=dtype)


def empty(*size, dtype=None):
    """Mirrors `mindspore.mint.empty`: zero-filled (cellgrad never hands out stale memory)."""
    return ops.zeros(_size("empty", size), dtype or mstype.float32)


def empty_like(input, *, dtype=None):
    """Mirrors `mindspore.mint.empty_like` (zero-filled)."""
    return ops.zeros_like(input, dtype=dtype)


def arange(start=0, end=None, step=1, *, dtype=None):
    """Mirrors `mindspore.mint.arange`: int64 for integer arguments, float32 otherwise."""
    return ops.arange(start, end, step, dtype=dtype)


def linspace(start, end, steps, *, dtype=None):
    """Mirrors `mindspore.mint.linspace`."""
    out = ops.linspace(float(start), float(end), steps)
    return out if dtype is None else out.astype(dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Mirrors `mindspore.mint.normal`."""
    _no_generator("normal", generator)
    if size is None:
        shape = np.broadcast_shapes(_shape(mean), _shape(std))
    else:
        shape = _size("normal", (size,) if isinstance(size, int) else size)
    return ops.normal(tuple(shape), _as_tensor(mean), _as_tensor(std))


def _shape(x):
    return tuple(x.shape) if isinstance(x, Tensor) else ()


def _as_tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x, mstype.float32)


def rand(*size, generator=None, dtype=None, device=None):
    """Mirrors `mindspore.mint.rand` (float32 by default)."""
    _no_generator("rand", generator)
    return ops.rand(*_size("rand", size), dtype=dtype or mstype.float32)


def randn(*size, generator=None, dtype=None, device=None):
    """Mirrors `mindspore.mint.randn` (float32 by default)."""
    _no_generator("randn", generator)
    return ops.randn(*_size("randn", size), dtype=dtype or mstype.float32)


def randint(*args, generator=None, dtype=None, device=None):
    """Mirrors `mindspore.mint.randint`: `randint(high, size)` or `randint(low, high, size)`,
    int64 by default."""
    _no_generator("randint", generator)
    if len(args) == 2:
        args = (0, *args)
    if len(args) != 3:
        raise TypeError(f"For 'mint.randint', expected (high, size) or (low, high, size), but "
                        f"got {len(args)} positional arguments.")
    low, high, size = args
    size = _size("randint", (size,) if isinstance(size, int) else size)
    return ops.randint(low, high, size, dtype=dtype or mstype.int64)


def rand_like(input, *, dtype=None, device=None):
    """Mirrors `mindspore.mint.rand_like`."""
    return ops.rand_like(input, dtype=dtype)


def randn_like(input, *, dtype=None, device=None):
    """Mirrors `mindspore.mint.randn_like`."""
    return ops.randn_like(input, dtype=dtype)


def randint_like(*args, dtype=None, device=None):
    """Mirrors `mindspore.mint.randint_like`: `(input, high)` or `(input, low, high)`; the
    input's dtype unless `dtype` is given, as torch."""
    if len(args) == 2:
        args = (args[0], 0, args[1])
    if len(args) != 3:
        raise TypeError(f"For 'mint.randint_like', expected (input, high) or (input, low, high), "
                        f"but got {len(args)} positional arguments.")
    input, low, high = args
    out = ops.randint(low, high, tuple(input.shape), dtype=mstype.int64)
    return out.astype(dtype or input.dtype)


def randperm(n, *, generator=None, dtype=mstype.int64):
    """Mirrors `mindspore.mint.randperm`."""
    _no_generator("randperm", generator)
    return ops.randperm(n, dtype=dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Mirrors `mindspore.mint.multinomial`: int64 indices, without replacement by default, as
    torch."""
    _no_generator("multinomial", generator)
    return ops.multinomial(input, num_samples, replacement).astype(mstype.int64)


def bernoulli(input, *, generator=None):
    """Mirrors `mindspore.mint.bernoulli`: each element is 1 with the probability `input` holds."""
    _no_generator("bernoulli", generator)
    return (ops.rand_like(input) < input).astype(input.dtype)


# ---- reductions returning values and indices (int64 indices, as torch) ----


def argmin(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.argmin`."""
    return ops.argmin(input, dim, keepdim).astype(mstype.int64)


def cummin(input, dim):
    """Mirrors `mindspore.mint.cummin`: (running minimum, index of the last minimum)."""
    values, indices = ops.cummin(input, dim)
    return values, indices.astype(mstype.int64)


def argsort(input, dim=-1, descending=False, stable=False):
    """Mirrors `mindspore.mint.argsort` (a stable sort whatever `stable` says)."""
    return sort(input, dim=dim, descending=descending, stable=stable)[1]


def sort(input, *, dim=-1, descending=False, stable=False):
    """Mirrors `mindspore.mint.sort`: (values, int64 indices); equal elements keep their order."""
    values, indices = ops.sort(input, dim, descending)
    return values, indices.astype(mstype.int64)


def topk(input, k, dim=-1, largest=True, sorted=True):
    """Mirrors `mindspore.mint.topk`: (values, int64 indices)."""
    values, indices = ops.topk(input, k, dim, largest, sorted)
    return values, indices.astype(mstype.int64)


def bincount(input, weights=None, minlength=0):
    """Mirrors `mindspore.mint.bincount`: int64 counts, or sums of `weights`."""
    out = mnp.bincount(input, weights, minlength)
    return out.astype(mstype.int64) if weights is None else out


def max(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.max`: the maximum when `dim` is None, (values, indices) along
    `dim`, or the elementwise maximum when `dim` is a Tensor (torch's `max(input, other)`)."""
    return _extreme("max", ops.amax, ops.argmax, ops.maximum, input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.min` (see `max`)."""
    return _extreme("min", ops.amin, _argmin, ops.minimum, input, dim, keepdim)


def _argmin(input, dim, keepdim):
    return ops.argmin(input, dim, keepdim)


def _extreme(name, reduce, arg, elementwise, input, dim, keepdim):
    if isinstance(dim, Tensor):
        return elementwise(input, dim)
    if dim is None:
        if keepdim:
            raise TypeError(f"For 'mint.{name}', 'keepdim' needs 'dim', but got dim=None.")
        return reduce(input)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f"For 'mint.{name}', 'dim' must be an int or None, but got "
                        f"{type(dim).__name__}.")
    return reduce(input, dim, keepdim), arg(input, dim, keepdim).astype(mstype.int64)


def amax(input, dim=(), keepdim=False):
    """Mirrors `mindspore.mint.amax` (`dim=()` reduces every dimension)."""
    return ops.amax(input, None if dim == () else dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """Mirrors `mindspore.mint.amin` (`dim=()` reduces every dimension)."""
    return ops.amin(input, None if dim == () else dim, keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.mean`."""
    if dtype is not None:
        input = input.astype(dtype)
    return ops.mean(input, dim, keepdim)


def median(input, dim=None, keepdim=False):
    """Mirrors `mindspore.mint.median`: the lower median; with `dim`, (values, indices)."""
    if dim is None:
        flat = input.reshape(-1)
        return ops.sort(flat)[0][(flat.shape[0] - 1) // 2]
    return kthvalue(input, (input.shape[dim] + 1) // 2, dim, keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    """Mirrors `mindspore.mint.kthvalue`: the k-th smallest along `dim`, (values, indices)."""
    size = input.shape[dim] if input.ndim else 1
    if not 1 <= k <= size:
        raise ValueError(f"For 'mint.kthvalue', 'k' must be in [1, {size}], but got {k}.")
    values, indices = ops.sort(input, dim)
    index = Tensor(np.array([k - 1]), mstype.int64)
    values = ops.index_select(values, dim, index)
    indices = ops.index_select(indices, dim, index).astype(mstype.int64)
    if not keepdim:
        values, indices = ops.squeeze(values, dim), ops.squeeze(indices, dim)
    return values, indices


def cummax(input, dim):
    """Mirrors `mindspore.mint.cummax`: (running maximum, index of the last maximum)."""
    neg_values, indices = ops.cummin(-input, dim)
    return -neg_values, indices.astype(mstype.int64)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """Mirrors `mindspore.mint.std_mean`."""
    return (ops.std(input, dim, correction, keepdim), ops.mean(input, dim, keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """Mirrors `mindspore.mint.var_mean`."""
    return (ops.var(input, dim, correction, keepdim), ops.mean(input, dim, keepdim))


def count_nonzero(input, dim=None):
    """Mirrors `mindspore.mint.count_nonzero` (int64)."""
    return ops.sum(ops.ne(input, 0).astype(mstype.int64), dim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """Mirrors `mindspore.mint.norm`: 'fro' and numbers are vector norms over `dim` (all
    elements when None)."""
    if dtype is not None:
        input = input.astype(dtype)
    if p == "nuc":
        raise ValueError("For 'mint.norm', p='nuc' needs singular values, which cellgrad does not "
                         "compute yet; use p='fro' or a number.")
    return _vector_norm(input, 2 if p == "fro" else p, dim, keepdim)


def _vector_norm(x, p, dim, keepdim):
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise ValueError(f"For 'mint.norm', 'p' must be a number, 'fro' or 'nuc', but got {p!r}.")
    magnitude = ops.abs(x)
    if p == float("inf"):
        return ops.amax(magnitude, dim, keepdim)
    if p == float("-inf"):
        return ops.amin(magnitude, dim, keepdim)
    if p == 0:
        return ops.sum(ops.ne(x, 0).astype(x.dtype), dim, keepdim)
    if p == 2:
        return ops.sqrt(ops.sum(x * x, dim, keepdim))
    return ops.sum(magnitude ** p, dim, keepdim) ** (1.0 / p)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """Mirrors `mindspore.mint.unique`."""
    return input.unique(sorted, return_inverse, return_counts, dim)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Mirrors `mindspore.mint.unique_consecutive`: collapses runs of equal elements (of equal
    slices along `dim`); inverse indices and counts are int64."""
    array = input.asnumpy()
    if dim is None:
        array = array.reshape(-1)
        axis = 0
    else:
        axis = dim % array.ndim
    moved = np.moveaxis(array, axis, 0).reshape(array.shape[axis], -1)
    starts = np.ones(moved.shape[0], bool)
    starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
    keep = np.flatnonzero(starts)
    out = [Tensor(np.take(array, keep, axis=axis))]
    if return_inverse:
        out.append(Tensor(np.cumsum(starts).astype(np.int64) - 1))
    if return_counts:
        out.append(Tensor(np.diff(np.append(keep, moved.shape[0])).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def histc(input, bins=100, min=0, max=0):
    """Mirrors `mindspore.mint.histc`: `bins` equal bins over [min, max] (the data's range when
    both are 0); the result has the input's dtype."""
    array = input.asnumpy()
    low, high = float(min), float(max)
    if low == high == 0:
        low, high = float(array.min()), float(array.max())
    if low > high:
        raise ValueError(f"For 'mint.histc', 'max' must be >= 'min', but got min={min}, max={max}.")
    counts, _ = np.histogram(array, bins, (low, high))
    return Tensor(counts.astype(array.dtype))


# ---- arithmetic compositions ----


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
    """Mirrors `mindspore.mint.real` (cellgrad's tensors are real: the input itself)."""
    _real_only("real", input)
    return input


def imag(input):
    """Mirrors `mindspore.mint.imag`; complex tensors are not supported by cellgrad."""
    _real_only("imag", input)
    raise TypeError(f"For 'mint.imag', 'input' must be complex, but got {input.dtype}.")


def polar(abs, angle):
    """Mirrors `mindspore.mint.polar`, whose result is complex: cellgrad has no complex dtype."""
    raise TypeError(f"For 'mint.polar', the result is a complex tensor and cellgrad tensors are "
                    f"real (got abs of dtype {getattr(abs, 'dtype', type(abs).__name__)}); use "
                    f"abs * mint.cos(angle) and abs * mint.sin(angle) for the real and imaginary "
                    f"parts.")


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
