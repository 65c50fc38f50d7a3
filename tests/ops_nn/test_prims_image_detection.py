"""Issue 29's image, norm, detection, CTC, float-status and AdamWeightDecay primitives:
gradchecks (float64), PyTorch on the same inputs, MindSpore 2.10's errors and attributes
(values are replayed from MindSpore in ms_programs/prims_*.py)."""

import warnings

import numpy as np
import pytest
from nn_gradcheck import Case, check_first_order, check_second_order, names, torch_compare

import cellgrad as ms
from cellgrad import Parameter, Tensor, ops
from cellgrad.plugins import apply
from cellgrad.testing import gradcheck
from cellgrad_nn.functional import ctc, roi

ROIS = np.array([[0, 0.5, 0.7, 4.2, 3.1], [1, 1.0, 1.0, 9.0, 7.0], [0, -1.0, -1.0, 2.0, 2.0],
                 [1, 0.3, 0.2, 5.6, 4.4]])
BOXES = np.array([[0.13, 0.07, 0.91, 0.66], [0.52, 0.61, 0.24, 0.13], [0.3, 0.35, 0.32, 0.38]])
BOX_INDEX = np.array([0, 1, 1])
CTC_IDX = Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1]], np.int64))
CTC_VALS = Tensor(np.array([1, 2, 2, 2, 0, 3, 3], np.int32))
CTC_SEQ = Tensor(np.array([6, 5, 4], np.int32))
TARGETS = Tensor(np.array([[1, 2, 0], [2, 2, 1], [3, 3, 4]], np.int32))
IN_LEN = Tensor(np.array([6, 5, 4], np.int32))
TG_LEN = Tensor(np.array([2, 3, 2], np.int32))


def _roi_align(args, end_mode=1):
    def f(x):
        plans = roi.roi_weights(ROIS, x.shape[2], x.shape[3], *args, end_mode)
        return apply(roi.ROI_ALIGN, (x,), {"plans": plans})
    return f


def _crop(method, crop=(3, 2)):
    def f(image, shift):
        boxes = Tensor(BOXES) + shift * 0.01  # nudges that keep every position off a pixel
        return apply(roi.CROP_AND_RESIZE, (image, boxes), {
            "index": BOX_INDEX, "crop": crop, "method": method, "extrapolation": 0.5,
            "dtype": np.float64})
    return f


CASES = [
    Case("interpolate", lambda x: ops.ResizeBilinearV2()(x, (5, 7)), [(1, 2, 3, 4)],
         tag="ResizeBilinearV2"),
    Case("interpolate", lambda x: ops.ResizeBilinearV2(True)(x, (2, 5)), [(2, 1, 3, 4)],
         tag="ResizeBilinearV2-corners"),
    Case("interpolate", lambda x: ops.ResizeBilinearV2(False, True)(x, (4, 3)), [(1, 1, 3, 5)],
         tag="ResizeBilinearV2-half-pixel"),
    Case("interpolate", lambda x: ops.ResizeNearestNeighbor((5, 7), True)(x), [(1, 2, 3, 4)],
         tag="ResizeNearestNeighbor"),
    Case("binary_cross_entropy_with_logits",
         lambda x, y: ops.SigmoidCrossEntropyWithLogits()(x, y), [(3, 4)],
         extra=(Tensor(np.linspace(0, 1, 12).reshape(3, 4)),), tag="SigmoidCE"),
    Case("lp_norm", lambda x: ops.LpNorm(1)(x), [(3, 4)], away_from=(0,), second_order=False),
    Case("lp_norm", lambda x: ops.LpNorm((0, 2), 3, True)(x), [(2, 3, 2)], away_from=(0,),
         second_order=False, tag="p3"),
    Case("lp_norm", lambda x: ops.LpNorm(0, 1)(x), [(3, 2)], away_from=(0,),
         second_order=False, tag="p1"),
    Case("roi_align", _roi_align((2, 2, 1.0, 2)), [(2, 2, 5, 6)], second_order=False),
    Case("roi_align", _roi_align((2, 2, 1.0, 0), end_mode=0), [(2, 1, 5, 6)],
         second_order=False, tag="adaptive-end0"),
    Case("crop_and_resize", _crop("bilinear"), [(2, 4, 5, 2), (3, 4)], second_order=False),
    Case("crop_and_resize", _crop("bilinear", (1, 3)), [(2, 4, 5, 1), (3, 4)],
         second_order=False, tag="one-row"),
    Case("crop_and_resize", lambda i: _crop("nearest")(i, Tensor(np.zeros((3, 4)))),
         [(2, 4, 5, 2)], second_order=False, tag="nearest"),
    Case("crop_and_resize", lambda i: _crop("bilinear_v2")(i, Tensor(np.zeros((3, 4)))),
         [(2, 4, 5, 2)], second_order=False, tag="bilinear_v2"),
    Case("ctc_loss_tf", lambda x: ops.CTCLoss()(x, CTC_IDX, CTC_VALS, CTC_SEQ)[0], [(6, 3, 5)],
         second_order=False),
    Case("ctc_loss_tf", lambda x: ops.CTCLoss(True, False)(x, CTC_IDX, CTC_VALS, CTC_SEQ)[0],
         [(6, 3, 5)], second_order=False, tag="collapse-no-merge"),
    Case("ctc_loss", lambda x: ops.ctc_loss(ops.log_softmax(x, 2), TARGETS, IN_LEN, TG_LEN)[0],
         [(6, 3, 5)], second_order=False),
    Case("ctc_loss", lambda x: ops.ctc_loss(ops.log_softmax(x, 2), TARGETS, IN_LEN, TG_LEN,
                                            blank=4, reduction="none")[0],
         [(6, 3, 5)], second_order=False, tag="blank4-none"),
]
GRADCHECKED = names(CASES) | {"grid_sample"}  # grid_sample's lines: test_grid_sample_*


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_gradcheck(case):
    check_first_order(case)


