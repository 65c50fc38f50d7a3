"""Mirrors MindSpore's functional sparse ops (`mindspore.ops.coo_*`, `csr_*`, conversions).

Values go through differentiable ops; MindSpore's CSR kernels that need AKG/LLVM on its CPU
(`csr_mv`, `csr_mul`, `csr_div`, `csr_reduce_sum`, `CSRTensor.mm`) run here on numpy with the
semantics MindSpore documents.
"""

import numpy as np

from cellgrad import ops
from cellgrad._core._buffer import TensorBuffer as Tensor  # the base of every Tensor
from cellgrad.dtype import promote_types
from cellgrad.ops import _index
from cellgrad.ops._registry import apply
from cellgrad.ops._sparse_ops import (
    csr_rows,
    gather_values,
    index_add,
    merge_coo,
    row_pointers,
    sparse_dense_matmul,
)

__all__ = ["coo_add", "coo_concat", "csr_add", "csr_div", "csr_mm", "csr_mul", "csr_mv",
           "csr_reduce_sum", "csr_softmax", "csr_to_coo", "csr_to_dense", "dense_to_sparse_coo",
           "dense_to_sparse_csr", "coo_tensor_get_indices", "coo_tensor_get_values",
           "coo_tensor_get_dense_shape", "csr_tensor_get_indptr", "csr_tensor_get_indices",
           "csr_tensor_get_values", "csr_tensor_get_dense_shape"]


def _S():
    # cellgrad.common imports cellgrad.ops: the sparse classes are looked up at call time
    from cellgrad.common import sparse_tensor

    return sparse_tensor


def require_int64(prim, arg, tensor):
    if str(tensor.dtype) != "Int64":
        raise TypeError(f"For primitive[{prim}], the input argument[{arg}] must be a type of "
                        f"{{Tensor[Int64]}}, but got Tensor[{tensor.dtype}].")


def gather_at(dense, coords):
    """`dense[coords[:, 0], coords[:, 1]]`, differentiable in `dense`."""
    return apply(_index.GETITEM, (dense,), {"index": (coords[:, 0], coords[:, 1])})


def _same_dtype(a, b):
    if a.dtype == b.dtype:
        return a, b
    dtype = promote_types(a.dtype, b.dtype)
    return a.astype(dtype), b.astype(dtype)


def _check_csr(fn, x):
    if not isinstance(x, _S().CSRTensor):
        raise TypeError(f"For functional operator {fn}, input argument must be a CSRTensor.")


def coo_add(x1, x2, thresh):
    """Mirrors `mindspore.ops.coo_add` (SparseAdd): indices taken as sorted and merged; a sum
    at equal indices stays when its magnitude reaches `thresh`."""
    for arg, t in (("x1_indices", x1.indices), ("x2_indices", x2.indices)):
        require_int64("SparseAdd", arg, t)
    limit = float(thresh.asnumpy()) if isinstance(thresh, Tensor) else float(thresh)
    va, vb = x1.values.asnumpy(), x2.values.asnumpy()
    ia, ib = x1.indices.asnumpy(), x2.indices.asnumpy()
    indices, pos_a, pos_b, keep = merge_coo(ia, ib, va, vb, lambda s: abs(s) >= limit)
    n = len(indices)
    a, b = _same_dtype(x1.values, x2.values)
    values = index_add((n,), pos_a, a) + index_add((n,), pos_b, b)
    if not keep.all():
        values, indices = gather_values(values, np.flatnonzero(keep)), indices[keep]
    return _S().COOTensor(_S().Tensor(indices), values, x1.shape)


def coo_concat(sp_input, concat_dim=0):
    """Mirrors `mindspore.ops.coo_concat`: COOTensors joined along `concat_dim`; entries in
    (row, col) order."""
    if not isinstance(sp_input, (tuple, list)) or len(sp_input) < 2:
        raise ValueError("For 'coo_concat', 'sp_input' must be a tuple or list of at least 2 "
                         f"COOTensors, but got {sp_input!r}.")
    dim = concat_dim % 2
    coords, offset = [], 0
    for x in sp_input:
        c = x.indices.asnumpy().astype(np.int64).copy()
        c[:, dim] += offset
        coords.append(c)
        offset += x.shape[dim]
    coords = np.concatenate(coords)
    values = ops.concat([x.values for x in sp_input])
    order = np.lexsort((coords[:, 1], coords[:, 0]))
    shape = tuple(offset if d == dim else n for d, n in enumerate(sp_input[0].shape))
    dtype = sp_input[0].indices.asnumpy().dtype
    indices = _S().Tensor(coords[order].astype(dtype))
    return _S().COOTensor(indices, gather_values(values, order), shape)


