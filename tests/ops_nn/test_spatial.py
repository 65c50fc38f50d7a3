"""Spatial ops: convolution and pooling against torch, gradchecks in float64, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck
from cellgrad_nn.spatial._window import same_padding

GRADCHECKED = {"conv2d", "conv_transpose2d", "max_pool2d", "avg_pool2d", "adaptive_pool2d"}


def arr(rng, *shape):
    return rng.standard_normal(shape)


CONV_CASES = [
    dict(stride=1, pad_mode="valid"),
    dict(stride=2, pad_mode="pad", padding=1),
    dict(stride=(2, 1), pad_mode="same", dilation=2),
    dict(pad_mode="pad", padding=(1, 2, 0, 1)),
]


@pytest.mark.parametrize("kw", CONV_CASES)
@pytest.mark.parametrize("groups", [1, 2])
def test_conv2d_gradcheck(rng, kw, groups):
    x, w, b = arr(rng, 2, 4, 6, 5), arr(rng, 4, 4 // groups, 3, 2), arr(rng, 4)
    assert gradcheck(lambda a, c, d: ops.conv2d(a, c, d, groups=groups, **kw),
                     Tensor(x), Tensor(w), Tensor(b), positions=(0, 1, 2))


def _torch_pad(torch, x, kw, kernel):
    if kw["pad_mode"] == "same":
        stride = kw["stride"] if isinstance(kw["stride"], tuple) else (kw["stride"],) * 2
        d = kw.get("dilation", 1)
        ph = same_padding(x.shape[2], kernel[0], stride[0], d)
        pw = same_padding(x.shape[3], kernel[1], stride[1], d)
        return torch.nn.functional.pad(x, (pw[0], pw[1], ph[0], ph[1])), 0
    pads = kw.get("padding", 0)
    if isinstance(pads, tuple):
        return torch.nn.functional.pad(x, (pads[2], pads[3], pads[0], pads[1])), 0
    return x, pads


@pytest.mark.parametrize("kw", CONV_CASES)
def test_conv2d_matches_torch_values_and_gradients(rng, torch, kw):
    x, w, b = arr(rng, 2, 4, 7, 6), arr(rng, 6, 2, 3, 2), arr(rng, 6)
    tx = torch.tensor(x, requires_grad=True)
    tw, tb = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)
    padded, p = _torch_pad(torch, tx, kw, (3, 2))
    ref = torch.nn.functional.conv2d(padded, tw, tb, stride=kw["stride"] if "stride" in kw else 1,
                                     padding=p, dilation=kw.get("dilation", 1), groups=2)
    ref.sum().backward()
    f = lambda a, c, d: ops.conv2d(a, c, d, groups=2, **kw).sum()  # noqa: E731
    out = ops.conv2d(Tensor(x), Tensor(w), Tensor(b), groups=2, **kw)
    gx, gw, gb = ms.grad(f, (0, 1, 2))(Tensor(x), Tensor(w), Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), ref.detach().numpy(), atol=1e-12)
    for ours, theirs in ((gx, tx), (gw, tw), (gb, tb)):
        np.testing.assert_allclose(ours.asnumpy(), theirs.grad.numpy(), atol=1e-12)


def test_seed_conv2d_120_240_pad_mode_pad_matches_torch_in_float32(torch):
    ms.set_seed(0)
    conv = ms.nn.Conv2d(120, 240, 4, has_bias=False, pad_mode="pad")
    x = np.random.default_rng(0).standard_normal((1, 120, 12, 12)).astype(np.float32)
    ref = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(conv.weight.asnumpy()))
    assert np.abs(conv(Tensor(x)).asnumpy() - ref.numpy()).max() < 1e-4


@settings(max_examples=25, deadline=None)
@given(h=st.integers(3, 9), w=st.integers(3, 9), k=st.integers(1, 3), s=st.integers(1, 3),
       p=st.integers(0, 1), seed=st.integers(0, 1000))
def test_conv2d_and_max_pool_hypothesis_against_torch(h, w, k, s, p, seed):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    x, wt = rng.standard_normal((1, 2, h, w)), rng.standard_normal((3, 2, k, k))
    ref = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(wt), stride=s, padding=p)
    out = ops.conv2d(Tensor(x), Tensor(wt), None, s, "pad", p)
    np.testing.assert_allclose(out.asnumpy(), ref.numpy(), atol=1e-12)
    if p <= k // 2:
        ref = torch.nn.functional.max_pool2d(torch.tensor(x), k, s, p)
        np.testing.assert_array_equal(ops.max_pool2d(Tensor(x), k, s, p).asnumpy(), ref.numpy())


POOL_CASES = [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
              dict(kernel_size=3, stride=2, ceil_mode=True), dict(kernel_size=2, dilation=2)]


@pytest.mark.parametrize("kw", POOL_CASES)
def test_max_pool2d_values_indices_and_gradient(rng, torch, kw):
    x = arr(rng, 2, 3, 7, 6)
    out, idx = ops.max_pool2d(Tensor(x), return_indices=True, **kw)
    ref, ref_idx = torch.nn.functional.max_pool2d(torch.tensor(x), return_indices=True, **kw)
    np.testing.assert_array_equal(out.asnumpy(), ref.numpy())
    np.testing.assert_array_equal(idx.asnumpy(), ref_idx.numpy())
    assert idx.dtype == ms.int64
    assert gradcheck(lambda a: ops.max_pool2d(a, **kw), Tensor(x))


@pytest.mark.parametrize("kw", [dict(kernel_size=2, stride=2),
                                dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
                                dict(kernel_size=3, stride=2, ceil_mode=True),
                                dict(kernel_size=2, stride=1, divisor_override=3)])
def test_avg_pool2d_values_and_gradient(rng, torch, kw):
    x = arr(rng, 2, 3, 7, 6)
    torch_kw = dict(kw)
    ref = torch.nn.functional.avg_pool2d(torch.tensor(x), **torch_kw)
    np.testing.assert_allclose(ops.avg_pool2d(Tensor(x), **kw).asnumpy(), ref.numpy(),
                               atol=1e-12)
    assert gradcheck(lambda a: ops.avg_pool2d(a, **kw), Tensor(x))


@pytest.mark.parametrize("size", [(2, 2), (3, 4), 1, (5, None)])
def test_adaptive_pools(rng, torch, size):
    x = arr(rng, 2, 3, 7, 6)
    tsize = tuple(6 if s is None else s for s in size) if isinstance(size, tuple) else size
    for ours, theirs in ((ops.adaptive_avg_pool2d, torch.nn.functional.adaptive_avg_pool2d),
                         (ops.adaptive_max_pool2d, torch.nn.functional.adaptive_max_pool2d)):
        np.testing.assert_allclose(ours(Tensor(x), size).asnumpy(),
                                   theirs(torch.tensor(x), tsize).numpy(), atol=1e-12)
        assert gradcheck(lambda a, f=ours: f(a, size), Tensor(x))


def test_pools_accept_unbatched_inputs(rng):
    x = arr(rng, 3, 6, 6).astype(np.float32)
    assert ops.max_pool2d(Tensor(x), 2).shape == (3, 3, 3)
    assert ops.adaptive_avg_pool2d(Tensor(x), 2).shape == (3, 2, 2)


def test_primitives_same_and_valid(rng):
    x = Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
    assert ops.MaxPool(3, 2, "same")(x).asnumpy().ravel().tolist() == [6, 8, 9, 16, 18, 19, 21,
                                                                       23, 24]  # MindSpore's
    assert ops.MaxPool(2, 2)(x).asnumpy().ravel().tolist() == [6, 8, 16, 18]
    np.testing.assert_allclose(ops.AvgPool(2, 2, "VALID")(x).asnumpy().ravel(),
                               [3, 5, 13, 15])
    # 'same' averages only the input elements a window covers.
    np.testing.assert_allclose(ops.AvgPool(2, 2, "same")(x).asnumpy()[0, 0, 2], [20.5, 22.5, 24])
    w = Tensor(np.ones((2, 1, 3, 3), np.float32))
    assert ops.Conv2D(2, 3, pad_mode="same")(x, w).shape == (1, 2, 5, 5)
    out, arg = ops.AdaptiveMaxPool2D((2, 2))(x)
    assert out.asnumpy().ravel().tolist() == [12, 14, 22, 24] and arg.dtype == ms.int64


@pytest.mark.parametrize("kw", [dict(), dict(stride=2, padding=1, output_padding=1),
                                dict(stride=2, dilation=2, groups=2)])
def test_conv_transpose2d_matches_torch_and_gradchecks(rng, torch, kw):
    x, w = arr(rng, 2, 4, 5, 4), arr(rng, 4, 3, 3, 2)
    b = arr(rng, 3 * kw.get("groups", 1))
    ref = torch.nn.functional.conv_transpose2d(torch.tensor(x), torch.tensor(w),
                                               torch.tensor(b), **kw)
    out = ops.conv_transpose2d(Tensor(x), Tensor(w), Tensor(b), **kw)
    np.testing.assert_allclose(out.asnumpy(), ref.numpy(), atol=1e-12)
    assert gradcheck(lambda a, c: ops.conv_transpose2d(a, c, None, **kw), Tensor(x), Tensor(w),
                     positions=(0, 1))


@pytest.mark.parametrize("pad_mode, size", [("same", 10), ("valid", 11), ("pad", 9)])
def test_conv2d_transpose_layer_sizes_as_mindspore(pad_mode, size):
    layer = ms.nn.Conv2dTranspose(4, 2, 3, stride=2, pad_mode=pad_mode,
                                  padding=1 if pad_mode == "pad" else 0)
    assert layer(Tensor(np.ones((1, 4, 5, 5), np.float32))).shape == (1, 2, size, size)


def test_conv1d_matches_conv2d(rng):
    x, w = arr(rng, 2, 3, 9), arr(rng, 4, 3, 3)
    out = ops.conv1d(Tensor(x), Tensor(w), stride=2, pad_mode="pad", padding=1)
    ref = ops.conv2d(Tensor(x[:, :, None]), Tensor(w[:, :, None]), None, (1, 2), "pad",
                     (0, 0, 1, 1))
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy()[:, :, 0])


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.conv2d(Tensor(np.zeros((2, 3, 5), np.float32)),
                        Tensor(np.zeros((4, 3, 3, 3), np.float32))), ValueError,
     r"'input' must be 4-D \(N, C, H, W\), got Tensor\(shape=\(2, 3, 5\)"),
    (lambda: ops.conv2d(Tensor(np.zeros((2, 3, 5, 5), np.float32)),
                        Tensor(np.zeros((4, 2, 3, 3), np.float32))), ValueError,
     r"input's channels \(3\) must equal weight.shape\[1\] \* groups \(2 \* 1\)"),
    (lambda: ops.conv2d(Tensor(np.zeros((1, 1, 2, 2), np.float32)),
                        Tensor(np.zeros((1, 1, 3, 3), np.float32))), ValueError,
     r"kernel \(extent 3 with dilation\) is larger than the padded input \(2\)"),
    (lambda: ops.conv2d(Tensor(np.zeros((1, 1, 4, 4), np.float32)),
                        Tensor(np.zeros((1, 1, 3, 3), np.float32)), pad_mode="full"), ValueError,
     "'pad_mode' must be one of 'same', 'valid', 'pad', got 'full'"),
    (lambda: ops.max_pool2d(Tensor(np.zeros((1, 1, 4, 4), np.float32)), 2, padding=2),
     ValueError, "'padding' must be at most half the kernel size"),
    (lambda: ops.MaxPool(2, 2, "pad"), ValueError, "'pad_mode' must be 'valid' or 'same'"),
])
def test_bad_input_names_the_op_and_what_was_seen(call, error, message):
    with pytest.raises(error, match=message):
        call()