SECOND = [c for c in CASES if c.second_order]


@pytest.mark.parametrize("case", SECOND, ids=[c.id for c in SECOND])
def test_gradgradcheck(case):
    check_second_order(case)


def _f64(*shape, seed=0, low=-2.0, high=2.0):
    return Tensor(np.random.default_rng(seed).uniform(low, high, shape))


@pytest.mark.parametrize("fn, shape", [
    (lambda x: ops.L2Normalize(1)(x), (4, 6)), (lambda x: ops.L2Normalize(-1, 1e-6)(x), (4, 6)),
    (lambda x: ops.L2Normalize(0, 40.0)(x), (4, 6)),  # every column clamped
    (lambda x: ops.L2Loss()(x), (4, 6)), (lambda x: ops.DepthToSpace(2)(x), (1, 8, 1, 3))],
    ids=["L2Normalize", "L2Normalize-last", "L2Normalize-clamped", "L2Loss", "DepthToSpace"])
def test_gradcheck_composite_primitives(fn, shape):
    assert gradcheck(fn, _f64(*shape))


def test_lp_norm_gradient_of_a_zero_slice_is_zero():
    g = ms.grad(lambda x: ops.LpNorm(1)(x).sum())(Tensor(np.zeros((2, 3), np.float32)))
    assert g.asnumpy().tolist() == [[0.0] * 3] * 2


def test_ctc_loss_gradient_is_nan_for_an_impossible_alignment_unless_zero_infinity():
    lp = ops.log_softmax(_f64(6, 3, 5), 2)
    short = Tensor(np.array([6, 3, 4], np.int32))
    for zero_infinity, check in ((True, lambda g: (g == 0).all()), (False, np.isnan)):
        loss = ops.ctc_loss(lp, TARGETS, short, TG_LEN, 0, "none", zero_infinity)[0]
        assert np.isinf(loss.asnumpy()[1])
        g = ms.grad(lambda x, z=zero_infinity: ops.ctc_loss(x, TARGETS, short, TG_LEN, 0,
                                                             "sum", z)[0])(lp).asnumpy()
        assert check(g[:3, 1]).all() and (g[3:, 1] == 0).all()
        assert np.isfinite(g[:, 0]).all()


