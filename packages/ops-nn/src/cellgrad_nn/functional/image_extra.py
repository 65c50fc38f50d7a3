"""`ops.affine_grid` / `AffineGrid`, `MaxPoolWithArgmax(V2)`, `RGBToHSV` / `HSVToRGB` and
`ops.swiglu`."""

import numpy as np

from cellgrad import ops
from cellgrad.common import dtype as mstype
from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive
from cellgrad_nn.functional import _checks


def _base(n, align_corners):
    if n == 1:
        return np.zeros(1)
    line = np.linspace(-1.0, 1.0, n)
    return line if align_corners else line * (n - 1) / n


def affine_grid(theta, size, align_corners=False):
    """Mirrors `mindspore.ops.affine_grid`: the sampling grid (N, H, W, 2) of 2-D affine
    matrices theta (N, 2, 3), or (N, D, H, W, 3) of 3-D ones (N, 3, 4), for `size` (N, C, H, W)
    / (N, C, D, H, W); differentiable in theta."""
    if not isinstance(theta, Tensor) or theta.asnumpy().dtype.kind != "f":
        raise TypeError(f"For 'affine_grid', 'theta' must be a float Tensor, but got "
                        f"{_checks.describe(theta)}.")
    size = tuple(size)
    spatial = len(size) - 2
    if spatial not in (2, 3) or tuple(theta.shape) != (size[0], spatial, spatial + 1):
        raise ValueError(f"For 'affine_grid', 'size' must have 4 or 5 values and 'theta' the "
                         f"shape (N, k, k + 1) matching it, but got size {size} and theta shape "
                         f"{theta.shape}.")
    axes = [_base(s, align_corners) for s in reversed(size[2:])]  # x (width) first
    mesh = list(np.meshgrid(*axes[::-1], indexing="ij"))[::-1]
    base = np.stack(mesh + [np.ones_like(mesh[0])], -1).reshape(-1, spatial + 1)
    base = Tensor(base.astype(theta.asnumpy().dtype))
    grid = ops.matmul(base, ops.swapaxes(theta, 1, 2))
    return grid.reshape((size[0],) + size[2:] + (spatial,))


class AffineGrid(Primitive):
    """Mirrors `mindspore.ops.AffineGrid`."""

    def __init__(self, align_corners=False):
        super().__init__("AffineGrid")
        if not isinstance(align_corners, bool):
            raise TypeError(f"For 'AffineGrid', 'align_corners' must be bool, but got "
                            f"{type(align_corners).__name__}.")
        self.align_corners = align_corners

    def __call__(self, theta, output_size):
        return affine_grid(theta, output_size, self.align_corners)


def _pair(op, name, value):
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) == 4:
        values = values[2:]
    if len(values) != 2 or any(not isinstance(v, int) or v < 1 for v in values):
        raise ValueError(f"For '{op}', '{name}' must be a positive int or a tuple of 2 (or 4) "
                         f"positive ints, but got {value!r}.")
    return values


class MaxPoolWithArgmaxV2(Primitive):
    """Mirrors `mindspore.ops.MaxPoolWithArgmaxV2`: (output, argmax), argmax the flat index in
    each (H, W) plane."""

    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=mstype.int64):
        super().__init__("MaxPoolWithArgmaxV2")
        self.kernel_size = _pair(self.name, "kernel_size", kernel_size)
        self.strides = self.kernel_size if strides is None else _pair(self.name, "strides",
                                                                      strides)
        self.pads = (pads, pads) if isinstance(pads, int) else tuple(pads)
        self.dilation = _pair(self.name, "dilation", dilation)
        self.ceil_mode = ceil_mode
        if argmax_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'MaxPoolWithArgmaxV2', 'argmax_type' must be int32 or int64, "
                            f"but got {argmax_type}.")
        self.argmax_type = argmax_type

    def __call__(self, x):
        out, idx = ops.max_pool2d(x, self.kernel_size, self.strides, self.pads, self.dilation,
                                  True, self.ceil_mode)
        return out, ops.cast(idx, self.argmax_type)


