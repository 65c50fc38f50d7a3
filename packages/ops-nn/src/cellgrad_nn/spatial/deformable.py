"""`mindspore.ops.DeformableOffsets` and `ops.deformable_conv2d` (Deformable ConvNets v2).

DeformableOffsets samples x bilinearly (zero outside) at each kernel tap shifted by its offset,
scales it by the modulation mask and lays the taps out as (N, C, H_out * kh, W_out * kw);
offsets are (N, 3 * deformable_groups * kh * kw, H_out, W_out) holding x-offsets, y-offsets
then masks, each (deformable_groups, kh, kw)-major, as MindSpore 2.10's CPU kernel.
deformable_conv2d is then a conv2d with kernel = stride = (kh, kw).
"""

from types import SimpleNamespace

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.spatial.conv import conv_checked

__all__ = ["DeformableOffsets", "DeformableOffsetsGrad", "deformable_conv2d"]


def _taps(x, off, strides, pads, ksize, dilations, groups):
    """Sample positions and per-corner (flat index, in-bounds weight, d weight / dy, dx)."""
    n, _, h, w = x.shape
    kh, kw = ksize
    ho, wo = off.shape[2:]
    o = off.astype(np.float64).reshape(n, 3, groups, kh, kw, ho, wo)
    base_y = (np.arange(ho) * strides[0] - pads[0])[None, :] + \
        (np.arange(kh) * dilations[0])[:, None]
    base_x = (np.arange(wo) * strides[1] - pads[2])[None, :] + \
        (np.arange(kw) * dilations[1])[:, None]
    py = o[:, 1] + base_y[:, None, :, None]
    px = o[:, 0] + base_x[None, :, None, :]
    y0, x0 = np.floor(py), np.floor(px)
    fy, fx = py - y0, px - x0
    corners = []
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        yi, xi = y0.astype(np.int64) + dy, x0.astype(np.int64) + dx
        ok = (yi >= 0) & (yi < h) & (xi >= 0) & (xi < w)
        wy, wx = (fy if dy else 1 - fy), (fx if dx else 1 - fx)
        flat = np.where(ok, yi * w + xi, 0).reshape(n, groups, -1)
        corners.append((flat, (wy * wx * ok).reshape(n, groups, -1),
                        ((1 if dy else -1) * wx * ok).reshape(n, groups, -1),
                        ((1 if dx else -1) * wy * ok).reshape(n, groups, -1)))
    return o[:, 2].reshape(n, groups, -1), corners


def _offsets_fwd(x, off, *, strides, pads, ksize, dilations, groups):
    n, c, h, w = x.shape
    kh, kw = ksize
    ho, wo = off.shape[2:]
    mask, corners = _taps(x, off, strides, pads, ksize, dilations, groups)
    xg = x.astype(np.float64).reshape(n, groups, c // groups, h * w)
    values = [np.take_along_axis(xg, flat[:, :, None, :], axis=3) for flat, *_ in corners]
    sample = sum(v * cw[:, :, None, :] for v, (_, cw, _, _) in zip(values, corners))
    out = (sample * mask[:, :, None, :]).reshape(n, c, kh, kw, ho, wo)
    out = out.transpose(0, 1, 4, 2, 5, 3).reshape(n, c, ho * kh, wo * kw).astype(x.dtype)
    return out, (x.shape, x.dtype, off.shape, off.dtype, mask, corners, values, sample, ksize)


def _offsets_bwd(ctx, g):
    x_shape, x_dtype, off_shape, off_dtype, mask, corners, values, sample, ksize = ctx.saved
    n, c, h, w = x_shape
    groups = mask.shape[1]
    kh, kw = ksize
    ho, wo = off_shape[2:]
    g = g.astype(np.float64).reshape(n, c, ho, kh, wo, kw).transpose(0, 1, 3, 5, 2, 4)
    g = g.reshape(n, groups, c // groups, -1)
    gs = g * mask[:, :, None, :]
    gx = goff = None
    if ctx.needs_input_grad[0]:
        cpg, p = c // groups, h * w
        base = np.arange(n * c).reshape(n, groups, cpg, 1) * p
        gx = np.zeros(n * c * p)
        for flat, cw, _, _ in corners:
            gx += np.bincount((base + flat[:, :, None, :]).ravel(),
                              (gs * cw[:, :, None, :]).ravel(), n * c * p)
        gx = gx.reshape(x_shape).astype(x_dtype)
    if len(ctx.needs_input_grad) > 1 and ctx.needs_input_grad[1]:
        gy = sum((gs * v).sum(2) * dwy for v, (_, _, dwy, _) in zip(values, corners))
        gxo = sum((gs * v).sum(2) * dwx for v, (_, _, _, dwx) in zip(values, corners))
        gm = (g * sample).sum(2)
        goff = np.stack([gxo, gy, gm], axis=1).reshape(off_shape).astype(off_dtype)
    return gx, goff


DEFORMABLE_OFFSETS = Op("deformable_offsets", _offsets_fwd, _offsets_bwd, PROMOTE_NONE,
                        first_order_only=True)
OPS = (DEFORMABLE_OFFSETS,)


def _ints(op, name, value, size, what=None):
    if not isinstance(value, tuple):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'tuple', but got type "
                        f"'{type(value).__name__}'.")
    if len(value) != size:
        raise ValueError(f"For '{op}', the '{what or name} size' must be int and must = {size}, "
                         f"but got '{len(value)}' with type 'int'.")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"For '{op}', the elements of '{name}' must be int, but got {value}.")
    return value


