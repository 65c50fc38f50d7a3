"""ops-nn's Cython kernels called directly: im2col/col2im and pooling against plain numpy
references over random geometries (padding, stride, dilation, windows past the edge), in
float32 and float64, and the checks every entry point runs before its nogil loop."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellgrad_nn._kernels import im2col as K
from cellgrad_nn._kernels import pool as P


def reference_cols(x, kernel, stride, dilation, pads, out_hw):
    """Columns (C*KH*KW, N, OH*OW) from an explicitly zero-padded copy of `x`."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (dh, dw), (pt, pl), (oh, ow) = kernel, stride, dilation, pads, out_hw
    big = (pt + oh * sh + kh * dh + 1, pl + ow * sw + kw * dw + 1)
    xp = np.zeros((n, c, max(big[0], pt + h), max(big[1], pl + w)), x.dtype)
    xp[:, :, pt:pt + h, pl:pl + w] = x
    cols = np.zeros((c, kh, kw, n, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dh, i * dh + sh * oh, sh)
            cols_ = slice(j * dw, j * dw + sw * ow, sw)
            cols[:, i, j] = xp[:, :, rows, cols_][:, :, :oh, :ow].transpose(1, 0, 2, 3)
    return cols.reshape(c * kh * kw, n, oh * ow)


geometry = st.fixed_dictionaries({
    "n": st.integers(1, 3), "c": st.integers(1, 3), "h": st.integers(1, 7),
    "w": st.integers(1, 7), "kh": st.integers(1, 3), "kw": st.integers(1, 3),
    "sh": st.integers(1, 3), "sw": st.integers(1, 3), "dh": st.integers(1, 2),
    "dw": st.integers(1, 2), "pt": st.integers(0, 2), "pl": st.integers(0, 2),
    "oh": st.integers(1, 5), "ow": st.integers(1, 5),
    "dtype": st.sampled_from([np.float32, np.float64]), "seed": st.integers(0, 99)})


def _unpack(g):
    x = np.random.default_rng(g["seed"]).standard_normal(
        (g["n"], g["c"], g["h"], g["w"])).astype(g["dtype"])
    return x, (g["kh"], g["kw"]), (g["sh"], g["sw"]), (g["dh"], g["dw"]), \
        (g["pt"], g["pl"]), (g["oh"], g["ow"])


@settings(max_examples=150, deadline=None)
@given(geometry)
def test_im2col_matches_padded_reference_and_col2im_is_its_adjoint(g):
    # Output sizes are drawn freely: windows may run past any edge, where they read zeros.
    x, kernel, stride, dilation, pads, out_hw = _unpack(g)
    ref = reference_cols(x, kernel, stride, dilation, pads, out_hw)
    cols = np.full(ref.shape, np.nan, x.dtype)
    K.im2col(x, cols, kernel, stride, dilation, pads, out_hw)
    np.testing.assert_array_equal(cols, ref)
    c = np.random.default_rng(1).standard_normal(ref.shape).astype(x.dtype)
    dx = np.zeros_like(x)
    K.col2im(c, dx, kernel, stride, dilation, pads, out_hw)
    np.testing.assert_allclose((dx * x).sum(), (c * ref).sum(), rtol=1e-4, atol=1e-4)


def test_valid_unit_stride_path_matches_the_general_one():
    # (5, 5) kernel, stride 1, no padding: the fast path; pads=(0, 0) with one extra output
    # column runs past the edge and takes the general path.
    x = np.random.default_rng(0).standard_normal((4, 3, 12, 11)).astype(np.float32)
    for out_hw in ((8, 7), (8, 8)):
        cols = np.empty((75, 4, out_hw[0] * out_hw[1]), np.float32)
        K.im2col(x, cols, (5, 5), (1, 1), (1, 1), (0, 0), out_hw)
        np.testing.assert_array_equal(
            cols, reference_cols(x, (5, 5), (1, 1), (1, 1), (0, 0), out_hw))


def test_col2im_accumulates_into_dx():
    cols = np.ones((4, 1, 4), np.float64)
    dx = np.full((1, 1, 3, 3), 10.0)
    K.col2im(cols, dx, (2, 2), (1, 1), (1, 1), (0, 0), (2, 2))
    np.testing.assert_array_equal(dx[0, 0], [[11, 12, 11], [12, 14, 12], [11, 12, 11]])


def test_im2col_of_an_empty_image_is_all_padding():
    cols = np.full((4, 1, 4), 7.0, np.float32)
    K.im2col(np.zeros((1, 1, 0, 3), np.float32), cols, (2, 2), (1, 1), (1, 1), (1, 1), (2, 2))
    assert not cols.any()


def reference_max_pool(x, kernel, stride, dilation, pads, out_hw):
    n, c, h, w = x.shape
    out = np.full((n, c) + out_hw, -np.inf, x.dtype)
    arg = np.full((n, c) + out_hw, -1, np.int64)
    for oy in range(out_hw[0]):
        for ox in range(out_hw[1]):
            for i in range(kernel[0]):
                for j in range(kernel[1]):
                    iy = oy * stride[0] - pads[0] + i * dilation[0]
                    ix = ox * stride[1] - pads[1] + j * dilation[1]
                    if 0 <= iy < h and 0 <= ix < w:
                        v = x[:, :, iy, ix]
                        take = (arg[:, :, oy, ox] < 0) | (v > out[:, :, oy, ox]) | \
                            (np.isnan(v) & ~np.isnan(out[:, :, oy, ox]))
                        out[:, :, oy, ox] = np.where(take, v, out[:, :, oy, ox])
                        arg[:, :, oy, ox] = np.where(take, iy * w + ix, arg[:, :, oy, ox])
    return out, arg


@settings(max_examples=150, deadline=None)
@given(geometry, st.booleans())
def test_max_pool_forward_and_backward_against_reference(g, with_nan):
    x, kernel, stride, dilation, pads, out_hw = _unpack(g)
    x = np.round(x * 2) / 2  # ties: the first maximum in window order wins
    if with_nan:
        x.reshape(-1)[:: 3] = np.nan
    out = np.empty(x.shape[:2] + out_hw, x.dtype)
    arg = np.empty(out.shape, np.int64)
    P.max_pool_forward(x, out, arg, kernel, stride, dilation, pads)
    ref_out, ref_arg = reference_max_pool(x, kernel, stride, dilation, pads, out_hw)
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(arg, ref_arg)
    gr = np.random.default_rng(2).standard_normal(out.shape).astype(x.dtype)
    dx = np.zeros_like(x)
    n, c = x.shape[:2]
    P.max_pool_backward(gr.reshape(n, c, -1), arg.reshape(n, c, -1), dx.reshape(n, c, -1))
    ref_dx = np.zeros_like(x).reshape(n, c, -1)
    for a in range(n):
        for b in range(c):
            keep = ref_arg[a, b].ravel() >= 0
            np.add.at(ref_dx[a, b], ref_arg[a, b].ravel()[keep], gr[a, b].ravel()[keep])
    np.testing.assert_allclose(dx.reshape(n, c, -1), ref_dx, rtol=1e-6)


@settings(max_examples=100, deadline=None)
@given(geometry)
def test_avg_pool_forward_and_backward_against_reference(g):
    x, kernel, stride, _, pads, out_hw = _unpack(g)
    divisor = np.random.default_rng(3).uniform(1, 5, out_hw)
    out = np.empty(x.shape[:2] + out_hw, x.dtype)
    P.avg_pool_forward(x, out, divisor, kernel, stride, pads)
    cols = reference_cols(x, kernel, stride, (1, 1), pads, out_hw)
    n, c = x.shape[:2]
    ref = cols.reshape(c, -1, n, *out_hw).sum(axis=1).transpose(1, 0, 2, 3) / divisor
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)
    gr = np.random.default_rng(4).standard_normal(out.shape).astype(x.dtype)
    dx = np.zeros_like(x)
    P.avg_pool_backward(gr, dx, divisor, kernel, stride, pads)
    # The adjoint of the forward: <forward(x), g> == <x, backward(g)>.
    np.testing.assert_allclose((out * gr).sum(), (x * dx).sum(), rtol=1e-4, atol=1e-4)


