"""Tensor methods MindSpore 2.10 overloads: each accepts every form MindSpore's CPU build
runs, with its argument names (the pyboost `dim=`/`other=` forms beside the older
`axis=`/`x=`/`y=` ones, `alpha=` for add/sub) and the in-place dunders.

The forms were read off MindSpore's own parser (a call with a wrong keyword lists "The valid
calling should be: ..."); forms whose kernel MindSpore's CPU build lacks (`nansum(dim=)`,
`narrow(dim=)`, `count_nonzero(dim=)`) are left out, as calling them fails there too.
"""

import numpy as np

from cellgrad._core._buffer import TensorBuffer
from cellgrad.ops import functional as F


def _one(method, first, second, names):
    """The value of an argument MindSpore's overloads spell two ways (`other`/`y`)."""
    if second is not None:
        if first is not None:
            raise TypeError(f"Tensor.{method}() got both '{names[0]}' and '{names[1]}'.")
        return second
    if first is None:
        raise TypeError(f"Tensor.{method}() missing 1 required argument: '{names[0]}'.")
    return first


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _scaled(method, self, other, alpha):
    """`alpha * other` for add/sub (MindSpore's AddExt/SubExt rules on a floating alpha)."""
    if alpha is True or _is_int(alpha) and alpha == 1:
        return other
    if isinstance(alpha, float) and not self.dtype.is_floating_point:
        other_dtype = other.dtype if isinstance(other, TensorBuffer) else "Int64"
        prim = "AddExt" if method == "add" else "SubExt"
        raise TypeError(f"For '{prim}', floating alpha need floating input and other, but got "
                        f"{self.dtype} and {other_dtype}")
    return F.mul(other, alpha)


# ---- arithmetic ----
def add(self, other, *, alpha=1):
    """Mirrors `Tensor.add(other, *, alpha=1)`: `self + alpha * other`."""
    return F.add(self, _scaled("add", self, other, alpha))


def sub(self, other=None, *, alpha=1, y=None):
    """Mirrors `Tensor.sub(other, *, alpha=1)` and `Tensor.sub(y)`: `self - alpha * other`."""
    other = _one("sub", other, y, ("other", "y"))
    return F.sub(self, _scaled("sub", self, other, alpha))


def remainder(self, other=None, *, divisor=None):
    """Mirrors `Tensor.remainder(other)` and `Tensor.remainder(divisor=)`."""
    return F.remainder(self, _one("remainder", other, divisor, ("other", "divisor")))


# In PyNative MindSpore's in-place operators give a new tensor (`a -= b` rebinds `a`; the
# tensor `a` named before is unchanged), with the argument forms of `add_`, `sub_`, ...; the
# plain forms are the binary operators, exactly what Python fell back to without them.
def __iadd__(self, other, *, alpha=1):  # noqa: N807
    return self + other if alpha is True or _is_int(alpha) and alpha == 1 else \
        add(self, other, alpha=alpha)


def __isub__(self, other=None, *, alpha=1, y=None):  # noqa: N807
    if y is None and (alpha is True or _is_int(alpha) and alpha == 1):
        return self - other
    return sub(self, other, alpha=alpha, y=y)


def __imul__(self, other):  # noqa: N807
    return self * other


def __itruediv__(self, other, *, rounding_mode=None):  # noqa: N807
    if rounding_mode is None:
        return self / other
    return F.div(self, other, rounding_mode=rounding_mode)


def __ifloordiv__(self, other):  # noqa: N807
    return self // other


def __imod__(self, other):  # noqa: N807
    return self % other


# ---- selection ----
def gather(self, *args, **kwargs):
    """Mirrors `Tensor.gather`: `gather(dim, index)` picks along `dim` (`gather_elements`);
    `gather(input_indices, axis, batch_dims=0)` is `ops.gather`."""
    if "dim" in kwargs or "index" in kwargs or (
            len(args) == 2 and isinstance(args[1], TensorBuffer) and not kwargs):
        return _gather_dim(self, *args, **kwargs)
    return _gather_axis(self, *args, **kwargs)


