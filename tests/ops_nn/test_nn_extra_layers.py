"""The nn names added for MindSpore 2.10 coverage: LPPool, MaxUnpool, FractionalMaxPool, LRN,
ImageGradients, matrix and gamma-family cells, *Ext cells, the extra losses and
MultiFieldEmbeddingLookup: float64 gradients, PyTorch's numbers, and errors. (MindSpore's own
numbers: ms_programs/nn_extra_layers.py, nn_extra_losses.py.)"""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck

rng = np.random.RandomState(0)


def t64(*shape, low=-2.0, high=2.0, seed=0):
    return Tensor(np.random.RandomState(seed).uniform(low, high, shape))


# ---- gradients in float64 ----

def test_gradcheck_pooling_family():
    x = t64(1, 2, 7, low=0.2)
    assert gradcheck(lambda a: ops.lp_pool1d(a, 2, 3, 2), x)
    assert gradcheck(lambda a: ops.lp_pool2d(a, 3.0, 2, 1), t64(1, 2, 4, 4, low=0.2))
    idx = Tensor(np.array([[[[0, 3], [9, 14]]]], np.int64))
    assert gradcheck(lambda a: ops.max_unpool2d(a, idx, 2), t64(1, 1, 2, 2))
    samples = Tensor(np.array([[[0.3, 0.7], [0.9, 0.1]]]))
    assert gradcheck(lambda a: ops.fractional_max_pool2d(a, 2, (3, 3), None, False, samples),
                     t64(1, 2, 6, 5))
    assert gradcheck(lambda a: ops.LRN(2, 1.0, 0.5, 0.75)(a), t64(1, 5, 2, 2))
    assert gradcheck(lambda a: nn.ImageGradients()(a), t64(2, 1, 3, 4))


def test_gradcheck_matrix_and_gamma_cells():
    a = Tensor(np.array([[[3.0, 1.0], [1.0, 2.0]], [[2.0, 0.5], [0.3, 1.0]]]))
    assert gradcheck(nn.MatDet(), a)
    assert gradcheck(nn.MatInverse(), a)
    assert gradcheck(nn.MatrixDiag(), t64(2, 3))
    assert gradcheck(nn.MatrixDiagPart(), t64(2, 3, 4))
    assert gradcheck(nn.MatrixSetDiag(), t64(2, 4, 3), t64(2, 3, seed=1))
    x = Tensor(np.array([0.3, 1.7, 4.2, -1.4, -0.6]))
    assert gradcheck(nn.LGamma(), x)
    assert gradcheck(nn.DiGamma(), x)
    assert gradcheck(nn.LBeta(), Tensor(np.array([0.7, 2.5])), Tensor(np.array([1.3, 0.4])))
    assert gradcheck(nn.IGamma(), Tensor(np.array([0.8, 2.5, 4.0])),
                     Tensor(np.array([0.5, 3.0, 2.0])), atol=1e-4)


def test_gradcheck_losses_and_embedding():
    a, p, n = t64(3, 4), t64(3, 4, seed=1), t64(3, 4, seed=2)
    assert gradcheck(nn.TripletMarginWithDistanceLoss(swap=True, margin=2.0), a, p, n)
    assert gradcheck(nn.layer.CosineSimilarity(), t64(3, 4), t64(3, 4, seed=3))
    sv = (Tensor(np.array([1, 5, 6], np.int32)), Tensor(np.array([[0.4], [0.5]])),
          Tensor(np.array([0.3, 0.3, 0.3])))
    loss = nn.SampledSoftmaxLoss(3, 7, sampled_values=sv)
    labels = Tensor(np.array([0, 3], np.int32))
    assert gradcheck(lambda w, b, x: loss(w, b, labels, x), t64(7, 3), t64(7, seed=4),
                     t64(2, 3, seed=5))
    m = nn.MultiFieldEmbeddingLookup(10, 2, 3, operator="MEAN")
    ids = Tensor(np.array([[1, 2, 3], [4, 0, 0]], np.int32))
    fields = Tensor(np.array([[0, 1, 1], [2, 0, 0]], np.int32))
    vals = Tensor(np.array([[1.0, -1.0, 2.0], [0.5, 0.3, 0.0]], np.float32))
    out, (g,) = ms.value_and_grad(lambda v: m(ids, v, fields).sum(), None, m.trainable_params())(
        vals)
    assert out.shape == () and g.shape == (10, 2)
    np.testing.assert_allclose(g.asnumpy()[[1, 2, 3, 4, 0]],
                               np.repeat([[1.0], [-1 / 3], [2 / 3], [1.0], [1.0]], 2, 1),
                               rtol=1e-6)


