"""ops.DeformableOffsets / ops.deformable_conv2d: values against a plain-loop bilinear reference,
float64 gradchecks in x, weight, offsets (and mask) and bias, argument errors."""

import numpy as np
import pytest

import cellgrad as ms
from cellgrad import Tensor, ops
from cellgrad.testing import gradcheck

GRADCHECKED = {"deformable_offsets"}  # test_nn_op_registry: gradchecked below


def _bilinear(img, py, px):
    h, w = img.shape
    y0, x0 = int(np.floor(py)), int(np.floor(px))
    fy, fx = py - y0, px - x0
    total = 0.0
    for yy, xx, wt in ((y0, x0, (1 - fy) * (1 - fx)), (y0, x0 + 1, (1 - fy) * fx),
                       (y0 + 1, x0, fy * (1 - fx)), (y0 + 1, x0 + 1, fy * fx)):
        if 0 <= yy < h and 0 <= xx < w:
            total += wt * img[yy, xx]
    return total


def _ref_offsets(x, off, strides, pads, ksize, dilations, groups):
    """Deformable ConvNets v2 sampling, one tap at a time: channel layout (offset_x, offset_y,
    mask) x (deformable group, kh, kw), taps laid out as (H_out * kh, W_out * kw)."""
    n, c, _, _ = x.shape
    kh, kw = ksize
    ho, wo = off.shape[2:]
    o = off.reshape(n, 3, groups, kh, kw, ho, wo)
    out = np.zeros((n, c, ho * kh, wo * kw))
    for b in range(n):
        for ch in range(c):
            g = ch // (c // groups)
            for i in range(kh):
                for j in range(kw):
                    for a in range(ho):
                        for e in range(wo):
                            dx, dy, m = o[b, :, g, i, j, a, e]
                            py = a * strides[2] - pads[0] + i * dilations[2] + dy
                            px = e * strides[3] - pads[2] + j * dilations[3] + dx
                            out[b, ch, a * kh + i, e * kw + j] = _bilinear(x[b, ch], py, px) * m
    return out


def _ref_conv(x, weight, off, ksize, strides, pads, bias, dilations, groups, dgroups):
    cols = _ref_offsets(x, off, strides, pads, ksize, dilations, dgroups)
    n, c = x.shape[:2]
    kh, kw = ksize
    ho, wo = off.shape[2:]
    o = weight.shape[0]
    cols = cols.reshape(n, groups, c // groups, ho, kh, wo, kw)
    w = weight.reshape(groups, o // groups, c // groups, kh, kw)
    out = np.einsum("ngcaibj,gocij->ngoab", cols, w).reshape(n, o, ho, wo)
    return out if bias is None else out + bias[None, :, None, None]


CASES = [  # (x shape, kernel, strides, pads, dilations, deformable groups)
    ((1, 2, 5, 6), (2, 3), (1, 1, 1, 1), (0, 0, 0, 0), (1, 1, 1, 1), 1),
    ((2, 4, 6, 7), (3, 2), (1, 1, 2, 1), (1, 0, 2, 1), (1, 1, 1, 2), 2),
    ((1, 3, 4, 4), (1, 1), (1, 1, 1, 2), (1, 1, 0, 1), (1, 1, 1, 1), 3),
]


def _data(shape, ksize, strides, pads, dilations, dgroups, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    n, _, h, w = shape
    ho = (h + pads[0] + pads[1] - (ksize[0] - 1) * dilations[2] - 1) // strides[2] + 1
    wo = (w + pads[2] + pads[3] - (ksize[1] - 1) * dilations[3] - 1) // strides[3] + 1
    x = rng.standard_normal(shape).astype(dtype)
    off = (rng.standard_normal((n, 3 * dgroups * ksize[0] * ksize[1], ho, wo)) * 1.5)
    return x, off.astype(dtype)


@pytest.mark.parametrize("shape,ksize,strides,pads,dilations,dgroups", CASES)
def test_offsets_match_loop_reference(shape, ksize, strides, pads, dilations, dgroups):
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups)
    prim = ops.DeformableOffsets(strides, pads, ksize, dilations, "NCHW", dgroups)
    got = prim(Tensor(x.astype(np.float32)), Tensor(off.astype(np.float32)))
    assert got.dtype == ms.float32
    want = _ref_offsets(x, off, strides, pads, ksize, dilations, dgroups)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want, atol=2e-5, rtol=1e-5)


@pytest.mark.parametrize("groups", [1, 2])
def test_deformable_conv2d_matches_reference(groups):
    shape, ksize, strides, pads, dilations, dgroups = CASES[1]
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups, seed=3)
    rng = np.random.default_rng(4)
    weight = rng.standard_normal((6, 4 // groups, *ksize))
    bias = rng.standard_normal(6)
    got = ops.deformable_conv2d(Tensor(x), Tensor(weight), Tensor(off), ksize, strides, pads,
                                Tensor(bias), dilations, groups, dgroups)
    want = _ref_conv(x, weight, off, ksize, strides, pads, bias, dilations, groups, dgroups)
    assert got.dtype == ms.float64 and got.shape == want.shape
    np.testing.assert_allclose(got.asnumpy(), want, atol=1e-10)
    no_bias = ops.deformable_conv2d(Tensor(x), Tensor(weight), Tensor(off), ksize, strides,
                                    pads, None, dilations, groups, dgroups)
    np.testing.assert_allclose(no_bias.asnumpy(), want - bias[None, :, None, None], atol=1e-10)


def test_docstring_example_shape():
    x = Tensor(np.ones((4, 3, 10, 10)), ms.float32)
    weight = Tensor(np.ones((5, 3, 3, 3)), ms.float32)
    offsets = Tensor(np.ones((4, 27, 8, 8)), ms.float32)
    out = ops.deformable_conv2d(x, weight, offsets, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0))
    assert out.shape == (4, 5, 8, 8) and out.dtype == ms.float32
    assert ops.functional.deformable_conv2d is ops.deformable_conv2d
    assert ops.operations.DeformableOffsets is ops.DeformableOffsets


@pytest.mark.parametrize("case", CASES[:2])
def test_offsets_gradcheck(case):
    shape, ksize, strides, pads, dilations, dgroups = case
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups, seed=5)
    prim = ops.DeformableOffsets(strides, pads, ksize, dilations, "NCHW", dgroups)
    assert gradcheck(lambda a, b: prim(a, b), Tensor(x), Tensor(off))


