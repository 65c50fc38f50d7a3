"""Region sampling: `ROIAlign` on (N, C, H, W) features and `CropAndResize` /
`ops.crop_and_resize` on (B, H, W, C) images, as MindSpore 2.10 computes them on the CPU.

Both sample each output position bilinearly, and the sampling separates by axis, so each region
is one (out_h, H) and one (out_w, W) weight matrix: the forward is `My @ x @ Mx.T`, the image
gradient `My.T @ g @ Mx`.
"""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad.plugins import PROMOTE_NONE, Op, apply
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._prim_attrs import of_type


def _lerp_matrix(pos, size, keep=None):
    """(len(pos), size) weights reading positions `pos` (already in [0, size - 1]) linearly
    between floor and floor + 1; rows where `keep` is False are zero."""
    low = np.minimum(np.floor(pos).astype(np.int64), size - 1)
    high = np.minimum(low + 1, size - 1)
    frac = pos - low
    m = np.zeros((len(pos), size), np.float64)
    rows = np.arange(len(pos))
    np.add.at(m, (rows, low), 1 - frac)
    np.add.at(m, (rows, high), frac)
    if keep is not None:
        m[~keep] = 0
    return m


# ---- ROIAlign ----

def _roi_axis(start, extent, pooled, grid, size):
    """Weights (pooled, size) of one ROI axis: the mean over `grid` samples per bin, each
    sample bilinear (MindSpore's rule: outside [-1, size] it reads nothing, below 0 it reads
    the first element, past size - 1 the last)."""
    bin_size = extent / pooled
    p = np.arange(pooled)[:, None]
    s = np.arange(grid)[None, :]
    pos = (start + p * bin_size + (s + 0.5) * bin_size / grid).reshape(-1)
    keep = (pos >= -1.0) & (pos <= size)
    m = _lerp_matrix(np.clip(pos, 0, size - 1), size, keep)
    return m.reshape(pooled, grid, size).sum(1) / grid


def roi_weights(rois, height, width, pooled_h, pooled_w, scale, sample_num, end_mode):
    """Per ROI: (batch index, rows read, their (pooled_h, rows) weights, columns read, their
    (pooled_w, columns) weights).

    As MindSpore's kernel: only `roi_end_mode=0` widens a ROI smaller than 1 to 1 (with 1 a
    reversed ROI samples backwards); an adaptive grid of no samples divides 0 by 0 (NaN).
    """
    plans = []
    for roi in rois.astype(np.float64):
        x1, y1 = roi[1] * scale, roi[2] * scale
        w = (roi[3] + end_mode) * scale - x1
        h = (roi[4] + end_mode) * scale - y1
        if end_mode == 0:
            w, h = max(w, 1.0), max(h, 1.0)
        gh = sample_num if sample_num > 0 else int(np.floor(h / pooled_h))
        gw = sample_num if sample_num > 0 else int(np.floor(w / pooled_w))
        if gh > 0 and gw > 0:
            my, mx = _roi_axis(y1, h, pooled_h, gh, height), _roi_axis(x1, w, pooled_w, gw, width)
        else:  # no samples: 0 / (gh * gw)
            fill = np.nan if gh * gw == 0 else 0.0
            my, mx = np.full((pooled_h, height), fill), np.full((pooled_w, width), fill)
        plans.append((int(np.rint(roi[0])), *_support(my), *_support(mx)))
    return plans


def _support(m):
    """The columns a weight matrix reads, as a slice, and its block there (all of it when it
    holds NaN, none when it is zero)."""
    used = np.flatnonzero(np.isnan(m).any(0) | (m != 0).any(0))
    if np.isnan(m).any():
        return slice(0, m.shape[1]), m
    if used.size == 0:
        return slice(0, 0), m[:, :0]
    cols = slice(int(used[0]), int(used[-1]) + 1)
    return cols, m[:, cols]


