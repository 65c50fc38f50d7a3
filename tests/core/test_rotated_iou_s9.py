"""ops.rotated_iou (an Ascend-only kernel in MindSpore; its CPU build raises "Unsupported op
[RotatedIou] on CPU") on the CPU: values against an independent plain-loop reference (corners
inside the other box plus edge crossings, sorted by angle), analytic overlaps, shapes, dtypes,
argument errors and the names at MindSpore's paths."""

import math

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import ops

RNG = np.random.default_rng(28)


# ---- independent reference: vertex-collection polygon intersection, plain loops ----

def ref_corners(box, trans=False):
    if trans:
        x1, y1, x2, y2, t = box
        cx, cy, w, h = (x1 + x2) / 2, (y1 + y2) / 2, abs(x2 - x1), abs(y2 - y1)
    else:
        cx, cy, w, h, t = box
    r = math.radians(t)
    pts = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        lx, ly = sx * w / 2, sy * h / 2
        pts.append((cx + math.cos(r) * lx - math.sin(r) * ly,
                    cy + math.sin(r) * lx + math.cos(r) * ly))
    return pts, w * h


def ref_inside(p, poly, eps=1e-9):
    for i in range(4):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % 4]
        if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) < -eps:
            return False
    return True


def ref_overlap(pa, pb):
    pts = [p for p in pa if ref_inside(p, pb)] + [p for p in pb if ref_inside(p, pa)]
    for i in range(4):
        p, r = np.array(pa[i]), np.array(pa[(i + 1) % 4]) - np.array(pa[i])
        for j in range(4):
            q, s = np.array(pb[j]), np.array(pb[(j + 1) % 4]) - np.array(pb[j])
            den = r[0] * s[1] - r[1] * s[0]
            if abs(den) < 1e-12:
                continue
            t = ((q - p)[0] * s[1] - (q - p)[1] * s[0]) / den
            u = ((q - p)[0] * r[1] - (q - p)[1] * r[0]) / den
            if 0 <= t <= 1 and 0 <= u <= 1:
                pts.append(tuple(p + t * r))
    if len(pts) < 3:
        return 0.0
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    return 0.5 * abs(sum(pts[k][0] * pts[k - 1][1] - pts[k - 1][0] * pts[k][1]
                         for k in range(len(pts))))


def ref_rotated_iou(a, b, trans=False, mode=0, is_cross=True):
    out = np.zeros((a.shape[0], a.shape[1], b.shape[1]) if is_cross else a.shape[:2])
    for bi in range(a.shape[0]):
        for i in range(a.shape[1]):
            for k in range(b.shape[1]) if is_cross else [i]:
                pa, area_a = ref_corners(a[bi, i], trans)
                pb, area_b = ref_corners(b[bi, k], trans)
                inter = ref_overlap(pa, pb)
                den = area_a if mode == 1 else area_a + area_b - inter
                val = inter / den if den > 0 else 0.0
                out[(bi, i, k) if is_cross else (bi, i)] = val
    return out


def random_boxes(b, n):
    box = np.empty((b, n, 5))
    box[..., :2] = RNG.uniform(0, 4, (b, n, 2))
    box[..., 2:4] = RNG.uniform(0.5, 3, (b, n, 2))
    box[..., 4] = RNG.uniform(-180, 180, (b, n))
    return box.astype(np.float32)


# ---- values ----

@pytest.mark.parametrize("mode", [0, 1])
def test_cross_matches_reference(mode):
    a, b = random_boxes(2, 5), random_boxes(2, 4)
    out = ops.rotated_iou(ms.Tensor(a), ms.Tensor(b), mode=mode)
    assert out.shape == (2, 5, 4) and out.dtype == ms.float32
    ref = ref_rotated_iou(a.astype(np.float64), b.astype(np.float64), mode=mode)
    np.testing.assert_allclose(out.asnumpy(), ref, atol=2e-6)
    assert (ref > 0).sum() > 5  # the random boxes do overlap


@pytest.mark.parametrize("mode", [0, 1])
def test_one_to_one_matches_reference_and_cross_diagonal(mode):
    a, b = random_boxes(3, 6), random_boxes(3, 6)
    out = ops.rotated_iou(ms.Tensor(a), ms.Tensor(b), mode=mode, is_cross=False)
    assert out.shape == (3, 6)
    ref = ref_rotated_iou(a.astype(np.float64), b.astype(np.float64), mode=mode, is_cross=False)
    np.testing.assert_allclose(out.asnumpy(), ref, atol=2e-6)
    cross = ops.rotated_iou(ms.Tensor(a), ms.Tensor(b), mode=mode).asnumpy()
    np.testing.assert_allclose(np.diagonal(cross, axis1=1, axis2=2), out.asnumpy(), atol=1e-7)


