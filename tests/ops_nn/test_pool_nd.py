"""1-D and 3-D pooling (ops.max_pool3d, avg_pool1d/3d, adaptive_*_pool1d/3d, MaxPool3D,
AvgPool3D, ...; nn.MaxPool1d/3d, AvgPool1d/3d, Adaptive*Pool1d/3d): a numpy reference,
gradchecks in float64, PyTorch, and the errors."""

import itertools

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, nn, ops
from cellgrad.testing import gradcheck

GRADCHECKED = {"max_pool3d", "avg_pool3d", "adaptive_pool3d"}


def arr(rng, *shape):
    return rng.standard_normal(shape)


def windows(x, kernel, stride, pads, dilation, fill):
    """(N, C, *out, *kernel) windows of x padded with `fill` (floor mode)."""
    rank = len(kernel)
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pads], constant_values=fill)
    out = [(x.shape[2 + a] - (kernel[a] - 1) * dilation[a] - 1) // stride[a] + 1
           for a in range(rank)]
    result = np.empty(x.shape[:2] + tuple(out) + tuple(kernel))
    for pos in itertools.product(*(range(o) for o in out)):
        for tap in itertools.product(*(range(k) for k in kernel)):
            at = tuple(pos[a] * stride[a] + tap[a] * dilation[a] for a in range(rank))
            result[(slice(None), slice(None)) + pos + tap] = x[(slice(None), slice(None)) + at]
    return result


@pytest.mark.parametrize("kernel, stride, pads, dilation", [
    ((2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1)),
    ((1, 2, 2), (1, 2, 2), (0, 0, 0), (1, 1, 1)),  # the 2x2 tiling path, plane by plane
    ((3, 2, 3), (1, 2, 2), (1, 1, 1), (1, 2, 1)),
    ((2, 3, 2), (2, 1, 3), (1, 0, 1), (2, 1, 1)),
])
def test_max_pool3d_matches_reference_values_and_gradchecks(rng, kernel, stride, pads,
                                                            dilation):
    x = arr(rng, 2, 3, 5, 6, 7)
    out = ops.max_pool3d(Tensor(x), kernel, stride, pads, dilation)
    ref = windows(x, kernel, stride, pads, dilation, -np.inf).reshape(
        out.shape + (-1,)).max(axis=-1)
    np.testing.assert_array_equal(out.asnumpy(), ref)
    assert gradcheck(lambda t: ops.max_pool3d(t, kernel, stride, pads, dilation), Tensor(x))


def test_max_pool3d_indices_are_flat_volume_positions(rng):
    x = arr(rng, 2, 2, 4, 5, 6)
    out, idx = ops.max_pool3d(Tensor(x), 2, 2, 1, 1, False, True)
    assert idx.dtype == ms.int64 and idx.shape == out.shape
    flat = x.reshape(2, 2, -1)
    np.testing.assert_array_equal(
        np.take_along_axis(flat, idx.asnumpy().reshape(2, 2, -1), -1).reshape(out.shape),
        out.asnumpy())


def test_max_pool3d_nan_wins_and_keeps_its_index():
    x = np.zeros((1, 1, 2, 2, 2))
    x[0, 0, 1, 0, 1] = np.nan
    out, idx = ops.max_pool3d(Tensor(x), 2, 2, 0, 1, False, True)
    assert np.isnan(out.asnumpy()).all() and idx.asnumpy().item() == 5


@pytest.mark.parametrize("kernel, stride, pads, include", [
    ((2, 2, 2), (2, 2, 2), (0, 0, 0), True),
    ((3, 2, 3), (1, 2, 2), (1, 1, 1), True),
    ((3, 2, 3), (2, 1, 2), (1, 0, 1), False),
])
def test_avg_pool3d_matches_reference_values_and_gradchecks(rng, kernel, stride, pads, include):
    x = arr(rng, 2, 3, 5, 6, 7)
    out = ops.avg_pool3d(Tensor(x), kernel, stride, pads, False, include)
    sums = windows(x, kernel, stride, pads, (1, 1, 1), 0.0).reshape(out.shape + (-1,)).sum(-1)
    count = windows(np.ones_like(x), kernel, stride, pads, (1, 1, 1), float(include)).reshape(
        out.shape + (-1,)).sum(-1)
    np.testing.assert_allclose(out.asnumpy(), sums / count, atol=1e-12)
    assert gradcheck(lambda t: ops.avg_pool3d(t, kernel, stride, pads, False, include),
                     Tensor(x))


