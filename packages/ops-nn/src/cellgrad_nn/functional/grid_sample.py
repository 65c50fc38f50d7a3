"""`ops.grid_sample` and the `GridSampler2D` / `GridSampler3D` primitives: sampling (N, C, H, W)
or (N, C, D, H, W) inputs at the normalised [-1, 1] positions of a grid, bilinearly or at the
nearest element, with zero, border or reflection padding: PyTorch's rules, which MindSpore
2.10's CPU kernels follow but for 'nearest' rounding halves away from zero.

The input is read through flat indices, so the backward is one `bincount` per corner for the
input and the weights' derivatives for the grid.
"""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks

MODES = ("bilinear", "nearest")
PADDINGS = ("zeros", "border", "reflection")


def _reflect(c, low2, high2):
    """Reflect `c` into [low2 / 2, high2 / 2]; returns (position, d position / d c)."""
    if low2 == high2:
        return np.zeros_like(c), np.zeros_like(c)
    lo, span = low2 / 2, (high2 - low2) / 2
    d = c - lo
    sign = np.where(d < 0, -1.0, 1.0)
    d = np.abs(d)
    flips = np.floor(d / span)
    extra = np.fmod(d, span)
    even = flips % 2 == 0
    return np.where(even, extra + lo, span - extra + lo), np.where(even, sign, -sign)


def _source(g, size, padding, align_corners):
    """Input positions for normalised grid values `g` along an axis of `size`, and their
    derivative with respect to `g`."""
    if align_corners:
        c, dc = (g + 1) / 2 * (size - 1), np.full_like(g, (size - 1) / 2)
    else:
        c, dc = ((g + 1) * size - 1) / 2, np.full_like(g, size / 2)
    if padding == "border":
        inside = (c > 0) & (c < size - 1)
        return np.clip(c, 0, size - 1), dc * inside
    if padding == "reflection":
        c, flip = _reflect(c, 0, 2 * (size - 1)) if align_corners else \
            _reflect(c, -1, 2 * size - 1)
        inside = (c > 0) & (c < size - 1)
        return np.clip(c, 0, size - 1), dc * flip * inside
    return c, dc


def _corners(coords, sizes, mode):
    """Per corner: (flat index, in-bounds mask, weight, d weight / d coordinate per axis)."""
    d = len(coords)
    if mode == "nearest":
        # halves round away from zero, as MindSpore's kernel (PyTorch rounds them to even)
        idx = [np.where(c >= 0, np.floor(c + 0.5), np.ceil(c - 0.5)).astype(np.int64)
               for c in coords]
        ok = np.logical_and.reduce([(i >= 0) & (i < s) for i, s in zip(idx, sizes)])
        flat = _flat(idx, sizes, ok)
        return [(flat, ok, np.ones_like(coords[0]), None)]
    lows = [np.floor(c) for c in coords]
    fracs = [c - lo for c, lo in zip(coords, lows)]
    corners = []
    for bits in range(1 << d):
        idx, ws, dws = [], [], []
        for k in range(d):
            hi = (bits >> k) & 1
            idx.append(lows[k].astype(np.int64) + hi)
            ws.append(fracs[k] if hi else 1 - fracs[k])
            dws.append(1.0 if hi else -1.0)
        ok = np.logical_and.reduce([(i >= 0) & (i < s) for i, s in zip(idx, sizes)])
        weight = np.prod(ws, axis=0)
        dweight = [dws[k] * np.prod([ws[j] for j in range(d) if j != k], axis=0)
                   for k in range(d)]
        corners.append((_flat(idx, sizes, ok), ok, weight, dweight))
    return corners


def _flat(idx, sizes, ok):
    flat = np.zeros_like(idx[0])
    for i, s in zip(idx, sizes):
        flat = flat * s + np.where(ok, i, 0)
    return flat


def _grid_fwd(x, grid, *, mode, padding, align_corners):
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    d = len(spatial)
    g = grid.astype(np.float64 if grid.dtype == np.float64 else np.float32)
    # grid[..., 0] indexes the last (width) axis, grid[..., 1] the one before, ...
    sources = [_source(g[..., d - 1 - k], spatial[k], padding, align_corners) for k in range(d)]
    coords = [s[0] for s in sources]
    corners = _corners(coords, spatial, mode)
    flat_x = x.reshape(n, c, -1).astype(np.float64)
    q = coords[0].reshape(n, -1).shape[1]
    out = np.zeros((n, c, q))
    values = []
    for flat, ok, weight, _ in corners:
        v = np.take_along_axis(flat_x, flat.reshape(n, 1, q), axis=2)
        v *= ok.reshape(n, 1, q)
        out += v * weight.reshape(n, 1, q)
        values.append(v)
    out = out.reshape((n, c) + grid.shape[1:-1]).astype(x.dtype)
    return out, (x.shape, x.dtype, grid.dtype, corners, values, [s[1] for s in sources], mode)


