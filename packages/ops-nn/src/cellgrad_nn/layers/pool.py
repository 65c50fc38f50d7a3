"""Pooling layers: `nn.MaxPool2d`, `nn.AvgPool2d`, `nn.AdaptiveMaxPool2d`,
`nn.AdaptiveAvgPool2d` (on the spatial ops and primitives)."""

from cellgrad import ops
from cellgrad.nn import Cell
from cellgrad_nn.layers import _checks

PAD_MODES = ("valid", "same", "pad")


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, data_format):
        super().__init__()
        name = type(self).__name__
        if not isinstance(pad_mode, str) or pad_mode.lower() not in PAD_MODES:
            raise ValueError(f"For '{name}', 'pad_mode' must be one of {list(PAD_MODES)}, but "
                             f"got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{name}', cellgrad supports data_format 'NCHW', but got "
                             f"{data_format!r}.")
        self.kernel_size, self.stride = kernel_size, stride
        self.pad_mode = pad_mode.upper()
        self.padding, self.ceil_mode = padding, ceil_mode
        if self.pad_mode != "PAD" and padding != 0:
            raise ValueError(f"For '{name}', 'padding' must be 0 when pad_mode is "
                             f"{pad_mode!r}, but got {padding!r}.")

    def _check(self, x):
        name = type(self).__name__
        _checks.input_tensor(name, x, (3, 4), "(N, C, H, W) or (C, H, W)")

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """Mirrors `mindspore.nn.MaxPool2d`."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.dilation, self.return_indices = dilation, return_indices
        self._primitive = None
        if self.pad_mode != "PAD":
            if return_indices or ceil_mode or dilation != 1:
                raise ValueError("For 'MaxPool2d', return_indices, ceil_mode and dilation need "
                                 "pad_mode='pad'.")
            self._primitive = ops.MaxPool(kernel_size, stride, self.pad_mode.lower())

    def construct(self, x):
        self._check(x)
        if self._primitive is not None:
            return self._primitive(x)
        return ops.max_pool2d(x, self.kernel_size, self.stride, self.padding, self.dilation,
                              self.return_indices, self.ceil_mode)


class AvgPool2d(_Pool2d):
    """Mirrors `mindspore.nn.AvgPool2d`."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override
        self._primitive = None
        if self.pad_mode != "PAD":
            self._primitive = ops.AvgPool(kernel_size, stride, self.pad_mode.lower())

    def construct(self, x):
        self._check(x)
        if self._primitive is not None:
            return self._primitive(x)
        return ops.avg_pool2d(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.count_include_pad, self.divisor_override or 0)


class AdaptiveAvgPool2d(Cell):
    """Mirrors `mindspore.nn.AdaptiveAvgPool2d`."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        _checks.input_tensor("AdaptiveAvgPool2d", x, (3, 4), "(N, C, H, W) or (C, H, W)")
        return ops.adaptive_avg_pool2d(x, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """Mirrors `mindspore.nn.AdaptiveMaxPool2d`."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, x):
        _checks.input_tensor("AdaptiveMaxPool2d", x, (3, 4), "(N, C, H, W) or (C, H, W)")
        return ops.adaptive_max_pool2d(x, self.output_size, self.return_indices)