def test_avg_pool3d_divisor_override_and_ceil_mode(rng):
    x = arr(rng, 1, 2, 5, 5, 5)
    out = ops.avg_pool3d(Tensor(x), 2, 2, 0, True, True, 3)
    assert out.shape == (1, 2, 3, 3, 3)
    np.testing.assert_allclose(out.asnumpy()[..., -1, -1, -1], x[..., 4, 4, 4] / 3)
    assert gradcheck(lambda t: ops.avg_pool3d(t, 2, 2, 0, True, True, 3), Tensor(x))


@pytest.mark.parametrize("size", [(2, 3, 4), (1, 1, 1), (3, None, 2)])
def test_adaptive_pool3d_values_and_gradchecks(rng, size):
    x = arr(rng, 2, 2, 5, 4, 6)
    avg = ops.adaptive_avg_pool3d(Tensor(x), size)
    mx, idx = ops.adaptive_max_pool3d(Tensor(x), size, True)
    full = tuple(x.shape[2 + a] if s is None else s for a, s in enumerate(size))
    assert avg.shape == mx.shape == idx.shape == (2, 2) + full and idx.dtype == ms.int32
    np.testing.assert_allclose(avg.asnumpy()[..., 0, 0, 0],
                               x[..., :-(-5 // full[0]), :-(-4 // full[1]),
                                 :-(-6 // full[2])].mean(axis=(2, 3, 4)))
    flat = x.reshape(2, 2, -1)
    np.testing.assert_array_equal(
        np.take_along_axis(flat, idx.asnumpy().reshape(2, 2, -1).astype(np.int64), -1),
        mx.asnumpy().reshape(2, 2, -1))
    assert gradcheck(lambda t: ops.adaptive_avg_pool3d(t, size), Tensor(x))
    assert gradcheck(lambda t: ops.adaptive_max_pool3d(t, size), Tensor(x))


def test_one_d_pools_match_two_d_pools_over_a_unit_axis(rng):
    x = arr(rng, 2, 3, 11)
    out = ops.avg_pool1d(Tensor(x), 3, 2, 1, True, False)
    ref = ops.avg_pool2d(Tensor(x[:, :, None]), (1, 3), (1, 2), (0, 1), True, False)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy()[:, :, 0])
    layer = nn.MaxPool1d(3, 2, "pad", 1, 2, True)
    got, idx = layer(Tensor(x))
    ref, ref_idx = ops.max_pool2d(Tensor(x[:, :, None]), (1, 3), (1, 2), (0, 1), (1, 2), True)
    np.testing.assert_array_equal(got.asnumpy(), ref.asnumpy()[:, :, 0])
    np.testing.assert_array_equal(idx.asnumpy(), ref_idx.asnumpy()[:, :, 0])
    assert gradcheck(lambda t: ops.avg_pool1d(t, 3, 2, 1, True, False), Tensor(x))
    assert gradcheck(lambda t: layer(t)[0], Tensor(x))


def test_pool_layers_take_unbatched_inputs(rng):
    x5 = Tensor(arr(rng, 2, 3, 4, 5, 6).astype(np.float32))
    x3 = Tensor(arr(rng, 2, 3, 8).astype(np.float32))
    for layer, batched in ((nn.MaxPool3d(2, 2), x5), (nn.AvgPool3d(2, 1, "same"), x5),
                           (nn.MaxPool1d(3, 2), x3), (nn.AvgPool1d(3, 2, "pad", 1), x3),
                           (nn.AdaptiveAvgPool3d(2), x5)):
        np.testing.assert_array_equal(layer(batched[0]).asnumpy(), layer(batched).asnumpy()[0])


def test_avg_pool1d_keeps_mindsporess_short_input_shortcut():
    x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 6))
    out = nn.AvgPool1d(4, 3, "same")(x)  # 6 - 4 < 3: the mean of the first four
    np.testing.assert_allclose(out.asnumpy(), [[[1.5], [7.5]]])


def test_pool_layer_reprs_as_mindspore():
    assert repr(nn.MaxPool1d(3, 2)) == "MaxPool1d(kernel_size=(1, 3), stride=(1, 2), " \
                                       "pad_mode=VALID)"
    assert repr(nn.MaxPool1d(3, 2, "pad")) == "MaxPool1d(kernel_size=(1, 1, 3), " \
                                              "stride=(1, 1, 2), pad_mode=PAD)"
    assert repr(nn.AvgPool1d(3, 2, "pad")) == "AvgPool1d(kernel_size=3, stride=2, pad_mode=PAD)"
    assert repr(nn.MaxPool3d((1, 2, 3), 2, "same")) == \
        "MaxPool3d(kernel_size=(1, 2, 3), stride=2, pad_mode=SAME)"
    assert repr(nn.AvgPool3d()) == "AvgPool3d(kernel_size=1, stride=1, pad_mode=VALID)"


@pytest.mark.parametrize("kw", [dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=(2, 3, 2), stride=(1, 2, 1), padding=(1, 1, 0),
                                     dilation=(2, 1, 1), ceil_mode=True)])
