"""`cellgrad.ops.composite`, mirroring `mindspore.ops.composite`: type-dispatched functions
(`MultitypeFuncGraph`), maps over (nested) sequences (`HyperMap`, `Map`), `GradOperation`,
`add_flags` and the composite math and random functions."""

import functools

import numpy as np

from cellgrad.autodiff import GradOperation
from cellgrad.ops import _fn_multitype as _types
from cellgrad.ops import creation as _creation
from cellgrad.ops import functional as _functional  # noqa: F401  (before the _fn_ modules it feeds)
from cellgrad.ops._fn_array import count_nonzero, cummin, repeat_elements, sequence_mask
from cellgrad.ops._fn_products import batch_dot, dot, tensor_dot, vecdot
from cellgrad.ops._fn_random import gamma, laplace, poisson
from cellgrad.ops._random import multinomial, normal, uniform
from cellgrad.ops._tm_array import repeat_interleave
from cellgrad.ops.functional import cast, mm
from cellgrad.ops.functional import matmul as _matmul

__all__ = ["add_flags", "Map", "MultitypeFuncGraph", "GradOperation", "HyperMap", "zeros_like",
           "ones_like", "normal", "laplace", "uniform", "gamma", "poisson", "multinomial",
           "cummin", "repeat_elements", "sequence_mask", "matmul", "mm", "count_nonzero",
           "tensor_dot", "vecdot", "dot", "batch_dot", "hyper_add", "repeat_interleave"]


class MultitypeFuncGraph:
    """Mirrors `mindspore.ops.MultitypeFuncGraph`: one name, a function per tuple of argument
    types (`register("Tensor", "Number")`), chosen by the runtime types of the arguments in
    registration order. With a single registration it is called without a type check, as
    MindSpore does in PyNative."""

    def __init__(self, name, read_value=False):
        self._name = name
        self.entries = []
        self.default_func = None

    def __call__(self, *args):
        if callable(self.default_func):
            return self.default_func(*args)
        for arg in args:
            if isinstance(arg, np.ndarray):
                raise TypeError("For 'MultitypeFuncGraph', the input can not be numpy.ndarray")
        if len(self.entries) == 1:
            return self.entries[0][1](*args)
        types = tuple(map(_types.of, args))
        for sigs, fn in self.entries:
            if len(sigs) == len(types) and all(t.is_subclass(s) for s, t in zip(sigs, types)):
                return fn(*args)
        raise ValueError(f"For 'MultitypeFuncGraph', cannot find fn match given args. Got (sigs, "
                         f"fn): {self.entries}, and (dtype, args): {types}.")

    def register(self, *type_names):
        """Register the decorated function for arguments of the named types."""
        types = tuple(map(_types.from_name, type_names))

        def deco(fn):
            self.entries.append((types, fn))
            return fn

        return deco

    def _register_default(self, convert_to_interpret=True):
        def deco(fn):
            self.default_func = fn
            return fn

        return deco


def _need_multitype(cls, ops):
    if ops and not isinstance(ops, MultitypeFuncGraph):
        # MindSpore's C++ constructor rejects it with this class (pybind's cast error)
        raise RuntimeError(f"For '{cls}', 'ops' must be a MultitypeFuncGraph or None, but got "
                           f"{type(ops)}; to map a plain function, pass it as the first "
                           f"argument of the call: {cls}()(fn, *sequences).")


class HyperMap:
    """Mirrors `mindspore.ops.HyperMap`: applies `ops` (or the call's first argument) to the
    leaves of nested tuples/lists, returning tuples; a leaf is anything not a tuple or list."""

    def __init__(self, ops=None, reverse=False):
        _need_multitype("HyperMap", ops)
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, args_list, hypermap = self.ops, args, self
        if self.ops is None:
            func, args_list = args[0], args[1:]
            hypermap = functools.partial(self, func)
        if not isinstance(args_list[0], (tuple, list)):
            return func(*args_list)
        return tuple(map(hypermap, *args_list))