def _roi_align_fwd(x, *, plans):
    n_out = (len(plans), x.shape[1]) + ((plans[0][2].shape[0], plans[0][4].shape[0])
                                        if plans else (0, 0))
    out = np.empty(n_out, x.dtype)
    ct = np.float64 if x.dtype == np.float64 else np.float32
    c = x.shape[1]
    for i, (b, ys, my, xs, mx) in enumerate(plans):
        block = x[b, :, ys, xs].astype(ct)  # (C, h, w): the ROI's block only
        h, w = block.shape[1:]
        cols = (block.reshape(c * h, w) @ mx.T.astype(ct)).reshape(c, h, mx.shape[0])
        out[i] = np.matmul(my.astype(ct), cols)
    return out, (x.shape, plans)


def _roi_align_bwd(ctx, g):
    shape, plans = ctx.saved
    ct = np.float64 if g.dtype == np.float64 else np.float32
    gx = np.zeros(shape, ct)
    c = shape[1]
    for i, (b, ys, my, xs, mx) in enumerate(plans):
        gi = g[i].astype(ct)  # (C, PH, PW)
        ph, pw = gi.shape[1:]
        cols = (gi.reshape(c * ph, pw) @ np.nan_to_num(mx).astype(ct)).reshape(c, ph, -1)
        gx[b, :, ys, xs] += np.matmul(np.nan_to_num(my).T.astype(ct), cols)
    return gx.astype(g.dtype, copy=False)


ROI_ALIGN = Op("roi_align", _roi_align_fwd, _roi_align_bwd, PROMOTE_NONE, first_order_only=True)


class ROIAlign(Primitive):
    """Mirrors `mindspore.ops.ROIAlign(pooled_height, pooled_width, spatial_scale,
    sample_num=2, roi_end_mode=1)(features, rois)`: rois are (batch index, x1, y1, x2, y2)
    rows; an adaptive grid (`sample_num=0`) of zero samples gives NaN, as in MindSpore. The
    rois get no gradient (MindSpore's is zero). Differs on purpose: the features' gradient is
    that of the forward for both `roi_end_mode`s; MindSpore 2.10's backward always samples as
    `roi_end_mode=1`."""

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2,
                 roi_end_mode=1):
        for name, value in (("pooled_height", pooled_height), ("pooled_width", pooled_width),
                            ("sample_num", sample_num), ("roi_end_mode", roi_end_mode)):
            of_type(self.name, name, value, int)
        of_type(self.name, "spatial_scale", spatial_scale, float)
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For 'ROIAlign', the 'roi_end_mode' must be 0 or 1, but got "
                             f"{roi_end_mode}.")

    def __call__(self, features, rois):
        for name, t in (("features", features), ("rois", rois)):
            if not isinstance(t, Tensor) or \
                    t.asnumpy().dtype.type not in (np.float16, np.float32):
                raise TypeError(f"For primitive[ROIAlign], the input argument[{name}] must be "
                                f"a type of {{Tensor[Float16], Tensor[Float32]}}, but got "
                                f"{_checks.describe(t)}.")
        if features.ndim != 4 or rois.ndim != 2 or rois.shape[1] != 5:
            raise ValueError(f"For 'ROIAlign', 'features' must be (N, C, H, W) and 'rois' "
                             f"(R, 5), got {_checks.describe(features)} and "
                             f"{_checks.describe(rois)}.")
        n, _, h, w = features.shape
        r = rois.asnumpy()
        if r.size and (np.rint(r[:, 0]).min() < 0 or np.rint(r[:, 0]).max() >= n):
            raise ValueError(f"For 'ROIAlign', the batch index of 'rois' must be in [0, {n}), "
                             f"got {r[:, 0].tolist()}.")
        plans = roi_weights(r, h, w, self.pooled_height, self.pooled_width,
                            self.spatial_scale, self.sample_num, self.roi_end_mode)
        return apply(ROI_ALIGN, (features,), {"plans": plans})


# ---- CropAndResize ----

METHODS = ("bilinear", "nearest", "bilinear_v2")