def test_max_pool3d_matches_torch(torch, kw):
    from nn_gradcheck import torch_compare

    torch_compare(torch, [(2, 3, 6, 7, 8)], lambda t: ops.max_pool3d(t, **kw),
                  lambda t: torch.nn.functional.max_pool3d(t, **kw))


@pytest.mark.parametrize("kw", [dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=(2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0),
                                     ceil_mode=True, count_include_pad=False)])
def test_avg_pool3d_matches_torch(torch, kw):
    from nn_gradcheck import torch_compare

    torch_compare(torch, [(2, 3, 6, 7, 8)], lambda t: ops.avg_pool3d(t, **kw),
                  lambda t: torch.nn.functional.avg_pool3d(t, **kw))


def test_one_d_and_adaptive_pools_match_torch(torch):
    from nn_gradcheck import torch_compare

    F = torch.nn.functional
    torch_compare(torch, [(2, 3, 11)], lambda t: ops.avg_pool1d(t, 3, 2, 1, True, False),
                  lambda t: F.avg_pool1d(t, 3, 2, 1, True, False))
    torch_compare(torch, [(2, 3, 11)], lambda t: nn.MaxPool1d(3, 2, "pad", 1, 2)(t),
                  lambda t: F.max_pool1d(t, 3, 2, 1, 2))
    torch_compare(torch, [(2, 3, 7, 5, 6)], lambda t: ops.adaptive_avg_pool3d(t, (3, 2, 4)),
                  lambda t: F.adaptive_avg_pool3d(t, (3, 2, 4)))
    torch_compare(torch, [(2, 3, 7, 5, 6)], lambda t: ops.adaptive_max_pool3d(t, (3, 2, 4)),
                  lambda t: F.adaptive_max_pool3d(t, (3, 2, 4)))
    torch_compare(torch, [(2, 3, 12)], lambda t: ops.adaptive_avg_pool1d(t, 4),
                  lambda t: F.adaptive_avg_pool1d(t, 4), dtype=np.float32, atol=1e-6)
    torch_compare(torch, [(2, 3, 12)], lambda t: ops.adaptive_max_pool1d(t, 4),
                  lambda t: F.adaptive_max_pool1d(t, 4), dtype=np.float32, atol=1e-6)


