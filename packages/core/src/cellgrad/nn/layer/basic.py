"""Mirrors `mindspore.nn.layer.basic`: names of `cellgrad.nn`,
the same objects (see `cellgrad._paths`), and the module's own helper `_is_equal_one`."""

from cellgrad._namespace import plugin_names as _plugin_names


def _is_equal_one(x):
    """Mirrors `nn.layer.basic._is_equal_one(x)`: False for None (or a placeholder Tensor),
    else the 0-d bool Tensor `reduce_mean(x) == 1` (an int Tensor's mean is an int, as in
    MindSpore)."""
    from cellgrad import ops

    if x is None or getattr(x, "created_empty_tensor", False):
        return False
    return ops.equal(ops.reduce_mean(x), 1.0)


__getattr__, __dir__ = _plugin_names(__name__)