def _crop_axis(method, lo, hi, crop, size, ct=np.float32):
    """(weights (crop, size), rows inside the image, positions) for one box axis."""
    if method == "bilinear_v2":
        # MindSpore's own rule: the box in whole pixels, sampled at bin centres.
        i = np.arange(crop, dtype=np.float64)
        first, last = np.trunc(lo * size), np.trunc(hi * size)
        pos = first + (i + 0.5) * (last - first + 1) / crop - 0.5
        pos = np.maximum(np.minimum(pos, last), first)
        return _lerp_matrix(np.clip(pos, 0, size - 1), size), np.ones(crop, bool), pos
    # TensorFlow's rule, in float32 for float32 boxes as its kernel computes it (nearest
    # rounds the result).
    lo, hi, top = ct(lo), ct(hi), ct(size - 1)
    i = np.arange(crop, dtype=ct)
    if crop > 1:
        pos = lo * top + i * ((hi - lo) * top / ct(crop - 1))
    else:
        pos = np.full(crop, ct(0.5) * (lo + hi) * top)
    pos = pos.astype(np.float64)
    keep = (pos >= 0) & (pos <= size - 1)
    safe = np.where(keep, pos, 0)
    if method == "nearest":
        m = np.zeros((crop, size))
        m[np.arange(crop), np.minimum(np.floor(safe + 0.5).astype(np.int64), size - 1)] = 1
        m[~keep] = 0
        return m, keep, pos
    return _lerp_matrix(safe, size, keep), keep, pos


def _crop_fwd(image, boxes, *, index, crop, method, extrapolation, dtype=np.float32):
    _, h, w, _ = image.shape
    out = np.empty((len(boxes),) + crop + (image.shape[3],), dtype)
    plans = []
    ct = np.float64 if boxes.dtype == np.float64 else np.float32
    for n, (box, b) in enumerate(zip(boxes.astype(np.float64), index)):
        my, keep_y, py = _crop_axis(method, box[0], box[2], crop[0], h, ct)
        mx, keep_x, px = _crop_axis(method, box[1], box[3], crop[1], w, ct)
        out[n] = np.einsum("ih,hwc,jw->ijc", my, image[b].astype(np.float64), mx)
        inside = keep_y[:, None] & keep_x[None, :]
        out[n][~inside] = extrapolation
        plans.append((b, my, mx, inside, py, px))
    return out, (image, boxes, plans, method)


def _box_grads(image, box, g, b, inside, py, px):
    """TensorFlow's CropAndResizeGradBoxes for one box (bilinear): the derivative of each
    sampled value through its source position, zero where the position is a whole pixel."""
    _, h, w, _ = image.shape
    crop_h, crop_w = g.shape[:2]
    ty, tx = np.floor(py).astype(np.int64), np.floor(px).astype(np.int64)
    by, bx = np.ceil(py).astype(np.int64), np.ceil(px).astype(np.int64)
    ly, lx = (py - ty)[:, None, None], (px - tx)[None, :, None]
    img = image[b].astype(np.float64)
    cy, cx = np.clip(ty, 0, h - 1), np.clip(tx, 0, w - 1)
    dy, dx = np.clip(by, 0, h - 1), np.clip(bx, 0, w - 1)
    tl, tr = img[cy][:, cx], img[cy][:, dx]
    bl, br = img[dy][:, cx], img[dy][:, dx]
    gy = (((1 - lx) * (bl - tl) + lx * (br - tr)) * g * inside[..., None]).sum(-1)
    gx = (((1 - ly) * (tr - tl) + ly * (br - bl)) * g * inside[..., None]).sum(-1)
    yi, xi = np.arange(crop_h, dtype=np.float64), np.arange(crop_w, dtype=np.float64)
    if crop_h > 1:
        ry = (h - 1) / (crop_h - 1)
        d_y1, d_y2 = (h - 1) - yi * ry, yi * ry
    else:
        d_y1 = d_y2 = np.full(1, 0.5 * (h - 1))
    if crop_w > 1:
        rx = (w - 1) / (crop_w - 1)
        d_x1, d_x2 = (w - 1) - xi * rx, xi * rx
    else:
        d_x1 = d_x2 = np.full(1, 0.5 * (w - 1))
    sy, sx = gy.sum(1), gx.sum(0)
    return np.array([sy @ d_y1, sx @ d_x1, sy @ d_y2, sx @ d_x2])


