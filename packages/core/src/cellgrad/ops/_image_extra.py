"""Patch, glimpse and slice Primitives of `mindspore.ops` that MindSpore 2.10's CPU build runs:
ExtractVolumePatches, ExtractGlimpse and SparseSlice.

Index bookkeeping is numpy; the values move by `gather` on the tape, so the gradients are
gather's (MindSpore differentiates both ops' values).
"""

import numbers

import numpy as np

from cellgrad import seeding
from cellgrad._core._buffer import make_tensor
from cellgrad.dtype import int64
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F
from cellgrad.ops.primitive import Primitive, prim_attr_register

__all__ = ["ExtractVolumePatches", "ExtractGlimpse", "SparseSlice"]


def _five(name, value, what):
    op = "ExtractVolumePatches"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        value = (value,) * 3
    ok = isinstance(value, (tuple, list)) and len(value) in (3, 5) and all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) and v > 0 for v in value)
    if not ok:
        raise ValueError(f"For '{op}', the parameter '{name}' must be an positive integer or a "
                         f"tuple of three or five positive integer, but got {value}")
    value = tuple(int(v) for v in value)
    if len(value) == 3:
        value = (1, 1) + value
    for i in (0, 1):
        if value[i] != 1:
            raise ValueError(f"For '{op}', the '{name}[{i}]' must be int and must = 1, but got "
                             f"'{value[i]}' with type 'int'.")
    return value


