"""3-D and transposed convolution (ops.conv3d, conv3d_transpose, Conv3D, Conv3DTranspose,
Conv2DBackpropInput, nn.Conv3d, Conv1dTranspose, Conv3dTranspose): a numpy reference,
gradchecks in float64, PyTorch, MindSpore's output sizes and the errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck

GRADCHECKED = {"conv3d", "conv_transpose3d"}


def arr(rng, *shape):
    return rng.standard_normal(shape)


def reference_conv(x, w, stride, pads, dilation, groups):
    """Direct N-d convolution of x (N, C, *S) with w (O, C/g, *K), pads (before, after)."""
    rank = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0)] + [(pads[2 * a], pads[2 * a + 1]) for a in range(rank)])
    kernel = w.shape[2:]
    out_size = [(x.shape[2 + a] - (kernel[a] - 1) * dilation[a] - 1) // stride[a] + 1
                for a in range(rank)]
    n, o = x.shape[0], w.shape[0]
    cg, og = w.shape[1], o // groups
    out = np.zeros((n, o, *out_size))
    for tap in np.ndindex(*kernel):
        window = tuple(slice(tap[a] * dilation[a],
                             tap[a] * dilation[a] + (out_size[a] - 1) * stride[a] + 1, stride[a])
                       for a in range(rank))
        patch = x[(slice(None), slice(None)) + window]
        for g in range(groups):
            wt = w[(slice(g * og, (g + 1) * og), slice(None)) + tap]
            out[:, g * og:(g + 1) * og] += np.einsum(
                "nc...,oc->no...", patch[:, g * cg:(g + 1) * cg], wt)
    return out


CONV3D_CASES = [
    dict(stride=1, pad_mode="valid"),
    dict(stride=(1, 2, 1), pad_mode="pad", padding=(1, 0, 2), dilation=(1, 1, 2)),
    dict(stride=2, pad_mode="same", dilation=(2, 1, 1)),
    dict(pad_mode="pad", padding=(0, 1, 1, 0, 2, 1)),
]


def _pads(kw, size, kernel):
    from cellgrad_nn.spatial._window import pads_for

    stride = kw.get("stride", 1)
    dilation = kw.get("dilation", 1)
    stride = (stride,) * 3 if isinstance(stride, int) else stride
    dilation = (dilation,) * 3 if isinstance(dilation, int) else dilation
    return pads_for("t", kw["pad_mode"], kw.get("padding", 0), size, kernel, stride,
                    dilation), stride, dilation


@pytest.mark.parametrize("kw", CONV3D_CASES)
@pytest.mark.parametrize("groups", [1, 2])
def test_conv3d_matches_the_direct_sum_and_gradchecks(rng, kw, groups):
    x, w, b = arr(rng, 2, 4, 5, 6, 5), arr(rng, 4, 4 // groups, 3, 2, 3), arr(rng, 4)
    out = ops.conv3d(Tensor(x), Tensor(w), Tensor(b), groups=groups, **kw)
    pads, stride, dilation = _pads(kw, x.shape[2:], w.shape[2:])
    ref = reference_conv(x, w, stride, pads, dilation, groups) + b[:, None, None, None]
    np.testing.assert_allclose(out.asnumpy(), ref, atol=1e-12)
    assert gradcheck(lambda a, c, d: ops.conv3d(a, c, d, groups=groups, **kw),
                     Tensor(x), Tensor(w), Tensor(b))


def test_conv3d_float32_keeps_dtype_and_matches_float64(rng):
    x, w = arr(rng, 2, 3, 4, 5, 6), arr(rng, 5, 3, 2, 2, 2)
    out = ops.conv3d(Tensor(x.astype(np.float32)), Tensor(w.astype(np.float32)), None, 1,
                     "same")
    assert out.dtype == ms.float32
    ref = ops.conv3d(Tensor(x), Tensor(w), None, 1, "same").asnumpy()
    np.testing.assert_allclose(out.asnumpy(), ref, atol=1e-5)


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, output_padding=1),
                                dict(stride=(1, 2, 2), dilation=(2, 1, 1), groups=2),
                                dict(padding=(1, 0, 1))])
def test_conv_transpose3d_is_the_adjoint_of_conv3d_and_gradchecks(rng, kw):
    from cellgrad_nn.spatial.transpose import transpose_checked

    x, w = arr(rng, 2, 4, 3, 4, 3), arr(rng, 4, 3, 3, 2, 3)
    groups = kw.get("groups", 1)
    pad = kw.get("padding", 0)
    pad = (pad,) * 3 if isinstance(pad, int) else pad
    pads = tuple(p for p in pad for _ in range(2))

    def tconv(a, c):
        return transpose_checked("t", a, c, None, kw.get("stride", 1), pads,
                                 kw.get("output_padding", 0), groups, kw.get("dilation", 1), 3)

    y = tconv(Tensor(x), Tensor(w))
    # <tconv(x), g> == <x, conv(g)>: the transposed convolution is conv3d's input gradient.
    g = arr(rng, *y.shape)
    back = ops.conv3d(Tensor(g), Tensor(w), None, kw.get("stride", 1), "pad", pad,
                      kw.get("dilation", 1), groups)
    np.testing.assert_allclose((y.asnumpy() * g).sum(), (x * back.asnumpy()[:, :, :3, :4, :3]
                                                         ).sum(), rtol=1e-10)
    assert gradcheck(tconv, Tensor(x), Tensor(w))


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, dilation=(1, 2, 1), groups=2),
                                dict(stride=(1, 2, 3), padding=(0, 1, 1))])
def test_conv3d_matches_torch_values_and_gradients(rng, torch, kw):
    from nn_gradcheck import torch_compare

    groups = kw.pop("groups", 1)
    torch_compare(torch, [(2, 4, 5, 6, 7), (6, 4 // groups, 3, 2, 3), (6,)],
                  lambda x, w, b: ops.conv3d(x, w, b, kw["stride"], "pad", kw["padding"],
                                             kw.get("dilation", 1), groups),
                  lambda x, w, b: torch.nn.functional.conv3d(
                      x, w, b, kw["stride"], kw["padding"], kw.get("dilation", 1), groups))


@pytest.mark.parametrize("kw", [dict(stride=2, padding=1, output_padding=1),
                                dict(stride=(1, 2, 2), padding=(1, 0, 1), dilation=(1, 1, 2))])
def test_conv3d_transpose_matches_torch(rng, torch, kw):
    from nn_gradcheck import torch_compare

    torch_compare(torch, [(2, 4, 3, 4, 5), (4, 3, 3, 2, 3)],
                  lambda x, w: ops.conv3d_transpose(x, w, "pad", kw["padding"], kw["stride"],
                                                    kw.get("dilation", 1), 1,
                                                    kw.get("output_padding", 0)),
                  lambda x, w: torch.nn.functional.conv_transpose3d(
                      x, w, None, kw["stride"], kw["padding"], kw.get("output_padding", 0), 1,
                      kw.get("dilation", 1)))


@pytest.mark.parametrize("stride, padding, dilation", [(2, 1, 1), (3, 2, 2), (1, 0, 1)])
def test_conv1d_transpose_layer_matches_torch(torch, stride, padding, dilation):
    from nn_gradcheck import torch_compare

    ms.set_seed(0)
    layer = nn.Conv1dTranspose(4, 6, 3, stride, "pad", padding, dilation, group=2,
                               has_bias=True, dtype=ms.float64)
    w, b = layer.weight.asnumpy()[:, :, 0], layer.bias.asnumpy()
    torch_compare(torch, [(2, 4, 7)], layer,
                  lambda x: torch.nn.functional.conv_transpose1d(
                      x, torch.tensor(w), torch.tensor(b), stride, padding, 0, 2, dilation))


@pytest.mark.parametrize("pad_mode, pad", [("valid", 0), ("same", 0), ("pad", (1, 0, 2, 1))])
def test_conv2d_backprop_input_is_conv2d_input_gradient(rng, pad_mode, pad):
    x, w = arr(rng, 2, 4, 7, 6), arr(rng, 6, 2, 3, 3)
    out = ops.conv2d(Tensor(x), Tensor(w), None, 2, pad_mode, pad, 1, 2)
    g = Tensor(arr(rng, *out.shape))
    expected = ms.grad(lambda a: (ops.conv2d(a, Tensor(w), None, 2, pad_mode, pad, 1, 2) *
                                  g).sum())(Tensor(x))
    prim = ops.Conv2DBackpropInput(6, 3, pad_mode, pad, stride=2, group=2)
    got = prim(g, Tensor(w), x.shape)
    np.testing.assert_allclose(got.asnumpy(), expected.asnumpy(), atol=1e-12)
    assert isinstance(ops.Conv2DTranspose(6, 3), ops.Conv2DBackpropInput)


@pytest.mark.parametrize("pad_mode, padding, size", [
    ("valid", 0, (7, 9, 11)), ("same", 0, (6, 8, 10)), ("pad", 1, (5, 7, 9))])
def test_conv3d_transpose_layer_sizes_as_mindspore(pad_mode, padding, size):
    layer = nn.Conv3dTranspose(2, 4, 3, 2, pad_mode, padding, has_bias=True)
    out = layer(Tensor(np.ones((1, 2, 3, 4, 5), np.float32)))
    assert out.shape == (1, 4) + size and out.dtype == ms.float32


def test_conv3d_transpose_layer_output_padding_adds_computed_positions():
    layer = nn.Conv3dTranspose(1, 1, 3, 2, "pad", 1, output_padding=1, weight_init="ones")
    x = Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2))
    out = layer(x).asnumpy()
    assert out.shape == (1, 1, 4, 4, 4)
    np.testing.assert_allclose(out[0, 0, -1], out[0, 0, -2])  # both reach input plane 1 only
    assert out[0, 0, -1].any()


def test_conv2d_transpose_layer_output_padding_appends_zeros_as_mindspore():
    layer = nn.Conv2dTranspose(1, 1, 3, 2, "pad", 1, 1, weight_init="ones", has_bias=True,
                               bias_init="ones")
    out = layer(Tensor(np.ones((1, 1, 2, 2), np.float32))).asnumpy()[0, 0]
    assert out.shape == (4, 4)
    assert not out[-1].any() and not out[:, -1].any() and out[:3, :3].all()


def test_conv3d_layer_parameters_and_repr():
    layer = nn.Conv3d(4, 6, (3, 2, 1), stride=2, pad_mode="pad", padding=(1, 1, 0, 0, 1, 1),
                      group=2, has_bias=True)
    assert [(p.name, p.shape) for p in layer.get_parameters()] == [
        ("weight", (6, 2, 3, 2, 1)), ("bias", (6,))]
    assert repr(layer).startswith(
        "Conv3d(input_channels=4, output_channels=6, kernel_size=(3, 2, 1), stride=(2, 2, 2), "
        "pad_mode=pad, padding=(1, 1, 0, 0, 1, 1), dilation=(1, 1, 1), group=2, has_bias=True")
    out = layer(Tensor(np.ones((2, 4, 5, 4, 3), np.float32)))
    assert out.shape == (2, 6, 3, 2, 3)


def test_conv1d_transpose_takes_a_3d_weight_init_tensor():
    w = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    layer = nn.Conv1dTranspose(4, 2, 3, weight_init=Tensor(w))
    assert layer.weight.shape == (4, 2, 1, 3)
    np.testing.assert_array_equal(layer.weight.asnumpy()[:, :, 0], w)


F32 = np.float32


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.conv3d(Tensor(np.zeros((2, 3, 5, 5), F32)), Tensor(np.zeros((4, 3, 3, 3, 3),
                                                                               F32))),
     ValueError, r"For 'conv3d', 'input' must be 5-D \(N, C, D, H, W\), got Tensor\(shape=\(2, "),
    (lambda: ops.conv3d(Tensor(np.zeros((1, 3, 5, 5, 5), F32)),
                        Tensor(np.zeros((4, 2, 3, 3, 3), F32))),
     ValueError, r"input's channels \(3\) must equal weight.shape\[1\] \* groups \(2 \* 1\)"),
    (lambda: ops.conv3d(Tensor(np.zeros((1, 3, 5, 5, 5), F32)),
                        Tensor(np.zeros((4, 3, 3, 3, 3), F32)), stride=(1, 2)),
     TypeError, r"For 'conv3d', 'stride' must be an int or a tuple of 3 ints, got \(1, 2\)"),
    (lambda: ops.conv3d(Tensor(np.zeros((1, 3, 5, 5, 5), F32)),
                        Tensor(np.zeros((4, 3, 3, 3, 3), F32)), padding=1),
     ValueError, r"For 'conv3d', 'padding' must be 0 when pad_mode is 'valid', got 1"),
    (lambda: nn.Conv3d(4, 6, 3)(Tensor(np.zeros((1, 3, 5, 5, 5), F32))),
     ValueError, r"For 'Conv3d', the input's dimension 1 must be in_channels=4, but got input "
                 r"shape \(1, 3, 5, 5, 5\)"),
    (lambda: nn.Conv3d(4, 6, 3)(Tensor(np.zeros((4, 5, 5, 5), F32))),
     ValueError, r"For 'Conv3d', the input must be 5-D \(N, C, D, H, W\), but got shape"),
    (lambda: nn.Conv3dTranspose(4, 6, 3, 2, "pad", output_padding=2),
     ValueError, r"For 'Conv3dTranspose', 'output_padding' must be in \[0, max\(stride, "
                 r"dilation\)\) on each axis, but got \(2, 2, 2\)"),
    (lambda: nn.Conv3dTranspose(4, 6, 3, 2, "same", output_padding=1),
     ValueError, r"For 'Conv3dTranspose', a non-zero 'output_padding' needs pad_mode 'pad'"),
    (lambda: nn.Conv2dTranspose(4, 6, 3, 2, "pad", output_padding=2)(
        Tensor(np.zeros((1, 4, 3, 3), F32))),
     ValueError, r"For 'Conv2dTranspose', 'output_padding' must be in \[0, max\(stride, "
                 r"dilation\)\) = \[0, 2\) on each axis, but got 2"),
    (lambda: nn.Conv1dTranspose(4, 6, 3)(Tensor(np.zeros((1, 4, 3, 3), F32))),
     ValueError, r"For 'Conv1dTranspose', the input must be 3-D \(N, C, L\)"),
    (lambda: nn.Conv1dTranspose(4, 6, (3,)), TypeError,
     r"For 'Conv1dTranspose', 'kernel_size' must be an int, but got \(3,\)"),
    (lambda: ops.conv3d_transpose(Tensor(np.zeros((1, 4, 3, 3, 3), F32)),
                                  Tensor(np.zeros((4, 2, 3, 3, 3), F32)), "pad", 1, 2,
                                  output_padding=3),
     ValueError, r"For 'Conv3DTranspose', 'output_padding' must be in \[0, max\(stride, "
                 r"dilation\)\) on each axis, got output_padding \(3, 3, 3\)"),
    (lambda: ops.Conv3DTranspose(4, 2, 3)(Tensor(np.zeros((1, 4, 3, 3, 3), F32)),
                                          Tensor(np.zeros((4, 2, 2, 3, 3), F32))),
     ValueError, r"For 'Conv3DTranspose', 'weight' must have shape \(4, 2, 3, 3, 3\)"),
    (lambda: ops.Conv3D(4, 3, pad_mode="full"), ValueError,
     r"For 'Conv3D', 'pad_mode' must be one of 'valid', 'same', 'pad', got 'full'"),
    (lambda: ops.Conv2DBackpropInput(2, 3)(Tensor(np.zeros((1, 2, 3, 3), F32)),
                                           Tensor(np.zeros((2, 1, 3, 3), F32)), (1, 1, 9, 9)),
     ValueError, r"For 'Conv2DBackpropInput', 'input_sizes' \(1, 1, 9, 9\) does not match"),
])
def test_bad_input_names_the_op_the_argument_and_what_was_seen(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_kernel_rejects_a_3d_call_on_a_4d_image():
    from cellgrad_nn._kernels.im2col import im2col

    with pytest.raises(ValueError, match=r"im2col: the image must be 5-D \(N, C, D, H, W\)"):
        im2col(np.zeros((1, 2, 3, 3), F32), np.zeros((16, 1, 8), F32), (2, 2, 2), (1, 1, 1),
               (1, 1, 1), (0, 0, 0), (2, 2, 2))