def test_axis_aligned_is_ordinary_iou():
    a = np.array([[[1, 1, 2, 2, 0], [0, 0, 4, 2, 0]]], np.float32)
    b = np.array([[[2, 1, 2, 2, 0], [1, 2, 2, 2, 180], [9, 9, 1, 1, 0]]], np.float32)

    def iou(p, q):
        lo = np.maximum(p[:2] - p[2:4] / 2, q[:2] - q[2:4] / 2)
        hi = np.minimum(p[:2] + p[2:4] / 2, q[:2] + q[2:4] / 2)
        inter = np.prod(np.clip(hi - lo, 0, None))
        return inter / (np.prod(p[2:4]) + np.prod(q[2:4]) - inter)
    ref = np.array([[[iou(p, q) for q in b[0]] for p in a[0]]])
    np.testing.assert_allclose(ops.rotated_iou(ms.Tensor(a), ms.Tensor(b)).asnumpy(), ref,
                               atol=1e-6)
    assert ref[0, 0, 0] == pytest.approx(1 / 3)


def test_quarter_turn_with_swapped_sides_is_the_same_box():
    a = np.array([[[1.5, -0.5, 3, 1, 30]]], np.float32)
    b = np.array([[[1.5, -0.5, 1, 3, 120], [1.5, -0.5, 1, 3, -60], [1.5, -0.5, 3, 1, 210]]],
                 np.float32)
    np.testing.assert_allclose(ops.rotated_iou(ms.Tensor(a), ms.Tensor(b)).asnumpy(),
                               np.ones((1, 1, 3)), atol=1e-6)


def test_square_and_its_45_degree_turn_give_the_octagon():
    # two unit-half-width squares about one centre overlap in a regular octagon of area
    # 8 (sqrt 2 - 1) (side 2): IoU = oct / (8 - oct), IoF = oct / 4
    sq = ms.Tensor(np.array([[[0, 0, 2, 2, 0]]], np.float32))
    turned = ms.Tensor(np.array([[[0, 0, 2, 2, 45]]], np.float32))
    octagon = 8 * (math.sqrt(2) - 1)
    assert ops.rotated_iou(sq, turned).asnumpy()[0, 0, 0] == pytest.approx(
        octagon / (8 - octagon), abs=1e-6)
    assert ops.rotated_iou(sq, turned, mode=1).asnumpy()[0, 0, 0] == pytest.approx(
        octagon / 4, abs=1e-6)
    # a diamond touching the square's side midpoints from outside its corner: the 45-degree
    # square of half-diagonal 1 centred at (1, 1) covers the triangle (1,0), (1,1), (0,1)
    diamond = ms.Tensor(np.array([[[1, 1, math.sqrt(2), math.sqrt(2), 45]]], np.float32))
    assert ops.rotated_iou(sq, diamond, mode=1).asnumpy()[0, 0, 0] == pytest.approx(
        0.5 / 4, abs=1e-6)


def test_trans_xyxyt_equals_xywht():
    a, b = random_boxes(1, 4), random_boxes(1, 3)

    def xyxy(x):
        y = x.copy()
        y[..., 0:2] = x[..., 0:2] - x[..., 2:4] / 2
        y[..., 2:4] = x[..., 0:2] + x[..., 2:4] / 2
        return y
    got = ops.rotated_iou(ms.Tensor(xyxy(a)), ms.Tensor(xyxy(b)), trans=True).asnumpy()
    np.testing.assert_allclose(got, ops.rotated_iou(ms.Tensor(a), ms.Tensor(b)).asnumpy(),
                               atol=2e-6)
    ref = ref_rotated_iou(xyxy(a).astype(np.float64), xyxy(b).astype(np.float64), trans=True)
    np.testing.assert_allclose(got, ref, atol=2e-6)


def test_disjoint_touching_and_degenerate_boxes_give_zero():
    a = ms.Tensor(np.array([[[0, 0, 2, 2, 0], [0, 0, 0, 0, 0]]], np.float32))
    b = ms.Tensor(np.array([[[2, 0, 2, 2, 0], [5, 5, 1, 1, 17], [0, 0, 0, 0, 30]]],
                           np.float32))
    np.testing.assert_array_equal(ops.rotated_iou(a, b).asnumpy(), np.zeros((1, 2, 3)))
    np.testing.assert_array_equal(ops.rotated_iou(a, b, mode=1).asnumpy(), np.zeros((1, 2, 3)))