class Map:
    """Mirrors `mindspore.ops.Map`: applies `ops` (or the call's first argument) to each row
    of the given sequences, one level deep, returning a tuple."""

    def __init__(self, ops=None, reverse=False):
        if ops and not isinstance(ops, MultitypeFuncGraph):
            raise TypeError(f"For 'Map', 'ops' must be a MultitypeFuncGraph or None, but got "
                            f"{type(ops)}; pass a plain function as the first argument of the "
                            "call: Map()(fn, *sequences).")
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, args_list = self.ops, args
        if self.ops is None:
            func, args_list = args[0], args[1:]
        return tuple(map(func, *args_list))


def add_flags(fn=None, **flags):
    """Mirrors `mindspore.ops.add_flags`: records `flags` in `fn._func_graph_flags` and
    returns `fn` (or a decorator when `fn` is None). The flags steer MindSpore's graph
    compiler; cellgrad keeps them for code that reads them back."""

    def deco(fn):
        flags_dict = getattr(fn, "_func_graph_flags", None)
        if flags_dict is None:
            fn._func_graph_flags = flags_dict = {}
        flags_dict.update(flags)
        return fn

    return deco if fn is None else deco(fn)


# ---- ones_like / zeros_like: MindSpore's registrations, leaf by leaf ----
_ones_like_leaf = MultitypeFuncGraph("ones_like", True)


@_ones_like_leaf.register("TypeType")
def _ones_like_type_type(x):
    return x


@_ones_like_leaf.register("Number")
def _ones_like_scalar(x):
    if isinstance(x, bool):
        return True
    if isinstance(x, int):
        return 1
    # MindSpore 2.10 casts 1.0 to the scalar's Float32 type, which its ScalarCast rejects
    raise ValueError("For 'ScalarCast', the supported type is in the list: [mindspore.int64, "
                     "mindspore.float64, mindspore.bool], but got Float32")


@_ones_like_leaf.register("Tensor")
def _ones_like_tensor(x):
    return _creation.ones_like(x)


@_ones_like_leaf.register("None")
def _ones_like_none(x):
    return None


ones_like = HyperMap(_ones_like_leaf)
"""Mirrors `mindspore.ops.composite.ones_like`: ones shaped like each Tensor of a (nested)
tuple/list; ints give 1, bools True, None stays None."""

_zeros_like_leaf = MultitypeFuncGraph("zeros_like", True)


@_zeros_like_leaf.register("Number")
def _zeros_like_scalar(x):
    return 0 if isinstance(x, int) else 0.0


@_zeros_like_leaf.register("Bool")
def _zeros_like_bool(x):
    return False


@_zeros_like_leaf.register("String")
def _zeros_like_string(x):
    return 0


@_zeros_like_leaf.register("Tuple")
def _zeros_like_tuple(x):
    return 0


@_zeros_like_leaf.register("Tensor")
def _zeros_like_tensor(x):
    return _creation.zeros_like(x)


@_zeros_like_leaf.register("TypeType")
@_zeros_like_leaf.register("None")
def _zeros_like_same(x):
    return x


def zeros_like(x):
    """Mirrors `mindspore.ops.composite.zeros_like`: the zero of one value, by its type (a
    Tensor of zeros, 0 for a number, a string or a tuple, False for a bool)."""
    return _zeros_like_leaf(x)


_add = MultitypeFuncGraph("add")


@_add.register("Number", "Number")
@_add.register("Tensor", "Tensor")
def _add_values(x, y):
    return x + y


@_add.register("None", "None")
def _add_none(x, y):
    return None


hyper_add = HyperMap(_add)
"""Mirrors `mindspore.ops.composite.hyper_add`: adds two (nested) sequences leaf by leaf."""


def matmul(x1, x2, dtype=None):
    """Mirrors `mindspore.ops.composite.matmul` (numpy's matmul; `dtype` casts the result)."""
    out = _matmul(x1, x2)
    return out if dtype is None else cast(out, dtype)


def __getattr__(name):
    # MindSpore's composite module also holds the clip functions, which live in cellgrad-ops-nn
    if name in ("clip_by_value", "clip_by_global_norm"):
        from cellgrad import ops

        return getattr(ops, name)
    from cellgrad.ops import _composite2  # augassign_*, tail, zip_operation (import cycle)

    if name in _composite2.__all__:
        return getattr(_composite2, name)
    raise AttributeError(f"module 'cellgrad.ops.composite' has no attribute '{name}'")