# ---- PyTorch ----

def test_torch_pooling_family():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    x = rng.rand(2, 3, 9, 8)
    np.testing.assert_allclose(ops.lp_pool2d(Tensor(x), 2, 3, 2).asnumpy(),
                               F.lp_pool2d(torch.tensor(x), 2, 3, 2).numpy(), rtol=1e-10)
    np.testing.assert_allclose(ops.lp_pool1d(Tensor(x[0]), 3, 2).asnumpy(),
                               F.lp_pool1d(torch.tensor(x[0]), 3, 2).numpy(), rtol=1e-10)
    out, idx = F.max_pool2d(torch.tensor(x), 2, return_indices=True)
    np.testing.assert_array_equal(
        ops.max_unpool2d(Tensor(out.numpy()), Tensor(idx.numpy()), 2).asnumpy(),
        F.max_unpool2d(out, idx, 2).numpy())
    out3, idx3 = F.max_pool3d(torch.tensor(rng.rand(2, 2, 4, 8, 6)), 2, return_indices=True)
    np.testing.assert_array_equal(
        nn.MaxUnpool3d(2)(Tensor(out3.numpy()), Tensor(idx3.numpy())).asnumpy(),
        F.max_unpool3d(out3, idx3, 2).numpy())
    for dtype in (np.float32, np.float64):
        samples = rng.rand(2, 3, 2).astype(dtype)
        ours = ops.fractional_max_pool2d(Tensor(x.astype(dtype)), (3, 2), (4, 5), None, True,
                                         Tensor(samples))
        theirs = F.fractional_max_pool2d(torch.tensor(x.astype(dtype)), (3, 2), (4, 5),
                                         return_indices=True,
                                         _random_samples=torch.tensor(samples))
        np.testing.assert_array_equal(ours[0].asnumpy(), theirs[0].numpy())
        np.testing.assert_array_equal(ours[1].asnumpy(), theirs[1].numpy())
    x5, s3 = rng.rand(1, 2, 6, 7, 5), rng.rand(1, 2, 3)
    ours = ops.fractional_max_pool3d(Tensor(x5), 2, None, (0.5, 0.5, 0.5), True, Tensor(s3))
    theirs = F.fractional_max_pool3d(torch.tensor(x5), 2, output_ratio=0.5, return_indices=True,
                                     _random_samples=torch.tensor(s3))
    np.testing.assert_array_equal(ours[1].asnumpy(), theirs[1].numpy())
    # torch divides alpha by the window size; MindSpore's LRN does not
    r, alpha = 2, 0.3
    np.testing.assert_allclose(
        nn.LRN(r, 1.5, alpha, 0.75)(Tensor(x)).asnumpy(),
        F.local_response_norm(torch.tensor(x), 2 * r + 1, alpha * (2 * r + 1), 0.75, 1.5).numpy(),
        rtol=1e-10)


