# Checks every kernel entry point runs before its nogil loop: a bad call is a Python error
# naming the kernel, never an out-of-bounds access.


cdef inline str describe(object a):
    return f"shape={getattr(a, 'shape', None)}, dtype={getattr(a, 'dtype', None)}"


cdef inline str real_kind(str kernel, object first, tuple others):
    """'f' (float32) or 'd' (float64): the dtype code every array of the call shares."""
    code = getattr(getattr(first, "dtype", None), "char", None)
    if code not in ("f", "d"):
        raise TypeError(f"{kernel}: arrays must be float32 or float64, got {describe(first)}")
    for a in others:
        if getattr(getattr(a, "dtype", None), "char", None) != code:
            raise TypeError(f"{kernel}: all arrays must share the dtype of the first "
                            f"({describe(first)}), got {describe(a)}")
    return code


cdef inline void shape_is(str kernel, str name, object a, tuple expected) except *:
    if tuple(a.shape) != expected:
        raise ValueError(f"{kernel}: '{name}' must have shape {expected}, got {describe(a)}")


cdef inline void ints(str kernel, str name, tuple values, Py_ssize_t n,
                      Py_ssize_t least=-(1 << 40)) except *:
    """`values` holds `n` ints, each at least `least` (a tuple: no generators in a .pxd)."""
    ok = len(values) == n
    for v in values:
        ok = ok and isinstance(v, int) and v >= least
    if not ok:
        what = "positive ints" if least == 1 else "ints"
        raise ValueError(f"{kernel}: '{name}' must be {n} {what}, got {values!r}")


cdef inline void positive(str kernel, str name, tuple values, Py_ssize_t n) except *:
    ints(kernel, name, values, n, 1)