def _gather_dim(self, dim, index):
    if isinstance(dim, TensorBuffer):
        dim = int(dim._data)
    return F.gather_elements(self, dim, index)


def _gather_axis(self, input_indices, axis, batch_dims=0):
    return F.gather(self, input_indices, axis, batch_dims)


def where(self, condition, y=None, *, other=None):
    """Mirrors `Tensor.where(condition, other)` and `Tensor.where(condition, y)`: this tensor
    where `condition`, else the other value."""
    return F.where(condition, self, _one("where", y, other, ("y", "other")))


def aminmax(self, *, axis=0, keepdims=False):
    """Mirrors `Tensor.aminmax`: `(min, max)` along `axis`; `axis=None` over all elements
    (with `keepdims`, each of shape (1,) * ndim)."""
    from cellgrad import ops as O

    if axis is not None:
        return O.aminmax(self, axis=axis, keepdims=keepdims)
    lo, hi = O.aminmax(self.reshape(-1), axis=0)
    if keepdims:
        return lo.reshape((1,) * self.ndim), hi.reshape((1,) * self.ndim)
    return lo, hi


# ---- spellings: MindSpore's older name of one argument beside the pyboost one ----
def matmul(self, other=None, *, tensor2=None):
    """Mirrors `Tensor.matmul(other)` and `Tensor.matmul(tensor2=)`."""
    return F.matmul(self, _one("matmul", other, tensor2, ("other", "tensor2")))


def logical_and(self, other=None, *, y=None):
    """Mirrors `Tensor.logical_and(other)` and `Tensor.logical_and(y=)`."""
    return F.logical_and(self, _one("logical_and", other, y, ("other", "y")))


def logical_or(self, other=None, *, y=None):
    """Mirrors `Tensor.logical_or(other)` and `Tensor.logical_or(y=)`."""
    return F.logical_or(self, _one("logical_or", other, y, ("other", "y")))


def unsqueeze(self, dim=None, *, axis=None):
    """Mirrors `Tensor.unsqueeze(dim)` and `Tensor.unsqueeze(axis=)`."""
    return F.unsqueeze(self, _one("unsqueeze", dim, axis, ("dim", "axis")))


def tile(self, dims=None, *, reps=None):
    """Mirrors `Tensor.tile(dims)` and `Tensor.tile(reps=)`."""
    return F.tile(self, _one("tile", dims, reps, ("dims", "reps")))


def isclose(self, other=None, rtol=1e-05, atol=1e-08, equal_nan=False, *, x2=None):
    """Mirrors `Tensor.isclose(other, rtol, atol, equal_nan)` and `Tensor.isclose(x2=...)`."""
    from cellgrad import ops as O

    return O.isclose(self, _one("isclose", other, x2, ("other", "x2")), rtol, atol, equal_nan)


def _reduce_moments(name, reduce):
    def method(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None,
               keepdim=None):
        from cellgrad.common._tensor_methods import _spelling

        axis = _spelling(name, axis, dim, ("axis", "dim"))
        ddof = ddof if correction is None else correction
        keep = keepdims if keepdim is None else keepdim
        return reduce(self, axis, ddof, keep)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"Mirrors `Tensor.{name}(axis=None, ddof=0, keepdims=False)` and "
                      f"`Tensor.{name}(dim=None, *, correction=0, keepdim=False)`.")
    return method


def median(self, axis=-1, keepdims=False, *, dim=None, keepdim=None):
    """Mirrors `Tensor.median(axis=-1, keepdims=False)` and `Tensor.median(dim, keepdim)`:
    `(values, indices)`."""
    from cellgrad import ops as O

    return O.median(self, axis if dim is None else dim, keepdims if keepdim is None else keepdim)


def broadcast_to(self, *shape, **kwargs):
    """Mirrors `Tensor.broadcast_to(shape)`, `Tensor.broadcast_to(*shape)` and
    `Tensor.broadcast_to(shape=)`."""
    if set(kwargs) - {"shape"} or shape and kwargs:
        raise TypeError(f"Tensor.broadcast_to() got an unexpected argument: {sorted(kwargs)}.")
    if "shape" in kwargs:
        shape = (kwargs["shape"],)
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return F.broadcast_to(self, shape)