def _crop_bwd(ctx, g):
    image, boxes, plans, method = ctx.saved
    need = tuple(ctx.needs_input_grad) + (False,)
    g = g.astype(np.float64)
    gimg = np.zeros(image.shape, np.float64) if need[0] else None
    gbox = np.zeros(boxes.shape, np.float64) if need[1] else None
    for n, (b, my, mx, inside, py, px) in enumerate(plans):
        gn = g[n] * inside[..., None]
        if gimg is not None:
            gimg[b] += np.einsum("ih,ijc,jw->hwc", my, gn, mx)
        if gbox is not None and method == "bilinear":
            gbox[n] = _box_grads(image, boxes[n], gn, b, inside, py, px)
    return (None if gimg is None else gimg.astype(image.dtype, copy=False),
            None if gbox is None else gbox.astype(boxes.dtype))


CROP_AND_RESIZE = Op("crop_and_resize", _crop_fwd, _crop_bwd, PROMOTE_NONE,
                     first_order_only=True)
OPS = (ROI_ALIGN, CROP_AND_RESIZE)


class CropAndResize(Primitive):
    """Mirrors `mindspore.ops.CropAndResize(method='bilinear', extrapolation_value=0.0)
    (x, boxes, box_index, crop_size)`: crops of (B, H, W, C) images at normalised
    (y1, x1, y2, x2) boxes, resized to `crop_size`; Float32 output. The gradients are those
    of each method's output: the boxes get TensorFlow's gradient for 'bilinear' and none for
    the other two (their output is piecewise constant in the boxes). Differs on purpose:
    MindSpore 2.10 gives 'bilinear_v2' the image gradient of 'nearest', and 'nearest' and
    'bilinear_v2' the box gradient of 'bilinear'."""

    @prim_attr_register
    def __init__(self, method="bilinear", extrapolation_value=0.0):
        if method not in METHODS:
            raise ValueError(f"For 'CropAndResize', the 'method' must be str and must be in "
                             f"'{list(METHODS)}', but got '{method}'.")
        of_type(self.name, "extrapolation_value", extrapolation_value, float)
        self.init_prim_io_names(inputs=["x", "boxes", "box_index", "crop_size"],
                                outputs=["y"])

    def __call__(self, x, boxes, box_index, crop_size):
        op = self.name
        _checks.tensor(op, "x", x)
        if x.ndim != 4:
            raise ValueError(f"For '{op}', 'x' must be 4-D (batch, height, width, channels), "
                             f"got {_checks.describe(x)}.")
        _checks.floating(op, "boxes", boxes)
        _checks.integer(op, "box_index", box_index)
        if boxes.ndim != 2 or boxes.shape[1] != 4 or box_index.shape != (boxes.shape[0],):
            raise ValueError(f"For '{op}', 'boxes' must be (N, 4) and 'box_index' (N,), got "
                             f"{_checks.describe(boxes)} and {_checks.describe(box_index)}.")
        if not isinstance(crop_size, (tuple, list)) or len(crop_size) != 2 or any(
                isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in crop_size):
            raise ValueError(f"For '{op}', 'crop_size' must be a tuple of two positive ints, "
                             f"got {crop_size!r}.")
        index = box_index.asnumpy().astype(np.int64)
        bad = (index < 0) | (index >= x.shape[0])
        if bad.any():
            raise ValueError(f"For '{op}', the value of box_index must be in [0, "
                             f"{x.shape[0]}), but got {index[bad].tolist()}.")
        out = apply(CROP_AND_RESIZE, (x, boxes),
                    {"index": index, "crop": tuple(crop_size), "method": self.method,
                     "extrapolation": self.extrapolation_value})
        return out


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Mirrors `mindspore.ops.crop_and_resize`."""
    return CropAndResize(method, extrapolation_value)(image, boxes, box_indices, crop_size)
