# Arithmetic kernels for small float arrays; each returns None where numpy must do the work.

cdef enum:
    K_ADD = 1
    K_SUB = 2
    K_MUL = 3
    K_NEG = 4
    G_TANH = 1
    G_SIGMOID = 2

cdef object small_binary(int code, object a, object b)
cdef object small_neg(object a)
cdef object small_grad(int code, object g, object out)