def csr_add(a, b, alpha, beta):
    """Mirrors `mindspore.ops.csr_add`: `alpha * a + beta * b` on the union of their
    patterns (columns sorted within each row, as CSR is kept)."""
    ra, rb = csr_rows(a.indptr.asnumpy(), a.values.shape[0]), csr_rows(b.indptr.asnumpy(),
                                                                        b.values.shape[0])
    ca, cb = a.indices.asnumpy().astype(np.int64), b.indices.asnumpy().astype(np.int64)
    keys = np.concatenate([np.stack([ra, ca], 1), np.stack([rb, cb], 1)]).reshape(-1, 2)
    uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    n = len(uniq)
    va, vb = _same_dtype(a.values, b.values)
    values = (index_add((n,), inverse[:len(ra)], va * alpha)
              + index_add((n,), inverse[len(ra):], vb * beta))
    idx_dtype = a.indices.asnumpy().dtype
    indptr = row_pointers(uniq[:, 0], a.shape[0], a.indptr.asnumpy().dtype)
    S = _S()
    return S.CSRTensor(S.Tensor(indptr), S.Tensor(uniq[:, 1].astype(idx_dtype)),
                       values.astype(a.values.dtype), a.shape)


def _csr_coords(x):
    return np.stack([csr_rows(x.indptr.asnumpy(), x.values.shape[0]),
                     x.indices.asnumpy().astype(np.int64)], 1)


def _csr_elementwise(name, x, y, fn):
    if isinstance(y, (int, float, bool)):
        y = _S().Tensor(y)
    if y.ndim == 0:
        # MindSpore returns the values alone (a dense Tensor) for a scalar
        return fn(x.values, y).reshape(x.values.shape)
    if y.ndim > x.ndim:
        raise ValueError(f"For '{name}', the dense tensor cannot broadcast to the sparse tensor:"
                         f" {y.shape} to {x.shape}.")
    values, y = _same_dtype(x.values, y)
    dense = ops.broadcast_to(y, x.shape)
    return _S().CSRTensor(x.indptr, x.indices, fn(values, gather_at(dense, _csr_coords(x))),
                     x.shape)


def csr_mul(x, y):
    """Mirrors `mindspore.ops.csr_mul`: `x * y` at the stored positions (y broadcast)."""
    return _csr_elementwise("csr_mul", x, y, lambda a, b: a * b)


def csr_div(x, y):
    """Mirrors `mindspore.ops.csr_div`: `x / y` at the stored positions (y broadcast)."""
    return _csr_elementwise("csr_div", x, y, lambda a, b: a / b)


def csr_dense_mm(x, dense):
    """A 2-D CSRTensor times a dense matrix (`CSRTensor.mm`), differentiable in both."""
    if dense.ndim != 2 or dense.shape[0] != x.shape[1]:
        raise ValueError(f"For 'CSRTensor.mm', the dense operand must have shape "
                         f"({x.shape[1]}, K), but got {dense.shape}.")
    values, dense = _same_dtype(x.values, dense)
    coords = _csr_coords(x)
    return sparse_dense_matmul(values, dense, coords[:, 0], coords[:, 1], x.shape[0])


def csr_mv(csr_tensor, dense):
    """Mirrors `mindspore.ops.csr_mv`: a `(M, N)` CSRTensor times a `(N, 1)` Tensor."""
    if not isinstance(dense, Tensor):
        raise TypeError(f"For 'csr_mv', 'dense' must be a Tensor, but got "
                        f"{type(dense).__name__}.")
    if dense.ndim != 2 or dense.shape != (csr_tensor.shape[1], 1):
        raise ValueError(f"For 'csr_mv', 'dense' must have shape ({csr_tensor.shape[1]}, 1), "
                         f"but got {dense.shape}.")
    return csr_dense_mm(csr_tensor, dense)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """Mirrors `mindspore.ops.csr_mm`, whose CSRTensor x CSRTensor product MindSpore runs only
    on GPU: here an error saying so."""
    if not isinstance(a, _S().CSRTensor) or not isinstance(b, _S().CSRTensor):
        raise TypeError("For functional operator csr_mm, inputs a and b must be type of "
                        "CSRTensor currently.")
    raise RuntimeError("ops.csr_mm (SparseMatrixSparseMatMul) runs only on GPU in MindSpore "
                       "2.10, not on the CPU; use a.mm(b.to_dense()) for the dense product.")