def test_ctc_loss_primitive_gradient_output_is_its_loss_gradient():
    x = _f64(6, 3, 5)
    loss, grad = ops.CTCLoss()(x, CTC_IDX, CTC_VALS, CTC_SEQ)
    assert loss.shape == (3,) and grad.shape == (6, 3, 5) and grad.dtype == ms.float64
    g = ms.grad(lambda t: ops.CTCLoss()(t, CTC_IDX, CTC_VALS, CTC_SEQ)[0].sum())(x)
    np.testing.assert_allclose(g.asnumpy(), grad.asnumpy())
    assert (grad.asnumpy()[4:, 2] == 0).all()  # past the third sequence's length


# ---- PyTorch on the same inputs ----

@pytest.mark.parametrize("align_corners, half_pixel, size", [
    (True, False, (5, 7)), (False, True, (5, 7)), (False, True, (2, 3)), (True, False, (1, 3))])
def test_resize_bilinear_matches_torch_interpolate(torch, align_corners, half_pixel, size):
    torch_compare(torch, [(2, 3, 3, 4)],
                  lambda x: ops.ResizeBilinearV2(align_corners, half_pixel)(x, size),
                  lambda x: torch.nn.functional.interpolate(x, size, mode="bilinear",
                                                            align_corners=align_corners))


def test_resize_nearest_matches_torch_nearest(torch):
    torch_compare(torch, [(2, 3, 3, 4)], lambda x: ops.ResizeNearestNeighbor((7, 5))(x),
                  lambda x: torch.nn.functional.interpolate(x, (7, 5), mode="nearest"))


def test_sigmoid_cross_entropy_matches_torch(torch):
    labels = np.random.default_rng(3).uniform(0, 1, (4, 5))
    torch_compare(torch, [(4, 5)],
                  lambda x, y: ops.SigmoidCrossEntropyWithLogits()(x, y),
                  lambda x, y: torch.nn.functional.binary_cross_entropy_with_logits(
                      x, y, reduction="none"),
                  extra=(Tensor(labels),), torch_extra=(torch.tensor(labels),))


def test_l2_normalize_matches_torch_normalize(torch):
    torch_compare(torch, [(4, 6)], lambda x: ops.L2Normalize(1, 1e-20)(x),
                  lambda x: torch.nn.functional.normalize(x, dim=1, eps=1e-10))


def test_lp_norm_matches_torch_vector_norm(torch):
    torch_compare(torch, [(3, 4, 2)], lambda x: ops.LpNorm((0, 2), 3)(x),
                  lambda x: torch.linalg.vector_norm(x, 3, dim=(0, 2)))


def test_depth_to_space_is_pixel_shuffle_of_regrouped_channels(torch):
    b, c = 2, 3
    # DepthToSpace reads channel (i * b + j) * C + c, pixel_shuffle c * b * b + i * b + j.
    order = [k * c + ch for ch in range(c) for k in range(b * b)]
    torch_compare(torch, [(2, c * b * b, 3, 4)], lambda x: ops.DepthToSpace(b)(x),
                  lambda x: torch.nn.functional.pixel_shuffle(x[:, order], b))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_ctc_loss_matches_torch(torch, reduction):
    def ours(x):
        return ops.ctc_loss(ops.log_softmax(x, 2), TARGETS, IN_LEN, TG_LEN, 0,
                            reduction)[0]

    def theirs(x):
        return torch.nn.functional.ctc_loss(
            torch.log_softmax(x, 2), torch.tensor(TARGETS.asnumpy()).long(),
            torch.tensor(IN_LEN.asnumpy()).long(), torch.tensor(TG_LEN.asnumpy()).long(), 0,
            reduction)

    torch_compare(torch, [(6, 3, 5)], ours, theirs)


# ---- attributes, deprecations and errors ----

