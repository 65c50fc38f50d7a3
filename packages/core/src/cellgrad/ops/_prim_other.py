"""Print, Depend, Partial and RandomChoiceWithMask."""

import functools
import numbers

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import bool_, int32
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["Depend", "Partial", "Print", "RandomChoiceWithMask"]


class Print(Primitive):
    """Mirrors `mindspore.ops.Print()(*args)`: prints each argument on its own line (Tensors
    and Parameters as their Tensor repr; MindSpore's graph format inside `ms.jit` functions
    and GRAPH_MODE Cells, see `cellgrad.ops._print`) and returns None."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_io", True)

    def __call__(self, *args):
        from cellgrad.ops._print import print_args

        print_args(args)


class Depend(Primitive):
    """Mirrors `mindspore.ops.Depend()(value, expr)`: returns `value` (eager execution already
    runs `expr` first)."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, value, expr):
        return value


class Partial(Primitive):
    """Mirrors `mindspore.ops.Partial()(func, *args)`: `func` with its first arguments bound."""

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_propagate", 1)

    def __call__(self, *args):
        if not args or not callable(args[0]):
            raise TypeError(f"For 'Partial', the first input must be a callable, but got "
                            f"{type(args[0]).__name__ if args else 'nothing'}.")
        return functools.partial(args[0], *args[1:])


class RandomChoiceWithMask(Primitive):
    """Mirrors `mindspore.ops.RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)`:
    (Int32 indices of `count` randomly chosen True elements, Bool mask of which rows are real);
    rows past the number of True elements are zeros with mask False. Values come from
    cellgrad's generator, not MindSpore's."""

    @prim_attr_register
    def __init__(self, count=256, seed=0, seed2=0):
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count <= 0:
            raise ValueError(f"For 'RandomChoiceWithMask', the 'count' must be int and must > 0,"
                             f" but got '{count}' with type '{type(count).__name__}'.")
        for name, v in (("seed", seed), ("seed2", seed2)):
            if C.integer("RandomChoiceWithMask", name, v) < 0:
                raise ValueError(f"For 'RandomChoiceWithMask', '{name}' must be a non-negative "
                                 f"int, but got {v}.")
        self.add_prim_attr("side_effect_hidden", True)
        self._own = None if seed == 0 and seed2 == 0 else seeding.fixed_generator(seed, seed2)

    def __call__(self, input_x):
        C.dtype_in("RandomChoiceWithMask", "input_x", input_x, "b", "{Tensor[Bool]}")
        if not 1 <= input_x.ndim <= 5:
            raise ValueError(f"For 'RandomChoiceWithMask', the rank of 'input_x' must be in "
                             f"[1, 5], but got {input_x.ndim}.")
        rng = self._own if self._own is not None else seeding.generator(self.name)
        true = np.argwhere(input_x._data)
        picked = true[rng.permutation(len(true))[:self.count]]
        index = np.zeros((self.count, input_x.ndim), np.int32)
        index[:len(picked)] = picked
        mask = np.arange(self.count) < len(picked)
        return make_tensor(index, None, 0, int32), make_tensor(mask, None, 0, bool_)