def csr_reduce_sum(csr_tensor, axis):
    """Mirrors `mindspore.ops.csr_reduce_sum`: a dense sum over `axis` (kept with size 1)."""
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"For 'csr_reduce_sum', 'axis' must be in [-2, 2), but got {axis}.")
    coords = _csr_coords(csr_tensor)
    m, n = csr_tensor.shape[:2]
    if axis % 2 == 1:
        return index_add((m,), coords[:, 0], csr_tensor.values).reshape(m, 1)
    return index_add((n,), coords[:, 1], csr_tensor.values).reshape(1, n)


def csr_softmax(logits, dtype):
    """Mirrors `mindspore.ops.csr_softmax`: a softmax over each row's stored values."""
    values = logits.values.astype(dtype)
    rows = _csr_coords(logits)[:, 0]
    m = logits.shape[0]
    row_max = np.full(m, -np.inf)
    np.maximum.at(row_max, rows, values.asnumpy().astype(np.float64))
    shift = _S().Tensor(row_max[rows].astype(values.asnumpy().dtype)) if rows.size else 0
    e = ops.exp(values - shift)
    total = index_add((m,), rows, e)
    return _S().CSRTensor(logits.indptr, logits.indices, e / gather_values(total, rows),
                     logits.shape)


def csr_to_coo(tensor):
    """Mirrors `mindspore.ops.csr_to_coo`: int32 (row, col) indices."""
    _check_csr("csr_to_coo", tensor)
    if len(tensor.shape) > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    indices = _S().Tensor(_csr_coords(tensor).astype(np.int32))
    return _S().COOTensor(indices, tensor.values, tensor.shape)


def csr_to_dense(csr_tensor):
    """Mirrors `mindspore.ops.csr_to_dense` (2-D)."""
    _check_csr("csr_to_dense", csr_tensor)
    if len(csr_tensor.shape) > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    coords = _csr_coords(csr_tensor)
    return index_add(csr_tensor.shape, (coords[:, 0], coords[:, 1]), csr_tensor.values)


def _check_dense(fn, tensor, kind):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For functional operator {fn}, input argument must be a Tensor.")
    if tensor.ndim > 2:
        raise ValueError(f"Currently only support 2-D Tensor when converting to {kind}.")
    return np.argwhere(tensor.asnumpy() != 0)


def dense_to_sparse_coo(tensor):
    """Mirrors `mindspore.ops.dense_to_sparse_coo`: the nonzeros, int32 indices."""
    coords = _check_dense("dense_to_sparse_coo", tensor, "COOTensor")
    indices = _S().Tensor(coords.astype(np.int32))
    return _S().COOTensor(indices, gather_at(tensor, coords), tensor.shape)


def dense_to_sparse_csr(tensor):
    """Mirrors `mindspore.ops.dense_to_sparse_csr`: the nonzeros, int32 indptr and indices."""
    coords = _check_dense("dense_to_sparse_csr", tensor, "CSRTensor")
    indptr = row_pointers(coords[:, 0], tensor.shape[0], np.int32)
    return _S().CSRTensor(_S().Tensor(indptr), _S().Tensor(coords[:, 1].astype(np.int32)),
                     gather_at(tensor, coords), tensor.shape)


def _getter(attr, doc):
    def get(*args):
        (x,) = args
        return getattr(x, attr)

    get.__doc__ = doc
    return get


coo_tensor_get_indices = _getter("indices", "Mirrors `mindspore.ops.coo_tensor_get_indices`.")
coo_tensor_get_values = _getter("values", "Mirrors `mindspore.ops.coo_tensor_get_values`.")
coo_tensor_get_dense_shape = _getter("shape", "Mirrors `mindspore.ops.coo_tensor_get_dense_shape`.")
csr_tensor_get_indptr = _getter("indptr", "Mirrors `mindspore.ops.csr_tensor_get_indptr`.")
csr_tensor_get_indices = _getter("indices", "Mirrors `mindspore.ops.csr_tensor_get_indices`.")
csr_tensor_get_values = _getter("values", "Mirrors `mindspore.ops.csr_tensor_get_values`.")
csr_tensor_get_dense_shape = _getter("shape", "Mirrors `mindspore.ops.csr_tensor_get_dense_shape`.")