def _check_attrs(op, strides, pads, ksize, dilations, data_format, deformable_groups,
                 modulated):
    _ints(op, "strides", strides, 4)
    _ints(op, "pads", pads, 4)
    _ints(op, "kernel_size", ksize, 2)
    _ints(op, "dilations", dilations, 4)
    for name, value in (("strides", strides), ("dilations", dilations)):
        if value[0] != 1 or value[1] != 1:
            raise ValueError(f"For '{op}', The N and C dimensions of '{name}' must be set "
                             f"to 1.")
        if value[2] <= 0 or value[3] <= 0:
            raise ValueError(f"For '{op}', the H and W of '{name}' must be positive, but "
                             f"got {value}.")
    if min(ksize) <= 0 or min(pads) < 0:
        raise ValueError(f"For '{op}', 'kernel_size' must be positive and 'pads' "
                         f"non-negative, but got {ksize} and {pads}.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"For '{op}', the 'data_format' must be str and must be in "
                         f"'['NCHW', 'NHWC']', but got '{data_format}'.")
    if not isinstance(deformable_groups, int) or isinstance(deformable_groups, bool) or \
            deformable_groups <= 0:
        raise ValueError(f"For '{op}', the 'deformable_groups' must be int and must > 0, "
                         f"but got '{deformable_groups}' with type "
                         f"'{type(deformable_groups).__name__}'.")
    if not isinstance(modulated, bool):
        raise TypeError(f"For '{op}', the 'modulated' must be a bool, but got "
                        f"{type(modulated).__name__}.")
    if not modulated:
        raise ValueError(f"For '{op}', The modulated must be set to True.")


class DeformableOffsets(Primitive):
    """Mirrors `mindspore.ops.DeformableOffsets` (deprecated in MindSpore): x (N, C, H, W),
    offsets (N, 3 * deformable_groups * kh * kw, H_out, W_out) -> (N, C, H_out*kh, W_out*kw)."""

    @prim_attr_register
    def __init__(self, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format="NCHW",
                 deformable_groups=1, modulated=True):
        _check_attrs(self.name, strides, pads, ksize, dilations, data_format,
                     deformable_groups, modulated)

    def __call__(self, x, offsets):
        op = self.name
        _checks.floating(op, "x", x)
        _checks.floating(op, "offsets", offsets)
        if self.data_format != "NCHW":
            raise ValueError(f"For '{op}', only 'data_format' 'NCHW' is supported here (as "
                             f"MindSpore's CPU kernel); transpose x and offsets to NCHW.")
        if x.dtype != offsets.dtype:
            raise TypeError(f"For '{op}', 'x' and 'offsets' must have the same dtype, but got "
                            f"{x.dtype} and {offsets.dtype}.")
        if x.ndim != 4 or offsets.ndim != 4:
            raise ValueError(f"For '{op}', 'x' and 'offsets' must be 4-D, but got "
                             f"{_checks.describe(x)} and {_checks.describe(offsets)}.")
        n, c, h, w = x.shape
        groups, (kh, kw) = self.deformable_groups, self.ksize
        if c % groups:
            raise ValueError(f"For '{op}', 'C_in' of input 'x' shape must be divisible by "
                             f"'deformable_groups', but got 'C_in' of input 'x' shape: {c}, "
                             f"and 'deformable_groups': {groups}.")
        s, p, d = self.strides[2:], self.pads, self.dilations[2:]
        ho = (h + p[0] + p[1] - (kh - 1) * d[0] - 1) // s[0] + 1
        wo = (w + p[2] + p[3] - (kw - 1) * d[1] - 1) // s[1] + 1
        want = (n, 3 * groups * kh * kw, ho, wo)
        if ho <= 0 or wo <= 0 or tuple(offsets.shape) != want:
            raise ValueError(f"For '{op}', 'offsets' must have shape {want} (N, 3 * "
                             f"deformable_groups * kh * kw, H_out, W_out), but got "
                             f"{tuple(offsets.shape)}.")
        return apply(DEFORMABLE_OFFSETS, (x, offsets),
                     {"strides": s, "pads": p, "ksize": (kh, kw), "dilations": d,
                      "groups": groups})


