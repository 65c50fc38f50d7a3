"""mint's creation and random functions: float32 by default, int64 for integer fills and
draws, as torch."""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor

__all__ = [
    "ones", "zeros", "full", "empty", "empty_like", "arange", "linspace", "normal", "rand",
    "randn", "randint", "rand_like", "randn_like", "randint_like", "randperm", "multinomial",
    "bernoulli",
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
