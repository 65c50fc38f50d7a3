"""`_grad_ops` pooling, padding and region backward Primitives and `nn_ops.PSROIPooling`
(ops-nn's spatial/pool_grad_prims.py): values against numpy references written here (and the
numbers MindSpore 2.10's CPU tests expect), float64 gradchecks where they differentiate,
argument errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.func_transforms import vjp
from cellgrad.ops.operations import _grad_ops as G
from cellgrad.ops.operations import nn_ops as N
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(7)


def _windows_argmax(x, kernel, stride, pads):
    """numpy: flat argmax (first max) per window of each (N, C) plane, -inf padding."""
    rank = len(kernel)
    padded = np.pad(x, [(0, 0), (0, 0)] + [(pads[2 * a], pads[2 * a + 1]) for a in range(rank)],
                    constant_values=-np.inf)
    spatial = x.shape[2:]
    out = [(padded.shape[2 + a] - kernel[a]) // stride[a] + 1 for a in range(rank)]
    idx = np.zeros(x.shape[:2] + tuple(out), np.int64)
    for n, c in np.ndindex(*x.shape[:2]):
        for pos in np.ndindex(*out):
            sl = tuple(slice(p * s, p * s + k) for p, s, k in zip(pos, stride, kernel))
            w = padded[(n, c) + sl]
            local = np.unravel_index(np.argmax(w), w.shape)
            src = [p * s + loc - pads[2 * a] for a, (p, s, loc) in enumerate(zip(pos, stride,
                                                                                  local))]
            idx[(n, c) + pos] = np.ravel_multi_index(src, spatial)
    return idx


def _same_pads(size, kernel, stride):
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2


@pytest.mark.parametrize("mode", ["VALID", "SAME"])
@pytest.mark.parametrize("rank", [2, 3])
def test_maxpool_grad_grad_reads_grad_at_window_argmax(rank, mode):
    shape = (2, 3) + (5,) * rank
    x = RNG.standard_normal(shape).astype(np.float32)
    g = RNG.standard_normal(shape).astype(np.float32)
    kernel, stride = (3,) * rank, (2,) * rank
    pads = sum((_same_pads(5, 3, 2) if mode == "SAME" else (0, 0) for _ in range(rank)), ())
    idx = _windows_argmax(x, kernel, stride, pads)
    want = np.take_along_axis(g.reshape(2, 3, -1), idx.reshape(2, 3, -1), 2).reshape(idx.shape)
    prim = (G.MaxPoolGradGrad if rank == 2 else G.MaxPool3DGradGrad)(3, 2, mode)
    out = prim(Tensor(x), Tensor(np.zeros(idx.shape, np.float32)), Tensor(g))
    assert out.dtype == ms.float32 and out.shape == idx.shape
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_maxpool_grad_grad_mindspore_numbers_and_gradcheck():
    data = np.arange(2 * 25, dtype=np.float32).reshape(2, 1, 5, 5)
    out = G.MaxPoolGradGrad(3, 1, "SAME")(Tensor(data), Tensor(data), Tensor(data / 10))
    want = np.array([[6, 7, 8, 9, 9], [11, 12, 13, 14, 14], [16, 17, 18, 19, 19],
                     [21, 22, 23, 24, 24], [21, 22, 23, 24, 24]], np.float32) / 10
    np.testing.assert_allclose(out.asnumpy()[0, 0], want, rtol=1e-6)
    x = Tensor(RNG.standard_normal((1, 2, 4, 4)))
    prim = G.MaxPoolGradGrad(2, 2, "VALID")
    assert gradcheck(lambda g: prim(x, x, g), Tensor(RNG.standard_normal((1, 2, 4, 4))))


def test_maxpool_grad_with_argmax_is_maxpool_with_argmax_backward():
    x = Tensor(RNG.standard_normal((2, 3, 6, 5)).astype(np.float32))
    fwd = ops.MaxPoolWithArgmax(3, 2, "same")
    out, argmax = fwd(x)
    dy = Tensor(RNG.standard_normal(out.shape).astype(np.float32))
    dx = G.MaxPoolGradWithArgmax(3, 2, "SAME")(x, dy, argmax)
    want = np.zeros((2, 3 * 6 * 5), np.float32)
    for n in range(2):
        np.add.at(want[n], argmax.asnumpy()[n].ravel(), dy.asnumpy()[n].ravel())
    np.testing.assert_allclose(dx.asnumpy(), want.reshape(x.shape), rtol=1e-6)
    _, back = vjp(lambda t: fwd(t)[0], x)
    np.testing.assert_allclose(dx.asnumpy(), back(dy)[0].asnumpy(), rtol=1e-6)
    # gather at the same argmax: MaxPoolGradGradWithArgmax, its transpose
    g = Tensor(RNG.standard_normal(x.shape).astype(np.float32))
    gg = G.MaxPoolGradGradWithArgmax(3, 2, "SAME")(x, g, argmax)
    np.testing.assert_array_equal(
        gg.asnumpy(), np.take_along_axis(g.asnumpy().reshape(2, -1),
                                         argmax.asnumpy().reshape(2, -1), 1).reshape(out.shape))
    prim = G.MaxPoolGradWithArgmax(3, 2, "SAME")
    x64 = Tensor(x.asnumpy().astype(np.float64))
    assert gradcheck(lambda d: prim(x64, d, argmax), Tensor(dy.asnumpy().astype(np.float64)))


def test_maxpool_grad_with_argmax_v2_uses_plane_indices():
    x = Tensor(RNG.standard_normal((2, 2, 5, 6)).astype(np.float32))
    fwd = ops.MaxPoolWithArgmaxV2(2, 2, 1, 1, True)
    out, argmax = fwd(x)
    dy = Tensor(RNG.standard_normal(out.shape).astype(np.float32))
    dx = G.MaxPoolGradWithArgmaxV2(2, 2, 1, 1, True)(x, dy, ops.cast(argmax, ms.int32))
    want = np.zeros((2, 2, 30), np.float32)
    for n, c in np.ndindex(2, 2):
        np.add.at(want[n, c], argmax.asnumpy()[n, c].ravel(), dy.asnumpy()[n, c].ravel())
    np.testing.assert_allclose(dx.asnumpy(), want.reshape(x.shape), rtol=1e-6)


def _lrn_grad_np(dy, x, radius, bias, alpha, beta):
    c = x.shape[1]
    sq = x * x
    s = bias + alpha * np.stack([sq[:, max(0, j - radius):j + radius + 1].sum(1)
                                 for j in range(c)], 1)
    inner = dy * x * s ** (-beta - 1)
    spread = np.stack([inner[:, max(0, j - radius):j + radius + 1].sum(1) for j in range(c)], 1)
    return dy * s ** -beta - 2 * alpha * beta * x * spread


def test_lrn_grad_against_numpy_and_mindspore():
    x = RNG.standard_normal((2, 5, 3, 3))
    dy = RNG.standard_normal((2, 5, 3, 3))
    prim = G.LRNGrad(2, 1.5, 0.3, 0.75)
    out = prim(Tensor(dy), Tensor(x), Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), _lrn_grad_np(dy, x, 2, 1.5, 0.3, 0.75),
                               rtol=1e-10)
    assert gradcheck(lambda d, t: prim(d, t, t), Tensor(dy), Tensor(x))
    # MindSpore 2.10's numbers (tests/st/ops/cpu/test_lrn_grad_op.py), float16 within 1e-3
    x = np.array([[[[1.6243454, -0.6117564], [-0.5281718, -1.0729686]],
                   [[0.86540765, -2.3015387], [1.7448118, -0.7612069]],
                   [[0.3190391, -0.24937038], [1.4621079, -2.0601406]]]])
    dy = np.array([[[[-0.3224172, -0.38405436], [1.1337694, -1.0998913]],
                    [[-0.1724282, -0.8778584], [0.04221375, 0.58281523]],
                    [[-1.1006192, 1.1447237], [0.9015907, 0.50249434]]]])
    want = np.array([[[[-0.3220835, -0.3837087], [1.133368, -1.0994467]],
                      [[-0.17225023, -0.8768017], [0.04198911, 0.5825201]],
                      [[-1.1002823, 1.1443052], [0.9010479, 0.50217706]]]])
    prim = G.LRNGrad(depth_radius=2, bias=1.0, alpha=0.0001, beta=0.75)
    for dtype, tol in ((np.float32, 1e-6), (np.float16, 1e-3)):
        out = prim(Tensor(dy.astype(dtype)), Tensor(x.astype(dtype)), Tensor(x.astype(dtype)))
        assert out.asnumpy().dtype == dtype
        np.testing.assert_allclose(out.asnumpy(), want, atol=tol, rtol=tol)
    with pytest.raises(TypeError, match="'LRNGrad'.*'bias'"):
        G.LRNGrad(bias=1)


@pytest.mark.parametrize("mode,np_mode", [("reflect", "reflect"), ("edge", "edge"),
                                          ("circular", "wrap")])
def test_pad_v3_grad_folds_padding_back(mode, np_mode):
    shape, pads = (2, 3, 4, 5), [1, 2, 2, 1]  # last axis (1, 2), then (2, 1)
    index = np.arange(np.prod(shape)).reshape(shape)
    padded = np.pad(index, [(0, 0), (0, 0), (2, 1), (1, 2)], mode=np_mode)
    g = RNG.standard_normal(padded.shape)
    want = np.zeros(index.size)
    np.add.at(want, padded.ravel(), g.ravel())
    prim = G.PadV3Grad(mode)
    out = prim(Tensor(g), Tensor(np.array(pads, np.int64)))
    np.testing.assert_allclose(out.asnumpy(), want.reshape(shape), rtol=1e-12)
    assert gradcheck(lambda t: prim(t, pads), Tensor(g))


def test_pad_v3_grad_mindspore_numbers_and_errors():
    x = Tensor(np.arange(18, dtype=np.float32).reshape(1, 1, 3, 6))
    out = G.PadV3Grad("circular")(x, Tensor(np.array([1, 2, 1, 0])))
    np.testing.assert_array_equal(out.asnumpy(), [[[[17, 19, 15], [34, 38, 30]]]])
    with pytest.raises(ValueError, match="'PadV3Grad'.*'mode'"):
        G.PadV3Grad("constant")


def test_roi_align_grad_mindspore_numbers():
    rois = Tensor(np.array([[0, -2.0, -2.0, 21.0, 21.0]], np.float32))
    dy = Tensor(np.array([[[[0.1, 0.2, 0.3]] * 3]], np.float32))
    out = G.ROIAlignGrad(3, 3, 0.25, 2)(dy, rois, (1, 1, 6, 6))
    np.testing.assert_allclose(out.asnumpy()[0, 0],
                               np.tile([0.025, 0.025, 0.05, 0.05, 0.075, 0.075], (6, 1)),
                               atol=1e-6)
    # a region inside the map passes on all of dy's mass
    rois = Tensor(np.array([[0, 4.0, 4.0, 16.0, 12.0]], np.float32))
    dy = RNG.random((1, 1, 3, 3)).astype(np.float32)
    out = G.ROIAlignGrad(3, 3, 0.25, 2)(Tensor(dy), rois, (1, 1, 6, 6))
    np.testing.assert_allclose(out.asnumpy().sum(), dy.sum(), rtol=1e-5)


def _fractional_grad_np(shape, g, rows, cols, overlapping, integer=False):
    out = np.zeros(shape, g.dtype)
    extra = 1 if overlapping else 0
    for i in range(len(rows) - 1):
        for j in range(len(cols) - 1):
            r0, r1 = rows[i], min(rows[i + 1] + extra, shape[1])
            c0, c1 = cols[j], min(cols[j + 1] + extra, shape[2])
            each = g[:, i, j, :] / ((r1 - r0) * (c1 - c0))
            if integer:
                each = np.trunc(each).astype(g.dtype)
            out[:, r0:r1, c0:c1, :] += each[:, None, None, :]
    return out


@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_avg_pool_grad_against_numpy(overlapping):
    rows, cols = np.array([0, 2, 3, 5]), np.array([0, 1, 3, 4])
    shape = (2, 5, 4, 3)
    g = RNG.standard_normal((2, 3, 3, 3))
    prim = G.FractionalAvgPoolGrad(overlapping)
    out = prim(Tensor(np.array(shape)), Tensor(g), Tensor(rows), Tensor(cols))
    np.testing.assert_allclose(out.asnumpy(), _fractional_grad_np(shape, g, rows, cols,
                                                                  overlapping), rtol=1e-12)
    assert gradcheck(lambda t: prim(Tensor(np.array(shape)), t, Tensor(rows), Tensor(cols)),
                     Tensor(g))
    gi = RNG.integers(-20, 20, (2, 3, 3, 3)).astype(np.int32)
    out = prim(Tensor(np.array(shape)), Tensor(gi), Tensor(rows), Tensor(cols))
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), _fractional_grad_np(shape, gi, rows, cols,
                                                                     overlapping, True))


def test_fractional_avg_pool_on_integers_truncates_window_means():
    x = Tensor(np.arange(1, 17, dtype=np.int32).reshape(1, 4, 4, 1))
    out, rows, cols = ops.FractionalAvgPool([1.0, 2.0, 2.0, 1.0], deterministic=True)(x)
    windows = [x.asnumpy()[0, rows.asnumpy()[i]:rows.asnumpy()[i + 1],
                           cols.asnumpy()[j]:cols.asnumpy()[j + 1], 0]
               for i in range(2) for j in range(2)]
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy().ravel(), [w.sum() // w.size for w in windows])


def _ps_roi_np(x, rois, scale, g, dim, last=1):
    """numpy: R-FCN's position-sensitive average pooling, as MindSpore's CPU kernel: corners
    rounded half away from zero, bins clipped to the size less `last` (1 forward, 0 backward)."""
    h, w = x.shape[2:]
    h, w = h - last, w - last
    out = np.zeros((len(rois), dim, g, g), x.dtype)
    for r, roi in enumerate(rois):
        x1, y1, x2, y2 = (int(np.sign(v) * np.floor(abs(v) + 0.5))
                          for v in np.asarray(roi[1:], np.float64) * scale)
        bh, bw = max(y2 - y1, 1) / g, max(x2 - x1, 1) / g
        for d, ph, pw in np.ndindex(dim, g, g):
            h0 = min(max(int(np.floor(ph * bh)) + y1, 0), h)
            h1 = min(max(int(np.ceil((ph + 1) * bh)) + y1, 0), h)
            w0 = min(max(int(np.floor(pw * bw)) + x1, 0), w)
            w1 = min(max(int(np.ceil((pw + 1) * bw)) + x1, 0), w)
            if h1 > h0 and w1 > w0:
                out[r, d, ph, pw] = x[int(roi[0]), (d * g + ph) * g + pw, h0:h1, w0:w1].mean()
    return out


def _rois():
    return np.array([[[0.0], [15.03563], [20.0132], [57.93563], [60.23452]],
                     [[1.0], [6.51263], [3.08564], [76.24214], [56.79854]],
                     [[0.0], [-20.0], [30.0], [40.0], [35.0]]], np.float32)  # (3, 5, 1)


def test_ps_roi_pooling_against_numpy():
    x = RNG.standard_normal((2, 3 * 4, 5, 4)).astype(np.float32)
    rois = _rois()
    out = N.PSROIPooling(1 / 16, 2, 3)(Tensor(x), Tensor(rois))
    assert out.shape == (3, 3, 2, 2) and out.dtype == ms.float32
    rows = rois.transpose(0, 2, 1).reshape(-1, 5)
    np.testing.assert_allclose(out.asnumpy(), _ps_roi_np(x, rows, 1 / 16, 2, 3), rtol=1e-6)


def test_ps_roi_pooling_grad_is_the_adjoint_and_mindspore_numbers():
    rois = _rois()
    dy = RNG.standard_normal((3, 3, 2, 2)).astype(np.float32)
    dx = G.PSROIPoolingGrad((5, 4), 1 / 16, 2, 3)(Tensor(dy), Tensor(rois))
    assert dx.shape == (3, 12, 5, 4)
    x = RNG.standard_normal((3, 12, 5, 4)).astype(np.float32)
    # the adjoint of pooling whose bins reach the last row and column (MindSpore's forward
    # stops one short; its backward does not)
    pooled = _ps_roi_np(x, rois.transpose(0, 2, 1).reshape(-1, 5), 1 / 16, 2, 3, last=0)
    np.testing.assert_allclose((pooled * dy).sum(), (x * dx.asnumpy()).sum(), rtol=1e-5)
    forward = _ps_roi_np(x, rois.transpose(0, 2, 1).reshape(-1, 5), 1 / 16, 2, 3)
    _, back = vjp(lambda t: N.PSROIPooling(1 / 16, 2, 3)(t, Tensor(rois)), Tensor(x))
    np.testing.assert_allclose((forward * dy).sum(), (x * back(Tensor(dy))[0].asnumpy()).sum(),
                               rtol=1e-5)
    # MindSpore 2.10's numbers (tests/st/ops/cpu/test_ps_roi_pooling_grad_op.py), first ROI
    dx = G.PSROIPoolingGrad((5, 4), 1 / 16, 2, 2)(Tensor(np.ones((2, 2, 2, 2), np.float32)),
                                                  Tensor(rois[:2]))
    np.testing.assert_allclose(dx.asnumpy()[0, 0, 1:3, 1:3], 0.25)
    np.testing.assert_allclose(dx.asnumpy()[1, 0, 0:2, 0:3], 1 / 6)
    assert dx.asnumpy()[0, 0].sum() == pytest.approx(1.0)


def test_ps_roi_pooling_gradcheck_float64_kernel():
    from cellgrad_nn.spatial.pool_grad_prims import _ps_roi_pool

    rows = _rois().transpose(0, 2, 1).reshape(-1, 5).astype(np.float64)
    x = Tensor(RNG.standard_normal((2, 8, 5, 4)))
    assert gradcheck(lambda t: _ps_roi_pool(t, rows, 1 / 16, 2, 2), x)


def test_ps_roi_pooling_errors():
    with pytest.raises(TypeError, match="'spatial_scale'"):
        N.PSROIPooling(object(), 2, 4)
    with pytest.raises(ValueError, match="'group_size'"):
        N.PSROIPooling(1 / 16, -1, 4)
    with pytest.raises(TypeError, match="'output_dim'"):
        N.PSROIPooling(1 / 16, 2, 7.1)
    with pytest.raises(TypeError, match="'input_size'"):
        G.PSROIPoolingGrad([2, 2], 1 / 16, 2, 4)
    rois = Tensor(_rois()[:2])
    with pytest.raises(RuntimeError, match="16 channels"):
        N.PSROIPooling(1 / 16, 2, 4)(Tensor(np.ones((2, 17, 8, 8), np.float32)), rois)
    with pytest.raises(RuntimeError, match="'dy' must have shape"):
        G.PSROIPoolingGrad((5, 4), 1 / 16, 2, 2)(Tensor(np.ones((3, 2, 2, 2), np.float32)),
                                                 rois)
    one = Tensor([1.0], ms.float32)
    with pytest.raises(ValueError, match="input number must be equal to 2, but got 3"):
        G.PSROIPoolingGrad(100, 1 / 16, 7, 3)(one, one, one)
    with pytest.raises(TypeError, match="Float16"):
        N.PSROIPooling(1 / 16, 2, 4)(Tensor(np.ones((2, 16, 8, 8))), rois)


@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_max_pool_grad_sends_gradient_to_window_maxima(overlapping):
    rows, cols = np.array([0, 2, 3, 5]), np.array([0, 1, 3, 4])
    x = RNG.standard_normal((2, 5, 4, 3))
    x[0, 0:2, 0, 0] = 9.0  # a tie: the first maximum (row-major) takes the gradient
    g = RNG.standard_normal((2, 3, 3, 3))
    want = np.zeros_like(x)
    extra = 1 if overlapping else 0
    for n, i, j, c in np.ndindex(*g.shape):
        r0, r1 = rows[i], min(rows[i + 1] + extra, 5)
        c0, c1 = cols[j], min(cols[j + 1] + extra, 4)
        r, q = np.unravel_index(np.argmax(x[n, r0:r1, c0:c1, c]), (r1 - r0, c1 - c0))
        want[n, r0 + r, c0 + q, c] += g[n, i, j, c]
    prim = G.FractionalMaxPoolGrad(overlapping)
    out_shape = Tensor(np.zeros(g.shape))
    out = prim(Tensor(x), out_shape, Tensor(g), Tensor(rows), Tensor(cols))
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)
    assert gradcheck(lambda t: prim(Tensor(x), out_shape, t, Tensor(rows), Tensor(cols)),
                     Tensor(g))
    gi = RNG.integers(-9, 9, g.shape).astype(np.int64)
    out = prim(Tensor(x), out_shape, Tensor(gi), Tensor(rows), Tensor(cols))
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), np.round(
        prim(Tensor(x), out_shape, Tensor(gi.astype(np.float64)), Tensor(rows),
             Tensor(cols)).asnumpy()).astype(np.int64))


@pytest.mark.parametrize("h,k,s,top", [(5, 3, 2, 0), (5, 3, 1, 1), (6, 4, 2, 1), (7, 4, 3, 0),
                                       (4, 2, 1, 0)])
def test_maxpool_with_argmax_same_pads_kernel_minus_stride_halved_before(h, k, s, top):
    # MindSpore 2.10's CPU kernel (probed for H 3..9, k 2..4, s 1..3): (k - s) // 2 before
    x = Tensor(np.arange(h * h, dtype=np.float32).reshape(1, 1, h, h))
    _, argmax = ops.MaxPoolWithArgmax(k, s, "same")(x)
    last = [min(i * s - top + k - 1, h - 1) for i in range(-(-h // s))]
    want = np.array([[r * h + c for c in last] for r in last])
    np.testing.assert_array_equal(argmax.asnumpy()[0, 0], want)
