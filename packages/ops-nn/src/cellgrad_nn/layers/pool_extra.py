"""`nn.LPPool1d/2d`, `nn.MaxUnpool1d/2d/3d`, `nn.FractionalMaxPool2d/3d`, `nn.LRN`,
`nn.ImageGradients`: cells over `cellgrad_nn.functional.pool_extra`."""

from cellgrad.nn import Cell
from cellgrad_nn.functional import pool_extra as P


class _LPPool(Cell):
    _func = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def construct(self, x):
        return type(self)._func(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool1d(_LPPool):
    """Mirrors `mindspore.nn.LPPool1d`."""

    _func = staticmethod(P.lp_pool1d)


class LPPool2d(_LPPool):
    """Mirrors `mindspore.nn.LPPool2d`."""

    _func = staticmethod(P.lp_pool2d)


class _MaxUnpool(Cell):
    _func = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def construct(self, x, indices, output_size=None):
        name = type(self).__name__
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {name}, output_size must be tuple, but type "
                                 f"{type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {name}, the length of output_size must be positive, but "
                                 "got 0.")
        return type(self)._func(x, indices, self.kernel_size, self.stride, self.padding,
                                output_size)


class MaxUnpool1d(_MaxUnpool):
    """Mirrors `mindspore.nn.MaxUnpool1d`."""

    _func = staticmethod(P.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """Mirrors `mindspore.nn.MaxUnpool2d`."""

    _func = staticmethod(P.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """Mirrors `mindspore.nn.MaxUnpool3d`."""

    _func = staticmethod(P.max_unpool3d)


class _FractionalMaxPool(Cell):
    _func = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, \
            output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input):
        return type(self)._func(input, self.kernel_size, self.output_size, self.output_ratio,
                                self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Mirrors `mindspore.nn.FractionalMaxPool2d`."""

    _func = staticmethod(P.fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPool):
    """Mirrors `mindspore.nn.FractionalMaxPool3d`."""

    _func = staticmethod(P.fractional_max_pool3d)


class LRN(Cell):
    """Mirrors `mindspore.nn.LRN`: local response normalization across channels."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region="ACROSS_CHANNELS"):
        super().__init__()
        self.lrn_op = P.LRN(depth_radius, bias, alpha, beta, norm_region)

    def construct(self, input_x):
        return self.lrn_op(input_x)


class ImageGradients(Cell):
    """Mirrors `mindspore.nn.ImageGradients`: (dy, dx) forward differences of (N, C, H, W)
    images, zero in the last row / column."""

    def __init__(self):
        super().__init__()

    def construct(self, images):
        return P.image_gradients(images)
