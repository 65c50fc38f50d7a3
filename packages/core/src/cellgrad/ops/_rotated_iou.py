"""`mindspore.ops.rotated_iou` (an Ascend-only kernel in MindSpore) on the CPU.

Exact overlap of rotated rectangles: each box of `boxes` is clipped by the four edges of its
partner (Sutherland-Hodgman, vectorised over all pairs with fixed 8-vertex buffers) and the
clipped polygon's area is the shoelace sum, all in float64. A box (x, y, w, h, t) has the
corners (x, y) + R(t) (+-w/2, +-h/2), R the rotation by t degrees (x to y positive, as
mmcv/detectron2's rotated boxes). The kernel has no gradient in MindSpore: the result is a
constant here too.
"""

import numpy as np

from cellgrad.dtype import float32
from cellgrad.ops import _prim_checks as C

__all__ = ["rotated_iou"]

_OP = "rotated_iou"
_FLOATS = ("Float16", "Float32", "BFloat16")
_MAX_VERTS = 8  # a convex polygon clipped by a rectangle keeps at most 8 vertices


def _boxes(name, x):
    C.tensor(_OP, name, x)
    if str(x.dtype) not in _FLOATS:
        raise ValueError(f"For '{_OP}', the dtype of '{name}' must be float16, float32 or "
                         f"bfloat16, but got {x.dtype}.")
    if x.ndim != 3 or x.shape[2] != 5:
        raise ValueError(f"For '{_OP}', '{name}' must have the shape (B, N, 5), but got "
                         f"{tuple(x.shape)}.")
    return x.astype(float32).asnumpy().astype(np.float64)


def _threshold(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"For '{_OP}', the type of '{name}' should be 'float', but got "
                        f"'{type(value).__name__}'.")
    if value < 0:
        raise ValueError(f"For '{_OP}', '{name}' must be >= 0, but got {value}.")
    return float(value)


def _corners(b, trans):
    """(..., 5) boxes -> (..., 4, 2) corners in counter-clockwise order, and areas (...)."""
    if trans:  # 'xyxyt'
        ctr = (b[..., 0:2] + b[..., 2:4]) / 2
        wh = np.abs(b[..., 2:4] - b[..., 0:2])
    else:  # 'xywht'
        ctr, wh = b[..., 0:2], np.abs(b[..., 2:4])
    t = np.deg2rad(b[..., 4])
    c, s = np.cos(t), np.sin(t)
    local = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    lx, ly = local[:, 0] * wh[..., 0:1], local[:, 1] * wh[..., 1:2]
    x = ctr[..., None, 0] + c[..., None] * lx - s[..., None] * ly
    y = ctr[..., None, 1] + s[..., None] * lx + c[..., None] * ly
    return np.stack([x, y], -1), wh[..., 0] * wh[..., 1]


def _cross(a, b, p):
    """z of (b - a) x (p - a): >= 0 where p lies left of the directed edge a -> b."""
    return ((b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1])
            - (b[..., 1] - a[..., 1]) * (p[..., 0] - a[..., 0]))


def _clip(poly, cnt, a, b, tol):
    """One Sutherland-Hodgman pass: keep the part of each polygon (P, M, 2) with `cnt` vertices
    left of the edge a -> b (P, 2); a vertex within `tol` of the edge's line counts as inside.
    A zero-length edge (a degenerate box) gives nan distances: nothing is inside."""
    m = poly.shape[1]
    idx = np.arange(m)
    valid = idx < cnt[:, None]
    prev_idx = np.where(idx == 0, np.maximum(cnt[:, None] - 1, 0), idx - 1)
    prev = np.take_along_axis(poly, prev_idx[..., None], 1)
    # signed distances to the edge's line, so that `tol` is a length
    with np.errstate(invalid="ignore", divide="ignore"):
        side_c = _cross(a[:, None], b[:, None], poly) / np.hypot(*(b - a).T)[:, None]
    side_p = np.take_along_axis(side_c, prev_idx, 1)
    in_c, in_p = side_c >= -tol, side_p >= -tol
    crosses = valid & (in_c != in_p)
    # the sides differ in sign whenever the inside status differs, so the division is safe
    denom = np.where(crosses, side_p - side_c, 1.0)
    t = np.clip(np.where(crosses, side_p / denom, 0.0), 0.0, 1.0)
    inter = prev + t[..., None] * (poly - prev)
    # per input vertex: the edge's crossing point first, then the vertex itself (SH order)
    cand = np.stack([inter, poly], 2).reshape(len(poly), 2 * m, 2)
    keep = np.stack([crosses, valid & in_c], 2).reshape(len(poly), 2 * m)
    order = np.argsort(~keep, axis=1, kind="stable")[:, :_MAX_VERTS]
    out = np.take_along_axis(cand, order[..., None], 1)
    return out, np.minimum(keep.sum(1), _MAX_VERTS)