# Elementwise functions of the stored values. Those the core lacks as ops (or that only the
# cellgrad-ops-nn plugin provides) are composed from core ops, so they stay differentiable.
_COMPOSED = {
    "tan": lambda x: ops.sin(x) / ops.cos(x),
    "acosh": lambda x: ops.log(x + ops.sqrt(x * x - 1)),
    "asinh": lambda x: ops.log(x + ops.sqrt(x * x + 1)),
    "atanh": lambda x: 0.5 * ops.log((1 + x) / (1 - x)),
    "inv": lambda x: ops.reciprocal(x),
    "relu": lambda x: ops.where(x > 0, x, ops.zeros_like(x)),
    "relu6": lambda x: ops.where(x > 0, ops.where(x < 6, x, ops.full_like(x, 6)),
                                 ops.zeros_like(x)),
    "softsign": lambda x: x / (1 + ops.abs(x)),
}


def _dense_fn(name):
    try:
        return getattr(ops, name)
    except AttributeError:  # not in the core, or its plugin is not installed
        return _COMPOSED[name]


_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh",
          "exp", "expm1", "floor", "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg",
          "relu", "relu6", "round", "sigmoid", "sin", "sinh", "softsign", "sqrt", "square",
          "tan", "tanh")


def _unary(kind, name):
    def fn(x):
        dense_fn = _dense_fn(name)
        if kind == "coo":
            return _S().COOTensor(x.indices, dense_fn(x.values), x.shape)
        return _S().CSRTensor(x.indptr, x.indices, dense_fn(x.values), x.shape)

    fn.__name__ = fn.__qualname__ = f"{kind}_{name}"
    fn.__doc__ = f"Mirrors `mindspore.ops.{kind}_{name}`: `{name}` of the stored values."
    return fn


for _kind in ("coo", "csr"):
    for _name in _UNARY:
        globals()[f"{_kind}_{_name}"] = _unary(_kind, _name)
        __all__.append(f"{_kind}_{_name}")


# MindSpore's low-level helpers: primitives whose signature is (*args). coo2csr, csr2coo and
# csr_gather run on MindSpore's CPU only with AKG/LLVM; the make_* constructors only under
# jit (cellgrad's jit runs eagerly, so they construct here).
def coo2csr(*args):
    """Mirrors `mindspore.ops.coo2csr(row_indices, height)`: row pointers of sorted rows."""
    row_indices, height = args
    rows = row_indices.asnumpy().astype(np.int64)
    return _S().Tensor(row_pointers(rows, int(height), row_indices.asnumpy().dtype))


def csr2coo(*args):
    """Mirrors `mindspore.ops.csr2coo(indptr, nnz)`: the row of each stored value."""
    indptr, nnz = args
    return _S().Tensor(csr_rows(indptr.asnumpy(), int(nnz)).astype(indptr.asnumpy().dtype))


def csr_gather(*args):
    """Mirrors `mindspore.ops.csr_gather(indptr, indices, dense, dense_shape)`: the entries of
    `dense` at a CSR pattern (differentiable in `dense`)."""
    indptr, indices, dense, _ = args
    nnz = indices.shape[0]
    coords = np.stack([csr_rows(indptr.asnumpy(), nnz), indices.asnumpy().astype(np.int64)], 1)
    return gather_at(dense, coords)


def make_coo_tensor(*args):
    """Mirrors `mindspore.ops.make_coo_tensor(indices, values, dense_shape)`."""
    return _S().COOTensor(*args)


def make_csr_tensor(*args):
    """Mirrors `mindspore.ops.make_csr_tensor(indptr, indices, values, dense_shape)`."""
    return _S().CSRTensor(*args)


def make_sparse_tensor(indices, values, dense_shape):
    """Mirrors `mindspore.ops.make_sparse_tensor` (deprecated there: prints a warning)."""
    print("WARNING: 'SparseTensor' is deprecated from version 1.7 and will be removed after "
          "version 2.9.0. Please use 'COOTensor' instead.")
    return make_coo_tensor(indices, values, dense_shape)


__all__ += ["coo2csr", "csr2coo", "csr_gather", "make_coo_tensor", "make_csr_tensor",
            "make_sparse_tensor"]
