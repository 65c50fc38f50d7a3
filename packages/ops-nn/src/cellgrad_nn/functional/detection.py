"""Box primitives of detection networks, as MindSpore 2.10 computes them on the CPU: `IOU` /
`ops.iou`, `BoundingBoxEncode` / `ops.bounding_box_encode`, `BoundingBoxDecode` /
`ops.bounding_box_decode`, `CheckValid` / `ops.check_valid` and `NMSWithMask`.

Boxes are (x1, y1, x2, y2) rows. IOU and the encode/decode pair use MindSpore's pixel
convention (a box's width is x2 - x1 + 1); NMSWithMask measures x2 - x1. None of them has a
gradient in MindSpore (IOU's is zero): their outputs are not recorded.
"""

import numpy as np

from cellgrad.common.tensor import Tensor
from cellgrad.ops.primitive import Primitive, prim_attr_register
from cellgrad_nn.functional import _checks
from cellgrad_nn.functional._prim_attrs import of_type

_FLOATS = (np.float16, np.float32, np.float64)


def _boxes(op, name, x, dtypes=_FLOATS, width=4):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, got {type(x).__name__}.")
    if x.asnumpy().dtype.type not in dtypes:
        kinds = ", ".join(f"Tensor[{np.dtype(d).name.capitalize()}]" for d in dtypes)
        raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                        f"{{{kinds}}}, but got {_checks.describe(x)}.")
    if x.ndim != 2 or x.shape[1] != width:
        raise ValueError(f"For primitive[{op}], the {name}.shape[1] must be equal to {width}, "
                         f"but got {_checks.describe(x)}.")
    return x.asnumpy()


def _same_dtype(op, a, b):
    if a.dtype != b.dtype:
        raise TypeError(f"For primitive[{op}], the input type must be same, got "
                        f"{a.dtype} and {b.dtype}.")


def _pixel_boxes(b):
    """(width, height, centre x, centre y) with MindSpore's +1 pixel convention."""
    w, h = b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1
    return w, h, b[:, 0] + 0.5 * (w - 1), b[:, 1] + 0.5 * (h - 1)


# ---- IOU ----

