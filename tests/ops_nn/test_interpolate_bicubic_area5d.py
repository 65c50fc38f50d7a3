"""ops.interpolate 'bicubic' (4-D), 'area', 'trilinear' and 'nearest' (5-D): bicubic with
align_corners against PyTorch (the same kernel), without it against MindSpore's weights (recorded
in ms_programs/interpolate_bicubic_area5d.py); area 5-D against torch's adaptive_avg_pool3d,
trilinear against torch; gradients by gradcheck in float64 and against torch."""

import numpy as np
import pytest

from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.spatial.interpolate import cubic_matrix

RNG = np.random.default_rng(0)


def test_half_pixel_weights_as_mindspore():
    # MindSpore 2.10's rows for a 4 -> 9 resize (one-hot inputs)
    expected = np.array([[1.094384, -0.094384, 0, 0], [0.88594, 0.125039, -0.010979, 0],
                         [-0.0625, 0.5625, 0.5625, -0.0625]])
    np.testing.assert_allclose(cubic_matrix(4, 9, False)[[0, 1, 4]], expected, atol=2e-6)
    assert np.allclose(cubic_matrix(7, 4, False).sum(axis=1), 1.0)


@pytest.mark.parametrize("size", [(7, 3), (2, 9), (4, 5)])
def test_align_corners_matches_torch(size):
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(2, 3, 4, 5))
    w = RNG.normal(size=(2, 3) + size)
    got = ops.interpolate(Tensor(x), size=size, mode="bicubic", align_corners=True)
    t = torch.tensor(x, requires_grad=True)
    ref = torch.nn.functional.interpolate(t, size=size, mode="bicubic", align_corners=True)
    np.testing.assert_allclose(got.asnumpy(), ref.detach().numpy(), rtol=1e-12, atol=1e-12)
    (ref * torch.tensor(w)).sum().backward()
    g = ops.grad(lambda v: (ops.interpolate(v, size=size, mode="bicubic", align_corners=True)
                            * Tensor(w)).sum())(Tensor(x))
    np.testing.assert_allclose(g.asnumpy(), t.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("align", [False, True])
def test_bicubic_gradcheck_and_dtypes(align):
    x = Tensor(RNG.normal(size=(1, 2, 3, 4)))
    assert gradcheck(lambda v: ops.interpolate(v, size=(5, 3), mode="bicubic",
                                               align_corners=align) ** 2, x)
    for dt in (np.float16, np.float32):
        out = ops.interpolate(Tensor(RNG.normal(size=(1, 1, 3, 4)).astype(dt)), size=(5, 2),
                              mode="bicubic", align_corners=align)
        assert out.asnumpy().dtype == dt and out.shape == (1, 1, 5, 2)


def test_area_5d_matches_torch_and_gradcheck():
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(1, 2, 3, 4, 5))
    for kw, size in (({"size": (2, 4, 3)}, (2, 4, 3)),
                     ({"scale_factor": (3.0, 0.4, 0.7)}, (9, 1, 3))):
        got = ops.interpolate(Tensor(x), mode="area", **kw)
        ref = torch.nn.functional.adaptive_avg_pool3d(torch.tensor(x), size)
        np.testing.assert_allclose(got.asnumpy(), ref.numpy(), rtol=1e-12)
    assert gradcheck(lambda v: ops.interpolate(v, size=(2, 3, 2), mode="area") ** 2,
                     Tensor(x))


def test_bicubic_scale_factor_needs_recompute():
    x = Tensor(np.zeros((1, 1, 2, 3), np.float32))
    with pytest.raises(ValueError, match="'scale_factor' option cannot currently be set with "
                                         "the mode = bicubic and dim = 4D"):
        ops.interpolate(x, scale_factor=(2.0, 2.0), mode="bicubic")
    out = ops.interpolate(x, scale_factor=(2.0, 2.0), mode="bicubic", recompute_scale_factor=True)
    assert out.shape == (1, 1, 4, 6)


@pytest.mark.parametrize("kw", [{"size": (5, 3, 7)}, {"size": (5, 3, 7), "align_corners": True},
                                {"scale_factor": (1.5, 0.5, 2.0)}])
def test_trilinear_matches_torch(kw):
    torch = pytest.importorskip("torch")
    x = RNG.normal(size=(1, 2, 3, 4, 5))
    got = ops.interpolate(Tensor(x), mode="trilinear", **kw)
    t = torch.tensor(x, requires_grad=True)
    ref = torch.nn.functional.interpolate(t, mode="trilinear", **kw)
    np.testing.assert_allclose(got.asnumpy(), ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    w = RNG.normal(size=ref.shape)
    (ref * torch.tensor(w)).sum().backward()
    g = ops.grad(lambda v: (ops.interpolate(v, mode="trilinear", **kw) * Tensor(w)).sum())(
        Tensor(x))
    np.testing.assert_allclose(g.asnumpy(), t.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert gradcheck(lambda v: ops.interpolate(v, mode="trilinear", **kw) ** 2,
                     Tensor(x[:, :1]))


def test_nearest_5d_scale_factor_maps_by_the_factor():
    x = np.arange(5.0).reshape(1, 1, 1, 1, 5).astype(np.float32)
    out = ops.interpolate(Tensor(x), scale_factor=(1.0, 1.0, 1.7), mode="nearest")
    # MindSpore 2.10: floor(dst / 1.7); the sizes' ratio 5/8 would give 0 0 1 1 2 3 3 4
    assert out.asnumpy().reshape(-1).tolist() == [0, 0, 1, 1, 2, 2, 3, 4]