def _grid_bwd(ctx, g):
    shape, x_dtype, grid_dtype, corners, values, dsrc, mode = ctx.saved
    n, c = shape[:2]
    p = int(np.prod(shape[2:]))
    g = g.reshape(n, c, -1).astype(np.float64)
    q = g.shape[2]
    gx = ggrid = None
    need = ctx.needs_input_grad
    if need[0]:
        base = (np.arange(n)[:, None, None] * c + np.arange(c)[None, :, None]) * p
        gx = np.zeros(n * c * p)
        for flat, ok, weight, _ in corners:
            w = g * (weight * ok).reshape(n, 1, q)
            gx += np.bincount((base + flat.reshape(n, 1, q)).ravel(), w.ravel(), n * c * p)
        gx = gx.reshape(shape).astype(x_dtype)
    if len(need) > 1 and need[1]:
        d = len(dsrc)
        grid_shape = dsrc[0].shape
        ggrid = np.zeros(grid_shape + (d,))
        if mode == "bilinear":
            per_axis = np.zeros((d,) + grid_shape)
            for (_, _, _, dweight), v in zip(corners, values):
                gv = (g * v).sum(1).reshape(grid_shape)
                for k in range(d):
                    per_axis[k] += gv * dweight[k]
            for k in range(d):  # the padding's derivative last, as MindSpore's kernel
                ggrid[..., d - 1 - k] = per_axis[k] * dsrc[k]
        ggrid = ggrid.astype(grid_dtype)
    return gx, ggrid


GRID_SAMPLE = Op("grid_sample", _grid_fwd, _grid_bwd, PROMOTE_NONE, first_order_only=True)
OPS = (GRID_SAMPLE,)


def _sample(op, x, grid, mode, padding_mode, align_corners, ranks=(4, 5)):
    _checks.floating(op, "input", x)
    _checks.floating(op, "grid", grid)
    if mode not in MODES:
        raise ValueError(f"For '{op}', 'mode' must be one of {list(MODES)} (bicubic is not "
                         f"supported, as in MindSpore 2.10), got {mode!r}.")
    if padding_mode not in PADDINGS:
        raise ValueError(f"For '{op}', 'padding_mode' must be one of {list(PADDINGS)}, got "
                         f"{padding_mode!r}.")
    if not isinstance(align_corners, bool):
        raise TypeError(f"For '{op}', 'align_corners' must be a bool, got "
                        f"{type(align_corners).__name__}.")
    if x.ndim not in ranks or grid.ndim != x.ndim or grid.shape[0] != x.shape[0] or \
            grid.shape[-1] != x.ndim - 2:
        raise ValueError(f"For '{op}', 'input' must be {' or '.join(f'{r}-D' for r in ranks)} "
                         f"and 'grid' (N, *output, {x.ndim - 2}) of the same rank and batch, "
                         f"got {_checks.describe(x)} and {_checks.describe(grid)}.")
    if x.dtype != grid.dtype:
        raise TypeError(f"For '{op}', 'input' and 'grid' must have the same dtype, got "
                        f"{x.dtype} and {grid.dtype}.")
    return apply(GRID_SAMPLE, (x, grid), {"mode": mode, "padding": padding_mode,
                                          "align_corners": align_corners})


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Mirrors `mindspore.ops.grid_sample` for 4-D and 5-D inputs, modes 'bilinear' and
    'nearest' (MindSpore 2.10 rejects 'bicubic'); `align_corners=None` is False."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'grid_sample', 'input' must be a Tensor, got "
                        f"{type(input).__name__}.")
    return _sample("grid_sample", input, grid, mode, padding_mode, bool(align_corners))


class GridSampler2D(Primitive):
    """Mirrors `mindspore.ops.GridSampler2D(interpolation_mode='bilinear',
    padding_mode='zeros', align_corners=False)(input_x, grid)`."""

    _ranks = (4,)

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros",
                 align_corners=False):
        # MindSpore records the modes as its enum values (MODES / PADDINGS order)
        for name, value, known in (("interpolation_mode", interpolation_mode, MODES),
                                   ("padding_mode", padding_mode, PADDINGS)):
            if value not in known:
                raise ValueError(f"For '{self.name}', '{name}' must be one of {list(known)}, "
                                 f"got {value!r}.")
            self.add_prim_attr(name, known.index(value))

    def __call__(self, input_x, grid):
        return _sample(self.name, input_x, grid, MODES[self.interpolation_mode],
                       PADDINGS[self.padding_mode], bool(self.align_corners), self._ranks)


class GridSampler3D(GridSampler2D):
    """Mirrors `mindspore.ops.GridSampler3D(interpolation_mode='bilinear',
    padding_mode='zeros', align_corners=False)(input_x, grid)`."""

    _ranks = (5,)
