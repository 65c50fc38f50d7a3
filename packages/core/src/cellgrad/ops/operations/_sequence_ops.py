"""Mirrors the sequence Primitives of MindSpore's private
`mindspore.ops.operations._sequence_ops` that its own tests use (tests/st/ops/dynamic_sequence,
tests/st/pynative/framework/test_pipeline.py): conversions between Python sequences, scalars
and Tensors, `SequenceUnstack` and `SequenceAddN`. MindSpore's graph compiler keeps sequences
as graph values; eagerly they are Python tuples and lists.
"""

import numbers

from cellgrad import dtype as _dtype
from cellgrad._core._buffer import TensorBuffer
from cellgrad._namespace import plugin_names as _plugin_names
from cellgrad.ops import _prim_checks as C
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ListToTensor", "SequenceAddN", "SequenceStack", "SequenceUnstack", "TensorToList",
           "TensorToScalar", "TensorToTuple", "TupleToTensor"]


def _to_tensor(name, kind, x, dtype):
    from cellgrad.common.tensor import Tensor

    if not isinstance(x, kind):
        raise TypeError(f"For '{name}', the input 'x' must be a {kind.__name__}, but got "
                        f"{type(x).__name__}.")
    if not isinstance(dtype, _dtype.DType):
        raise TypeError(f"For '{name}', the 'dtype' must be a mindspore dtype, but got "
                        f"{dtype!r}.")
    return Tensor(list(x), dtype)


class TupleToTensor(Primitive):
    """Mirrors `_sequence_ops.TupleToTensor()(x, dtype)`: a 1-D Tensor of the tuple's numbers."""

    def __call__(self, x, dtype=_dtype.float32):
        return _to_tensor("TupleToTensor", tuple, x, dtype)


class ListToTensor(Primitive):
    """Mirrors `_sequence_ops.ListToTensor()(x, dtype)`: a 1-D Tensor of the list's numbers."""

    def __call__(self, x, dtype=_dtype.float32):
        return _to_tensor("ListToTensor", list, x, dtype)


class TensorToTuple(Primitive):
    """Mirrors `_sequence_ops.TensorToTuple()(x)`: a 1-D Tensor's values as a tuple."""

    def __call__(self, x):
        C.tensor("TensorToTuple", "x", x)
        return tuple(x.asnumpy().tolist())


class TensorToList(Primitive):
    """Mirrors `_sequence_ops.TensorToList()(x)`: a 1-D Tensor's values as a list."""

    def __call__(self, x):
        C.tensor("TensorToList", "x", x)
        return x.asnumpy().tolist()


class TensorToScalar(Primitive):
    """Mirrors `_sequence_ops.TensorToScalar()(x)`: a 0-D Tensor's value as a Python number."""

    def __call__(self, x):
        C.tensor("TensorToScalar", "x", x)
        if x.ndim != 0:
            raise ValueError(f"For 'TensorToScalar', the input must be a 0-D Tensor, but got "
                             f"shape {tuple(x.shape)}.")
        return x.asnumpy().item()


class SequenceUnstack(Primitive):
    """Mirrors `_sequence_ops.SequenceUnstack(axis=0, num=None)(input_x)`: `ops.unstack` giving
    a tuple of Tensors."""

    @prim_attr_register
    def __init__(self, axis=0, num=None):
        self.axis = C.integer("SequenceUnstack", "axis", axis)

    def __call__(self, input_x):
        from cellgrad.ops import unstack

        C.tensor("SequenceUnstack", "input_x", input_x)
        return tuple(unstack(input_x, self.axis))


class SequenceAddN(Primitive):
    """Mirrors `_sequence_ops.SequenceAddN()(input_1)`: the sum of a tuple or list of
    Tensors, or of Python numbers (a number, as MindSpore's graph mode gives for a `mutable`
    sequence of scalars)."""

    def __call__(self, input_1):
        if isinstance(input_1, (tuple, list)) and not input_1:
            raise RuntimeError("Sequence length should not be 0.")
        if not isinstance(input_1, (tuple, list)) or not (
                all(isinstance(v, TensorBuffer) for v in input_1)
                or all(isinstance(v, numbers.Number) for v in input_1)):
            raise TypeError("For 'SequenceAddN', the input must be a non-empty tuple or list of "
                            f"Tensors or of numbers, but got {input_1!r}.")
        total = input_1[0]
        for v in input_1[1:]:
            total = total + v
        return total


class SequenceStack(Primitive):
    """Mirrors `_sequence_ops.SequenceStack(axis=0)(x)`: `ops.stack` of a tuple or list of
    Tensors along a new axis `axis` (MindSpore runs it in graph mode on a `mutable` sequence;
    eagerly any sequence); differentiable."""

    @prim_attr_register
    def __init__(self, axis=0):
        self.axis = C.integer("SequenceStack", "axis", axis)

    def __call__(self, x):
        from cellgrad.ops import stack

        if not isinstance(x, (tuple, list)) or not x or not all(
                isinstance(v, TensorBuffer) for v in x):
            raise TypeError("For 'SequenceStack', the input must be a non-empty tuple or list of "
                            f"Tensors, but got {type(x).__name__}.")
        return stack(tuple(x), self.axis)


__getattr__, __dir__ = _plugin_names(__name__)
