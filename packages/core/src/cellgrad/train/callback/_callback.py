"""Mirrors `mindspore.train.callback._callback`: names of `cellgrad.train`,
the same objects (see `cellgrad._paths`), and the module's own helper `_handle_loss`."""

import numpy as np

from cellgrad._namespace import plugin_names as _plugin_names


def _handle_loss(loss):
    """Mirrors `train.callback._callback._handle_loss(loss)`: a tuple/list gives its first
    item when that is a Tensor; a Tensor gives the float mean of its values; anything else
    is returned as is."""
    from cellgrad._core._buffer import TensorBuffer

    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], TensorBuffer):
            loss = loss[0]
    elif isinstance(loss, TensorBuffer):
        loss = float(np.mean(loss.asnumpy()))
    return loss


__getattr__, __dir__ = _plugin_names(__name__)