def test_primitive_attributes_and_reprs_are_mindspores():
    assert repr(ops.ResizeBilinearV2(True)) == \
        "Prim[ResizeBilinearV2]<align_corners=True, half_pixel_centers=False>"
    assert repr(ops.L2Normalize(1)) == "Prim[L2Normalize]<axis=[1], epsilon=0.0001>"
    assert repr(ops.LpNorm(1)) == "Prim[LpNorm]<axis=[1]>" and ops.LpNorm(1, 3).p == 3
    assert repr(ops.LpNorm((0, 1))) == "Prim[LpNorm]" and ops.LpNorm((0, 1)).axis == (0, 1)
    with pytest.raises(TypeError, match="type of 'p' should be 'int'"):
        ops.LpNorm(1, 2.0)
    assert repr(ops.CropAndResize()) == \
        "Prim[CropAndResize]<method=bilinear, extrapolation_value=0.0>"
    assert ops.NMSWithMask().attrs["output_names"] == ["selected_boxes", "selected_idx",
                                                       "selected_mask"]
    assert ops.ROIAlign(7, 7, 0.25).sample_num == 2
    assert ops.BoundingBoxDecode((8, 8)).wh_ratio_clip == 0.016


def test_resize_bilinear_is_the_1x_name_with_a_deprecation_warning():
    x = _f64(1, 2, 3, 4)
    with pytest.warns(DeprecationWarning, match="ResizeBilinearV2"):
        old = ops.ResizeBilinear((5, 2), align_corners=True)
    assert repr(old) == "Prim[ResizeBilinear]<size=(5, 2), align_corners=True, " \
                        "half_pixel_centers=False>"
    np.testing.assert_array_equal(old(x).asnumpy(),
                                  ops.ResizeBilinearV2(True)(x, (5, 2)).asnumpy())


def test_resize_errors_name_the_primitive():
    x = _f64(1, 1, 2, 2)
    with pytest.raises(ValueError, match="half_pixel_centers must be false"):
        ops.ResizeBilinearV2(True, True)(x, (3, 3))
    with pytest.raises(ValueError, match="ResizeNearestNeighbor.*rank must be equal to 4"):
        ops.ResizeNearestNeighbor((2, 2))(x[0])
    with pytest.raises(TypeError, match="ResizeBilinearV2"):
        ops.ResizeBilinearV2()(Tensor(np.ones((1, 1, 2, 2), np.int32)), (3, 3))
    with pytest.raises(ValueError, match="'size' must be two positive ints"):
        ops.ResizeNearestNeighbor((2, 0))
    with pytest.raises(TypeError, match="type of 'size' should be one of"):
        ops.ResizeNearestNeighbor(2)
    assert ops.ResizeNearestNeighbor([2, 3]).size == (2, 3)
    assert repr(ops.ResizeBilinearV2(1)) == \
        "Prim[ResizeBilinearV2]<align_corners=1, half_pixel_centers=False>"  # as MindSpore


def test_float_status_flags_nan_and_inf_as_a_float32_1_element_tensor():
    for values, flag in (([1.0, 2.0], 0.0), ([1.0, np.inf], 1.0), ([np.nan, 0.0], 1.0),
                         ([-np.inf], 1.0)):
        for dtype in (np.float16, np.float32, np.float64):
            out = ops.FloatStatus()(Tensor(np.array(values, dtype)))
            assert out.dtype == ms.float32 and out.shape == (1,)
            assert out.asnumpy().tolist() == [flag]
    with pytest.raises(TypeError, match="FloatStatus"):
        ops.FloatStatus()(Tensor(np.array([1, 2], np.int32)))
    g = ms.grad(lambda x: ops.FloatStatus()(x).sum() + x.sum())(_f64(3))
    assert g.asnumpy().tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("name, args", [
    ("NPUAllocFloatStatus", ()), ("NPUGetFloatStatus", (Tensor(np.zeros(8, np.float32)),)),
    ("NPUClearFloatStatus", (Tensor(np.zeros(8, np.float32)),))])
def test_npu_status_primitives_say_they_need_an_ascend_npu(name, args):
    prim = getattr(ops, name)()
    with pytest.raises(RuntimeError, match=rf"Unsupported op \[{name}\] on CPU.*FloatStatus"):
        prim(*args)


