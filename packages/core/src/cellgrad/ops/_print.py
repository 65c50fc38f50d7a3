"""What `ops.Print()` / `ops.print_` write, in MindSpore 2.10's two formats.

PyNative (the default): one line per argument, a Tensor (or Parameter) as its repr, anything
else as `print` shows it. Compiled code (inside an `ms.jit` function, or a Cell called in
GRAPH_MODE): MindSpore's graph printer, which differs: tuples and lists are flattened one item
per line, 0-d Tensors and Python numbers print as C++ streams them ("0.333333", True as 1),
and a Tensor's values lose their commas (`value=[ 1.0e+00  2.0e+00]`). cellgrad runs both
eagerly, so the format follows where the call is (recorded in tests/core/ms_programs/print_op).
"""

import sys

import numpy as np

from cellgrad import context
from cellgrad._core._buffer import TensorBuffer

_compiled_codes = None  # the code objects of the jit wrapper and of Cell.__call__


def print_args(args):
    """Print `args` as MindSpore's Print does where it is called from."""
    from cellgrad.common.tensor import Tensor

    if _compiled():
        lines = []
        for arg in args:
            _graph_lines(arg, lines, Tensor.__repr__)
        text = "\n".join(lines)
    else:
        text = "\n".join(Tensor.__repr__(a) if isinstance(a, TensorBuffer) else str(a)
                         for a in args)
    if args:
        print(text)


def _compiled():
    """Whether the caller is code MindSpore would compile: a jit function, or a Cell call in
    GRAPH_MODE."""
    global _compiled_codes
    if _compiled_codes is None:
        from cellgrad.nn.cell import Cell

        _compiled_codes = (context._jit_wrap(len).__code__, Cell.__call__.__code__)
    jit_code, cell_code = _compiled_codes
    graph = context.get_context("mode") == context.GRAPH_MODE
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is jit_code or (graph and frame.f_code is cell_code):
            return True
        frame = frame.f_back
    return False


def _graph_lines(arg, lines, tensor_repr):
    if isinstance(arg, (tuple, list)):
        for item in arg:
            _graph_lines(item, lines, tensor_repr)
    elif isinstance(arg, TensorBuffer):
        if arg._data.ndim == 0:
            lines.append(_scalar(arg._data.item()))
        else:
            head, _, values = tensor_repr(arg).partition("value=")
            lines.append(head + "value=" + values.lstrip(" ").replace(",", ""))
    elif isinstance(arg, (bool, int, float, np.generic)):
        lines.append(_scalar(arg))
    else:
        lines.append(str(arg))


def _scalar(value):
    """A number as a C++ ostream writes it (bool as 0/1, floats as %g)."""
    if isinstance(value, (bool, np.bool_)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{float(value):g}"
    return str(value)
