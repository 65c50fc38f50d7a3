"""The Python-value helpers `mindspore.ops` exposes from its graph compiler (`make_tuple`,
`tuple_getitem`, `dict_setitem`, `typeof`, `reduced_shape`, ...), computed on Python values
as their names say (MindSpore 2.10's PyNative runs most of them the same way; `make_dict`,
`dict_setitem` and `array_to_scalar` fail there and work here)."""

from cellgrad._core._buffer import TensorBuffer
from cellgrad.dtype import TensorType, get_py_obj_dtype

__all__ = ["make_tuple", "make_list", "make_dict", "tuple_getitem", "tuple_setitem",
           "list_getitem", "list_setitem", "list_len", "dict_getitem", "dict_setitem",
           "in_dict", "not_in_dict", "is_", "is_not", "typeof", "hastype", "isconstant",
           "stop_gradient_", "tuple_reversed", "make_slice", "array_to_scalar", "reduced_shape",
           "switch", "switch_layer", "broadcast_gradient_args"]


def _replaced(seq, index, value):
    out = list(seq)
    out[index] = value
    return out


def make_tuple(*args):
    """Mirrors `mindspore.ops.make_tuple(*args)`."""
    return tuple(args)


def make_list(*args):
    """Mirrors `mindspore.ops.make_list(*args)`."""
    return list(args)


def make_dict(*args):
    """Mirrors `mindspore.ops.make_dict(keys, values)`."""
    keys, values = args
    return dict(zip(keys, values))


def tuple_getitem(*args):
    """Mirrors `mindspore.ops.tuple_getitem(t, index)`."""
    seq, index = args
    return seq[index]


def tuple_setitem(*args):
    """Mirrors `mindspore.ops.tuple_setitem(t, index, value)`: a new tuple."""
    seq, index, value = args
    return tuple(_replaced(seq, index, value))


def list_getitem(*args):
    """Mirrors `mindspore.ops.list_getitem(l, index)`."""
    seq, index = args
    return seq[index]


def list_setitem(*args):
    """Mirrors `mindspore.ops.list_setitem(l, index, value)`: a new list."""
    seq, index, value = args
    return _replaced(seq, index, value)


def list_len(*args):
    """Mirrors `mindspore.ops.list_len(l)`."""
    (seq,) = args
    return len(seq)


def dict_getitem(*args):
    """Mirrors `mindspore.ops.dict_getitem(d, key)`."""
    mapping, key = args
    return mapping[key]


def dict_setitem(*args):
    """Mirrors `mindspore.ops.dict_setitem(d, key, value)`: a new dict."""
    mapping, key, value = args
    return {**mapping, key: value}


def in_dict(*args):
    """Mirrors `mindspore.ops.in_dict(key, d)`."""
    key, mapping = args
    return key in mapping


def not_in_dict(*args):
    """Mirrors `mindspore.ops.not_in_dict(key, d)`."""
    key, mapping = args
    return key not in mapping


def is_(*args):
    """Mirrors `mindspore.ops.is_(x, y)`: `x is y`."""
    x, y = args
    return x is y


def is_not(*args):
    """Mirrors `mindspore.ops.is_not(x, y)`: `x is not y`."""
    x, y = args
    return x is not y


def typeof(*args):
    """Mirrors `mindspore.ops.typeof(x)`: its MindSpore type (`mindspore.tensor[float32]`,
    `mindspore.int64`, ...)."""
    (x,) = args
    return get_py_obj_dtype(x)


def hastype(*args):
    """Mirrors `mindspore.ops.hastype(x, type)`: whether `typeof(x)` is `type` (a type class
    such as `mindspore.tensor_type` matches every type of that kind)."""
    x, type_ = args
    found = typeof(x)
    if isinstance(type_, type):
        return isinstance(found, type_) or (type_ is TensorType and isinstance(found,
                                                                              TensorType))
    return found == type_


def isconstant(x):
    """Mirrors `mindspore.ops.isconstant(x)`: in PyNative every value is known, so True."""
    return True


def stop_gradient_(input):
    """Mirrors `mindspore.ops.stop_gradient_(input)` (InplaceStopGradient): no gradient flows
    back through `input`'s later uses; returns None as MindSpore does."""
    if isinstance(input, TensorBuffer):
        input._node = None  # a constant from here on: the tape no longer reaches back
    return None


def tuple_reversed(*args):
    """Mirrors `mindspore.ops.tuple_reversed(t)`."""
    (seq,) = args
    return tuple(reversed(seq))


def make_slice(*args):
    """Mirrors `mindspore.ops.make_slice(start, stop, step)`."""
    return slice(*args)


def array_to_scalar(*args):
    """Mirrors `mindspore.ops.array_to_scalar(x)`: a one-element Tensor as a Python number."""
    (x,) = args
    if isinstance(x, TensorBuffer):
        if x._data.size != 1:
            raise ValueError(f"For 'array_to_scalar', the Tensor must have one element, but got "
                             f"shape {tuple(x.shape)}.")
        return x._data.reshape(-1)[0].item()
    return x


def reduced_shape(*args):
    """Mirrors `mindspore.ops.reduced_shape(shape, axis)`: `shape` with the reduced axes set
    to 1 (all of them for an empty `axis`)."""
    shape, axis = args
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    rank = len(shape)
    axes = {a + rank if a < 0 else a for a in axes} if axes else set(range(rank))
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def switch(*args):
    """Mirrors `mindspore.ops.switch(cond, true_value, false_value)` in PyNative."""
    cond, true_value, false_value = args
    return true_value if cond else false_value


def broadcast_gradient_args(*args):
    """Mirrors `mindspore.ops.broadcast_gradient_args(shape_x, shape_y)`: for each shape, the
    axes of the broadcast result its gradient is summed over."""
    shape_x, shape_y = (tuple(s) for s in args)
    rank = max(len(shape_x), len(shape_y))
    px, py = (1,) * (rank - len(shape_x)) + shape_x, (1,) * (rank - len(shape_y)) + shape_y
    for i, (a, b) in enumerate(zip(px, py)):
        if a != b and 1 not in (a, b):
            raise ValueError(f"For 'broadcast_gradient_args', shapes {shape_x} and {shape_y} "
                             f"do not broadcast (axis {i}: {a} vs {b}).")
    full = tuple(max(a, b) for a, b in zip(px, py))
    return (tuple(i for i in range(rank) if px[i] == 1 and full[i] != 1 or
                  i < rank - len(shape_x)),
            tuple(i for i in range(rank) if py[i] == 1 and full[i] != 1 or
                  i < rank - len(shape_y)))


def switch_layer(*args):
    """Mirrors `mindspore.ops.switch_layer(index, branches)`: the branch at `index` (a Python
    or Tensor integer), to be called."""
    index, branches = args
    i = int(index._data) if isinstance(index, TensorBuffer) else int(index)
    if not -len(branches) <= i < len(branches):
        raise IndexError(f"For 'switch_layer', 'index' {i} is out of range for "
                         f"{len(branches)} branches.")
    return branches[i]