def test_dropout_mask_primitives_are_deprecated_and_say_what_to_use():
    with pytest.warns(DeprecationWarning, match="ops.Dropout"):
        gen = ops.DropoutGenMask(1, 2)
    assert (gen.Seed0, gen.Seed1, gen.side_effect_hidden) == (1, 2, True)
    with pytest.raises(RuntimeError, match=r"Unsupported op \[DropoutGenMask\].*ops.Dropout"):
        gen((2, 3), Tensor(0.5, ms.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        do = ops.DropoutDoMask()
        with pytest.raises(TypeError, match="Seed0"):
            ops.DropoutGenMask(0.5)
    with pytest.raises(RuntimeError, match=r"Unsupported op \[DropoutDoMask\]"):
        do(_f64(2), Tensor(np.array([255], np.uint8)), Tensor(0.5, ms.float32))


def test_adam_weight_decay_updates_in_place_and_returns_the_tensors():
    var = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")
    m, v = Tensor(np.array([0.1, 0.2], np.float32)), Tensor(np.array([0.01, 0.02], np.float32))
    g = Tensor(np.array([0.5, -1.0], np.float32))
    out = ops.AdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, g)
    assert out[0] is var and out[1] is m and out[2] is v
    m_ref = 0.9 * np.array([0.1, 0.2]) + 0.1 * np.array([0.5, -1.0])
    v_ref = 0.999 * np.array([0.01, 0.02]) + 0.001 * np.array([0.25, 1.0])
    w_ref = np.array([1.0, -2.0]) - 0.01 * (m_ref / (np.sqrt(v_ref) + 1e-8) +
                                            0.1 * np.array([1.0, -2.0]))
    np.testing.assert_allclose(var.asnumpy(), w_ref, rtol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), m_ref, rtol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), v_ref, rtol=1e-6)
    with pytest.raises(TypeError, match="'lr' is int"):
        ops.AdamWeightDecay()(var, m, v, 1, 0.9, 0.999, 1e-8, 0.0, g)
    with pytest.raises(TypeError, match="in-place"):
        ops.AdamWeightDecay()(var, m, v, 0.1, 0.9, 0.999, 1e-8, 0.0, _f64(2))