def test_torch_special_functions_and_triplet():
    torch = pytest.importorskip("torch")
    x = np.array([0.2, 0.9, 3.5, 11.0, -0.5, -2.3])
    np.testing.assert_allclose(nn.LGamma()(Tensor(x)).asnumpy(),
                               torch.lgamma(torch.tensor(x)).numpy(), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(nn.DiGamma()(Tensor(x)).asnumpy(),
                               torch.special.digamma(torch.tensor(x)).numpy(), rtol=1e-8)
    a, z = np.array([0.5, 2.0, 7.5]), np.array([0.3, 2.5, 9.0])
    np.testing.assert_allclose(nn.IGamma()(Tensor(a), Tensor(z)).asnumpy(),
                               torch.special.gammainc(torch.tensor(a), torch.tensor(z)).numpy(),
                               rtol=1e-9)
    u, p, n = rng.randn(4, 3), rng.randn(4, 3), rng.randn(4, 3)
    tu, tp, tn = (torch.tensor(v, requires_grad=True) for v in (u, p, n))
    ref = torch.nn.TripletMarginWithDistanceLoss(swap=True, margin=1.5)(tu, tp, tn)
    ref.backward()
    cell = nn.TripletMarginWithDistanceLoss(swap=True, margin=1.5)
    value, grads = ms.value_and_grad(cell, (0, 1, 2))(Tensor(u), Tensor(p), Tensor(n))
    # torch's pairwise_distance adds eps=1e-6 to the difference; MindSpore's does not
    np.testing.assert_allclose(value.asnumpy(), ref.item(), rtol=1e-5)
    for g, tv in zip(grads, (tu, tp, tn)):
        np.testing.assert_allclose(g.asnumpy(), tv.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_ext_cells_match_torch():
    torch = pytest.importorskip("torch")
    x = rng.randn(2, 3, 6, 6).astype(np.float32)
    np.testing.assert_allclose(
        nn.AvgPool2dExt(3, 2, 1, count_include_pad=False)(Tensor(x)).asnumpy(),
        torch.nn.AvgPool2d(3, 2, 1, count_include_pad=False)(torch.tensor(x)).numpy(), rtol=1e-6,
        atol=1e-7)
    np.testing.assert_allclose(nn.AvgPool1dExt(2)(Tensor(x[0])).asnumpy(),
                               torch.nn.AvgPool1d(2)(torch.tensor(x[0])).numpy(), rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool3dExt(2)(Tensor(x)).asnumpy(),
                               torch.nn.AvgPool3d(2)(torch.tensor(x)).numpy(), rtol=1e-6)
    out, idx = nn.MaxPool2dExt(3, 2, 1, return_indices=True)(Tensor(x))
    ref, ridx = torch.nn.MaxPool2d(3, 2, 1, return_indices=True)(torch.tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), ref.numpy())
    np.testing.assert_array_equal(idx.asnumpy(), ridx.numpy())
    np.testing.assert_allclose(nn.LogSoftmaxExt()(Tensor(x[0, 0])).asnumpy(),
                               torch.nn.LogSoftmax(1)(torch.tensor(x[0, 0])).numpy(), rtol=1e-5)
    ln = nn.LayerNormExt((6, 6))
    np.testing.assert_allclose(ln(Tensor(x)).asnumpy(),
                               torch.nn.LayerNorm((6, 6))(torch.tensor(x)).detach().numpy(),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(nn.PReLUExt(3, 0.1)(Tensor(x)).asnumpy(),
                               torch.nn.PReLU(3, 0.1)(torch.tensor(x)).detach().numpy())
    np.testing.assert_allclose(nn.L1LossExt("sum")(Tensor(x), Tensor(x[::-1].copy())).asnumpy(),
                               torch.nn.L1Loss(reduction="sum")(
                                   torch.tensor(x), torch.tensor(x[::-1].copy())).numpy(),
                               rtol=1e-6)


def test_ext_dropout_and_embedding():
    x = Tensor(np.ones((4, 8, 3, 3), np.float32))
    drop = nn.DropoutExt(0.25)
    assert drop(x) is x  # eval mode: the identity
    drop.set_train()
    kept = drop(x).asnumpy()
    assert set(np.unique(kept)) <= {0.0, np.float32(1 / 0.75)}
    d2 = nn.Dropout2dExt(0.5).set_train()
    per_channel = d2(x).asnumpy().reshape(4, 8, -1)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))  # whole channels
    assert nn.DropoutExt(0.0).set_train()(x) is x
    e = nn.EmbeddingExt(5, 3, padding_idx=-1)
    np.testing.assert_array_equal(e.weight.asnumpy()[-1], 0)
    out = e(Tensor(np.array([[0, 4]], np.int32)))
    assert out.shape == (1, 2, 3)
    np.testing.assert_array_equal(out.asnumpy()[0, 1], 0)
    w = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    np.testing.assert_array_equal(nn.EmbeddingExt(3, 2, _weight=w)(Tensor(np.array([2]))).asnumpy(),
                                  [[4, 5]])


# ---- errors ----