def _overlaps(anchor, gt, mode):
    """(len(gt), len(anchor)) intersection over union (or over the gt box's area: 'iof')."""
    a, g = anchor.astype(np.float32)[None], gt.astype(np.float32)[:, None]
    iw = np.maximum(np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + 1, 0)
    ih = np.maximum(np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + 1, 0)
    inter = iw * ih
    area_a = (a[..., 2] - a[..., 0] + 1) * (a[..., 3] - a[..., 1] + 1)
    area_g = (g[..., 2] - g[..., 0] + 1) * (g[..., 3] - g[..., 1] + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = inter / (area_g if mode == "iof" else area_a + area_g - inter)
    return out.astype(anchor.dtype)


def _mode(mode):
    if mode not in ("iou", "iof"):
        raise KeyError(f"For 'IOU', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    return mode


class IOU(Primitive):
    """Mirrors `mindspore.ops.IOU(mode='iou')(anchor_boxes, gt_boxes)`: a (M, N) overlap for
    N anchors and M ground-truth boxes."""

    @prim_attr_register
    def __init__(self, mode="iou"):
        _mode(mode)
        self.init_prim_io_names(inputs=["anchor_boxes", "gt_boxes"], outputs=["overlap"])

    def __call__(self, anchor_boxes, gt_boxes):
        a = _boxes(self.name, "anchor_boxes", anchor_boxes)
        g = _boxes(self.name, "gt_boxes", gt_boxes)
        _same_dtype(self.name, a, g)
        return Tensor(_overlaps(a, g, self.mode))


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Mirrors `mindspore.ops.iou`."""
    return IOU(mode)(anchor_boxes, gt_boxes)


# ---- BoundingBoxEncode / BoundingBoxDecode ----

def _four_floats(op, name, values):
    of_type(op, name, values, tuple)
    if len(values) != 4:
        raise ValueError(f"For '{op}', the length of '{name}' must be 4, but got "
                         f"{len(values)}.")
    for i, v in enumerate(values):
        of_type(op, f"{name}[{i}]", v, float)
    return np.asarray(values, np.float32)


def _pair(op, a, b):
    """Both (N, 4) arrays of one dtype, same N."""
    x, y = _boxes(op, a[0], a[1]), _boxes(op, b[0], b[1])
    _same_dtype(op, x, y)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"For '{op}', '{a[0]}' and '{b[0]}' must have the same first "
                         f"dimension. But got {a[0]}_shape[0]: {x.shape[0]}, "
                         f"{b[0]}_shape[0]: {y.shape[0]}.")
    return x, y


class BoundingBoxEncode(Primitive):
    """Mirrors `mindspore.ops.BoundingBoxEncode(means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0,
    1.0, 1.0))(anchor_box, groundtruth_box)`: the (dx, dy, dw, dh) deltas, normalised."""

    @prim_attr_register
    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        _four_floats(self.name, "means", means)
        _four_floats(self.name, "stds", stds)

    def __call__(self, anchor_box, groundtruth_box):
        a, g = _pair(self.name, ("anchor_box", anchor_box),
                     ("groundtruth_box", groundtruth_box))
        pw, ph, px, py = _pixel_boxes(a.astype(np.float32))
        gw, gh, gx, gy = _pixel_boxes(g.astype(np.float32))
        deltas = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], 1)
        deltas = (deltas - np.asarray(self.means, np.float32)) / np.asarray(self.stds, np.float32)
        return Tensor(deltas.astype(a.dtype))


class BoundingBoxDecode(Primitive):
    """Mirrors `mindspore.ops.BoundingBoxDecode(max_shape, means=(0.0, 0.0, 0.0, 0.0),
    stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016)(anchor_box, deltas)`: boxes clipped to
    [0, width] x [0, height] of `max_shape` (height, width)."""

    @prim_attr_register
    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip=0.016):
        _four_floats(self.name, "means", means)
        _four_floats(self.name, "stds", stds)
        of_type(self.name, "wh_ratio_clip", wh_ratio_clip, float)
        of_type(self.name, "max_shape", max_shape, tuple)
        if len(max_shape) != 2:
            raise ValueError(f"For 'BoundingBoxDecode', the 'max_shape len' must be int and "
                             f"must = 2, but got '{len(max_shape)}' with type 'int'.")

    def __call__(self, anchor_box, deltas):
        a, d = _pair(self.name, ("anchor_box", anchor_box), ("deltas", deltas))
        d = d.astype(np.float32) * np.asarray(self.stds, np.float32) + \
            np.asarray(self.means, np.float32)
        pw, ph, px, py = _pixel_boxes(a.astype(np.float32))
        limit = np.float32(abs(np.log(self.wh_ratio_clip)))
        dw, dh = np.clip(d[:, 2], -limit, limit), np.clip(d[:, 3], -limit, limit)
        gx, gy = px + pw * d[:, 0], py + ph * d[:, 1]
        gw, gh = pw * np.exp(dw), ph * np.exp(dh)
        height, width = (np.float32(s) for s in self.max_shape)
        boxes = np.stack([np.clip(gx - 0.5 * gw + 0.5, 0, width),
                          np.clip(gy - 0.5 * gh + 0.5, 0, height),
                          np.clip(gx + 0.5 * gw - 0.5, 0, width),
                          np.clip(gy + 0.5 * gh - 0.5, 0, height)], 1)
        return Tensor(boxes.astype(a.dtype))


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """Mirrors `mindspore.ops.bounding_box_encode`."""
    return BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """Mirrors `mindspore.ops.bounding_box_decode`."""
    return BoundingBoxDecode(max_shape, means, stds, wh_ratio_clip)(anchor_box, deltas)


# ---- CheckValid ----

class CheckValid(Primitive):
    """Mirrors `mindspore.ops.CheckValid()(bboxes, img_metas)`: whether each box lies inside
    the image of `img_metas` = (height, width, ratio): x1, y1 >= 0, x2 <= width * ratio - 1 and
    y2 <= height * ratio - 1."""

    def __call__(self, bboxes, img_metas):
        kinds = (np.float16, np.float32, np.int16, np.uint8)
        b = _boxes(self.name, "bboxes", bboxes, kinds)
        if not isinstance(img_metas, Tensor):
            raise TypeError(f"For 'CheckValid', 'img_metas' must be a Tensor, got "
                            f"{type(img_metas).__name__}.")
        m = img_metas.asnumpy()
        if m.shape != (3,):
            raise ValueError(f"For 'CheckValid', the first dimension of 'img_metas' must equal "
                             f"to 3, but got: {m.shape[0] if m.ndim else m.shape}.")
        b, m = b.astype(np.float32), m.astype(np.float32)
        ok = (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= m[1] * m[2] - 1) & \
            (b[:, 3] <= m[0] * m[2] - 1)
        return Tensor(ok)


def check_valid(bboxes, img_metas):
    """Mirrors `mindspore.ops.check_valid`."""
    return CheckValid()(bboxes, img_metas)


# ---- NMSWithMask ----

def _bitonic_order(scores):
    """MindSpore's CPU kernel order: a bitonic sorting network, ascending, padded to a power of
    two with the largest float, read backwards. Ties come out in the network's order (not
    stably), so this runs the same network."""
    n = len(scores)
    p = 1 << max(n - 1, 0).bit_length()
    key = np.full(p, np.finfo(np.float32).max, np.float32)
    key[:n] = scores
    idx = np.arange(p)
    tid = np.arange(p)
    size = 2
    while size <= p:
        step = size >> 1
        while step:
            lo = tid[(tid ^ step) > tid]
            hi = lo ^ step
            up = (lo & size) == 0
            swap = np.where(up, key[lo] > key[hi], key[lo] < key[hi])
            a, b = lo[swap], hi[swap]
            key[a], key[b] = key[b], key[a].copy()
            idx[a], idx[b] = idx[b], idx[a].copy()
            step >>= 1
        size <<= 1
    order = idx[::-1]
    return order[order < n]


class NMSWithMask(Primitive):
    """Mirrors `mindspore.ops.NMSWithMask(iou_threshold=0.5)(bboxes)` on (N, 5) rows
    (x1, y1, x2, y2, score): returns (the rows sorted by score, descending; Int32 indices
    0..N-1 into them, as MindSpore 2.10's CPU kernel gives; the Bool mask of rows kept).
    A row is dropped when its IoU with a kept, higher-scored row is above the threshold."""

    @prim_attr_register
    def __init__(self, iou_threshold=0.5):
        of_type(self.name, "iou_threshold", iou_threshold, float)
        self.init_prim_io_names(inputs=["bboxes"],
                                outputs=["selected_boxes", "selected_idx", "selected_mask"])

    def __call__(self, bboxes):
        if _checks.tensor(self.name, "bboxes", bboxes).ndim != 2 or bboxes.shape[1] != 5:
            raise ValueError(f"For NMSWithMask, the 2nd dim in shape of bboxes should equal "
                             f"to 5 or 8, but got {_checks.describe(bboxes)}.")
        x = _boxes(self.name, "bboxes", bboxes, (np.float16, np.float32), width=5)
        rows = x[_bitonic_order(x[:, 4].astype(np.float32))]
        b = rows[:, :4].astype(np.float32)
        area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
        iw = np.maximum(np.minimum(b[:, None, 2], b[None, :, 2]) -
                        np.maximum(b[:, None, 0], b[None, :, 0]), 0)
        ih = np.maximum(np.minimum(b[:, None, 3], b[None, :, 3]) -
                        np.maximum(b[:, None, 1], b[None, :, 1]), 0)
        inter = iw * ih
        with np.errstate(divide="ignore", invalid="ignore"):
            over = inter / (area[:, None] + area[None, :] - inter) > self.iou_threshold
        keep = np.ones(len(rows), bool)
        for i in range(len(rows)):
            if keep[i]:
                keep[i + 1:] &= ~over[i, i + 1:]
        return Tensor(rows), Tensor(np.arange(len(rows), dtype=np.int32)), Tensor(keep)