def diag(self, diagonal=0):
    """Mirrors `Tensor.diag(diagonal=0)`: `ops.diag` (MindSpore's method takes only the main
    diagonal)."""
    from cellgrad import ops as O

    if diagonal != 0:
        raise ValueError(f"For 'Tensor.diag', the argument 'diagonal' should be '0', but got "
                         f"{diagonal}.")
    return O.diag(self)


_DEVICES = ("cpu", "CPU")
_NOT_HERE = ("Ascend", "npu", "meta")


def check_device(method, device):
    """MindSpore's device names: 'cpu'/'CPU' are this machine; 'Ascend'/'npu'/'meta' are
    devices cellgrad does not have."""
    if device is None or device in _DEVICES:
        return
    if device in _NOT_HERE:
        raise RuntimeError(f"For 'Tensor.{method}', device {device!r} is not available: "
                           "cellgrad computes on the CPU; use 'cpu'.")
    raise ValueError(f"Failed to convert the value \"{device}\" of input 'device' of "
                     f"'{method}' to enum.")


def to(self, *args, **kwargs):
    """Mirrors `Tensor.to`: `to(device=None, dtype=None, non_blocking=False, copy=False)`,
    `to(dtype=None, non_blocking=False, copy=False)` and `to(other, non_blocking=False,
    copy=False)` (`other`'s dtype); always a new Tensor."""
    first = args[0] if args else None
    if isinstance(first, str) or "device" in kwargs:
        device, dtype = _to_device(*args, **kwargs)
        check_device("to", device)
    elif isinstance(first, TensorBuffer) or "other" in kwargs:
        dtype = _to_other(*args, **kwargs).dtype
    else:
        dtype = _to_dtype(*args, **kwargs)
    if dtype is not None and not hasattr(dtype, "np_dtype") and not isinstance(dtype, str):
        raise TypeError(f"Failed calling to with \"to({type(dtype).__name__})\".")
    out = self if dtype is None else F.cast(self, dtype)
    return self.clone() if out is self else out


def _to_device(device=None, dtype=None, non_blocking=False, copy=False):
    return device, dtype


def _to_dtype(dtype=None, non_blocking=False, copy=False):
    return dtype


def _to_other(other, non_blocking=False, copy=False):
    return other


def swapaxes(self, axis0, axis1):
    """Mirrors `Tensor.swapaxes(axis0, axis1)`."""
    return F.swapaxes(self, *_two_axes("swapaxes", self, axis0, axis1))


def swapdims(self, dim0, dim1):
    """Mirrors `Tensor.swapdims(dim0, dim1)`."""
    return F.swapaxes(self, *_two_axes("swapdims", self, dim0, dim1))


def _two_axes(name, x, *axes):
    out = []
    for a in axes:
        if not _is_int(a):
            raise TypeError(f"For ops.{name}, the axis argument must be integer, but got "
                            f"{type(a)}.")
        if not -x.ndim <= a < max(x.ndim, 1):
            raise ValueError(f"The 'axis' must be in the range of [{-x.ndim}, {x.ndim}), but "
                             f"got {a}.")
        out.append(int(a))
    return out


METHODS = {
    "add": add, "sub": sub, "remainder": remainder, "__iadd__": __iadd__,
    "__isub__": __isub__, "__imul__": __imul__, "__itruediv__": __itruediv__,
    "__ifloordiv__": __ifloordiv__, "__imod__": __imod__, "gather": gather, "where": where,
    "aminmax": aminmax, "matmul": matmul, "logical_and": logical_and,
    "logical_or": logical_or, "unsqueeze": unsqueeze, "tile": tile, "isclose": isclose,
    "var": _reduce_moments("var", F.var),
    "std": _reduce_moments("std", F.std), "median": median, "swapaxes": swapaxes,
    "swapdims": swapdims, "broadcast_to": broadcast_to, "diag": diag, "to": to,
}