@pytest.mark.parametrize("call, error, words", [
    (lambda: ops.lp_pool1d(Tensor(np.ones((2, 3, 4, 5), np.float32)), 2, 2), ValueError,
     "lp_pool1d"),
    (lambda: ops.lp_pool2d(Tensor(np.ones((1, 2, 4, 4), np.float32)), 0, 2), ValueError,
     "norm_type"),
    (lambda: nn.MaxUnpool2d(2)(Tensor(np.ones((1, 1, 2, 2), np.float32)),
                               Tensor(np.array([[[[0, 1], [2, 99]]]]))), ValueError, "indices"),
    (lambda: nn.MaxUnpool2d(2)(Tensor(np.ones((1, 1, 2, 2), np.float32)),
                               Tensor(np.zeros((1, 1, 2, 2), np.float32))), TypeError, "indices"),
    (lambda: nn.MaxUnpool2d(2)(Tensor(np.ones((1, 1, 2, 2), np.float32)),
                               Tensor(np.zeros((1, 1, 2, 2), np.int64)), [4, 4]), ValueError,
     "output_size must be tuple"),
    (lambda: nn.FractionalMaxPool2d(3, output_size=(5, 5))(Tensor(np.ones((1, 1, 6, 6),
                                                                          np.float32))),
     ValueError, "kernel_size"),
    (lambda: nn.FractionalMaxPool2d(2)(Tensor(np.ones((1, 1, 6, 6), np.float32))), ValueError,
     "output_ratio"),
    (lambda: nn.LRN()(Tensor(np.ones((2, 3), np.float32))), ValueError, "LRN"),
    (lambda: nn.LRN(norm_region="WITHIN"), ValueError, "norm_region"),
    (lambda: nn.ImageGradients()(Tensor(np.ones((3, 4), np.float32))), ValueError,
     "ImageGradients"),
    (lambda: nn.MatDet()(Tensor(np.ones((2, 3), np.float32))), ValueError, "MatDet"),
    (lambda: nn.MatrixSetDiag()(Tensor(np.ones((2, 3), np.float32)),
                                Tensor(np.ones(3, np.float32))), ValueError, "diagonal"),
    (lambda: nn.LGamma()(Tensor(np.ones(3, np.int32))), TypeError, "LGamma"),
    (lambda: nn.TripletMarginWithDistanceLoss(margin=1), TypeError, "margin"),
    (lambda: nn.CTCLoss()(Tensor(np.ones((4, 3), np.float32)),
                          Tensor(np.ones((2, 2), np.int32)), (4,), (2,)), ValueError, "targets"),
    (lambda: nn.SampledSoftmaxLoss(8, 7), ValueError, "num_sampled"),
    (lambda: nn.MultiFieldEmbeddingLookup(5, 2, 2, operator="MIN"), ValueError, "operator"),
    (lambda: nn.MultiFieldEmbeddingLookup(5, 2, 2)(
        Tensor(np.array([[1]], np.int32)), Tensor(np.array([[1.0]], np.float32)),
        Tensor(np.array([[3]], np.int32))), ValueError, "field_ids"),
    (lambda: nn.EmbeddingExt(4, 2, sparse=True), ValueError, "sparse"),
    (lambda: nn.LayerNormExt([]), ValueError, "normalized_shape"),
    (lambda: nn.L1LossExt("avg"), ValueError, "reduction"),
])
def test_bad_input_raises_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_sampled_softmax_draws_without_true_classes():
    loss = nn.SampledSoftmaxLoss(4, 6, seed=3)
    sampled, true_count, sampled_count = loss._sample(np.array([0, 1]))
    assert set(sampled.asnumpy()) == {2, 3, 4, 5}
    np.testing.assert_allclose(true_count.asnumpy(), [[4 / 6], [4 / 6]], rtol=1e-6)
    out = loss(t64(6, 3).astype(ms.float32), t64(6).astype(ms.float32),
               Tensor(np.array([0, 1], np.int32)), t64(2, 3).astype(ms.float32))
    assert out.shape == (2,) and np.all(out.asnumpy() > 0)


def test_rms_norm_and_multilabel_margin_primitives():
    torch = pytest.importorskip("torch")
    x, gamma = t64(2, 3, 4), t64(4, seed=1)
    y, rstd = ops.RmsNorm(1e-5)(x, gamma)
    ref = torch.nn.functional.rms_norm(torch.tensor(x.asnumpy()), (4,),
                                       torch.tensor(gamma.asnumpy()), 1e-5)
    np.testing.assert_allclose(y.asnumpy(), ref.numpy(), rtol=1e-10)
    assert rstd.shape == (2, 3, 1)
    assert gradcheck(lambda a, g: ops.RmsNorm(1e-5)(a, g)[0], x, gamma)
    with pytest.raises(ValueError, match="gamma"):
        ops.RmsNorm()(x, t64(3))
    z = np.array([[0.1, 0.9, 0.5, -0.3], [1.0, 0.2, 0.4, 0.3]])
    target = np.array([[2, 0, -1, 1], [1, 3, 0, 2]])
    loss, is_target = ops.MultilabelMarginLoss("none")(Tensor(z), Tensor(target))
    np.testing.assert_array_equal(is_target.asnumpy(), [[1, 0, 1, 0], [1, 1, 1, 1]])
    np.testing.assert_allclose(
        loss.asnumpy(), torch.nn.functional.multilabel_margin_loss(
            torch.tensor(z), torch.tensor(target), reduction="none").numpy(), rtol=1e-10)
    with pytest.raises(TypeError, match="> 3 dims"):
        ops.ChannelShuffle(2)(t64(1, 4, 2))