def test_v_threshold_widens_the_inside_test():
    # the diamond's right tip (1, 0) pokes 0.01 past the big box's right side x = 0.99:
    # exactly, the tip triangle of area 0.01 ** 2 is cut off; a vertex within v_threshold of
    # the side counts as inside, so with 0.02 the whole diamond (area 2) is kept
    diamond = ms.Tensor(np.array([[[0, 0, math.sqrt(2), math.sqrt(2), 45]]], np.float32))
    big = ms.Tensor(np.array([[[0.99 - 5, 0, 10, 10, 0]]], np.float32))
    exact = ops.rotated_iou(diamond, big, mode=1).asnumpy()[0, 0, 0]
    assert exact == pytest.approx((2 - 0.01 ** 2) / 2, abs=2e-6)
    assert exact < 1 - 4e-5
    loose = ops.rotated_iou(diamond, big, mode=1, v_threshold=0.02).asnumpy()[0, 0, 0]
    assert loose == pytest.approx(1.0, abs=1e-6)
    assert ops.rotated_iou(diamond, big, mode=1, v_threshold=0.005).asnumpy()[0, 0, 0] == exact


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_half_inputs_keep_the_dtype_of_boxes(dtype):
    if dtype == ms.bfloat16:
        pytest.importorskip("ml_dtypes")  # bfloat16 is the core's [bfloat16] extra
    a, b = random_boxes(1, 3), random_boxes(1, 2)
    out = ops.rotated_iou(ms.Tensor(a).astype(dtype), ms.Tensor(b))
    assert out.dtype == dtype and out.shape == (1, 3, 2)
    ref = ref_rotated_iou(ms.Tensor(a).astype(dtype).astype(ms.float32).asnumpy()
                          .astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(out.astype(ms.float32).asnumpy(), ref, atol=1e-2)


def test_matches_shapely_when_installed():
    geometry = pytest.importorskip("shapely.geometry")
    a, b = random_boxes(1, 4), random_boxes(1, 4)
    got = ops.rotated_iou(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    for i in range(4):
        for k in range(4):
            pa = geometry.Polygon(ref_corners(a[0, i].astype(np.float64))[0])
            pb = geometry.Polygon(ref_corners(b[0, k].astype(np.float64))[0])
            inter = pa.intersection(pb).area
            assert got[0, i, k] == pytest.approx(inter / (pa.area + pb.area - inter), abs=2e-6)


# ---- errors and paths ----

def test_argument_errors():
    a = ms.Tensor(random_boxes(2, 3))
    with pytest.raises(TypeError, match="'rotated_iou'.*'boxes' must be a Tensor"):
        ops.rotated_iou(random_boxes(2, 3), a)
    with pytest.raises(ValueError, match="dtype of 'query_boxes' must be float16.*Float64"):
        ops.rotated_iou(a, a.astype(ms.float64))
    with pytest.raises(ValueError, match=r"'boxes' must have the shape \(B, N, 5\).*\(2, 3, 4\)"):
        ops.rotated_iou(a[..., :4], a)
    with pytest.raises(ValueError, match="same first dim, but got 2 and 1"):
        ops.rotated_iou(a, a[:1])
    with pytest.raises(ValueError, match="'is_cross' False.*3 and 2"):
        ops.rotated_iou(a, a[:, :2], is_cross=False)
    with pytest.raises(ValueError, match="'mode' must be 0 .* but got 2"):
        ops.rotated_iou(a, a, mode=2)
    with pytest.raises(TypeError, match="'trans' should be 'bool'"):
        ops.rotated_iou(a, a, trans=1)
    with pytest.raises(TypeError, match="'v_threshold' should be 'float', but got 'str'"):
        ops.rotated_iou(a, a, v_threshold="0")
    with pytest.raises(ValueError, match="'e_threshold' must be >= 0"):
        ops.rotated_iou(a, a, e_threshold=-1.0)


def test_not_on_the_tape():
    # MindSpore has no gradient for RotatedIou: the overlap is a constant for autodiff
    a = ms.Tensor(random_boxes(1, 2))
    g = ms.grad(lambda x: ops.rotated_iou(x, x).sum() + x.sum())(a)
    np.testing.assert_array_equal(g.asnumpy(), np.ones((1, 2, 5), np.float32))


def test_paths():
    from cellgrad.ops import function, functional
    from cellgrad.ops.function import math_func
    assert functional.rotated_iou is ops.rotated_iou
    assert function.rotated_iou is ops.rotated_iou
    assert math_func.rotated_iou is ops.rotated_iou


def test_chunked_clipping_matches_one_pass():
    from cellgrad.ops._rotated_iou import _corners, _intersection
    box = random_boxes(1, 40)[0].astype(np.float64)
    c, _ = _corners(box, False)
    pa, pb = np.repeat(c, 40, 0), np.tile(c, (40, 1, 1))
    np.testing.assert_array_equal(_intersection(pa, pb, 0.0, chunk=7),
                                  _intersection(pa, pb, 0.0))