class ExtractVolumePatches(Primitive):
    """Mirrors `mindspore.ops.ExtractVolumePatches`: (N, C, D, H, W) to
    (N, kd*kh*kw*C, oD, oH, oW), patch elements ordered (kd, kh, kw, C) as TensorFlow's."""

    @prim_attr_register
    def __init__(self, kernel_size, strides, padding):
        self.kernel_size = _five("kernel_size", kernel_size, "kernel")
        self.strides = _five("strides", strides, "strides")
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', the 'padding' must be str and must be in "
                             f"'['VALID', 'SAME']', but got '{padding}'.")
        self.padding = padding.upper()

    def __call__(self, input_x):
        C.tensor(self.name, "input_x", input_x)
        if input_x.ndim != 5:
            raise ValueError(f"For '{self.name}', the dimension of 'input_x' must be 5, but got "
                             f"{input_x.ndim}.")
        n, c, *size = input_x.shape
        ks, st = self.kernel_size[2:], self.strides[2:]
        outs, before = [], []
        for dim, k, s in zip(size, ks, st):
            if self.padding == "VALID":
                if dim < k:
                    raise ValueError(f"For '{self.name}', the input's spatial size {tuple(size)} "
                                     f"must be at least 'kernel_size' {ks} with 'VALID'.")
                outs.append((dim - k) // s + 1)
                before.append(0)
            else:  # TensorFlow's SAME: the extra padding goes after
                out = -(-dim // s)
                outs.append(out)
                before.append(max(0, (out - 1) * s + k - dim) // 2)
        # position of each output element in the flattened input; -1 reads the zero pad
        grids = [np.arange(o)[:, None] * s + np.arange(k)[None, :] - b
                 for o, s, k, b in zip(outs, st, ks, before)]  # (out, k) per axis
        (gd, gh, gw), (dd, hh, ww) = grids, size
        d = gd.T[:, None, None, None, :, None, None]  # (kd, 1, 1, 1, oD, 1, 1)
        h = gh.T[None, :, None, None, None, :, None]
        w = gw.T[None, None, :, None, None, None, :]
        ch = np.arange(c)[None, None, None, :, None, None, None]
        inside = (d >= 0) & (d < dd) & (h >= 0) & (h < hh) & (w >= 0) & (w < ww)
        flat = ((ch * dd + d) * hh + h) * ww + w
        flat = np.where(inside, flat, c * dd * hh * ww).reshape(-1)
        x = F.reshape(input_x, (n, c * dd * hh * ww))
        x = F.concat((x, F.zeros((n, 1), input_x.dtype)), 1)
        out = F.gather(x, flat.astype(np.int64), 1)
        return F.reshape(out, (n, int(np.prod(ks)) * c, *outs))


class SparseSlice(Primitive):
    """Mirrors `mindspore.ops.SparseSlice`: the entries of a COO tensor inside the box
    [start, start + size), their indices shifted by `start`, and the box's shape clipped to the
    tensor's."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, indices, values, shape, start, size):
        op = self.name
        for name, t in (("indices", indices), ("shape", shape), ("start", start),
                        ("size", size)):
            C.dtype_in(op, name, t, "i", "{Tensor[Int64]}")
        C.tensor(op, "values", values)
        idx = indices._data.astype(np.int64)
        dims = shape._data.astype(np.int64).reshape(-1)
        lo = start._data.astype(np.int64).reshape(-1)
        ext = size._data.astype(np.int64).reshape(-1)
        if idx.ndim != 2 or values.ndim != 1 or idx.shape[0] != values.shape[0]:
            raise ValueError(f"For '{op}', 'indices' must be 2-D (N, R) and 'values' 1-D (N,), "
                             f"but got shapes {tuple(indices.shape)} and {tuple(values.shape)}.")
        if not idx.shape[1] == dims.size == lo.size == ext.size:
            raise ValueError(f"For '{op}', 'shape', 'start' and 'size' must have rank "
                             f"{idx.shape[1]} elements, but got {dims.size}, {lo.size} and "
                             f"{ext.size}.")
        if np.any(lo < 0) or np.any(ext < 0):
            raise ValueError(f"For '{op}', 'start' and 'size' must be non-negative, but got "
                             f"{lo.tolist()} and {ext.tolist()}.")
        hi = np.minimum(lo + ext, dims)
        keep = np.flatnonzero(np.all((idx >= lo) & (idx < hi), axis=1))
        out_shape = np.maximum(hi - lo, 0)
        return (make_tensor(np.ascontiguousarray(idx[keep] - lo), None, 0, int64),
                F.gather(values, keep.astype(np.int64), 0),
                make_tensor(out_shape, None, 0, int64))


class ExtractGlimpse(Primitive):
    """Mirrors `mindspore.ops.ExtractGlimpse`: a (size[0], size[1]) window of each NHWC image
    at offsets[i] = (row, column), as MindSpore's CPU kernel places it (normalized: times the
    image size; centered: halved and moved by half the image; then minus half the window,
    truncated). Pixels outside the image are noise: uniform in [-1, 1] ('uniform' or
    uniform_noise), max(0, N(10, 0.5)) ('gaussian') or 0 ('zero'); the noise is drawn from
    cellgrad's seeded generator (MindSpore's is unseeded). Not differentiable, as MindSpore's."""

    @prim_attr_register
    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        for name, value in (("centered", centered), ("normalized", normalized),
                            ("uniform_noise", uniform_noise)):
            C.boolean(self.name, name, value)
        if noise not in ("uniform", "gaussian", "zero"):
            raise ValueError(f"For '{self.name}', the 'noise' must be str and must be in "
                             f"'['uniform', 'gaussian', 'zero']', but got '{noise}'.")
        if uniform_noise and noise != "uniform":
            raise ValueError(f"For '{self.name}', the value of 'noise' must be uniform when "
                             f"uniform_noise is True, but got {noise}.")

    def __call__(self, x, size, offsets):
        op = self.name
        C.dtype_in(op, "x", x, "f", "{Tensor[Float32]}")
        win = C.indices(op, "size", size).reshape(-1)
        C.dtype_in(op, "offsets", offsets, "f", "{Tensor[Float32]}")
        if x.ndim != 4:
            raise ValueError(f"For '{op}', the dimension of 'x' must be 4 (NHWC), but got "
                             f"{x.ndim}.")
        if win.size != 2 or np.any(win <= 0):
            raise ValueError(f"For '{op}', 'size' must hold 2 positive ints (height, width), "
                             f"but got {win.tolist()}.")
        n, hgt, wid, ch = x.shape
        off = offsets._data.astype(np.float32)
        if off.shape != (n, 2):
            raise ValueError(f"For '{op}', the shape of 'offsets' must be ({n}, 2), but got "
                             f"{tuple(off.shape)}.")
        gh, gw = int(win[0]), int(win[1])
        rows, cols = off[:, 0].copy(), off[:, 1].copy()
        if self.normalized:
            rows, cols = rows * np.float32(hgt), cols * np.float32(wid)
        if self.centered:
            rows, cols = rows / 2 + np.float32(hgt / 2), cols / 2 + np.float32(wid / 2)
        top = np.trunc(rows - np.float32(gh / 2)).astype(np.int64)[:, None, None]
        left = np.trunc(cols - np.float32(gw / 2)).astype(np.int64)[:, None, None]
        r = top + np.arange(gh)[None, :, None]
        c = left + np.arange(gw)[None, None, :]
        inside = (r >= 0) & (r < hgt) & (c >= 0) & (c < wid)
        b = np.arange(n)[:, None, None]
        out = np.empty((n, gh, gw, ch), x._data.dtype)
        out[inside] = x._data[b, np.clip(r, 0, hgt - 1), np.clip(c, 0, wid - 1)][inside]
        outside = ~inside
        count = int(outside.sum()) * ch
        if count:
            if self.uniform_noise or self.noise == "uniform":
                fill = seeding.generator("ExtractGlimpse").uniform(-1, 1, count)
            elif self.noise == "gaussian":
                fill = np.maximum(0, seeding.generator("ExtractGlimpse").normal(10, 0.5, count))
            else:
                fill = np.zeros(count)
            out[outside] = fill.reshape(-1, ch)
        return make_tensor(out, None, 0, x.dtype)