class DeformableOffsetsGrad(Primitive):
    """Mirrors `mindspore.ops.operations._grad_ops.DeformableOffsetsGrad(strides, pads,
    kernel_size, ...)(grad, x, offsets)` -> (grad_x, grad_offsets); H_out and W_out are read
    from `offsets`, as MindSpore's CPU kernel; 'NHWC' takes and returns channels-last Tensors."""

    @prim_attr_register
    def __init__(self, strides, pads, kernel_size, dilations=(1, 1, 1, 1), data_format="NCHW",
                 deformable_groups=1, modulated=True):
        _check_attrs(self.name, strides, pads, kernel_size, dilations, data_format,
                     deformable_groups, modulated)

    def __call__(self, grad, x, offsets):
        op = self.name
        for name, t in (("grad", grad), ("x", x), ("offsets", offsets)):
            _checks.floating(op, name, t)
            if t.ndim != 4 or t.dtype != x.dtype:
                raise ValueError(f"For '{op}', 'grad', 'x' and 'offsets' must be 4-D of one "
                                 f"dtype, but got {_checks.describe(grad)}, "
                                 f"{_checks.describe(x)} and {_checks.describe(offsets)}.")
        nhwc = self.data_format == "NHWC"
        g, xa, off = (t.asnumpy().transpose(0, 3, 1, 2) if nhwc else t.asnumpy()
                      for t in (grad, x, offsets))
        n, c = xa.shape[:2]
        groups, (kh, kw) = self.deformable_groups, self.kernel_size
        ho, wo = off.shape[2:]
        if c % groups or off.shape[:2] != (n, 3 * groups * kh * kw) or \
                g.shape != (n, c, ho * kh, wo * kw):
            raise ValueError(f"For '{op}', with x (N, C) = {(n, c)} (C divisible by "
                             f"deformable_groups {groups}) 'offsets' must be ({n}, "
                             f"{3 * groups * kh * kw}, H_out, W_out) and 'grad' ({n}, {c}, "
                             f"H_out * {kh}, W_out * {kw}), but got {off.shape} and {g.shape} "
                             f"({self.data_format}).")
        attrs = {"strides": self.strides[2:], "pads": self.pads, "ksize": (kh, kw),
                 "dilations": self.dilations[2:], "groups": groups}
        _, saved = _offsets_fwd(xa, off, **attrs)
        gx, goff = _offsets_bwd(SimpleNamespace(saved=saved, needs_input_grad=(True, True)), g)
        if nhwc:
            gx, goff = gx.transpose(0, 2, 3, 1), goff.transpose(0, 2, 3, 1)
        return Tensor(np.ascontiguousarray(gx)), Tensor(np.ascontiguousarray(goff))


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None,
                      dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    """Mirrors `mindspore.ops.deformable_conv2d` (deprecated in MindSpore): DeformableOffsets,
    then a conv2d with kernel = stride = kernel_size, plus `bias`."""
    _ints("deformable_conv2d", "kernel_size", kernel_size, 2)
    sampled = DeformableOffsets(strides, padding, kernel_size, dilations, "NCHW",
                                deformable_groups, modulated)(x, offsets)
    return conv_checked("deformable_conv2d", sampled, weight, bias, tuple(kernel_size),
                        "valid", 0, 1, groups)