def test_detection_primitive_errors():
    boxes = Tensor(np.array([[0, 0, 4, 4]], np.float32))
    with pytest.raises(KeyError, match="only 'iou' or 'iof'"):
        ops.IOU("giou")
    with pytest.raises(TypeError, match="input type must be same"):
        ops.iou(boxes, Tensor(np.array([[0, 0, 4, 4]], np.float16)))
    with pytest.raises(TypeError, match=r"'means\[0\]' should be 'float'"):
        ops.BoundingBoxEncode((0, 0, 0, 0))
    with pytest.raises(TypeError, match="'max_shape' should be 'tuple'"):
        ops.BoundingBoxDecode([4, 4])
    with pytest.raises(ValueError, match="same first dimension"):
        ops.bounding_box_encode(boxes, Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(ValueError, match="first dimension of 'img_metas' must equal to 3"):
        ops.check_valid(boxes, Tensor(np.array([4.0, 4.0], np.float32)))
    with pytest.raises(ValueError, match="should equal to 5 or 8"):
        ops.NMSWithMask()(boxes)
    with pytest.raises(TypeError, match=r"ROIAlign.*Float64"):
        ops.ROIAlign(2, 2, 1.0)(_f64(1, 1, 4, 4), Tensor(ROIS))
    with pytest.raises(ValueError, match=r"box_index must be in \[0, 1\)"):
        ops.crop_and_resize(Tensor(np.ones((1, 4, 4, 1), np.float32)),
                            Tensor(BOXES[:1].astype(np.float32)),
                            Tensor(np.array([1], np.int32)), (2, 2))
    with pytest.raises(ValueError, match="'method' must be str"):
        ops.CropAndResize("cubic")


def test_nms_with_mask_keeps_a_box_at_the_threshold_and_sorts_by_score():
    boxes = Tensor(np.array([[0, 0, 2, 1, 0.8], [0, 0, 4, 1, 0.9], [0, 0, 4, 1, 0.1]],
                            np.float32))
    out, idx, mask = ops.NMSWithMask(0.5)(boxes)
    assert out.asnumpy()[:, 4].tolist() == pytest.approx([0.9, 0.8, 0.1])
    assert idx.dtype == ms.int32 and idx.asnumpy().tolist() == [0, 1, 2]
    assert mask.asnumpy().tolist() == [True, True, False]  # IoU 0.5 kept, 1.0 dropped


def test_names_resolve_in_the_mindspore_namespaces():
    from cellgrad.ops import operations as P

    assert P.ResizeBilinearV2 is ops.ResizeBilinearV2
    assert P.CTCLoss is ops.CTCLoss and P.IOU is ops.IOU
    assert ctc.CTC_LOSS_V2.name == "ctc_loss"


# ---- grid_sample ----

def _grid(shape, seed=0):
    """A grid whose source positions keep 0.05 away from whole pixels and the border (where
    bilinear sampling and the paddings have kinks)."""
    rng = np.random.default_rng(seed)
    g = rng.uniform(-0.9, 0.9, shape)
    for k in range(shape[-1]):
        size = 5 if k == 0 else 4  # the input's width, height, depth below
        pos = (g[..., k] + 1) / 2 * (size - 1)
        frac = pos - np.round(pos)
        pos = np.where(np.abs(frac) < 0.05, np.round(pos) + 0.1, pos)
        g[..., k] = pos / (size - 1) * 2 - 1
    return Tensor(g)


GRID_CASES = [(mode, padding, corners) for mode in ("bilinear",)
              for padding in ("zeros", "border", "reflection") for corners in (False, True)]


@pytest.mark.parametrize("mode, padding, corners", GRID_CASES)
def test_grid_sample_gradcheck(mode, padding, corners):
    x = _f64(2, 3, 4, 5)
    assert gradcheck(lambda a, b: ops.grid_sample(a, b, mode, padding, corners), x,
                     _grid((2, 3, 2, 2)))


def test_grid_sample_gradcheck_5d_and_nearest():
    x5 = _f64(1, 2, 4, 4, 5)
    assert gradcheck(lambda a, b: ops.grid_sample(a, b, "bilinear", "border", True), x5,
                     _grid((1, 2, 2, 2, 3)))
    assert gradcheck(lambda a: ops.grid_sample(a, _grid((2, 3, 2, 2)), "nearest"),
                     _f64(2, 3, 4, 5))


@pytest.mark.parametrize("mode, padding, corners", GRID_CASES + [
    ("nearest", p, c) for p in ("zeros", "border", "reflection") for c in (False, True)])
def test_grid_sample_matches_torch(torch, mode, padding, corners):
    grid = _grid((2, 3, 2, 2), seed=1).asnumpy() * 1.4  # some positions outside
    torch_compare(torch, [(2, 3, 4, 5)],
                  lambda x: ops.grid_sample(x, Tensor(grid), mode, padding, corners),
                  lambda x: torch.nn.functional.grid_sample(
                      x, torch.tensor(grid), mode, padding, corners))


def test_grid_sample_grid_gradient_matches_torch(torch):
    x = np.random.default_rng(2).standard_normal((1, 2, 4, 5))
    grid = _grid((1, 3, 2, 2), seed=3).asnumpy() * 1.3
    ours = ms.grad(lambda g: (ops.grid_sample(Tensor(x), g, "bilinear", "reflection") ** 2)
                   .sum())(Tensor(grid))
    tg = torch.tensor(grid, requires_grad=True)
    (torch.nn.functional.grid_sample(torch.tensor(x), tg, "bilinear", "reflection",
                                     False) ** 2).sum().backward()
    np.testing.assert_allclose(ours.asnumpy(), tg.grad.numpy(), atol=1e-9)


def test_grid_samplers_record_mindspores_enums_and_check_their_input():
    assert repr(ops.GridSampler2D("nearest", "reflection")) == \
        "Prim[GridSampler2D]<interpolation_mode=1, padding_mode=2, align_corners=False>"
    with pytest.raises(ValueError, match="'interpolation_mode' must be one of"):
        ops.GridSampler3D("bicubic")
    with pytest.raises(ValueError, match="bicubic is not supported"):
        ops.grid_sample(_f64(1, 1, 2, 2), _f64(1, 1, 1, 2), "bicubic")
    with pytest.raises(ValueError, match="5-D"):
        ops.GridSampler3D()(_f64(1, 1, 2, 2), _f64(1, 1, 1, 2))
    with pytest.raises(TypeError, match="same dtype"):
        ops.grid_sample(_f64(1, 1, 2, 2), Tensor(np.zeros((1, 1, 1, 2), np.float32)))
