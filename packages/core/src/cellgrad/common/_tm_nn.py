"""Tensor methods over nn functions that cellgrad-ops-nn provides (an area of
`_tensor_methods.AREAS`): looked up in `cellgrad.ops` when called, so without the plugin the
error names the package to install."""


def unfold(self, kernel_size, dilation=1, padding=0, stride=1):
    """Mirrors `Tensor.unfold`: `ops.unfold(self, ...)` (sliding blocks, im2col)."""
    from cellgrad import ops

    return ops.unfold(self, kernel_size, dilation, padding, stride)


METHODS = {"unfold": unfold}