def test_affine_grid_swiglu_maxpool_argmax_hsv():
    torch = pytest.importorskip("torch")
    for theta_shape, size in (((2, 2, 3), (2, 1, 3, 4)), ((1, 3, 4), (1, 2, 2, 3, 4))):
        theta = t64(*theta_shape)
        for corners in (False, True):
            ref = torch.nn.functional.affine_grid(torch.tensor(theta.asnumpy()), size, corners)
            np.testing.assert_allclose(ops.affine_grid(theta, size, corners).asnumpy(),
                                       ref.numpy(), rtol=1e-12, atol=1e-12)
        assert gradcheck(lambda th, s=size: ops.affine_grid(th, s), theta)
    x = t64(3, 8)
    np.testing.assert_allclose(
        ops.swiglu(x).asnumpy(),
        (torch.nn.functional.silu(torch.tensor(x.asnumpy()[:, :4])) *
         torch.tensor(x.asnumpy()[:, 4:])).numpy(), rtol=1e-12)
    assert gradcheck(lambda a: ops.swiglu(a, 0), t64(4, 3))
    img = t64(1, 2, 5, 5)
    out, arg = ops.MaxPoolWithArgmax(3, 2, "same")(img)
    # MindSpore 2.10's CPU kernel pads (kernel - stride) // 2 = 0 before, the rest after
    ref, ridx = torch.nn.functional.max_pool2d(
        torch.nn.functional.pad(torch.tensor(img.asnumpy()), (0, 2, 0, 2), value=-np.inf), 3, 2,
        return_indices=True)
    np.testing.assert_array_equal(out.asnumpy(), ref.numpy())
    flat = img.asnumpy().reshape(1, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, arg.asnumpy().reshape(1, -1), 1),
                                  out.asnumpy().reshape(1, -1))
    rgb = Tensor(np.random.RandomState(2).rand(1, 3, 4, 3).astype(np.float32))
    back = ops.HSVToRGB()(ops.RGBToHSV()(rgb))
    np.testing.assert_allclose(back.asnumpy(), rgb.asnumpy(), atol=1e-6)
    with pytest.raises(ValueError, match="size"):
        ops.affine_grid(t64(1, 2, 3), (1, 1, 2, 2, 2))
    with pytest.raises(ValueError, match="even"):
        ops.swiglu(t64(2, 3))
    with pytest.raises(ValueError, match="pad_mode"):
        ops.MaxPoolWithArgmax(2, 2, "pad")


