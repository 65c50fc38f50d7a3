"""Cells that rearrange their input: `nn.PixelShuffle`, `nn.PixelUnshuffle`,
`nn.ChannelShuffle`, `nn.Unflatten`, `nn.Roll`, `nn.CentralCrop`, `nn.Unfold`."""

import math

from cellgrad.nn import Cell
from cellgrad.ops import functional as F
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional import rearrange as R


class PixelShuffle(Cell):
    """Mirrors `mindspore.nn.PixelShuffle`."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def construct(self, input):
        return R.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """Mirrors `mindspore.nn.PixelUnshuffle`."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def construct(self, input):
        return R.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Mirrors `mindspore.nn.ChannelShuffle`."""

    def __init__(self, groups):
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
            raise ValueError(f"For 'ChannelShuffle', the 'groups' must be int and must > 0, but "
                             f"got '{groups}'.")
        self.groups = groups

    def construct(self, x):
        return R.channel_shuffle(x, self.groups)


class Unflatten(Cell):
    """Mirrors `mindspore.nn.Unflatten`: dimension `axis` split into `unflattened_size`."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', the 'axis' must be int, but got "
                            f"{type(axis).__name__}.")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"For 'Unflatten', the 'unflattened_size' must be tuple or list, but "
                            f"got {type(unflattened_size).__name__}.")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input):
        axis = _checks.axis("Unflatten", self.axis, input.ndim)
        sizes = self.unflattened_size
        known = math.prod(s for s in sizes if s != -1)
        if sizes.count(-1) > 1 or (-1 not in sizes and known != input.shape[axis]) or \
                (-1 in sizes and (known == 0 or input.shape[axis] % known)):
            raise ValueError(f"For 'Unflatten', 'unflattened_size' {sizes} does not split "
                             f"dimension {axis} of size {input.shape[axis]}.")
        shape = tuple(input.shape)
        return F.reshape(input, shape[:axis] + sizes + shape[axis + 1:])


class Roll(Cell):
    """Mirrors `mindspore.nn.Roll`: elements shifted along `axis`, wrapping around
    (MindSpore 2.10's CPU build has no kernel for it; this follows its documentation)."""

    def __init__(self, shift, axis):
        super().__init__()
        self.shift, self.axis = shift, axis

    def construct(self, input_x):
        from cellgrad import ops

        return ops.roll(input_x, self.shift, self.axis)


class CentralCrop(Cell):
    """Mirrors `mindspore.nn.CentralCrop`: the central `central_fraction` of the height and
    width of (C, H, W) or (N, C, H, W) images."""

    def __init__(self, central_fraction):
        super().__init__()
        if isinstance(central_fraction, bool) or not isinstance(central_fraction, float):
            raise TypeError(f"For 'CentralCrop', the type of 'central_fraction' should be "
                            f"'float', but got type '{type(central_fraction).__name__}'.")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For 'CentralCrop', the 'central_fraction' must be in range of "
                             f"(0.0, 1.0], but got {central_fraction!r} with type 'float'.")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"For 'CentralCrop', the 'image' must be 3-D (C, H, W) or 4-D "
                             f"(N, C, H, W), but got {_checks.describe(image)}.")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top, left = int(h * (1 - self.central_fraction) / 2), int(w * (1 - self.central_fraction)
                                                                   / 2)
        return image[..., top:h - top, left:w - left]


class Unfold(Cell):
    """Mirrors `mindspore.nn.Unfold` (TensorFlow's extract_image_patches): (N, C, H, W) ->
    (N, kh * kw * C, OH, OW), each patch's values ordered by row, column, then channel.
    MindSpore 2.10's CPU build has no kernel for it; this follows its documentation."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        for name, value in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or \
                    value[3] != 1 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                                         for v in value):
                raise ValueError(f"For 'Unfold', the '{name}' must be a list or tuple of 4 "
                                 f"positive ints [1, row, col, 1], but got {value!r}.")
        if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
            raise ValueError(f"For 'Unfold', the 'padding' must be 'valid' or 'same', but got "
                             f"{padding!r}.")
        self.ksizes, self.strides, self.rates = tuple(ksizes), tuple(strides), tuple(rates)
        self.padding = padding.lower()

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError(f"For 'Unfold', the input must be 4-D (N, C, H, W), but got "
                             f"{_checks.describe(x)}.")
        (kh, kw), (sh, sw), (rh, rw) = self.ksizes[1:3], self.strides[1:3], self.rates[1:3]
        eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
        h, w = x.shape[2:]
        if self.padding == "same":
            oh, ow = -(-h // sh), -(-w // sw)
            ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
            from cellgrad import ops

            x = ops.pad(x, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))
        else:
            oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
        if oh < 1 or ow < 1:
            raise ValueError(f"For 'Unfold', the patch ({eh}, {ew}) is larger than the input "
                             f"{_checks.describe(x)}.")
        last_h, last_w = (oh - 1) * sh + 1, (ow - 1) * sw + 1
        patches = [x[:, :, i * rh:i * rh + last_h:sh, j * rw:j * rw + last_w:sw]
                   for i in range(kh) for j in range(kw)]
        n, c = x.shape[:2]
        return F.reshape(F.stack(patches, 1), (n, kh * kw * c, oh, ow))