class MaxPoolWithArgmax(Primitive):
    """Mirrors `mindspore.ops.MaxPoolWithArgmax`: (output, argmax) for 'valid' or 'same'
    padding, argmax (Int32) the flat index over each sample's (C, H, W)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        super().__init__("MaxPoolWithArgmax")
        self.kernel_size = _pair(self.name, "kernel_size", kernel_size)
        self.strides = _pair(self.name, "strides", strides)
        self.pad_mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if self.pad_mode not in ("valid", "same"):
            raise ValueError(f"For 'MaxPoolWithArgmax', 'pad_mode' must be 'valid' or 'same', "
                             f"but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'MaxPoolWithArgmax', only 'NCHW' is supported on the CPU, "
                             f"but got {data_format!r}.")
        self.data_format = data_format

    def __call__(self, x):
        if not isinstance(x, Tensor) or x.ndim != 4:
            raise ValueError(f"For 'MaxPoolWithArgmax', 'x' must be a 4-D Tensor, but got "
                             f"{_checks.describe(x)}.")
        n, c, h, w = x.shape
        (kh, kw), (sh, sw) = self.kernel_size, self.strides
        top = left = 0
        if self.pad_mode == "same":
            oh, ow = -(-h // sh), -(-w // sw)
            ph, pw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - w, 0)
            # MindSpore 2.10's CPU kernel puts (kernel - stride) // 2 before, the rest after
            top, left = max(kh - sh, 0) // 2, max(kw - sw, 0) // 2
            x = ops.pad(x, (left, pw - left, top, ph - top), value=float("-inf"))
        out, idx = ops.max_pool2d(x, (kh, kw), (sh, sw), 0, 1, True, False)
        row, col = np.divmod(idx.asnumpy(), x.shape[3])
        plane = (row - top) * w + (col - left)
        plane = plane + (np.arange(c) * h * w).reshape(1, c, 1, 1)
        return out, Tensor(plane.astype(np.int32))


def _hsv_check(op, x, rank=None):
    if not isinstance(x, Tensor) or x.asnumpy().dtype.kind != "f":
        raise TypeError(f"For primitive[{op}], the input must be a float Tensor, but got "
                        f"{_checks.describe(x)}.")
    if rank is not None and x.ndim != rank:
        raise ValueError(f"For primitive[{op}], the the dimension of [x] must be equal to "
                         f"{rank}, but got {x.ndim}.")
    if x.shape[-1] != 3:
        raise ValueError(f"For primitive[{op}], the last dimension of [x] must be 3, but got "
                         f"shape {x.shape}.")


class RGBToHSV(Primitive):
    """Mirrors `mindspore.ops.RGBToHSV`: (..., 3) RGB in [0, 1] -> HSV, hue in [0, 1)."""

    def __init__(self):
        super().__init__("RGBToHSV")

    def __call__(self, images):
        _hsv_check(self.name, images)
        a = images.asnumpy()
        r, g, b = a[..., 0], a[..., 1], a[..., 2]
        v = a.max(-1)
        delta = v - a.min(-1)
        s = np.where(v > 0, delta / np.where(v > 0, v, 1), 0)
        safe = np.where(delta > 0, delta, 1)
        h = np.where(v == r, (g - b) / safe, np.where(v == g, 2 + (b - r) / safe,
                                                      4 + (r - g) / safe)) / 6
        h = np.where(delta > 0, h % 1.0, 0)
        return Tensor(np.stack([h, s, v], -1).astype(a.dtype))


class HSVToRGB(Primitive):
    """Mirrors `mindspore.ops.HSVToRGB`: (N, H, W, 3) HSV -> RGB."""

    def __init__(self):
        super().__init__("HSVToRGB")

    def __call__(self, x):
        _hsv_check(self.name, x, 4)
        a = x.asnumpy()
        h, s, v = a[..., 0] * 6, a[..., 1], a[..., 2]
        k = np.stack([(5 + h) % 6, (3 + h) % 6, (1 + h) % 6], -1)
        rgb = v[..., None] - (v * s)[..., None] * np.clip(np.minimum(k, 4 - k), 0, 1)
        return Tensor(rgb.astype(a.dtype))


def swiglu(input, dim=-1):
    """Mirrors `mindspore.ops.swiglu`: input split in two halves a, b along `dim`;
    silu(a) * b."""
    if input.shape[dim] % 2:
        raise ValueError(f"For 'swiglu', the size of 'input' along dim {dim} must be even, but "
                         f"got {input.shape[dim]}.")
    a, b = ops.chunk(input, 2, dim)
    return ops.silu(a) * b


def _tf_padding(op, mode, size, kernel, stride, dilation):
    """(pad_before, out_size) of TensorFlow's 'VALID' / 'SAME' for one axis."""
    span = (kernel - 1) * dilation + 1
    if mode == "valid":
        return 0, (size - span) // stride + 1
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return total // 2, out


def _four(op, name, value):
    values = (value, value) if isinstance(value, int) else tuple(value)
    if len(values) == 4:
        values = values[2:]
    if len(values) != 2 or any(not isinstance(v, int) or v < 1 for v in values):
        raise ValueError(f"For '{op}', '{name}' must be an int or a tuple of 2 or 4 positive "
                         f"ints, but got {value!r}.")
    return values


def _windows(op, shape, kernel, stride, dilation, mode):
    """Per axis: the input index of each (output, kernel tap), -1 where it falls in padding."""
    taps = []
    for size, k, s, d in zip(shape, kernel, stride, dilation):
        before, out = _tf_padding(op, mode, size, k, s, d)
        if out < 1:
            raise ValueError(f"For '{op}', the input size {size} is too small for kernel {k} "
                             f"with dilation {d} ('{mode}' padding).")
        idx = np.arange(out)[:, None] * s + np.arange(k)[None, :] * d - before
        taps.append(np.where((idx >= 0) & (idx < size), idx, -1))
    return taps