def test_resize_primitives_gradients_and_torch():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    v = t64(1, 2, 3, 4, 5)
    for prim, mode, corners in ((ops.UpsampleTrilinear3D(), "trilinear", False),
                                (ops.UpsampleTrilinear3D(True), "trilinear", True),
                                (ops.UpsampleNearest3D(), "nearest", None)):
        ours = prim(v, (5, 7, 4))
        ref = F.interpolate(torch.tensor(v.asnumpy()), (5, 7, 4), mode=mode,
                            align_corners=corners)
        np.testing.assert_allclose(ours.asnumpy(), ref.numpy(), rtol=1e-12, atol=1e-12)
        assert gradcheck(lambda a, p=prim: p(a, (4, 2, 6)), v)
    line = t64(2, 3, 9)
    ref = F.interpolate(torch.tensor(line.asnumpy()), 5, mode="linear", align_corners=True)
    np.testing.assert_allclose(ops.ResizeLinear1D()(line, (5,)).asnumpy(), ref.numpy(),
                               rtol=1e-12)
    img = t64(1, 2, 5, 6)
    for prim in (ops.ResizeBicubic(), ops.ResizeBicubic(False, True),
                 ops.ResizeNearestNeighborV2(True), ops.ResizeLinear1D("half_pixel")):
        size = (3,) if isinstance(prim, type(ops.ResizeLinear1D())) else (7, 4)
        arg = img.reshape(1, 2, 30) if len(size) == 1 else img
        assert gradcheck(lambda a, p=prim, s=size: p(a, s), arg)
    assert gradcheck(lambda a: ops.ResizeArea()(a, (3, 4)), t64(1, 5, 6, 2))
    cols = ops.Im2Col((2, 3), 1, 1, 1)(img)
    ref = F.unfold(torch.tensor(img.asnumpy()), (2, 3), 1, 1, 1)
    np.testing.assert_allclose(cols.asnumpy().reshape(ref.shape), ref.numpy())
    back = ops.Col2Im((2, 3), 1, 1, 1)(cols, (5, 6))
    np.testing.assert_allclose(back.asnumpy(),
                               F.fold(ref, (5, 6), (2, 3), 1, 1, 1).numpy(), rtol=1e-12)
    assert gradcheck(lambda a: ops.col2im(a, (5, 6), (2, 3), 1, 1, 1), cols)
    with pytest.raises(ValueError, match="kernel_size"):
        ops.col2im(cols, (5, 6), (3, 3), 1, 1, 1)
    with pytest.raises(ValueError, match="exactly one"):
        ops.UpsampleNearest3D()(v)
    with pytest.raises(ValueError, match="can not both"):
        ops.ResizeBicubic(True, True)
    with pytest.raises(ValueError, match="4 dimensions"):
        ops.ResizeNearestNeighborV2()(t64(2, 3), (2, 2))


def test_ctc_greedy_decoder_and_color_adjustments():
    logits = np.full((4, 2, 3), -5.0)
    path = [[0, 2], [0, 1], [2, 1], [1, 0]]  # (batch 0, batch 1) best class per step
    for step, (a, b) in enumerate(path):
        logits[step, 0, a] = logits[step, 1, b] = 1.0
    idx, vals, shape, logp = ops.CTCGreedyDecoder()(Tensor(logits.astype(np.float32)),
                                                    Tensor(np.array([4, 3], np.int32)))
    np.testing.assert_array_equal(vals.asnumpy(), [0, 1, 1])  # blank is 2, repeats merged
    np.testing.assert_array_equal(idx.asnumpy(), [[0, 0], [0, 1], [1, 0]])
    np.testing.assert_array_equal(shape.asnumpy(), [2, 2])
    np.testing.assert_allclose(logp.asnumpy().ravel(), [-4.0, -3.0])
    _, vals, _, _ = ops.ctc_greedy_decoder(Tensor(logits.astype(np.float32)),
                                           Tensor(np.array([4, 4], np.int32)), False)
    np.testing.assert_array_equal(vals.asnumpy(), [0, 0, 1, 1, 1, 0])
    with pytest.raises(ValueError, match="sequence_length"):
        ops.ctc_greedy_decoder(Tensor(logits), Tensor(np.array([5, 1], np.int32)))
    rgb = Tensor(np.random.RandomState(3).rand(4, 3).astype(np.float32))
    np.testing.assert_allclose(ops.AdjustHue()(rgb, 1.0).asnumpy(), rgb.asnumpy(), atol=1e-6)
    np.testing.assert_allclose(ops.AdjustSaturation()(rgb, 1.0).asnumpy(), rgb.asnumpy(),
                               atol=1e-6)
    grey = ops.AdjustSaturation()(rgb, 0.0).asnumpy()
    np.testing.assert_allclose(grey, np.repeat(rgb.asnumpy().max(-1, keepdims=True), 3, -1),
                               atol=1e-6)


