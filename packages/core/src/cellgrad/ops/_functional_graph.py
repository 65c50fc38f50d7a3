"""Mirrors the graph-compiler queries of `mindspore.ops.functional` (also `mindspore.ops`) that
MindSpore's own tests call in PyNative code (tests/st/ops/dynamic_shape/grad/
test_grad_of_dynamic.py, on which ~60 dynamic-shape gradient test files build):
`is_sequence_value_unknown`, `is_sequence_shape_unknown`, `is_dynamic_sequence_element_unknown`,
`is_tensor_bool_cond`.

Eagerly every sequence and every shape is concrete, so the first two answer False, as
MindSpore's do outside a graph with unknown shapes; no eager sequence has a variable length, so
the third refuses every one with MindSpore's PyNative TypeError; the fourth says whether a
Tensor can be an `if` condition. `cellgrad._paths` places them at `ops` and `ops.functional`.
"""

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive


class IsShapeUnKnown(Primitive):
    """Mirrors MindSpore's `IsShapeUnKnown` Primitive: whether a sequence's values (or shape)
    are unknown at compile time; False for every eager sequence."""

    def __call__(self, *args):  # MindSpore's Primitive call signature
        if len(args) != 1:
            raise TypeError(f"For '{self.name}', the number of inputs must be 1, but got "
                            f"{len(args)}.")
        x = args[0]
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"The input of {self.name} should be tuple or list but got "
                            f"{type(x).__name__}.")
        return False


is_sequence_value_unknown = IsShapeUnKnown()
is_sequence_shape_unknown = IsShapeUnKnown()


def _one_input(prim, args):
    if len(args) != 1:
        raise RuntimeError(f"For '{prim.name}', the number of input should be 1, but got "
                           f"{len(args)}")
    return args[0]


class IsElementUnknown(Primitive):
    """Mirrors MindSpore's `IsElementUnknown` Primitive (`ops.is_dynamic_sequence_element_unknown`):
    defined for variable-length sequences, which only a compiled graph has; every eager tuple or
    list is refused with MindSpore's PyNative TypeError."""

    def __call__(self, *args):
        x = _one_input(self, args)
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"The input of {self.name} should be tuple or list but got "
                            f"{type(x).__name__}.")
        raise TypeError(f"The input of {self.name} should be variable length sequence.")


class IsTensorBoolCond(Primitive):
    """Mirrors MindSpore's `IsTensorBoolCond` Primitive (`ops.is_tensor_bool_cond`): True for a
    Tensor that can be an `if` condition (shape () or (1,))."""

    def __call__(self, *args):
        x = _one_input(self, args)
        if not isinstance(x, Tensor):
            raise TypeError(f"The input of {self.name} should be a tensor but got "
                            f"{type(x).__name__}.")
        if tuple(x.shape) not in ((), (1,)):
            dims = ", ".join(str(d) for d in x.shape)
            raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, "
                             f"but got tensor shape is ({dims})")
        return True


is_dynamic_sequence_element_unknown = IsElementUnknown()
is_tensor_bool_cond = IsTensorBoolCond()
