"""Pooling layers: `nn.MaxPool1d/2d/3d`, `nn.AvgPool1d/2d/3d`, `nn.AdaptiveMaxPool1d/2d/3d`,
`nn.AdaptiveAvgPool1d/2d/3d` (on the spatial ops and primitives)."""

from cellgrad import ops
from cellgrad.nn import Cell
from cellgrad_nn.layers import _checks
from cellgrad_nn.spatial.pool import avg_pool_checked, max_pool_checked
from cellgrad_nn.spatial.pool_nd import adaptive_1d, pads_of

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
        _int_or_tuple(name, "kernel_size", kernel_size)
        _int_or_tuple(name, "stride", stride)
        self.kernel_size, self.stride = kernel_size, stride
        self.pad_mode = pad_mode.upper()
        self.padding, self.ceil_mode = padding, ceil_mode
        pads = padding if isinstance(padding, (tuple, list)) else (padding,)
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in pads):
            raise ValueError(f"For '{name}', the 'padding' must be a non-negative int or a tuple "
                             f"of them, but got {padding!r}.")
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
        _int_or_tuple("MaxPool2d", "dilation", dilation)
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
        if divisor_override is not None and (isinstance(divisor_override, bool) or not isinstance(
                divisor_override, int) or divisor_override < 1):
            raise ValueError(f"For 'AvgPool2d', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
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


def _positive_int(layer, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{layer}', '{name}' must be an int, but got {value!r}.")
    if value < 1:
        raise ValueError(f"For '{layer}', '{name}' must be at least 1, but got {value}.")
    return value


def _int_or_tuple(layer, name, value):
    """MindSpore's _PoolNd check: a positive int or a tuple of them (a 1-tuple unwrapped)."""
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{layer}', the type of '{name}' should be one of '['int', "
                        f"'tuple']', but got type '{type(value).__name__}'.")
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, tuple) and value and all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        return value[0] if len(value) == 1 else value
    raise ValueError(f"For '{layer}', the '{name}' must be an positive int number or a tuple, "
                     f"but got {value!r}.")


class _PoolNd(Cell):
    """kernel_size, stride and pad_mode as MindSpore's `_PoolNd` keeps and prints them."""

    def __init__(self, kernel_size, stride, pad_mode):
        super().__init__()
        name = type(self).__name__
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{name}', 'pad_mode' must be one of ['VALID', 'SAME', "
                             f"'PAD'], but got {pad_mode!r}.")
        self.pad_mode = pad_mode.upper()
        self.kernel_size = _int_or_tuple(name, "kernel_size", kernel_size)
        self.stride = _int_or_tuple(name, "stride", stride)

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


def _squeeze_axis(out, axis):
    """Drop a unit axis of a Tensor or of each Tensor of a tuple."""
    if isinstance(out, tuple):
        return tuple(_squeeze_axis(o, axis) for o in out)
    return out.reshape(tuple(s for i, s in enumerate(out.shape) if i != axis))


class MaxPool3d(_PoolNd):
    """Mirrors `mindspore.nn.MaxPool3d`: inputs (N, C, D, H, W) or (C, D, H, W); `dilation`
    and `return_indices` need pad_mode 'pad'."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        self.return_indices = return_indices
        self.only_pad = dilation != 1 or return_indices
        if self.only_pad:
            if self.pad_mode != "PAD":
                raise ValueError(f"For MaxPool3d, the pad_mode must be 'pad' when dilation is not "
                                 f"1 or return_indices is True, but got pad_mode:{pad_mode}.")
            self.max_pool = ops.MaxPool3DWithArgmax(kernel_size, stride, padding, dilation,
                                                    ceil_mode)
        else:
            self.max_pool = ops.MaxPool3D(kernel_size, stride, pad_mode, padding,
                                          True if ceil_mode else None)

    def construct(self, x):
        _checks.input_tensor("MaxPool3d", x, (4, 5), "(N, C, D, H, W) or (C, D, H, W)")
        out = self.max_pool(x)
        if self.only_pad and not self.return_indices:
            return out[0]
        return out


class AvgPool3d(_PoolNd):
    """Mirrors `mindspore.nn.AvgPool3d`: inputs (N, C, D, H, W) or (C, D, H, W)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For 'AvgPool3d', the 'divisor_override' must be > 0, but got "
                             f"{divisor_override}.")
        self.avg_pool = ops.AvgPool3D(self.kernel_size, self.stride, pad_mode, padding,
                                      ceil_mode, count_include_pad, divisor_override or 0)

    def construct(self, x):
        _checks.input_tensor("AvgPool3d", x, (4, 5), "(N, C, D, H, W) or (C, D, H, W)")
        return self.avg_pool(x)