def _polygon_area(poly, cnt):
    idx = np.arange(poly.shape[1])
    nxt = np.where(idx + 1 < cnt[:, None], idx + 1, 0)
    q = np.take_along_axis(poly, nxt[..., None], 1)
    terms = poly[..., 0] * q[..., 1] - q[..., 0] * poly[..., 1]
    return 0.5 * np.abs(np.where(idx < cnt[:, None], terms, 0.0).sum(1))


def _intersection(pa, pb, tol, chunk=1 << 15):
    """Overlap areas of the rectangles pa[i] and pb[i] ((P, 4, 2) counter-clockwise), in
    chunks of pairs so the (P, 16, 2) clipping buffers stay a few MB."""
    if len(pa) > chunk:
        return np.concatenate([_intersection(pa[i:i + chunk], pb[i:i + chunk], tol, chunk)
                               for i in range(0, len(pa), chunk)])
    n = len(pa)
    poly = np.zeros((n, _MAX_VERTS, 2))
    poly[:, :4] = pa
    cnt = np.full(n, 4)
    for e in range(4):
        poly, cnt = _clip(poly, cnt, pb[:, e], pb[:, (e + 1) % 4], tol)
    return _polygon_area(poly, cnt)


def rotated_iou(boxes, query_boxes, trans=False, mode=0, is_cross=True, v_threshold=0.0,
                e_threshold=0.0):
    """Mirrors `mindspore.ops.rotated_iou`: IoU (mode 0) or IoF (mode 1, over the area of the
    box of `boxes`) of rotated boxes (B, N, 5) and (B, K, 5), 'xywht' or, with `trans`, 'xyxyt',
    angles in degrees; (B, N, K) when `is_cross`, else (B, N) for the pairs (N == K).
    `v_threshold` widens the inside test of a vertex; `e_threshold` is checked but changes
    nothing, as an edge is only intersected when its ends lie on opposite sides."""
    a = _boxes("boxes", boxes)
    b = _boxes("query_boxes", query_boxes)
    trans = C.boolean(_OP, "trans", trans)
    mode = C.integer(_OP, "mode", mode)
    is_cross = C.boolean(_OP, "is_cross", is_cross)
    tol = _threshold("v_threshold", v_threshold)
    _threshold("e_threshold", e_threshold)
    if mode not in (0, 1):
        raise ValueError(f"For '{_OP}', 'mode' must be 0 (iou) or 1 (iof), but got {mode}.")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"For '{_OP}', 'boxes' and 'query_boxes' must have the same first "
                         f"dim, but got {a.shape[0]} and {b.shape[0]}.")
    if not is_cross and a.shape[1] != b.shape[1]:
        raise ValueError(f"For '{_OP}', with 'is_cross' False 'boxes' and 'query_boxes' must "
                         f"hold as many boxes, but got {a.shape[1]} and {b.shape[1]}.")
    ca, area_a = _corners(a, trans)
    cb, area_b = _corners(b, trans)
    if is_cross:
        bsz, n, k = a.shape[0], a.shape[1], b.shape[1]
        ca = np.broadcast_to(ca[:, :, None], (bsz, n, k, 4, 2))
        cb = np.broadcast_to(cb[:, None], (bsz, n, k, 4, 2))
        area_a, area_b = area_a[:, :, None], area_b[:, None]
    out_shape = ca.shape[:-2]
    inter = _intersection(ca.reshape(-1, 4, 2), cb.reshape(-1, 4, 2), tol).reshape(out_shape)
    denom = area_a if mode == 1 else area_a + area_b - inter
    denom = np.broadcast_to(denom, out_shape)
    res = np.divide(inter, denom, out=np.zeros(out_shape), where=denom > 0)
    from cellgrad import Tensor
    return Tensor(res.astype(np.float32)).astype(boxes.dtype)
