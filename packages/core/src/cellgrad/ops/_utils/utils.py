"""Mirrors `mindspore.ops._utils.utils`: shape helpers of Python infer functions (a -1 is an
unknown dimension, [-2] an unknown rank, as MindSpore's compiler writes them)."""

__all__ = ["get_broadcast_shape"]


def get_broadcast_shape(x_shape, y_shape, prim_name, arg_name1="x", arg_name2="y"):
    """Mirrors `ops._utils.get_broadcast_shape`: the broadcast of two shapes (lists), or
    ValueError naming `prim_name` when they do not broadcast."""
    if x_shape == y_shape:
        return x_shape
    if list(x_shape) == [-2] or list(y_shape) == [-2]:
        return [-2]
    length = min(len(x_shape), len(y_shape))
    back = []
    for i in range(-length, 0):
        x, y = x_shape[i], y_shape[i]
        if x == 1:
            back.append(y)
        elif y == 1 or x == y:
            back.append(x)
        elif (x == -1 and abs(y) != 1) or (y == -1 and abs(x) != 1):
            back.append(max(x, y))
        elif x == -1 or y == -1:
            back.append(-1)
        else:
            raise ValueError(f"For '{prim_name}', {arg_name1}.shape and {arg_name2}.shape need to "
                             f"broadcast. The value of {arg_name1}.shape[{i}] or "
                             f"{arg_name2}.shape[{i}] must be 1 or -1 when they are not the same, "
                             f"but got {arg_name1}.shape = {x_shape} and {arg_name2}.shape = "
                             f"{y_shape}.")
    front = y_shape[:len(y_shape) - length] if length == len(x_shape) else \
        x_shape[:len(x_shape) - length]
    return list(front) + back