def test_deformable_conv2d_gradcheck():
    shape, ksize, strides, pads, dilations, dgroups = (1, 4, 4, 5), (2, 2), (1, 1, 1, 2), \
        (1, 0, 1, 1), (1, 1, 1, 1), 2
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups, seed=6)
    rng = np.random.default_rng(7)
    weight, bias = rng.standard_normal((4, 2, 2, 2)), rng.standard_normal(4)

    def f(x, w, o, b):
        return ops.deformable_conv2d(x, w, o, ksize, strides, pads, b, dilations, 2, dgroups)
    assert gradcheck(f, Tensor(x), Tensor(weight), Tensor(off), Tensor(bias))


def test_mask_gradient_is_the_unmasked_sample():
    shape, ksize, strides, pads, dilations, dgroups = CASES[0]
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups, seed=8)
    prim = ops.DeformableOffsets(strides, pads, ksize, dilations)
    g = ms.grad(lambda o: prim(Tensor(x), o).sum())(Tensor(off)).asnumpy()
    unit = off.copy()
    unit[:, 12:] = 1.0
    samples = _ref_offsets(x, unit, strides, pads, ksize, dilations, dgroups)
    want = samples.reshape(1, 2, 4, 2, 4, 3).transpose(0, 1, 3, 5, 2, 4).sum(1)
    np.testing.assert_allclose(g[:, 12:], want.reshape(1, 6, 4, 4), atol=1e-10)


@pytest.mark.parametrize("kwargs,error,message", [
    (dict(strides=(1, 1)), ValueError, "the 'strides size' must be int and must = 4"),
    (dict(strides=(2, 1, 1, 1)), ValueError, "The N and C dimensions of 'strides'"),
    (dict(dilations=(1, 2, 1, 1)), ValueError, "The N and C dimensions of 'dilations'"),
    (dict(pads=(0, 0)), ValueError, "the 'pads size' must be int and must = 4"),
    (dict(ksize=(2, 2, 2)), ValueError, "the 'kernel_size size' must be int and must = 2"),
    (dict(strides=[1, 1, 1, 1]), TypeError, "the type of 'strides' should be 'tuple'"),
    (dict(deformable_groups=0), ValueError, "'deformable_groups' must be int and must > 0"),
    (dict(modulated=False), ValueError, "The modulated must be set to True."),
    (dict(modulated=1), TypeError, "the 'modulated' must be a bool, but got int."),
    (dict(data_format="abc"), ValueError, "the 'data_format' must be str"),
])
def test_constructor_errors(kwargs, error, message):
    args = dict(strides=(1, 1, 1, 1), pads=(0, 0, 0, 0), ksize=(2, 2))
    args.update(kwargs)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        ops.DeformableOffsets(**args)