def test_pool_kernels_check_3d_calls_before_any_loop():
    from cellgrad_nn._kernels import pool as P

    with pytest.raises(ValueError, match=r"max_pool_forward: the input and output must be 5-D"):
        P.max_pool_forward(np.zeros((1, 2, 4, 4), np.float32), np.zeros((1, 2, 2, 2),
                                                                         np.float32),
                           np.zeros((1, 2, 2, 2), np.int64), (2, 2, 2), (2, 2, 2), (1, 1, 1),
                           (0, 0, 0))
    with pytest.raises(ValueError, match=r"avg_pool_forward: 'divisor' must have shape"):
        P.avg_pool_forward(np.zeros((1, 2, 4, 4, 4)), np.zeros((1, 2, 2, 2, 2)),
                           np.ones((2, 2)), (2, 2, 2), (2, 2, 2), (0, 0, 0))


F32 = np.float32


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.max_pool3d(Tensor(np.zeros((4, 4), F32)), 2),
     ValueError, r"For 'max_pool3d', the input must be 4-D \(C, D, H, W\) or 5-D \(N, C, D, H, "
                 r"W\), got Tensor\(shape=\(4, 4\)"),
    (lambda: ops.max_pool3d(Tensor(np.zeros((1, 1, 4, 4, 4), F32)), 2, 2, 2),
     ValueError, r"For 'max_pool3d', 'padding' must be at most half the \(dilated\) kernel"),
    (lambda: ops.avg_pool3d(Tensor(np.zeros((1, 1, 4, 4, 4), F32)), (2, 2)),
     TypeError, r"For 'avg_pool3d', 'kernel_size' must be an int or a tuple of 3 ints, got "
                r"\(2, 2\)"),
    (lambda: ops.avg_pool3d(Tensor(np.zeros((1, 1, 2, 4, 4), F32)), 3),
     ValueError, r"For 'avg_pool3d', the kernel \(extent 3 with dilation\) is larger than the "
                 r"padded input \(2\)"),
    (lambda: ops.adaptive_avg_pool1d(Tensor(np.zeros((1, 2, 7), F32)), 3),
     ValueError, r"For adaptive_avg_pool1d input's last dimension must be greater or equal to "
                 r"and divisible by output size 3, but got 7"),
    (lambda: ops.adaptive_max_pool1d(Tensor(np.zeros((1, 2, 6))), 3),
     TypeError, r"For adaptive_max_pool1d, the input dtype must be float16 or float32, but got "
                r"Float64"),
    (lambda: ops.adaptive_avg_pool3d(Tensor(np.zeros((1, 2, 6, 6, 6), F32)), (2, 0, 1)),
     TypeError, r"For 'adaptive_avg_pool3d', 'output_size' must be a positive int or a tuple of "
                r"3 positive ints or None, got \(2, 0, 1\)"),
    (lambda: nn.MaxPool1d(3, 2, "valid", padding=1), ValueError,
     r"For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can "
     r"not be set"),
    (lambda: nn.MaxPool3d(2, 2, "valid", return_indices=True), ValueError,
     r"For MaxPool3d, the pad_mode must be 'pad' when dilation is not 1 or return_indices"),
    (lambda: nn.MaxPool1d(3)(Tensor(np.zeros((1, 2, 3, 4), F32))), ValueError,
     r"For 'MaxPool1d', the input must be 2-D or 3-D \(N, C, L\) or \(C, L\), but got shape "
     r"\(1, 2, 3, 4\)"),
    (lambda: nn.AvgPool3d(2, pad_mode="full"), ValueError,
     r"For 'AvgPool3d', 'pad_mode' must be one of \['VALID', 'SAME', 'PAD'\], but got 'full'"),
    (lambda: ops.AvgPool3D(2, 2, "valid", 1), ValueError,
     r"For 'AvgPool3D', 'pad' must be 0 when 'pad_mode' is not 'pad', got 1"),
    (lambda: ops.MaxPool3D(2, 2, "same", ceil_mode=True), ValueError,
     r"For 'MaxPool3D', 'pad_list' must be 0 and 'ceil_mode' None when 'pad_mode' is not"),
    (lambda: nn.AvgPool3d(2, divisor_override=0), ValueError,
     r"For 'AvgPool3d', the 'divisor_override' must be > 0, but got 0"),
])
def test_bad_input_names_the_op_the_argument_and_what_was_seen(call, error, message):
    with pytest.raises(error, match=message):
        call()