class Dilation2D(Primitive):
    """Mirrors `mindspore.ops.Dilation2D` (MindSpore 2.10's CPU build rejects its own
    pad_mode strings): grayscale dilation of (N, C, H, W) by a (C, kh, kw) filter,
    max over the window of x + filter, 'VALID' or 'SAME' (TensorFlow's) padding;
    differentiable in x and filter through the argmax."""

    def __init__(self, stride, dilation, pad_mode="SAME", data_format="NCHW"):
        super().__init__("Dilation2D")
        self.stride = _four(self.name, "stride", stride)
        self.dilation = _four(self.name, "dilation", dilation)
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("same", "valid"):
            raise ValueError(f"For 'Dilation2D', 'pad_mode' must be 'SAME' or 'VALID', but got "
                             f"{pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For 'Dilation2D', 'data_format' must be 'NCHW', but got "
                             f"{data_format!r}.")
        self.pad_mode, self.data_format = pad_mode.lower(), data_format

    def __call__(self, x, filter):
        if not isinstance(x, Tensor) or x.ndim != 4 or not isinstance(filter, Tensor) or \
                filter.ndim != 3 or filter.shape[0] != x.shape[1]:
            raise ValueError(f"For 'Dilation2D', 'x' must be (N, C, H, W) and 'filter' (C, kh, "
                             f"kw) with the same C, but got {_checks.describe(x)} and "
                             f"{_checks.describe(filter)}.")
        n, c, h, w = x.shape
        _, kh, kw = filter.shape
        rows, cols = _windows(self.name, (h, w), (kh, kw), self.stride, self.dilation,
                              self.pad_mode)
        a, f = x.asnumpy(), filter.asnumpy()
        r = rows[:, None, :, None]                                   # oh, 1, kh, 1
        q = cols[None, :, None, :]                                   # 1, ow, 1, kw
        valid = (r >= 0) & (q >= 0)
        vals = a[:, :, np.clip(r, 0, None), np.clip(q, 0, None)] + f[None, :, None, None]
        vals = np.where(valid, vals, -np.inf).reshape(n, c, len(rows), len(cols), -1)
        best = vals.argmax(-1)
        tap_r, tap_c = np.divmod(best, kw)
        src_r = np.take_along_axis(np.broadcast_to(rows[None, None, :, None, :],
                                                   (n, c, len(rows), len(cols), kh)),
                                   tap_r[..., None], -1)[..., 0]
        src_c = np.take_along_axis(np.broadcast_to(cols[None, None, None, :, :],
                                                   (n, c, len(rows), len(cols), kw)),
                                   tap_c[..., None], -1)[..., 0]
        x_idx = Tensor((src_r * w + src_c).reshape(n, c, -1))
        f_idx = Tensor(best.transpose(1, 0, 2, 3).reshape(c, -1))
        picked_x = ops.gather_elements(x.reshape(n, c, -1), 2, x_idx)
        picked_f = ops.gather_elements(filter.reshape(c, -1), 1, f_idx)
        picked_f = ops.transpose(picked_f.reshape(c, n, -1), (1, 0, 2))
        return (picked_x + picked_f).reshape(n, c, len(rows), len(cols))


class ExtractImagePatches(Primitive):
    """Mirrors `mindspore.ops.ExtractImagePatches` (Ascend/GPU in MindSpore; it runs here):
    (N, C, H, W) -> (N, kh * kw * C, out_h, out_w), patch elements in TensorFlow's (row, col,
    channel) order, 'VALID' or 'SAME' padding with zeros; `rates` dilate the patch."""

    def __init__(self, ksizes, strides, rates, padding="VALID"):
        super().__init__("ExtractImagePatches")
        self.ksizes = _four(self.name, "ksizes", ksizes)
        self.strides = _four(self.name, "strides", strides)
        self.rates = _four(self.name, "rates", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"For 'ExtractImagePatches', 'padding' must be 'SAME' or 'VALID', "
                             f"but got {padding!r}.")
        self.padding = padding.lower()

    def __call__(self, input_x):
        if not isinstance(input_x, Tensor) or input_x.ndim != 4:
            raise ValueError(f"For 'ExtractImagePatches', 'input_x' must be a 4-D Tensor, but "
                             f"got {_checks.describe(input_x)}.")
        n, c, h, w = input_x.shape
        rows, cols = _windows(self.name, (h, w), self.ksizes, self.strides, self.rates,
                              self.padding)
        (kh, kw), oh, ow = self.ksizes, len(rows), len(cols)
        padded = ops.concat((input_x.reshape(n, c, -1), ops.zeros((n, c, 1), input_x.dtype)),
                            2)
        r = rows.T[:, None, :, None]                                  # kh, 1, oh, 1
        q = cols.T[None, :, None, :]                                  # 1, kw, 1, ow
        flat = np.where((r >= 0) & (q >= 0), r * w + q, h * w)       # kh, kw, oh, ow
        gathered = ops.gather(padded, Tensor(flat.reshape(-1)), 2)    # n, c, kh*kw*oh*ow
        gathered = gathered.reshape(n, c, kh * kw, oh, ow)
        return ops.transpose(gathered, (0, 2, 1, 3, 4)).reshape(n, kh * kw * c, oh, ow)