def test_call_errors():
    x = Tensor(np.ones((1, 2, 5, 5)), ms.float32)
    prim = ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))
    with pytest.raises(ValueError, match=r"'offsets' must have shape \(1, 12, 4, 4\)"):
        prim(x, Tensor(np.ones((1, 12, 3, 4)), ms.float32))
    with pytest.raises(TypeError, match="'x' and 'offsets' must have the same dtype"):
        prim(Tensor(np.ones((1, 2, 5, 5)), ms.float16), Tensor(np.ones((1, 12, 4, 4)),
                                                                ms.float32))
    with pytest.raises(ValueError, match="'C_in' of input 'x' shape must be divisible"):
        ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), deformable_groups=3)(
            x, Tensor(np.ones((1, 36, 4, 4)), ms.float32))
    with pytest.raises(ValueError, match="only 'data_format' 'NCHW'"):
        ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), data_format="NHWC")(
            x, Tensor(np.ones((1, 12, 4, 4)), ms.float32))
    with pytest.raises(TypeError, match="'x' must be a floating Tensor"):
        prim(Tensor(np.ones((1, 2, 5, 5)), ms.int32), Tensor(np.ones((1, 12, 4, 4)), ms.int32))
    with pytest.raises(ValueError, match="The modulated must be set to True"):
        ops.deformable_conv2d(x, Tensor(np.ones((3, 2, 2, 2)), ms.float32),
                              Tensor(np.ones((1, 12, 4, 4)), ms.float32), (2, 2), (1, 1, 1, 1),
                              (0, 0, 0, 0), modulated=False)


def test_offsets_grad_primitive_is_the_vjp():
    from cellgrad.ops.operations import _grad_ops as G

    shape, ksize, strides, pads, dilations, dgroups = CASES[1]
    x, off = _data(shape, ksize, strides, pads, dilations, dgroups, seed=9)
    prim = ops.DeformableOffsets(strides, pads, ksize, dilations, "NCHW", dgroups)
    dout = np.random.default_rng(10).standard_normal(prim(Tensor(x), Tensor(off)).shape)
    want = ms.grad(lambda a, b: (prim(a, b) * Tensor(dout)).sum(), (0, 1))(Tensor(x), Tensor(off))
    for fmt, perm in (("NCHW", (0, 1, 2, 3)), ("NHWC", (0, 2, 3, 1))):
        got = G.DeformableOffsetsGrad(strides, pads, ksize, dilations, fmt, dgroups)(
            *(Tensor(a.transpose(perm)) for a in (dout, x, off)))
        for g, w in zip(got, want):
            assert g.dtype == ms.float64
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy().transpose(perm), atol=1e-12)


def test_offsets_grad_primitive_mindspore_case():
    """MindSpore's tests/st/ops/cpu/test_deformable_offsets_grad.py, NCHW float32."""
    from cellgrad.ops.operations import _grad_ops as G

    op = G.DeformableOffsetsGrad((1, 1, 1, 1), (0, 0, 0, 0), (3, 3))
    gx, goff = op(Tensor(np.ones((1, 2, 3, 3), np.float32)), Tensor(np.ones((1, 2, 4, 4),
                                                                          np.float32)),
                  Tensor(np.full((1, 27, 1, 1), 0.1, np.float32)))
    row = np.array([0.9, 1.0, 1.0, 0.1])
    np.testing.assert_allclose(gx.asnumpy()[0, 1], np.outer(row, row) * 0.1, rtol=1e-5)
    np.testing.assert_allclose(goff.asnumpy().ravel(), [0] * 18 + [2.0] * 9, atol=1e-5)
    with pytest.raises(ValueError, match="'grad' \\(1, 2, H_out \\* 3, W_out \\* 3\\)"):
        op(Tensor(np.ones((1, 2, 3, 4), np.float32)), Tensor(np.ones((1, 2, 4, 4), np.float32)),
           Tensor(np.full((1, 27, 1, 1), 0.1, np.float32)))