class MaxPool1d(_PoolNd):
    """Mirrors `mindspore.nn.MaxPool1d`: inputs (N, C, L) or (C, L); padding, dilation,
    return_indices and ceil_mode need pad_mode 'pad'."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        _positive_int("MaxPool1d", "kernel_size", kernel_size)
        _positive_int("MaxPool1d", "stride", stride)
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            self.kernel_size, self.stride = (1, 1, kernel_size), (1, 1, stride)
            self.padding = pads_of("MaxPool1d", "padding", padding, 1)
            dilation = dilation[0] if isinstance(dilation, tuple) and len(dilation) == 1 \
                else dilation
            self._dilation = _positive_int("MaxPool1d", "dilation", dilation)
            self._ceil_mode = ceil_mode
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For MaxPool1d, the parameter 'padding', 'dilation', "
                                 f"'return_indices', 'ceil_mode' can not be set to non-default "
                                 f"value when pad_mode is not 'pad', but got pad_mode:{pad_mode}.")
            self.kernel_size, self.stride = (1, kernel_size), (1, stride)
            self.max_pool = ops.MaxPool(self.kernel_size, self.stride, self.pad_mode)

    def construct(self, x):
        _checks.input_tensor("MaxPool1d", x, (2, 3), "(N, C, L) or (C, L)")
        unbatched = x.ndim == 2
        x = x.reshape((1,) * unbatched + tuple(x.shape))
        n, c, length = x.shape
        x = x.reshape((n, c, 1, length))
        if self.use_pad:
            out = max_pool_checked("MaxPool1d", x, self.kernel_size[1:], self.stride[1:],
                                   (0, 0) + self.padding, (1, self._dilation), self._ceil_mode,
                                   self.return_indices)
        else:
            out = self.max_pool(x)
        out = _squeeze_axis(out, 2)
        return _squeeze_axis(out, 0) if unbatched else out


class AvgPool1d(_PoolNd):
    """Mirrors `mindspore.nn.AvgPool1d`: inputs (N, C, L) or (C, L). Without padding options
    it runs MindSpore's 2-D path, including its shortcut: an input no longer than one window
    plus the stride averages the first `kernel_size` elements (whatever the pad_mode)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode)
        _positive_int("AvgPool1d", "kernel_size", self.kernel_size)
        _positive_int("AvgPool1d", "stride", self.stride)
        self.is_expand_3d = self.pad_mode == "PAD" or padding != 0 or ceil_mode or \
            not count_include_pad
        if self.is_expand_3d:
            self._args = (pads_of("AvgPool1d", "padding", padding, 1), bool(ceil_mode),
                          bool(count_include_pad))
        else:
            self.kernel_size, self.stride = (1, self.kernel_size), (1, self.stride)
            self.avg_pool = ops.AvgPool(self.kernel_size, self.stride, self.pad_mode)

    def construct(self, x):
        _checks.input_tensor("AvgPool1d", x, (2, 3), "(N, C, L) or (C, L)")
        unbatched = x.ndim == 2
        x = x.reshape((1,) * unbatched + tuple(x.shape))
        n, c, length = x.shape
        if self.is_expand_3d:
            pads, ceil_mode, include = self._args
            out = avg_pool_checked("AvgPool1d", x.reshape((n, c, 1, length)),
                                   (1, self.kernel_size), (1, self.stride), (0, 0) + pads,
                                   ceil_mode, include, 0)
            out = _squeeze_axis(out, 2)
        elif length - self.kernel_size[1] < self.stride[1]:
            out = x[:, :, :self.kernel_size[1]].mean(axis=2, keep_dims=True)
        else:
            out = _squeeze_axis(self.avg_pool(x.reshape((n, c, 1, length))), 2)
        return _squeeze_axis(out, 0) if unbatched else out


class AdaptiveAvgPool1d(Cell):
    """Mirrors `mindspore.nn.AdaptiveAvgPool1d`: (N, C, L) float16/float32, L divisible by
    `output_size`."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _positive_int("AdaptiveAvgPool1d", "output_size", output_size)

    def construct(self, input):
        return adaptive_1d("AdaptiveAvgPool1d", input, self.output_size, "avg")


class AdaptiveMaxPool1d(Cell):
    """Mirrors `mindspore.nn.AdaptiveMaxPool1d`: (N, C, L) float16/float32, L divisible by
    `output_size`."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = _positive_int("AdaptiveMaxPool1d", "output_size", output_size)

    def construct(self, x):
        return adaptive_1d("AdaptiveMaxPool1d", x, self.output_size, "max")


class AdaptiveAvgPool3d(Cell):
    """Mirrors `mindspore.nn.AdaptiveAvgPool3d`."""

    def __init__(self, output_size):
        super().__init__()
        self.adaptive_avg_pool3d = ops.AdaptiveAvgPool3D(output_size)

    def construct(self, input):
        return self.adaptive_avg_pool3d(input)


class AdaptiveMaxPool3d(Cell):
    """Mirrors `mindspore.nn.AdaptiveMaxPool3d`: indices (with `return_indices`) Int32."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        if isinstance(output_size, int):
            output_size = (output_size,) * 3
        self.output_size = output_size
        self.return_indices = return_indices

    def construct(self, input):
        return ops.adaptive_max_pool3d(input, self.output_size, self.return_indices)
