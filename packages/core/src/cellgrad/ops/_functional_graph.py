"""Mirrors the graph-compiler queries of `mindspore.ops.functional` (also `mindspore.ops`) that
MindSpore's own tests call in PyNative code (tests/st/ops/dynamic_shape/grad/
test_grad_of_dynamic.py, on which ~60 dynamic-shape gradient test files build):
`is_sequence_value_unknown`, `is_sequence_shape_unknown`.

Eagerly every sequence and every shape is concrete, so both answer False, as MindSpore's do
outside a graph with unknown shapes. `cellgrad._paths` places them at `ops` and `ops.functional`.
"""

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