@pytest.mark.parametrize("pseudo, overlapping", [(False, False), (True, True), (True, False)])
def test_fractional_pool_primitives(pseudo, overlapping):
    x = t64(2, 7, 9, 3)
    a = x.asnumpy()
    args = ([1.0, 1.4, 1.7, 1.0], pseudo, overlapping, False, 5, 0)
    avg, rows, cols = ops.FractionalAvgPool(*args)(x)
    mx, rows2, cols2 = ops.FractionalMaxPool(*args)(x)
    assert avg.shape == mx.shape == (2, 5, 5, 3)
    for seq, n in ((rows, 7), (cols, 9), (rows2, 7), (cols2, 9)):
        s = seq.asnumpy()
        assert s[0] == 0 and s[-1] == n and np.all(np.diff(s) >= 1)
    extra = 1 if overlapping else 0
    r, c = rows.asnumpy(), cols.asnumpy()
    want = np.array([[a[:, r[i]:min(r[i + 1] + extra, 7), c[j]:min(c[j + 1] + extra, 9)]
                      .mean((1, 2)) for j in range(5)] for i in range(5)]).transpose(2, 0, 1, 3)
    np.testing.assert_allclose(avg.asnumpy(), want, rtol=1e-12)
    r, c = rows2.asnumpy(), cols2.asnumpy()
    want = np.array([[a[:, r[i]:min(r[i + 1] + extra, 7), c[j]:min(c[j + 1] + extra, 9)]
                      .max((1, 2)) for j in range(5)] for i in range(5)]).transpose(2, 0, 1, 3)
    np.testing.assert_array_equal(mx.asnumpy(), want)
    prim = ops.FractionalAvgPool(*args[:3], True, 3, 4)  # seeded: the same windows every call
    assert gradcheck(lambda v: prim(v)[0], x)
    with pytest.raises(ValueError, match="pooling_ratio"):
        ops.FractionalMaxPool([1.0, 0.5, 1.5, 1.0])


def test_non_max_suppression_v3():
    boxes = Tensor(np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [1, 0.9, 0, -0.1], [0, 10, 1, 11],
                             [5, 5, 6, 6]], np.float32))
    scores = Tensor(np.array([0.9, 0.75, 0.6, 0.95, 0.05], np.float32))
    nms = ops.NonMaxSuppressionV3()
    np.testing.assert_array_equal(nms(boxes, scores, 5, 0.5, 0.0).asnumpy(), [3, 0, 4])
    np.testing.assert_array_equal(nms(boxes, scores, 5, 0.5, 0.1).asnumpy(), [3, 0])
    np.testing.assert_array_equal(nms(boxes, scores, 1, 0.5, 0.0).asnumpy(), [3])
    np.testing.assert_array_equal(nms(boxes, scores, 5, 0.9, 0.0).asnumpy(), [3, 0, 1, 2, 4])
    assert nms(boxes, scores, 5, 0.5, 0.0).dtype == ms.int32
    with pytest.raises(ValueError, match="iou_threshold"):
        nms(boxes, scores, 5, 1.5, 0.0)


def test_dilation2d_and_extract_image_patches():
    x, f = t64(2, 3, 6, 7), t64(3, 2, 3, seed=1)
    a, k = x.asnumpy(), f.asnumpy()
    out = ops.Dilation2D(1, (1, 1, 2, 1), "VALID")(x, f).asnumpy()
    want = np.full((2, 3, 4, 5), -np.inf)
    for i in range(4):
        for j in range(5):
            for m in range(2):
                for q in range(3):
                    want[:, :, i, j] = np.maximum(want[:, :, i, j],
                                                  a[:, :, i + 2 * m, j + q] + k[:, m, q])
    np.testing.assert_allclose(out, want, rtol=1e-12)
    same = ops.Dilation2D(2, 1, "same")(x, f)
    assert same.shape == (2, 3, 3, 4)
    assert gradcheck(lambda v, w: ops.Dilation2D(2, 1, "same")(v, w), x, f)
    torch = pytest.importorskip("torch")
    patches = ops.ExtractImagePatches([1, 1, 2, 3], [1, 1, 2, 1], [1, 1, 1, 2], "VALID")(x)
    ref = torch.nn.functional.unfold(torch.tensor(a), (2, 3), dilation=(1, 2), stride=(2, 1))
    ref = ref.reshape(2, 3, 6, 3, 3).permute(0, 2, 1, 3, 4).reshape(2, 18, 3, 3)  # (kh, kw, C)
    np.testing.assert_allclose(patches.asnumpy(), ref.numpy())
    same = ops.ExtractImagePatches(3, 2, 1, "SAME")(x)
    assert same.shape == (2, 27, 3, 4)
    np.testing.assert_array_equal(same.asnumpy()[:, :3, 0, 0], 0)  # the padded corner tap
    assert gradcheck(lambda v: ops.ExtractImagePatches(3, 2, 1, "SAME")(v), x)
    with pytest.raises(ValueError, match="pad_mode"):
        ops.Dilation2D(1, 1, "full")
    with pytest.raises(ValueError, match="filter"):
        ops.Dilation2D(1, 1)(x, t64(2, 2, 2))
