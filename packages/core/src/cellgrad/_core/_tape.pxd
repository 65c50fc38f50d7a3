# The autograd tape: one Node per recorded op, walked iteratively by `run_backward`.

cdef class Node:
    cdef readonly object op            # the Op whose backward rule this node runs; None for a leaf
    cdef public tuple saved            # values the forward kept for backward; None once freed
    cdef readonly tuple next_nodes     # per input: the Node that produced it, or None (no grad)
    cdef readonly tuple next_slots     # per input: which output of that Node it was
    # per input: shape, to reduce broadcast gradients (None: the gradient has it already)
    cdef readonly tuple in_shapes
    cdef readonly tuple in_dtypes      # per input: numpy dtype to cast gradients back to
    cdef readonly tuple out_meta       # per output: (shape, numpy dtype), for zero fill
    cdef readonly tuple saved_map      # per saved value: input index, -1-j for output j, None
    cdef public tuple needs_input_grad  # set by the walk: which inputs lead to a wanted grad
    cdef public object xp              # set by the walk: numpy, or the Tensor namespace
    # callables `h(node, grads)` run on the output grads before backward (may return new
    # grads); on a leaf target, on the gradient collected there; grads None: walk skipped it
    cdef public list hooks
    # on a leaf: an array the rule feeding it may write the gradient into (`grad_into`), so a
    # gradient bucket receives it without a copy; None: rules allocate as usual
    cdef public object grad_buffer
    cdef object __weakref__
    # walk state, valid only inside one run_backward on this thread's own graph
    cdef long long _walk
    cdef Py_ssize_t _iter
    cdef bint _needed
    cdef unsigned long long _need_mask   # bit i: input i leads to a wanted gradient
    cdef object _grad                    # gradient arriving at a single-output node
    cdef list _grads                     # per output, for multi-output nodes

cdef Node new_node(object op, tuple saved, tuple next_nodes, tuple next_slots,
                   tuple in_shapes, tuple in_dtypes, tuple out_meta, tuple saved_map)

cdef bint recording() noexcept nogil
cdef int record_depth() noexcept nogil
