"""`mint.nn.functional` smooth_l1_loss/hardshrink/softshrink/hardsigmoid/hardswish,
`ops.function.nn_func.interpolate_ext` and the upsample backward Primitives of
`ops.auto_generate` (values recorded from MindSpore: ms_programs/mint_functional_private)."""

import inspect

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.mint.nn import functional as F
from cellgrad.ops.function.nn_func import interpolate_ext
from cellgrad.testing import gradcheck

RNG = np.random.default_rng(0)
X = Tensor(RNG.normal(size=(3, 4)) * 2)
T = Tensor(RNG.normal(size=(3, 4)))


def test_signatures_are_mindspores():
    params = {name: list(inspect.signature(getattr(F, name)).parameters) for name in (
        "smooth_l1_loss", "hardshrink", "softshrink", "hardsigmoid", "hardswish")}
    assert params == {"smooth_l1_loss": ["input", "target", "reduction", "beta"],
                      "hardshrink": ["input", "lambd"], "softshrink": ["input", "lambd"],
                      "hardsigmoid": ["input"], "hardswish": ["input"]}
    assert inspect.signature(F.smooth_l1_loss).parameters["reduction"].default == "mean"


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_smooth_l1_loss_values_and_gradient(reduction):
    x, t = X.asnumpy(), T.asnumpy()
    d = np.abs(x - t)
    for beta in (1.0, 0.5):
        loss = np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)
        want = {"mean": loss.mean(), "sum": loss.sum(), "none": loss}[reduction]
        np.testing.assert_allclose(F.smooth_l1_loss(X, T, reduction, beta).asnumpy(), want)
    assert gradcheck(lambda a, b: F.smooth_l1_loss(a, b, reduction, 0.7), X, T)


def test_shrinks_take_bool_lambd_as_mindspore():
    x = X.asnumpy()
    np.testing.assert_allclose(F.hardshrink(X, True).asnumpy(), np.where(np.abs(x) > 1, x, 0))
    np.testing.assert_allclose(F.softshrink(X, True).asnumpy(),
                               np.sign(x) * np.maximum(np.abs(x) - 1, 0))
    np.testing.assert_allclose(F.softshrink(X, False).asnumpy(), x)
    with pytest.raises(TypeError, match="For 'hardshrink', 'lambd' must be a int or float"):
        F.hardshrink(X, "1")
    with pytest.raises(ValueError, match="For 'softshrink', 'lambd' must be non-negative"):
        F.softshrink(X, -0.5)


def test_activations_gradients():
    away = Tensor(np.array([[-4.0, -1.2, 0.3, 2.2], [1.7, -0.7, 3.5, 0.9]]))  # off the kinks
    for fn in (F.hardsigmoid, F.hardswish, lambda a: F.hardshrink(a, 0.5),
               lambda a: F.softshrink(a, 0.5)):
        assert gradcheck(fn, away)
    assert F.hardswish(Tensor(np.ones(2, np.float16))).dtype == ms.float16


def test_interpolate_ext_is_mint_interpolate():
    img = Tensor(RNG.normal(size=(1, 2, 2, 3, 2)))
    for kwargs in ({"size": (3, 4, 4)}, {"scale_factor": (1.5, 1.0, 2.0), "mode": "trilinear"},
                   {"size": (2, 5, 3), "mode": "trilinear", "align_corners": True}):
        np.testing.assert_array_equal(interpolate_ext(img, **kwargs).asnumpy(),
                                      F.interpolate(img, **kwargs).asnumpy())
    assert gradcheck(lambda a: interpolate_ext(a, size=(3, 4, 3), mode="trilinear"), img)
    with pytest.raises(ValueError, match="'size' and 'scale_factor' cannot be set"):
        interpolate_ext(img, size=(3, 3, 3), scale_factor=2.0)


@pytest.mark.parametrize("name, forward, kwargs", [
    ("UpsampleNearest3DGrad", lambda: ops.UpsampleNearest3D(), {}),
    ("UpsampleTrilinear3DGrad", lambda: ops.UpsampleTrilinear3D(False), {}),
    ("UpsampleTrilinear3DGrad", lambda: ops.UpsampleTrilinear3D(True), {"align_corners": True}),
])
def test_upsample_grads_are_the_forward_vjp(name, forward, kwargs):
    x = Tensor(RNG.normal(size=(2, 1, 2, 3, 2)))
    for size, scales in (([3, 4, 5], None), (None, [2.0, 1.5, 2.0])):
        out, back = ms.vjp(lambda a, s=size, c=scales: forward()(a, s, c), x)
        dy = Tensor(RNG.normal(size=out.shape))
        got = getattr(ops.auto_generate, name)(**kwargs)(dy, x.shape, size, scales)
        np.testing.assert_allclose(got.asnumpy(), back(dy)[0].asnumpy(), rtol=1e-12)
        assert got.dtype == ms.float64
    op = getattr(ops.auto_generate, name)(**kwargs)
    with pytest.raises(ValueError, match=f"For '{name}', 'dy' must have the forward output's"):
        op(Tensor(np.ones((2, 1, 3, 3, 3))), (2, 1, 2, 3, 2), [3, 4, 5], None)
    with pytest.raises(TypeError, match=f"For '{name}', 'input_size' must be a tuple or list"):
        op(Tensor(np.ones((2, 1, 3, 4, 5))), (2, 1, 2, 3), [3, 4, 5], None)
    with pytest.raises(TypeError, match=f"For '{name}', 'dy' must be a Tensor"):
        op(np.ones((2, 1, 3, 4, 5)), (2, 1, 2, 3, 2), [3, 4, 5], None)


def test_upsample_trilinear_grad_checks_align_corners():
    with pytest.raises(TypeError, match="'align_corners' must be a bool, but got int"):
        ops.auto_generate.UpsampleTrilinear3DGrad(1)
