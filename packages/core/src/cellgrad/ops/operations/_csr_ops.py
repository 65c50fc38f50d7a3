"""Mirrors MindSpore's private `mindspore.ops.operations._csr_ops`: the CSR Primitives the
CSRTensor functions are built from (MindSpore's CPU build cannot run them: it compiles them
with AKG). Each takes a CSR tensor as its parts `(indptr, indices, values, dense_shape)` and is
the `cellgrad.ops` function of the table below."""

from cellgrad.ops.primitive import Primitive, prim_attr_register

# name -> (function of `cellgrad.ops._sparse_functions`, whether the call's first four
# arguments are a CSR tensor's parts, whether the result is the values of a CSRTensor, doc)
_TABLE = {
    "CSRMul": ("csr_mul", True, True, "`(indptr, indices, values, dense_shape, dense)` -> the "
               "values of the CSR tensor times `dense` (broadcast) at its stored positions."),
    "CSRDiv": ("csr_div", True, True, "`(indptr, indices, values, dense_shape, dense)` -> the "
               "values of the CSR tensor divided by `dense` (broadcast)."),
    "CSRMV": ("csr_mv", True, False, "`(indptr, indices, values, dense_shape, dense)` -> the "
              "(M, 1) product of the (M, N) CSR tensor and the (N, 1) `dense`."),
    "CSRMM": ("csr_dense_mm", True, False, "`(indptr, indices, values, dense_shape, dense)` "
              "-> the product of the (M, N) CSR tensor and the (N, K) `dense`."),
    "CSRReduceSum": ("csr_reduce_sum", True, False, "`(indptr, indices, values, dense_shape, "
                     "axis)` -> the dense sum of the CSR tensor over `axis` (kept, size 1)."),
    "CSRGather": ("csr_gather", False, False, "`(indptr, indices, dense, dense_shape)` -> the "
                  "entries of `dense` at the CSR pattern."),
    "CSR2COO": ("csr2coo", False, False, "`(indptr, nnz)` -> the row of each stored value."),
    "COO2CSR": ("coo2csr", False, False, "`(row_indices, height)` -> the row pointers of "
                "sorted rows."),
}


def _primitive(name, function, csr_parts, values_out, doc):
    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, *args):
        from cellgrad.common.sparse_tensor import CSRTensor
        from cellgrad.ops import _sparse_functions

        fn = getattr(_sparse_functions, function)
        if csr_parts:
            if len(args) != 5:
                raise TypeError(f"For '{name}', expected (indptr, indices, values, dense_shape, "
                                f"other), but got {len(args)} arguments.")
            indptr, indices, values, shape, other = args
            out = fn(CSRTensor(indptr, indices, values, tuple(shape)), other)
            return out.values if values_out else out
        return fn(*args)

    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                     "__doc__": f"Mirrors `_csr_ops.{name}()`: {doc}",
                                     "__module__": __name__})


globals().update({name: _primitive(name, *spec) for name, spec in _TABLE.items()})
__all__ = sorted(_TABLE)
