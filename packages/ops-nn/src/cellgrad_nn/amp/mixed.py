"""Mixed precision: `mindspore.amp.auto_mixed_precision`, `custom_mixed_precision`,
`get_white_list` and `get_black_list`, with MindSpore 2.10's lists and cast points.

- 'O1': a white-listed cell (Dense, convolutions, RNN cells) runs in the low dtype, sub-cells
  included, and its output is cast back to float32; a white-listed primitive held by any other
  cell (`self.matmul = ops.MatMul()`) does the same for its own call. MindSpore gets this by
  rewriting `construct` with a cast pair around each such operator; here the cell's inputs and
  Parameters are cast (`Cell.to_float`'s mechanism) and its output cast back, which gives the
  same dtypes at every cell boundary. Cells whose precision the user set with `to_float` keep it.
- 'O2': the whole network in the low dtype except black-listed cells (BatchNorm, LayerNorm),
  which run in float32 and hand float16 on (`_OutputTo16`); the network's output is float32
  (`_OutputTo32`). 'O3': everything in the low dtype, the output cast to float32.
As in MindSpore, O2/O3 change `network` in place and return it wrapped in `_OutputTo32`.
MindSpore's O1 returns a rewritten copy (classes `NetOpt`, `DenseOpt`, ...); cellgrad changes
the network in place and returns it, the cast cells and primitives becoming same-named
subclasses of their classes.
- 'auto': a per-operator policy while the network runs (`amp/auto.py`); a function works too.
"""

import copy
import inspect

from cellgrad._core._buffer import TensorBuffer

from cellgrad import log as logger
from cellgrad import nn
from cellgrad.dtype import bfloat16, float16, float32
from cellgrad.ops import functional as F
from cellgrad.ops import operations as P
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.amp import auto

AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")

# MindSpore 2.10's lists by name; a class cellgrad lacks is left out of the copies returned.
_WHITE_CELLS = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                "Conv3dTranspose", "Dense", "LSTMCell", "RNNCell", "GRUCell")
_WHITE_PRIMITIVES = ("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
                     "Conv2DBackpropInput", "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger")
_BLACK_CELLS = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
# MindSpore cells whose construct is a call of a white-listed primitive they hold (O1 casts
# that call, so the cell's output is float32): the cell and the primitive.
_PRIMITIVE_CELLS = (("ReLU", "ReLU"), ("PReLU", "PReLU"), ("Dense", "MatMul"))


def _classes(namespace, names):
    found = []
    for name in names:
        try:
            found.append(getattr(namespace, name))
        except AttributeError:  # not provided (yet) by an installed package
            pass
    return found


def get_white_list():
    """Mirrors `mindspore.amp.get_white_list`: a copy of the cells and primitives 'O1' runs in
    low precision."""
    return _classes(nn, _WHITE_CELLS) + _classes(P, _WHITE_PRIMITIVES)


def get_black_list():
    """Mirrors `mindspore.amp.get_black_list`: a copy of the cells 'O2' keeps in float32."""
    return _classes(nn, _BLACK_CELLS)


