"""Mirrors the shape helpers of `mindspore.ops._grad_experimental.grad_array_ops`."""

from cellgrad.ops._grad_experimental.grad_base import bprop_getters  # noqa: F401


def _generate_inverse_index(x_shape, axis, batch_dims=0):
    """The permutation that moves the gathered axis `axis` back to position `batch_dims`
    (the inverse of the gather's transpose; MindSpore's GatherV2 bprop)."""
    x_rank = len(x_shape)
    index = tuple(range(x_rank))
    if axis < 0:
        axis += x_rank
    return (index[:batch_dims] + index[batch_dims + 1:1 + axis] + (index[batch_dims],)
            + index[1 + axis:])