F32 = np.float32


@pytest.mark.parametrize("call, error, message", [
    (lambda: K.im2col(np.zeros((2, 3, 4, 4), F32), np.zeros((3, 2, 9), F32), (2, 2), (1, 1),
                      (1, 1), (0, 0), (3, 3)),
     ValueError, r"im2col: 'cols' must have shape \(12, 2, 9\), got shape=\(3, 2, 9\)"),
    (lambda: K.im2col(np.zeros((2, 3, 4, 4), F32), np.zeros((12, 2, 9)), (2, 2), (1, 1),
                      (1, 1), (0, 0), (3, 3)),
     TypeError, "im2col: all arrays must share the dtype of the first"),
    (lambda: K.col2im(np.zeros((12, 2, 9), np.int32), np.zeros((2, 3, 4, 4), np.int32),
                      (2, 2), (1, 1), (1, 1), (0, 0), (3, 3)),
     TypeError, "col2im: arrays must be float32 or float64, got shape=.*int32"),
    (lambda: K.im2col(np.zeros((2, 3, 4, 4), F32), np.zeros((12, 2, 9), F32), (0, 2), (1, 1),
                      (1, 1), (0, 0), (3, 3)),
     ValueError, r"im2col: 'kernel' must be 2 positive ints, got \(0, 2\)"),
    (lambda: K.im2col(np.zeros((2, 3, 4), F32), np.zeros((12, 2, 9), F32), (2, 2), (1, 1),
                      (1, 1), (0, 0), (3, 3)),
     ValueError, r"im2col: the image must be 4-D"),
    (lambda: K.im2col(np.zeros((2, 3, 8, 4), F32)[:, :, ::2], np.zeros((12, 2, 9), F32),
                      (2, 2), (1, 1), (1, 1), (0, 0), (3, 3)),
     ValueError, "contiguous"),
    (lambda: P.max_pool_forward(np.zeros((1, 2, 4, 4), F32), np.zeros((1, 2, 2, 2), F32),
                                np.zeros((1, 2, 2, 2), np.int32), (2, 2), (2, 2), (1, 1),
                                (0, 0)),
     TypeError, "max_pool_forward: 'argmax' must be int64"),
    (lambda: P.max_pool_forward(np.zeros((1, 2, 4, 4), F32), np.zeros((1, 3, 2, 2), F32),
                                np.zeros((1, 3, 2, 2), np.int64), (2, 2), (2, 2), (1, 1),
                                (0, 0)),
     ValueError, r"max_pool_forward: the input and output must be 4-D with the same \(N, C\)"),
    (lambda: P.max_pool_backward(np.zeros((1, 2, 4), F32), np.zeros((1, 2, 3), np.int64),
                                 np.zeros((1, 2, 16), F32)),
     ValueError, r"max_pool_backward: 'argmax' must have shape \(1, 2, 4\)"),
    (lambda: P.avg_pool_forward(np.zeros((1, 2, 4, 4), F32), np.zeros((1, 2, 2, 2), F32),
                                np.ones((3, 2)), (2, 2), (2, 2), (0, 0)),
     ValueError, r"avg_pool_forward: 'divisor' must have shape \(2, 2\)"),
    (lambda: P.avg_pool_backward(np.zeros((1, 2, 2, 2), F32), np.zeros((1, 2, 4, 4), F32),
                                 np.ones((2, 2)), (2, 2), (2, -1), (0, 0)),
     ValueError, r"avg_pool_backward: 'stride' must be 2 positive ints"),
])
def test_entry_points_reject_bad_calls_before_any_loop(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_max_pool_backward_skips_positions_outside_the_plane():
    dx = np.zeros((1, 1, 4), np.float64)
    P.max_pool_backward(np.ones((1, 1, 3)), np.array([[[-1, 3, 99]]], np.int64), dx)
    np.testing.assert_array_equal(dx, [[[0, 0, 0, 1]]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tiling_2x2_max_pool_path_matches_reference(dtype):
    # Kernel 2, stride 2, no padding takes its own path; odd sizes leave a row/column out.
    x = np.round(np.random.default_rng(5).standard_normal((2, 3, 7, 9)) * 2).astype(dtype)
    x[0, 0, 0, 1] = np.nan
    x[1, 2, 4, 4:6] = -np.inf
    x[1, 2, 5, 4:6] = -np.inf
    out = np.empty((2, 3, 3, 4), dtype)
    arg = np.empty(out.shape, np.int64)
    P.max_pool_forward(x, out, arg, (2, 2), (2, 2), (1, 1), (0, 0))
    ref_out, ref_arg = reference_max_pool(x, (2, 2), (2, 2), (1, 1), (0, 0), (3, 4))
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(arg, ref_arg)
    assert np.isnan(out[0, 0, 0, 0]) and arg[0, 0, 0, 0] == 1
    assert out[1, 2, 2, 2] == -np.inf and arg[1, 2, 2, 2] == 4 * 9 + 4


@pytest.mark.parametrize("shape", [(32, 6, 28, 28), (3, 16, 10, 10), (2, 2, 5, 34), (1, 2, 9, 17),
                                   (1, 1, 2, 2), (2, 3, 6, 48)])
def test_float32_2x2_max_pool_vector_path_matches_reference(shape):
    # float32 runs 8 windows a step with AVX2 (the rest of a row read past its end, or masked
    # at the input's end); ties, signed zeros, infinities and odd widths as the scalar loop
    rng = np.random.default_rng(sum(shape))
    x = np.round(rng.standard_normal(shape) * 2).astype(np.float32)  # many ties
    x.reshape(-1)[::7] = -0.0
    x.reshape(-1)[::11] = np.inf
    x.reshape(-1)[::13] = -np.inf
    oh, ow = shape[2] // 2, shape[3] // 2
    out = np.empty(shape[:2] + (oh, ow), np.float32)
    arg = np.empty(out.shape, np.int64)
    P.max_pool_forward(x, out, arg, (2, 2), (2, 2), (1, 1), (0, 0))
    ref_out, ref_arg = reference_max_pool(x, (2, 2), (2, 2), (1, 1), (0, 0), (oh, ow))
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(arg, ref_arg)  # the first tap equal to the maximum
    # the scalar loop's bits (float64 runs it), -0.0 against +0.0 included
    out64 = np.empty(out.shape)
    P.max_pool_forward(x.astype(np.float64), out64, np.empty_like(arg), (2, 2), (2, 2), (1, 1),
                       (0, 0))
    np.testing.assert_array_equal(out.view(np.uint32), out64.astype(np.float32).view(np.uint32))


def test_float32_2x2_max_pool_a_nan_only_in_its_own_plane_and_not_past_a_row():
    x = np.random.default_rng(4).standard_normal((2, 3, 8, 19)).astype(np.float32)
    x[1, 1, 2, 5] = np.nan
    x[0, 2, :, 18] = np.nan  # the column no window covers (odd width), read past a row
    out = np.empty((2, 3, 4, 9), np.float32)
    arg = np.empty(out.shape, np.int64)
    P.max_pool_forward(x, out, arg, (2, 2), (2, 2), (1, 1), (0, 0))
    ref_out, ref_arg = reference_max_pool(x, (2, 2), (2, 2), (1, 1), (0, 0), (4, 9))
    np.testing.assert_array_equal(out, ref_out)
    np.testing.assert_array_equal(arg, ref_arg)
    assert np.isnan(out[1, 1, 1, 2]) and arg[1, 1, 1, 2] == 2 * 19 + 5
    assert np.isnan(out).sum() == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(16, 32, 100), (6, 3, 1), (1, 5, 7), (3, 0, 4)])
def test_swap_leading_regroups_with_a_bias_per_source_row(dtype, shape):
    rng = np.random.default_rng(2)
    src = rng.standard_normal(shape).astype(dtype)
    b = rng.standard_normal(shape[0]).astype(dtype)
    out = np.full((shape[1], shape[0], shape[2]), np.nan, dtype)
    K.swap_leading(src, out, b)
    np.testing.assert_array_equal(out, src.transpose(1, 0, 2) + b[None, :, None])
    K.swap_leading(src, out)
    np.testing.assert_array_equal(out, src.transpose(1, 0, 2))


def test_swap_leading_names_the_shapes_it_needs():
    src = np.zeros((4, 3, 2), F32)
    with pytest.raises(ValueError, match=r"swap_leading: src \(4, 3, 2\) needs out \(3, 4, 2\), "
                                         r"got out \(4, 3, 2\)\."):
        K.swap_leading(src, np.zeros((4, 3, 2), F32))
    with pytest.raises(ValueError, match=r"needs out \(3, 4, 2\) and a bias of 4, got out "
                                         r"\(3, 4, 2\) and a bias of 3\."):
        K.swap_leading(src, np.zeros((3, 4, 2), F32), np.zeros(3, F32))
