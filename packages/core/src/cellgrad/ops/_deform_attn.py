"""`mindspore.ops.multi_scale_deformable_attn_function` (an Ascend kernel in MindSpore) on the
CPU: Deformable DETR's multi-scale deformable attention, i.e. per level a bilinear
`grid_sample` (align_corners=False, zero padding) of the value map at the sampling locations,
weighted by the attention weights and summed over levels and points.

The corner indices are numpy; the bilinear weights, the gathers and the sums are tape ops, so
value, locations and weight all get their gradients (the kernel's bprop returns those three).
"""

import numpy as np

from cellgrad._core._buffer import make_tensor
from cellgrad.ops import _prim_checks as C
from cellgrad.ops import functional as F

__all__ = ["multi_scale_deformable_attn_function"]

_OP = "multi_scale_deformable_attn_function"


def _check(name, x, kinds, what):
    C.tensor(_OP, name, x)
    if x._data.dtype.kind not in kinds:
        raise RuntimeError(f"For '{_OP}', the dtype of '{name}' must be {what}, but got "
                           f"{x.dtype}.")


def _like(arr, x):
    """A constant Tensor of `arr` in the dtype of Tensor `x`."""
    return make_tensor(np.ascontiguousarray(arr, dtype=x._data.dtype), None, 0, x.dtype)


def multi_scale_deformable_attn_function(value, shape, offset, locations, weight):
    """Mirrors `mindspore.ops.multi_scale_deformable_attn_function`."""
    _check("value", value, "f", "float32 or float16")
    _check("shape", shape, "iu", "int32 or int64")
    _check("offset", offset, "iu", "int32 or int64")
    _check("locations", locations, "f", "float32 or float16")
    _check("weight", weight, "f", "float32 or float16")
    if value.ndim != 4 or locations.ndim != 6 or weight.ndim != 5:
        raise RuntimeError(f"For '{_OP}', 'value' must be 4-D, 'locations' 6-D and 'weight' "
                           f"5-D, but got shapes {tuple(value.shape)}, {tuple(locations.shape)} "
                           f"and {tuple(weight.shape)}.")
    bs, keys, heads, dims = value.shape
    _, nq, _, levels, points, _ = locations.shape
    sizes = shape._data.reshape(-1, 2).astype(np.int64)
    starts = offset._data.reshape(-1).astype(np.int64)
    if dims % 8:
        raise RuntimeError(f"For '{_OP}', 'embed_dims' must be a multiple of 8, but got {dims}.")
    if (tuple(locations.shape[:3]) != (bs, nq, heads) or locations.shape[-1] != 2
            or tuple(weight.shape) != tuple(locations.shape[:5])
            or sizes.shape[0] != levels or starts.size != levels):
        raise RuntimeError(f"For '{_OP}', expected 'locations' (bs, num_queries, num_heads, "
                           f"num_levels, num_points, 2), 'weight' its first 5 dims, 'shape' "
                           f"(num_levels, 2) and 'offset' (num_levels,), but got "
                           f"{tuple(locations.shape)}, {tuple(weight.shape)}, "
                           f"{tuple(shape.shape)} and {tuple(offset.shape)}.")
    if np.any(starts + sizes.prod(1) > keys) or np.any(starts < 0):
        raise RuntimeError(f"For '{_OP}', each level's keys (offset + H * W) must lie within "
                           f"num_keys={keys}.")
    flat_value = F.reshape(value, (bs * keys * heads, dims))
    b = np.arange(bs).reshape(bs, 1, 1, 1)
    h = np.arange(heads).reshape(1, 1, heads, 1)
    loc = locations._data
    out = None
    for lvl in range(levels):
        hgt, wid = (int(s) for s in sizes[lvl])
        px = F.sub(F.mul(locations[:, :, :, lvl, :, 0], float(wid)), 0.5)
        py = F.sub(F.mul(locations[:, :, :, lvl, :, 1], float(hgt)), 0.5)
        x0 = np.floor(loc[:, :, :, lvl, :, 0].astype(np.float64) * wid - 0.5).astype(np.int64)
        y0 = np.floor(loc[:, :, :, lvl, :, 1].astype(np.float64) * hgt - 0.5).astype(np.int64)
        fx = F.sub(px, _like(x0, locations))  # weight of the x0 + 1 corner
        fy = F.sub(py, _like(y0, locations))
        attn = weight[:, :, :, lvl, :]
        for dy, wy in ((0, F.sub(1.0, fy)), (1, fy)):
            for dx, wx in ((0, F.sub(1.0, fx)), (1, fx)):
                yy, xx = y0 + dy, x0 + dx
                inside = (yy >= 0) & (yy < hgt) & (xx >= 0) & (xx < wid)
                key = starts[lvl] + np.clip(yy, 0, hgt - 1) * wid + np.clip(xx, 0, wid - 1)
                rows = (b * keys + key) * heads + h  # (bs, nq, heads, points)
                corner = F.gather(flat_value, rows.reshape(-1), 0)
                corner = F.reshape(corner, (bs, nq, heads, points, dims))
                mask = _like(inside, value)
                coef = F.mul(F.mul(F.mul(wx, wy), mask), attn)
                term = F.reduce_sum(F.mul(corner, F.expand_dims(coef, -1)), 3)
                out = term if out is None else F.add(out, term)
    return F.reshape(out, (bs, nq, heads * dims))
