"""`mindspore.numpy.copy` (`copy_`) and `round` (`around`): names MindSpore's module has
outside its `__all__`, which real code calls."""

from cellgrad.numpy._math_common import origin_tensor
from cellgrad.ops import functional as F

__all__ = ["copy_", "copy", "around", "round"]


def copy_(a):
    """Mirrors `mindspore.numpy.copy`: a new Tensor with `a`'s values (`asarray(a).copy()`);
    the gradient passes through."""
    from cellgrad.numpy import asarray

    return asarray(a).clone()


def around(a, decimals=0):
    """Mirrors `mindspore.numpy.round`: rounded half to even to `decimals` places (>= 0), as
    MindSpore computes it (`round(a * 10**decimals) / 10**decimals` in `a`'s dtype)."""
    op = "mindspore.numpy.around"
    a = origin_tensor(a, op)
    if not isinstance(decimals, int) or isinstance(decimals, bool):
        raise TypeError("decimals must be an integer")
    if decimals < 0:
        raise ValueError("decimals < 0 is not supported now.")
    if decimals == 0:
        return F.round(a)
    scaled = F.round(a * 10**decimals)
    if a.dtype.is_floating_point:
        return F.div(scaled, 10**decimals)
    return F.floor_div(scaled, 10**decimals)  # MindSpore's tensor_div keeps an integer dtype


copy = copy_
round = around  # noqa: A001 - MindSpore's name
