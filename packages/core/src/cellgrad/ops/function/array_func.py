"""Mirrors `mindspore.ops.function.array_func`: its functional ops are `cellgrad.ops`'s
(`cellgrad._paths.WHOLE_OPS`), plus the `*_ext` forms `mint` is built from, which MindSpore's
tests import from here."""

from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.common.tensor import Tensor


def split_ext(tensor, split_size, dim=0):
    """Mirrors `array_func.split_ext`: `mint.split` with `split_size` an int (chunks of that
    size) or a tuple/list of int (the chunks' sizes)."""
    from cellgrad import mint

    if isinstance(split_size, bool) or not isinstance(split_size, (int, tuple, list)):
        raise TypeError(f"Type of Argument `split_size` should be integer, tuple(int) or "
                        f"list(int), but got {type(split_size)}")
    return mint.split(tensor, split_size, dim)


def max_ext(input, dim=None, keepdim=False):  # noqa: A002
    """Mirrors `array_func.max_ext`: the maximum of `input` when `dim` is None, else
    (values, int64 indices) along `dim`."""
    return _extreme("max", input, dim, keepdim)


def min_ext(input, dim=None, keepdim=False):  # noqa: A002
    """Mirrors `array_func.min_ext` (see `max_ext`)."""
    return _extreme("min", input, dim, keepdim)


def _extreme(name, input, dim, keepdim):  # noqa: A002
    from cellgrad import mint

    if dim is None and keepdim is not False:
        raise ValueError(f"For '{name}', the `keepdim` must be False when the `dim` is None, "
                         f"but got {keepdim}")
    if isinstance(dim, Tensor):  # mint's `max(input, other)` form is not `max_ext`'s
        raise TypeError(f"For '{name}_ext', 'dim' must be an int or None, but got Tensor.")
    reduce = getattr(mint, name)
    return reduce(input) if dim is None else reduce(input, dim, keepdim)


def new_ones(input, size, *, dtype=None):  # noqa: A002
    """Mirrors `array_func.new_ones`: `input.new_ones(size, dtype)`."""
    return _tensor("new_ones", input).new_ones(size, dtype)


def new_zeros(input, size, *, dtype=None):  # noqa: A002
    """Mirrors `array_func.new_zeros`: `input.new_zeros(size, dtype)`."""
    return _tensor("new_zeros", input).new_zeros(size, dtype)


def _tensor(name, input):  # noqa: A002
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{name}', 'input' must be a Tensor, but got "
                        f"{type(input).__name__}.")
    return input


def gather_ext(input, dim, index):  # noqa: A002
    """Mirrors `array_func.gather_ext` (`mint.gather`): the elements of `input` at `index`
    along `dim`."""
    from cellgrad import mint

    return mint.gather(input, dim, index)


__getattr__, __dir__ = _plugin_names(__name__)
