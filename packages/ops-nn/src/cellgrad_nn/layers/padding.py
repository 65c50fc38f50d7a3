"""Padding layers: `nn.Pad` and the `nn.ConstantPad*`, `nn.ZeroPad2d`, `nn.ReflectionPad*`,
`nn.ReplicationPad*` families (on `ops.pad` and the pad op)."""

from cellgrad import ops
from cellgrad.nn import Cell
from cellgrad_nn.spatial.pad import pad_dims, tuple_of

MIRROR_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


class Pad(Cell):
    """Mirrors `mindspore.nn.Pad`: `paddings` holds one (before, after) pair per dimension,
    from the first; mode 'CONSTANT' (zeros), 'REFLECT' or 'SYMMETRIC' (edge repeated)."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in MIRROR_MODES:
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in "
                             f"'{list(MIRROR_MODES)}', but got {mode!r}.")
        self.mode = mode
        self.paddings = tuple_of("Pad", "paddings", paddings)
        for item in paddings:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ValueError(f"For 'Pad', the dimension of 'paddings' must be (n, 2), but "
                                 f"got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', only 'paddings' up to 4 dims is supported, but got "
                             f"{len(paddings)}.")

    def construct(self, x):
        return pad_dims("Pad", x, self.paddings, self.mode.lower())


def _padding_tuple(name, padding, sides):
    """An int means the same padding on all `sides`; otherwise an even-length tuple."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        return (padding,) * sides
    if not isinstance(padding, tuple):
        raise TypeError(f"For '{name}', the type of parameter 'padding' must be in [int, "
                        f"tuple], but got {type(padding)}.")
    if len(padding) % 2:
        raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type "
                         f"must be a multiple of 2, but got {len(padding)}.")
    if len(padding) > sides or (sides == 2 and len(padding) != 2):
        raise ValueError(f"For '{name}', the length of parameter 'padding' with tuple type "
                         f"must be {'2' if sides == 2 else f'no more than {sides}'}, but got "
                         f"{len(padding)}.")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in padding):
        raise TypeError(f"For '{name}', every element in 'padding' must be an int, but got "
                        f"{padding}.")
    return padding


class _ConstantPadNd(Cell):
    """Pads the last dimensions with `value`; `padding` runs from the last dimension."""

    SIDES = 2

    def __init__(self, padding, value):
        super().__init__()
        name = type(self).__name__
        self.padding = _padding_tuple(name, padding, self.SIDES)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{name}', the type of parameter 'value' must be in [int, "
                            f"float], but got {type(value)}.")
        self.value = value

    def construct(self, x):
        return ops.pad(x, self.padding, "constant", self.value)


class ConstantPad1d(_ConstantPadNd):
    """Mirrors `mindspore.nn.ConstantPad1d`."""


class ConstantPad2d(_ConstantPadNd):
    """Mirrors `mindspore.nn.ConstantPad2d`."""

    SIDES = 4


class ConstantPad3d(_ConstantPadNd):
    """Mirrors `mindspore.nn.ConstantPad3d`."""

    SIDES = 6


class ZeroPad2d(ConstantPad2d):
    """Mirrors `mindspore.nn.ZeroPad2d`: `padding` is an int or (left, right[, top,
    bottom])."""

    def __init__(self, padding):
        super().__init__(padding, 0)


class _EdgePadNd(Cell):
    """Reflection or replication of the last dimensions (`padding` from the last)."""

    SIDES = 2

    def __init__(self, padding):
        super().__init__()
        name = type(self).__name__
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * self.SIDES
        if not isinstance(padding, tuple):
            raise TypeError(f"For '{name}' the input 'padding' must be an integer or tuple, "
                            f"but got {type(padding).__name__}.")
        if len(padding) % 2:
            raise ValueError(f"For '{name}' the length of input 'padding' must be divisible "
                             f"by 2, but got padding of length {len(padding)}.")
        if any(isinstance(p, bool) or not isinstance(p, int) for p in padding):
            raise TypeError(f"For '{name}' every element in 'padding' must be integer, but "
                            f"got {padding}.")
        self.padding = padding


class _ReflectionPadNd(_EdgePadNd):
    def __init__(self, padding):
        super().__init__(padding)
        if any(p < 0 for p in self.padding):
            raise ValueError(f"For '{type(self).__name__}' every element in 'padding' must be "
                             f">= 0, but got {self.padding}.")

    def construct(self, x):
        name = type(self).__name__
        n_axes = len(self.padding) // 2
        if not n_axes:
            return x
        if x.ndim < n_axes:
            raise ValueError(f"For padding with length {len(self.padding)}, the dimension of "
                             f"the tensor should be at least {n_axes}, but got {x.ndim}.")
        pairs = [(self.padding[2 * i], self.padding[2 * i + 1]) for i in range(n_axes)]
        return pad_dims(name, x, tuple([(0, 0)] * (x.ndim - n_axes) + pairs[::-1]), "reflect")


class ReflectionPad1d(_ReflectionPadNd):
    """Mirrors `mindspore.nn.ReflectionPad1d`."""


class ReflectionPad2d(_ReflectionPadNd):
    """Mirrors `mindspore.nn.ReflectionPad2d`."""

    SIDES = 4


class ReflectionPad3d(_ReflectionPadNd):
    """Mirrors `mindspore.nn.ReflectionPad3d`."""

    SIDES = 6


class _ReplicationPadNd(_EdgePadNd):
    def construct(self, x):
        return ops.pad(x, self.padding, "replicate")


class ReplicationPad1d(_ReplicationPadNd):
    """Mirrors `mindspore.nn.ReplicationPad1d`: (C, W) or (N, C, W) inputs."""


class ReplicationPad2d(_ReplicationPadNd):
    """Mirrors `mindspore.nn.ReplicationPad2d`: (C, H, W) or (N, C, H, W) inputs."""

    SIDES = 4


class ReplicationPad3d(_ReplicationPadNd):
    """Mirrors `mindspore.nn.ReplicationPad3d`: (C, D, H, W) or (N, C, D, H, W) inputs."""

    SIDES = 6