class _OutputTo16(nn.Cell):
    """Runs a float32 cell inside a low-precision network and casts its output to `dtype`."""

    def __init__(self, backbone, dtype=float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype
        _get_attr_from_cell(self, backbone)

    def construct(self, *args, **kwargs):
        return F.cast(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(nn.Cell):
    """Casts every float Tensor the network returns to float32."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        _get_attr_from_cell(self, backbone)

    def construct(self, *args, **kwargs):
        return to_float32(self._backbone(*args, **kwargs))


def to_float32(x):
    """`F.mixed_precision_cast(float32, x)`, a single Tensor (the usual output) cast directly."""
    if isinstance(x, TensorBuffer):
        return F.cast(x, float32) if x.dtype.kind == 2 else x
    return F.mixed_precision_cast(float32, x)


def _get_attr_from_cell(wrapper, network):
    amp_level = getattr(network, "_amp_level", None)
    if amp_level is not None:
        wrapper._amp_level = amp_level


def _check_dtype(dtype):
    if dtype is not float16 and dtype is not bfloat16:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")


def auto_mixed_precision(network, amp_level="O0", dtype=float16):
    """Mirrors `mindspore.amp.auto_mixed_precision` (levels in the module docstring)."""
    if not isinstance(network, nn.Cell):
        if amp_level == "auto":
            if not inspect.isfunction(network) and not inspect.ismethod(network):
                raise TypeError("For amp_level 'auto', the network type should be Cell or "
                                "function.")
        else:
            raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    _check_dtype(dtype)
    if amp_level == "O0":
        return network
    if getattr(network, "_amp_level", None) in ("O1", "O2", "O3", "auto"):
        logger.warning(f"The network's auto mixed-precision level is adjusted from "
                       f"{network._amp_level} to {amp_level}, and repeated calls to "
                       f"mixed-precision interfaces can cause performance degradation.")
    if amp_level == "O1":
        _cast_white_list(network, get_white_list(), dtype, False)
    elif amp_level == "O2":
        network = _OutputTo32(_cast_outside_black_list(network, get_black_list(), dtype))
    elif amp_level == "O3":
        network = _OutputTo32(network.to_float(dtype))
    elif amp_level == "auto":
        network = auto.make_auto(network, dtype)
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    network._amp_level = amp_level
    return network


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=float16):
    """Mirrors `mindspore.amp.custom_mixed_precision`: 'O1' with `white_list` (cells and
    primitives) or 'O2' with `black_list` (cells); exactly one of the two."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be "
                         "provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be "
                         "provided at the same time, please provide one or the other.")
    _check_dtype(dtype)
    if white_list is not None:
        _list_check(white_list, "white_list")
        _cast_white_list(network, white_list, dtype, False)
        return network
    _list_check(black_list, "black_list")
    return _OutputTo32(_cast_outside_black_list(network, black_list, dtype))


def _list_check(custom_list, list_name):
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (nn.Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and "
                            f"'Primitive', but got {elem}")
        if list_name == "black_list" and not issubclass(elem, nn.Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but "
                            f"got {elem}")
    if list_name == "black_list":
        for elem in get_black_list():
            if elem not in custom_list:
                logger.warning(f"{elem} is removed from internal black list.")


# ---- O2: everything low except the black list ----


def _cast_outside_black_list(network, black_list, dtype):
    network.to_float(dtype)
    _keep_float32(network, tuple(black_list), dtype)
    return network


def _keep_float32(network, black_list, dtype):
    """Replace each black-listed sub-cell by `_OutputTo16(cell in float32)`, recursively."""
    changed = False
    for name, cell in network.name_cells().items():
        if cell is network:
            continue
        if isinstance(cell, black_list):
            _replace_child(network, name, _OutputTo16(cell.to_float(float32), dtype))
            changed = True
        else:
            _keep_float32(cell, black_list, dtype)
    if changed and isinstance(network, nn.SequentialCell):
        network.__dict__["cell_list"] = list(network.cells())


def _replace_child(parent, name, cell):
    """Put `cell` at `parent.<name>` without renaming Parameters (a wrapper adds no prefix)."""
    d = parent.__dict__
    d["_cells"][name] = cell
    if name in d:
        d[name] = cell


# ---- O1: the white list ----


def _precision_set_by_user(cell):
    return any(getattr(cell, flag, False) for flag in ("fp32", "fp16", "bf16"))


def _cast_white_list(cell, white_list, dtype, forced, top=True):
    """Cast the white-listed primitives of `cell` (all of them when `forced`) and walk its
    sub-cells: a white-listed one (or any below one) runs in `dtype`, its output in float32.

    A white-listed network itself (`auto_mixed_precision(nn.Dense(...), 'O1')`) runs in
    `dtype` as a whole; MindSpore casts only its main primitive (the bias is added in float32
    there), a difference within float16 rounding."""
    white = tuple(white_list) + _cells_of_primitives(white_list)
    if top and isinstance(cell, white) and not _precision_set_by_user(cell):
        _run_in(cell, dtype)
        _output_to_float32(cell)
        return
    for name, value in list(vars(cell).items()):
        if isinstance(value, Primitive) and not isinstance(value, P.Cast) \
                and (forced or isinstance(value, white)) and not getattr(value, "_amp_cast", None):
            cell.__dict__[name] = _cast_primitive(value, dtype)
    for child in cell.cells():
        if _precision_set_by_user(child):
            continue
        if not forced and isinstance(child, white):
            _run_in(child, dtype)
            _output_to_float32(child)
        else:
            _cast_white_list(child, white_list, dtype, forced, top=False)


def _cells_of_primitives(white_list):
    names = {c.__name__ for c in white_list if issubclass(c, Primitive)}
    return tuple(_classes(nn, [cell for cell, prim in _PRIMITIVE_CELLS if prim in names]))


def _run_in(cell, dtype):
    """`cell` and its sub-cells (except those the user set) take inputs and Parameters in
    `dtype`, without the user flags `to_float` sets."""
    cell._set_mixed(dtype)
    for child in cell.cells():
        if not _precision_set_by_user(child):
            _run_in(child, dtype)


_OUTPUT_CLASSES = {}
_CAST_CLASSES = {}


def _output_to_float32(cell):
    """Give `cell` a subclass of its class whose construct casts the output to float32 (the
    same name, isinstance still holds; copies and deepcopies keep it)."""
    cls = type(cell)
    if cls in _OUTPUT_CLASSES.values():
        return
    sub = _OUTPUT_CLASSES.get(cls)
    if sub is None:
        def construct(self, *args, **kwargs):
            return F.mixed_precision_cast(float32, cls.construct(self, *args, **kwargs))

        sub = _OUTPUT_CLASSES[cls] = type(cls.__name__, (cls,), {
            "construct": construct, "__module__": cls.__module__,
            "__qualname__": cls.__qualname__})
    object.__setattr__(cell, "__class__", sub)


def _cast_primitive(prim, dtype):
    """A copy of `prim` whose call casts its float inputs to `dtype` and its output to float32
    (an instance of a subclass of its class, so isinstance checks and copies still hold)."""
    cls = type(prim)
    sub = _CAST_CLASSES.get((cls, dtype))
    if sub is None:
        def __call__(self, *args, **kwargs):
            args = F.mixed_precision_cast(dtype, args)
            kwargs = {k: F.mixed_precision_cast(dtype, v) for k, v in kwargs.items()}
            return F.mixed_precision_cast(float32, cls.__call__(self, *args, **kwargs))

        sub = _CAST_CLASSES[(cls, dtype)] = type(cls.__name__, (cls,), {
            "__call__": __call__, "_amp_cast": dtype, "__module__": cls.__module__,
            "__qualname__": cls.__qualname__})
    new = copy.copy(prim)
    object.__setattr__(new, "__class__", sub)
    return new
