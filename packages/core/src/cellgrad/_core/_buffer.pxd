# The tensor buffer: an ndarray, its cellgrad dtype and its place on the tape.
from cellgrad._core._tape cimport Node

cdef class DType:
    cdef readonly str name       # MindSpore's name, e.g. "Float32"
    cdef readonly str py_name      # attribute name, e.g. "float32"
    cdef readonly int code       # index into the promotion table
    cdef readonly int kind       # 0 bool, 1 integer, 2 floating, 3 complex
    cdef readonly int bits
    cdef object _np              # storage dtype; None for bfloat16 until ml_dtypes is loaded

cdef class TensorBuffer:
    cdef public object _data     # numpy.ndarray holding the values
    cdef DType _dt               # cellgrad dtype
    cdef public Node _node       # tape node that produced this tensor; None for a constant
    cdef public int _slot        # output index within _node
    cdef object __weakref__

cdef class Op:
    cdef readonly str name
    cdef readonly object forward   # forward(*arrays, **attrs) -> (out, saved)
    cdef readonly object backward  # backward(ctx, *grads) -> one grad (or None) per input
    cdef readonly int promote      # PROMOTE_* rule for the inputs' dtypes
    cdef readonly bint first_order_only
    cdef readonly object ufunc     # set when forward is a plain numpy ufunc: called directly
    cdef readonly int save         # with ufunc: SAVE_NONE, SAVE_INPUTS or SAVE_OUTPUT
    cdef readonly bint passthrough  # backward hands the gradient unchanged to every input
    cdef readonly int rule         # RULE_*: the walk runs this core rule in C (0: call backward)
    cdef readonly int kernel       # _small.K_*: the ufunc's small-array loop (0: none)
    cdef readonly bint raw_grads   # multi-output backward gets None where no gradient arrived
