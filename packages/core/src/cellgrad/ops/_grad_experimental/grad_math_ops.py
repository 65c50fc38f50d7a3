"""Mirrors `mindspore.ops._grad_experimental.grad_math_ops`: the FFT bprops' shape helpers and
`binop_grad_common` (a broadcast binary op's gradients summed back to the input shapes)."""

from cellgrad.ops._grad_experimental.grad_base import bprop_getters  # noqa: F401


def _fft_rank_offset(norm_shape, rank):
    """The product of the last `rank` dimensions of `norm_shape`."""
    product = 1
    for i in norm_shape[-rank:]:
        product *= i
    return product


def _rfft_reshape(shape_a, shape_b):
    """`shape_b` with `len(shape_a) - 2` leading ones."""
    return (1,) * max(len(shape_a) - 2, 0) + tuple(shape_b)


def _rfft_tile_reshape(shape_a):
    """`shape_a` with its last two dimensions set to 1."""
    reshape_a = list(shape_a)
    reshape_a[-2] = 1
    reshape_a[-1] = 1
    return tuple(reshape_a)


def _rfft_last_term_shape(shape_a, shape_b):
    """`shape_b` with `len(shape_a) - 1` leading ones."""
    return (1,) * max(len(shape_a) - 1, 0) + tuple(shape_b)


def _reduce_to(grad, shape, axes):
    import cellgrad.ops as ops

    if axes and grad.ndim:
        grad = ops.sum(grad, dim=tuple(axes), keepdim=False)
    return ops.reshape(grad, tuple(shape))


def binop_grad_common(x, y, dx, dy):
    """Mirrors `grad_math_ops.binop_grad_common(x, y, dx, dy)`: `dx` and `dy` summed over the
    axes broadcasting added to `x` and `y`, reshaped to their shapes. A Python scalar input's
    gradient is summed to a 0-d Tensor."""
    from cellgrad._core._buffer import TensorBuffer
    from cellgrad.ops import broadcast_gradient_args

    if not isinstance(x, TensorBuffer) or not isinstance(y, TensorBuffer):
        import cellgrad.ops as ops

        if not isinstance(x, TensorBuffer):
            dx = ops.sum(dx)
        if not isinstance(y, TensorBuffer):
            dy = ops.sum(dy)
        return dx, dy
    rx, ry = broadcast_gradient_args(tuple(x.shape), tuple(y.shape))
    if rx:
        dx = _reduce_to(dx, x.shape, rx)
    if ry:
        dy = _reduce_to(dy, y.shape, ry)
    return dx, dy
